/**
 * gjson paths (tidwall/gjson v1.17-v1.19, as Argo Events v1.9 reads event data in data filters, expr
 * filter fields and `dataKey`), for the subset we emit:
 *
 * - supported: keys separated by `.`; `\` makes the next character literal (`a\.b` is the key `a.b`);
 *   keys may hold `-` and other plain characters (`body.X-GitHub-Event`); on an array, a component of
 *   decimal digits is an index (`labels.0.name`), anything else does not exist.
 * - refused (UnsupportedFeatureError): wildcards `*` `?`, `#` (array length and queries), the `|` pipe,
 *   `@` modifiers, a leading `!` (static values), `[`/`{` starting a component (multipaths), a leading
 *   `..` (JSON lines), empty components and a trailing `\`.
 *
 * gjson reads the original JSON bytes; we hold parsed JSON, so `raw` is rebuilt as Go's `encoding/json`
 * writes the value (`goJson`: sorted keys, no spaces, `<>&` escaped). For GitHub events that is exact, not
 * an approximation: Argo's GitHub EventSource decodes the payload into a `map[string]interface{}`, adds
 * `X-GitHub-Event`/`X-GitHub-Delivery`, and `json.Marshal`s it again (`parseValidateRequest`), so the bytes
 * gjson sees are Go's encoding. Data filters of type string compare arrays and objects by this text.
 * Duplicate keys (gjson takes the first, JSON.parse the last) cannot occur in Go-encoded data.
 */
// @ts-nocheck

import { formatGoFloat, goJson } from './go-format';
import { refusePath, splitPath, type PathComponent, type PathSyntax } from './path';
import { isRecord } from '../../is-record';

export interface GjsonResult {
  readonly exists: boolean;
  /** The value as gjson's `Result.Value()` gives it (numbers are float64, as JavaScript numbers are). */
  readonly value: unknown;
  /** The JSON text of the value (gjson's `Result.Raw`); "" when it does not exist. */
  readonly raw: string;
}

const GJSON: PathSyntax = {
  name: 'gjson path',
  refused: {
    '*': 'the "*" wildcard',
    '?': 'the "?" wildcard',
    '#': 'the "#" query',
    '|': 'the "|" pipe',
    '@': 'the "@" modifier',
  },
};

const MISSING: GjsonResult = { exists: false, value: undefined, raw: '' };

/** Parses a gjson path, refusing what the simulator does not implement. */
export function parseGjsonPath(path: string): PathComponent[] {
  if (path.startsWith('..')) refusePath(GJSON, path, 'a leading ".." (JSON lines)');
  if (path.startsWith('!')) refusePath(GJSON, path, 'a leading "!" (static value)');
  const components = splitPath(GJSON, path);
  for (const component of components) {
    // After a `.`, gjson reads `[` and `{` as a multipath selector (`isDotPiperChar`); at the start too.
    if (component.lead === '[' || component.lead === '{') refusePath(GJSON, path, `the "${component.lead}" multipath selector`);
  }
  return components;
}

/** One step down: an object key, or an array index written as plain digits (gjson's `parseUint`). */
function child(container: unknown, component: PathComponent): { found: boolean; value?: unknown } {
  if (Array.isArray(container)) {
    // gjson does not unescape components on arrays: `\1` is not the index 1.
    if (!/^[0-9]+$/.test(component.raw)) return { found: false };
    const index = Number(component.raw);
    return index < container.length ? { found: true, value: container[index] } : { found: false };
  }
  if (isRecord(container) && Object.hasOwn(container, component.key)) {
    return { found: true, value: container[component.key] };
  }
  return { found: false };
}

/** gjson's `Get(json, path)` on parsed JSON. */
export function gjsonGet(data: unknown, path: string): GjsonResult {
  let value = data;
  for (const component of parseGjsonPath(path)) {
    const step = child(value, component);
    if (!step.found) return MISSING;
    value = step.value;
  }
  if (value === undefined) return MISSING;
  return { exists: true, value, raw: goJson(value) };
}

/**
 * gjson's `Result.String()`: strings unquoted, numbers as their integer text or `FormatFloat(f, 'f', -1)`
 * (so 1e21 is "1000000000000000000000"), `true`/`false`, null and missing as "", arrays and objects as
 * their raw JSON text.
 */
export function gjsonString(result: GjsonResult): string {
  const { value } = result;
  if (!result.exists || value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatGoFloat(value, 'f');
  if (typeof value === 'boolean') return String(value);
  return result.raw;
}
