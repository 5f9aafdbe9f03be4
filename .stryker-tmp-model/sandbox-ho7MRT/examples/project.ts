/**
 * A project: six tasks of one repository run as child plays in dependency order, two at a time. Task 4
 * waits for 2 and 3, which both wait for 1; backend tasks carry their task type to the play.
 *
 *   npx tsx examples/project.ts   # writes dist-examples/project/
 */
// @ts-nocheck

import { App } from 'cdk8s';
import { AgentPlatform, resolveConfig } from '../constructs';

export function buildApp(): App {
  const app = new App({ outdir: 'dist-examples/project' });
  const config = resolveConfig({
    file: {
      projects: [
        {
          name: 'checkout-v2',
          repository: '5dlabs/cto-play-test',
          parallelism: 2,
          tasks: [
            { id: 1, parameters: { 'task-type': 'backend' } },
            { id: 2, dependsOn: [1], parameters: { 'task-type': 'backend' } },
            { id: 3, dependsOn: [1], parameters: { 'task-type': 'frontend' } },
            { id: 4, dependsOn: [2, 3] },
            { id: 5 },
            { id: 6, dependsOn: [5] },
          ],
        },
      ],
    },
  });
  new AgentPlatform(app, 'platform', { config });
  return app;
}

if (require.main === module) buildApp().synth();
