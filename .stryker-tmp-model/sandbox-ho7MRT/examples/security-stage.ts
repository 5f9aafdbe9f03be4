/**
 * A security stage between quality and testing: cipher reviews every backend task, and the play waits for
 * the `ready-for-security` label that cipher's bot sets before testing starts. Frontend tasks skip both
 * (`-p task-type=frontend`).
 *
 *   npx tsx examples/security-stage.ts   # writes dist-examples/security-stage/
 */
// @ts-nocheck

import { App } from 'cdk8s';
import { AgentPlatform, Releases, resolveConfig, StageMachine, StageMachineBuilder } from '../constructs';

export function buildApp(): App {
  const app = new App({ outdir: 'dist-examples/security-stage' });
  const config = resolveConfig();
  const securityTasks = { parameter: 'task-type', in: ['backend', 'api'] };
  const stages = StageMachineBuilder.from(StageMachine.fromConfig(config), { agents: Object.keys(config.agents) })
    .after('code-quality')
    .agent('security', 'cipher', { timeout: '2h', when: securityTasks })
    .gate('waiting-security-approved', Releases.labeled('ready-for-security', { by: ['cipher'] }), { when: securityTasks })
    .build();
  new AgentPlatform(app, 'platform', { config, stages });
  return app;
}

if (require.main === module) buildApp().synth();
