/**
 * Validation of manifests held in memory (what `agent-play synth` is about to write), with the same engine,
 * schemas and rules as `agent-play validate` on files.
 */
// @ts-nocheck

import * as path from 'node:path';
import { validateObjects, type ValidationReport } from './engine';
import type { Finding, ManifestObject } from './finding';
import { manifestObject, readManifestText } from './manifest-reader';
import { LINT_RULES } from './rules';
import { SchemaCatalog } from './schema/schema-catalog';

/**
 * Validates YAML texts by file name, each named in findings as it will be written (`directory/name`).
 * @param catalog @default the built-in schemas
 */
export function validateManifestTexts(
  texts: ReadonlyMap<string, string>,
  directory: string,
  catalog: SchemaCatalog = SchemaCatalog.builtIn(),
): ValidationReport {
  return validateManifestFiles(texts, directory, catalog, () => undefined);
}

/**
 * As `validateManifestTexts`, but a file whose objects `parsed` gives is checked from those objects as they
 * are, not read again from its text (a synthesis holds the objects it wrote).
 */
export function validateManifestFiles(
  texts: ReadonlyMap<string, string>,
  directory: string,
  catalog: SchemaCatalog,
  parsed: (name: string) => readonly unknown[] | undefined,
): ValidationReport {
  const objects: ManifestObject[] = [];
  const readingFindings: Finding[] = [];
  for (const [name, text] of texts) {
    const file = path.join(directory, name);
    const documents = parsed(name);
    if (documents) {
      documents.forEach((document, index) => {
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
