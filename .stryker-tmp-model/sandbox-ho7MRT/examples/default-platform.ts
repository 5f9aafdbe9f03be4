/**
 * The default platform in a few lines: the same manifests as `npm run synth`, built from TypeScript.
 *
 *   npx tsx examples/default-platform.ts   # writes dist-examples/default-platform/
 */
// @ts-nocheck

import { App } from 'cdk8s';
import { AgentPlatform, resolveConfig } from '../constructs';

export function buildApp(): App {
  const app = new App({ outdir: 'dist-examples/default-platform' });
  new AgentPlatform(app, 'platform', { config: resolveConfig() });
  return app;
}

if (require.main === module) buildApp().synth();
