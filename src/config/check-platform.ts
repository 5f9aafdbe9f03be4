/**
 * The one check of a configuration, shared by `agent-play synth` and `agent-play config validate` so that
 * they accept exactly the same inputs: the config schema and its cross-field rules, then the platform built
 * from it, then the built manifests validated as `agent-play validate` would.
 */
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { synthesizePlatform, type ManifestFiles } from '../synth/synthesize';
import { validateSynthesized } from '../synth/validate-synthesized';
import type { ValidationReport } from '../validate/engine';
import { loadConfig, type LoadConfigOptions } from './load-config';
import { letYoungGenerationGrow } from '../young-generation';

/**
 * From this many repositories on, the platform's objects are enough for V8's young generation kept small
 * (src/young-generation.ts) to cost more than it saves: measured in CPU time, kept small was 8% faster at
 * 2,500 repositories and 11% slower at 5,000 (faster still at 1,000 and for the default platform).
 */
const LARGE_PLATFORM_REPOSITORIES = 3500;

export interface CheckedPlatform {
  readonly config: PlatformConfig;
  readonly files: ManifestFiles;
  /** Findings on the built manifests; any error means synth writes nothing. */
  readonly report: ValidationReport;
}

/**
 * Loads, builds and validates the platform.
 * @param outDir the folder the files would be written to, to name them in findings
 * @param synthesize what builds the manifests @default synthesizePlatform
 * @throws ConfigError or SynthError with one line per problem
 */
export function checkPlatform(
  options: LoadConfigOptions,
  outDir: string,
  synthesize: (config: PlatformConfig) => ManifestFiles = synthesizePlatform,
): CheckedPlatform {
  const config = loadConfig(options);
  if (config.repositories.length >= LARGE_PLATFORM_REPOSITORIES) letYoungGenerationGrow();
  const files = synthesize(config);
  return { config, files, report: validateSynthesized(files, outDir) };
}
