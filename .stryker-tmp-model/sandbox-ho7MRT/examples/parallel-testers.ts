/**
 * Two testers at once: tess runs the unit and integration suites while a new agent, probe, drives the
 * end-to-end suite with a new CLI; the play moves on to the merge gate only when both are done.
 *
 *   npx tsx examples/parallel-testers.ts   # writes dist-examples/parallel-testers/
 */
// @ts-nocheck

import { App } from 'cdk8s';
import { AgentPlatform, resolveConfig, StageMachine, StageMachineBuilder } from '../constructs';

export function buildApp(): App {
  const app = new App({ outdir: 'dist-examples/parallel-testers' });
  const config = resolveConfig({
    file: {
      clis: { aider: { image: 'ghcr.io/acme/aider-runner:v0.9.1', provider: 'anthropic' } },
      agents: {
        probe: {
          githubApp: 'Acme-Probe',
          role: 'testing',
          cli: 'aider',
          model: 'claude-sonnet-4',
          maxTokens: 32000,
          temperature: 0.2,
          systemPrompt: 'You are Probe. Write and run end-to-end tests for the task against the preview environment.',
        },
      },
    },
  });
  const stages = StageMachineBuilder.from(StageMachine.fromConfig(config), { agents: Object.keys(config.agents) })
    .replaceWithParallel('testing', ['tess', 'probe'])
    .build();
  new AgentPlatform(app, 'platform', { config, stages });
  return app;
}

if (require.main === module) buildApp().synth();
