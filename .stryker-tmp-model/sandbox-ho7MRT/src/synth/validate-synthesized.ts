/**
 * Validation of a synthesis before it is written, with the same engine, schemas and rules as
 * `agent-play validate` on files. The objects cdk8s produced are checked as they are (they are written so
 * that YAML 1.1, which Kubernetes reads them with, and YAML 1.2 read them back unchanged: see
 * constructs/model/yaml-text.ts); YAML texts from anywhere else are read
 * the way `agent-play validate` reads files.
 */
// @ts-nocheck

import type { ValidationReport } from '../validate/engine';
import { SchemaCatalog } from '../validate/schema/schema-catalog';
import { validateManifestFiles } from '../validate/validate-texts';
import { type ManifestFiles, SynthesizedManifests } from './synthesize';

/**
 * Validates the files of a synthesis, each named in findings as it will be written (`directory/name`).
 * @param catalog @default the built-in schemas
 */
export function validateSynthesized(
  files: ManifestFiles,
  directory: string,
  catalog: SchemaCatalog = SchemaCatalog.builtIn(),
): ValidationReport {
  return validateManifestFiles(files, directory, catalog, (name) =>
    files instanceof SynthesizedManifests ? files.objects.get(name) : undefined,
  );
}
