/**
 * Agents that run with Argo alone: every agent stage runs the agent's CLI itself in an Argo step (its image,
 * the system prompt from the agents ConfigMap, the task's workspace, the GitHub App and API key Secrets),
 * so the cluster needs Argo Workflows and Argo Events, and no CodeRun controller. Cleo reviews with Codex
 * here; rex gets more memory than the platform default.
 *
 *   npx tsx examples/direct-execution.ts   # writes dist-examples/direct-execution/
 */
// @ts-nocheck

import { App } from 'cdk8s';
import { AgentPlatform, resolveConfig } from '../constructs';

export function buildApp(): App {
  const app = new App({ outdir: 'dist-examples/direct-execution' });
  const config = resolveConfig({
    file: {
      namespace: 'agents',
      execution: 'direct',
      direct: { resources: { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '4', memory: '8Gi' } } },
      repositories: [{ name: 'octo-org/shop-api', service: 'shop-api' }],
      agents: {
        rex: { cli: 'claude', model: 'claude-sonnet-4-5-20250929', resources: { limits: { memory: '16Gi' } } },
        cleo: { cli: 'codex', model: 'gpt-5-codex' },
      },
    },
  });
  new AgentPlatform(app, 'platform', { config });
  return app;
}

if (require.main === module) buildApp().synth();
