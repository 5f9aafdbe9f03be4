import { App } from 'cdk8s';
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { AgentPlatform } from '../../constructs/platform/agent-platform';
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
    throw new SynthError([(error as Error).message]);
  }
  return synthesizeApp(app);
}
