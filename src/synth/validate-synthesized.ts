/**
 * Validation of a synthesis before it is written, with the same engine, schemas and rules as
 * `agent-play validate` on files. The objects cdk8s produced are checked as they are (they are written so
 * that YAML 1.1, which Kubernetes reads them with, and YAML 1.2 read them back unchanged: see
 * constructs/model/yaml-text.ts); YAML texts from anywhere else are read
 * the way `agent-play validate` reads files.
 */
import * as path from 'node:path';
import { validateObjects, type ValidationReport } from '../validate/engine';
import type { Finding, ManifestObject } from '../validate/finding';
import { manifestObject, readManifestText } from '../validate/manifest-reader';
import { LINT_RULES } from '../validate/rules';
import { SchemaCatalog } from '../validate/schema/schema-catalog';
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
  const objects: ManifestObject[] = [];
  const readingFindings: Finding[] = [];
  for (const [name, text] of files) {
    const file = path.join(directory, name);
    const synthesized = files instanceof SynthesizedManifests ? files.objects.get(name) : undefined;
    if (synthesized) {
      synthesized.forEach((document, index) => {
        const object = manifestObject(file, index, undefined, document);
        if (object) objects.push(object);
      });
    } else {
      const reading = readManifestText(text, file);
      objects.push(...reading.objects);
      readingFindings.push(...reading.findings);
    }
  }
  return validateObjects({ objects, readingFindings, catalog, rules: LINT_RULES });
}
