/**
 * A resource template's manifest read once per process: the resource-template rule needs its parse errors
 * and the spec-labels rule its objects, and parsing the same YAML twice was a sixth of a synthesis.
 */
// @ts-nocheck

import { parseAllDocuments } from 'yaml';
import { yamlBoundsProblem } from '../../io/yaml-bounds';
import { canonicalJsonWithPlaceholders, PLACEHOLDER_WORD } from './json-as-yaml';

export interface ParsedManifest {
  /** The first line of each YAML error, in document order. */
  readonly errors: readonly string[];
  /** The value of each document that parsed. */
  readonly values: readonly unknown[];
}

/** The manifest with every `{{...}}` replaced by a plain word, as Argo substitutes before parsing. */
const withoutPlaceholders = (manifest: string): string => manifest.replace(/\{\{[^{}]*\}\}/g, PLACEHOLDER_WORD);

/** Enough for every manifest of a platform; past it the oldest half is dropped so a long run stays small. */
const REMEMBERED = 256;
const parsed = new Map<string, ParsedManifest>();

/** The manifest's documents, parsed with each placeholder replaced by a plain word (a legal label value). */
export function parseResourceManifest(manifest: string): ParsedManifest {
  const known = parsed.get(manifest);
  if (known) return known;
  // A manifest inside a manifest is input like any other: measured before it is parsed (as JSON or YAML).
  const bounds = yamlBoundsProblem(manifest);
  const json = bounds === undefined ? canonicalJsonWithPlaceholders(manifest) : undefined;
  const result: ParsedManifest =
    bounds !== undefined
      ? { errors: [`line ${bounds.line}: ${bounds.message}`], values: [] }
      : json
        ? { errors: [], values: [json.value] }
        : parseYaml(withoutPlaceholders(manifest));
  if (parsed.size >= REMEMBERED) for (const key of [...parsed.keys()].slice(0, REMEMBERED / 2)) parsed.delete(key);
  parsed.set(manifest, result);
  return result;
}

function parseYaml(text: string): ParsedManifest {
  const errors: string[] = [];
  const values: unknown[] = [];
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) errors.push(...document.errors.map((error) => error.message.split('\n')[0]));
    else values.push(document.toJS());
  }
  return { errors, values };
}
