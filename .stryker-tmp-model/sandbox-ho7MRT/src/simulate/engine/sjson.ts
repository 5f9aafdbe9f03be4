/**
 * sjson's `Set` (tidwall/sjson v1.2.5, which Argo Events v1.9+ pins) on parsed JSON, as Argo Events writes
 * trigger parameters to `dest` (argo-events `pkg/sensors/triggers/params.go`: `sjson.SetBytes` with the
 * value as a string, `sjson.SetRawBytes` with `useRawData` and a JSON value). Checked against the real
 * library by the goldens (`test/golden/sjson.json`, written by oracle/events).
 *
 * Reproduced from `sjson.go` (`parsePath`, `appendRawPaths`, `appendBuild`, `atoui`):
 * - components split at unescaped `.`; `\` makes the next character literal and a trailing `\` is dropped;
 *   a leading `:` forces the component to be an object key (it is never an index nor `-1`);
 * - each component is looked up with gjson: in an object by key (escapes removed; the empty component is the
 *   key ""), in an array by index, parsed from the component as written (so an escaped `\0` finds nothing);
 * - a missing value is created: in an array a digit component (the empty one counts, as index 0) pads with
 *   `null`s up to its index, or appends when the array is longer; `-1` appends; any other key is an error
 *   ("cannot set array element for non-numeric key"); a scalar or null on the way is replaced by an array
 *   when the component is digits, else by an object (so `-1` there makes the key "-1");
 * - the containers built for the rest of the path are arrays when the next component is digits or `-1`.
 *
 * Refused (UnsupportedFeatureError, each named in the vectors): paths with an unescaped `|` `#` `@` `*` `?`
 * (sjson then sets every match of a gjson query, or nothing); components starting with `!`, `[` or `{`
 * (gjson reads them as static values and multipaths, so sjson can miss an existing key and write it
 * twice); indexes above 10,000 (sjson pads with that many nulls, and wraps indexes past 2^64); a raw value
 * that is not one JSON value (sjson splices its bytes as they are).
 */
// @ts-nocheck

import { isRecord } from '../../is-record';
import { refusePath, type PathSyntax } from './path';
import { UnsupportedFeatureError } from './unsupported';

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

/** The largest array index the simulator writes. */
const MAX_INDEX = 10_000;

type Json = unknown;

/** One component of an sjson path, as `parsePath` cuts it. */
interface SjsonComponent {
  /** Escapes removed: the object key written and looked up. */
  readonly key: string;
  /** As written, escapes included: gjson parses array indexes from this text. */
  readonly raw: string;
  /** A leading `:`: never an index, never `-1`. */
  readonly force: boolean;
}

/** sjson's `parsePath`, applied until the path ends. */
function parseSjsonPath(path: string): SjsonComponent[] {
  if (path === '') throw new Error('sjson path "": path cannot be empty');
  const components: SjsonComponent[] = [];
  let rest = path;
  for (;;) {
    const force = rest.startsWith(':');
    let index = force ? 1 : 0;
    let key = '';
    let raw = '';
    for (; index < rest.length && rest[index] !== '.'; index++) {
      const char = rest[index];
      const feature = SJSON.refused[char];
      if (feature !== undefined) refusePath(SJSON, path, feature);
      raw += char;
      if (char === '\\') {
        index++;
        if (index < rest.length) {
          key += rest[index];
          raw += rest[index];
        }
        continue;
      }
      key += char;
    }
    if (['!', '[', '{'].includes(raw[0])) refusePath(SJSON, path, `a component starting with "${raw[0]}"`);
    components.push({ key, raw, force });
    if (index >= rest.length) return components;
    rest = rest.slice(index + 1);
  }
}

/** sjson's `atoui`: digits only, and the empty component counts as 0. */
function arrayIndex(path: string, component: SjsonComponent): number | undefined {
  if (component.force || !/^[0-9]*$/.test(component.key)) return undefined;
  const index = Number(component.key || '0');
  if (index > MAX_INDEX) refusePath(SJSON, path, `an array index above ${MAX_INDEX.toLocaleString('en-US')} ("${component.key}")`);
  return index;
}

function isAppend(component: SjsonComponent): boolean {
  return !component.force && component.key === '-1';
}

/** gjson's index lookup, on the component as written: digits, and within the array. */
function foundIndex(path: string, array: readonly Json[], component: SjsonComponent): number | undefined {
  if (!/^[0-9]+$/.test(component.raw)) return undefined;
  const index = arrayIndex(path, { ...component, force: false });
  return index !== undefined && index < array.length ? index : undefined;
}

/** Sets an own property, even `__proto__` (assignment would change the prototype instead). */
function setKey(record: Record<string, Json>, key: string, value: Json): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `appendBuild`: the value for a path that does not exist yet. */
function build(path: string, rest: readonly SjsonComponent[], value: Json): Json {
  if (rest.length === 0) return value;
  const [next, ...after] = rest;
  const index = arrayIndex(path, next);
  if (index !== undefined || isAppend(next)) return [...Array<null>(index ?? 0).fill(null), build(path, after, value)];
  const created: Record<string, Json> = {};
  setKey(created, next.key, build(path, after, value));
  return created;
}

/** `appendRawPaths`: sets `value` at `components` inside `container` (changed in place when it is one). */
function setInside(path: string, container: Json, components: readonly SjsonComponent[], value: Json): Json {
  const [component, ...rest] = components;
  if (Array.isArray(container)) return setInArray(path, container, component, rest, value);
  if (isRecord(container)) {
    const next = Object.hasOwn(container, component.key) ? descend(path, container[component.key], rest, value) : build(path, rest, value);
    setKey(container, component.key, next);
    return container;
  }
  return setInside(path, arrayIndex(path, component) !== undefined ? [] : {}, components, value);
}

function setInArray(path: string, array: Json[], component: SjsonComponent, rest: readonly SjsonComponent[], value: Json): Json[] {
  const found = foundIndex(path, array, component);
  if (found !== undefined) {
    array[found] = descend(path, array[found], rest, value);
    return array;
  }
  const index = arrayIndex(path, component);
  if (index === undefined && !isAppend(component))
    throw new Error(`sjson path "${path}": cannot set array element for non-numeric key '${component.key}'`);
  while (array.length < (index ?? 0)) array.push(null);
  array.push(build(path, rest, value));
  return array;
}

/** Replaces an existing value, or goes further into it. */
function descend(path: string, existing: Json, rest: readonly SjsonComponent[], value: Json): Json {
  return rest.length === 0 ? value : setInside(path, existing, rest, value);
}

/**
 * sjson's `SetBytes(json, path, value)` on parsed JSON: returns a deep copy of `target` with `value` (a
 * string, as Argo Events writes parameters, or any JSON value) written at `path`. Throws sjson's errors.
 */
export function sjsonSet(target: object, path: string, value: unknown): object {
  const components = parseSjsonPath(path);
  return setInside(path, structuredClone(target), components, structuredClone(value)) as object;
}

/**
 * sjson's `SetRawBytes(json, path, raw)`, as Argo Events calls it for a parameter with `useRawData`: `raw`
 * is JSON text, written as the value it encodes.
 */
export function sjsonSetRaw(target: object, path: string, raw: string): object {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UnsupportedFeatureError(`sjson raw value ${JSON.stringify(raw)}: a raw value that is not one JSON value is not supported`);
  }
  return sjsonSet(target, path, value);
}
