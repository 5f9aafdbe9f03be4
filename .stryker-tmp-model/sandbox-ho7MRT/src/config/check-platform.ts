/**
 * The one check of a configuration, shared by `agent-play synth` and `agent-play config validate` so that
 * they accept exactly the same inputs: the config schema and its cross-field rules, then the platform built
 * from it, then the built manifests validated as `agent-play validate` would.
 */
// @ts-nocheck

import type { PlatformConfig } from '../../constructs/model/config-schema';
import { synthesizePlatform, type ManifestFiles } from '../synth/synthesize';
import { validateSynthesized } from '../synth/validate-synthesized';
import type { ValidationReport } from '../validate/engine';
import { loadConfig, type LoadConfigOptions } from './load-config';

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
  const files = synthesize(config);
  return { config, files, report: validateSynthesized(files, outDir) };
}
