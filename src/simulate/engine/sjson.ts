/**
 * sjson paths (tidwall/sjson v1.2, as Argo Events v1.9 writes trigger parameters to `dest`), for the
 * subset we emit:
 *
 * - supported: keys separated by `.`, `\` making the next character literal (`metadata.labels.a\.b`);
 *   on an array a component of decimal digits is an index, and `-1` appends; missing containers are
 *   created, as an array when the next component is digits or `-1`, else as an object.
 * - refused (UnsupportedFeatureError): the characters that make sjson fall back to its "complex path"
 *   code (`|`, `#`, `@`, `*`, `?`), a leading `:` (forced string key), components starting with `!`, `[`
 *   or `{` (sjson looks each component up with gjson, which reads those as static values and multipaths),
 *   empty components and a trailing `\`.
 *
 * Behaviour reproduced from `sjson.go` (`appendRawPaths`, `appendBuild`):
 * - an index past the end of an array pads it with `null`s (`[1]` set at `3` gives `[1,null,null,v]`);
 * - a non-numeric key other than `-1` on an existing array is an error ("cannot set array element for
 *   non-numeric key");
 * - an existing scalar or null in the middle of the path is replaced by a new container, an array only
 *   when the next component is digits (there `-1` makes an object with the key "-1", unlike a missing
 *   value, for which `-1` makes an array).
 */
import { refusePath, splitPath, type PathComponent, type PathSyntax } from './path';
import { isRecord } from '../../is-record';

const SJSON: PathSyntax = {
  name: 'sjson path',
  refused: {
    '|': 'the "|" pipe',
    '#': 'the "#" query',
    '@': 'the "@" modifier',
    '*': 'the "*" wildcard',
    '?': 'the "?" wildcard',
  },
};

type Json = unknown;

function parseSjsonPath(path: string): PathComponent[] {
  const components = splitPath(SJSON, path);
  for (const component of components) {
    if (component.lead === ':') refusePath(SJSON, path, 'a leading ":" (forced string key)');
    if (component.lead === '!' || component.lead === '[' || component.lead === '{')
      refusePath(SJSON, path, `a component starting with "${component.lead}"`);
  }
  return components;
}

/** sjson's `atoui`: plain decimal digits (leading zeros allowed). */
function arrayIndex(component: PathComponent): number | undefined {
  return /^[0-9]+$/.test(component.key) ? Number(component.key) : undefined;
}

function isAppend(component: PathComponent): boolean {
  return component.key === '-1';
}

/** `appendBuild`: the value for a path that does not exist yet. */
function build(rest: readonly PathComponent[], value: Json): Json {
  if (rest.length === 0) return value;
  const [next, ...after] = rest;
  const index = arrayIndex(next);
  if (index !== undefined || isAppend(next)) return [...Array<null>(index ?? 0).fill(null), build(after, value)];
  return { [next.key]: build(after, value) };
}

/** Writes `item` at `index` of `array`, padding with nulls as sjson does. */
function placeInArray(array: Json[], index: number, item: Json): void {
  while (array.length < index) array.push(null);
  array[index] = item;
}

/** `appendRawPaths` on an existing value: sets `value` at `path` inside `container`, in place. */
function setInside(path: string, container: Json, components: readonly PathComponent[], value: Json): Json {
  const [component, ...rest] = components;
  const target = Array.isArray(container) || isRecord(container) ? container : arrayIndex(component) !== undefined ? [] : {};
  if (Array.isArray(target)) {
    // sjson finds array items with gjson, which does not unescape there: `\1` would append, not replace.
    if (component.raw !== component.key) refusePath(SJSON, path, `the escaped array index "${component.raw}"`);
    const index = arrayIndex(component);
    if (index === undefined) {
      if (!isAppend(component)) throw new Error(`sjson path "${path}": cannot set array element for non-numeric key '${component.key}'`);
      target.push(build(rest, value));
      return target;
    }
    const item = index < target.length ? descend(path, target[index], rest, value) : build(rest, value);
    placeInArray(target, index, item);
    return target;
  }
  const record = target as Record<string, Json>;
  const exists = Object.hasOwn(record, component.key);
  record[component.key] = exists ? descend(path, record[component.key], rest, value) : build(rest, value);
  return record;
}

/** Replaces an existing value, or goes further into it. */
function descend(path: string, existing: Json, rest: readonly PathComponent[], value: Json): Json {
  return rest.length === 0 ? value : setInside(path, existing, rest, value);
}

/**
 * sjson's `Set(json, path, value)` on parsed JSON: returns a deep copy of `target` with `value` written at
 * `path`. `value` is stored as given (Argo writes strings, or raw JSON with `useRawData`).
 */
export function sjsonSet(target: object, path: string, value: unknown): object {
  const components = parseSjsonPath(path);
  return setInside(path, structuredClone(target), components, structuredClone(value)) as object;
}
