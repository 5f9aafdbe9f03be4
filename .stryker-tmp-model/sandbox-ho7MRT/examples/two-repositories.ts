/**
 * Two repositories whose agents use different CLIs: the API team runs rex on Claude and the web team runs
 * rex on Codex (`agentClis`), cipher reviews security on Codex everywhere, from one config.
 *
 *   npx tsx examples/two-repositories.ts   # writes dist-examples/two-repositories/
 */
// @ts-nocheck

import { App } from 'cdk8s';
import { AgentPlatform, resolveConfig } from '../constructs';

export function buildApp(): App {
  const app = new App({ outdir: 'dist-examples/two-repositories' });
  const config = resolveConfig({
    file: {
      namespace: 'payments-team',
      repositories: [
        { name: 'octo-org/payments-api', service: 'payments-api', agentClis: { rex: 'claude' } },
        { name: 'octo-org/payments-web', service: 'payments-web', workingDirectory: 'app', agentClis: { rex: 'codex', tess: 'gemini' } },
      ],
      agents: { cipher: { cli: 'codex' } },
      stages: [
        { name: 'implementation', type: 'agent', agent: 'rex' },
        { name: 'waiting-pr-created', type: 'gate', release: [{ event: 'pull_request', actions: ['opened', 'reopened'] }] },
        { name: 'code-quality', type: 'agent', agent: 'cleo' },
        { name: 'security', type: 'agent', agent: 'cipher', timeout: '2h' },
        {
          name: 'waiting-ready-for-qa',
          type: 'gate',
          release: [{ event: 'pull_request', actions: ['labeled'], label: 'ready-for-qa', by: ['cleo'] }],
        },
        { name: 'testing', type: 'agent', agent: 'tess' },
        { name: 'waiting-pr-merged', type: 'gate', release: [{ event: 'pull_request', actions: ['closed'], merged: true }] },
        { name: 'completed', type: 'end' },
      ],
    },
  });
  new AgentPlatform(app, 'platform', { config });
  return app;
}

if (require.main === module) buildApp().synth();
