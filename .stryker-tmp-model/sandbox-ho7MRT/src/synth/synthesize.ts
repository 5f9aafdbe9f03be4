// @ts-nocheck
import { App } from 'cdk8s';
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { AgentPlatform } from '../../constructs/platform/agent-platform';
import { ProblemsError } from '../../constructs/model/problems-error';
import { synthesizeApp } from './synthesize-app';
import type { ManifestFiles } from './generated-files';
import { SynthError } from './synth-error';

export { GENERATED_HEADER, type ManifestFiles } from './generated-files';
export { SynthError } from './synth-error';
export { SynthesizedManifests, synthesizeApp } from './synthesize-app';

/**
 * Builds the platform of `config` and returns its manifests, one file per chart. Nothing is written here.
 *
 * @throws SynthError listing every construct validation problem
 */
export function synthesizePlatform(config: PlatformConfig): ManifestFiles {
  const app = new App();
  try {
    new AgentPlatform(app, 'platform', { config });
  } catch (error) {
    // A list of problems (a config, the names of what was built) stays one line each.
    throw new SynthError(error instanceof ProblemsError ? error.problems : [(error as Error).message]);
  }
  return synthesizeApp(app);
}
