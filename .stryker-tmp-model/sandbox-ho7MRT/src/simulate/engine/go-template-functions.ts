/**
 * The template functions the simulator implements: Go's builtins `and`, `or`, `not`, `eq`, `ne`, `len`,
 * `index`, `printf`, and Sprig v3's `toJson`, `lower`, `upper`, `trim`, `trimPrefix`, `trimSuffix`,
 * `hasPrefix`, `regexMatch`, `regexFind`, `regexReplaceAll`, `default`. Any other name is refused.
 *
 * Values follow Go's types as Argo Events hands them to templates: `.Input` is gjson's `Value()` of the
 * payload, so JSON numbers are float64 (JavaScript numbers); template integer literals and `len` are Go
 * `int` (held as `bigint`); `undefined` is Go's "no value" (missing key, nil) and `null` a JSON null still
 * held in an `interface{}`. Parameters typed `string` in Go (all the Sprig string functions) accept only
 * strings: a number or a missing value is an error, as in Go.
 */
// @ts-nocheck

import { goJson, goTrimSpace, goTypeName, formatGoFloat } from './go-format';
import { goRegexpCompileError, goRegexpFind, goRegexpMatch, goReplaceAll } from './re2';
import { isRecord } from '../../is-record';
import { UnsupportedFeatureError } from './unsupported';

/** `any` is Go's `interface{}` / `reflect.Value` parameter, `string` a Go `string` parameter. */
export type ParamType = 'any' | 'string';

export interface TemplateFunction {
  readonly params: readonly ParamType[];
  /** The element type of a final variadic parameter, if any. */
  readonly variadic?: ParamType;
  readonly call: (args: unknown[]) => unknown;
}

export function isNil(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

/** text/template's `isTrue`: the zero value of each type, empty strings, lists and maps, and nil are false. */
export function truth(value: unknown): boolean {
  if (isNil(value)) return false;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  return value === true;
}

/** How `fmt` prints a scalar with `%v` (maps and lists are refused by callers). */
export function formatScalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatGoFloat(value, 'g');
  return String(value);
}

/** Go's `basicKind`: nil, maps and lists are all the "invalid" kind for comparisons. */
function basicKind(value: unknown): string {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'float';
  if (typeof value === 'string') return 'string';
  return 'invalid';
}

/** text/template's `eq` (Go 1.18+): equal basic values; nil equals only nil; other mixes are errors. */
function eq(left: unknown, ...rights: unknown[]): boolean {
  if (rights.length === 0) throw new Error('missing argument for comparison');
  const leftKind = basicKind(left);
  for (const right of rights) {
    const rightKind = basicKind(right);
    if (leftKind !== rightKind) {
      if (!isNil(left) && !isNil(right)) throw new Error(`incompatible types for comparison: ${goTypeName(left)} and ${goTypeName(right)}`);
      continue;
    }
    if (leftKind !== 'invalid') {
      if (left === right) return true;
      continue;
    }
    if (isNil(left) || isNil(right)) {
      if (isNil(left) && isNil(right)) return true;
      continue;
    }
    throw new Error(`non-comparable type ${goTypeName(right)}`);
  }
  return false;
}

/** Bytes of the UTF-8 encoding: Go's `len` of a string. */
function utf8Length(text: string): number {
  let length = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    length += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
  }
  return length;
}

function length(value: unknown): bigint {
  if (isNil(value)) throw new Error('len of nil pointer');
  if (typeof value === 'string') return BigInt(utf8Length(value));
  if (Array.isArray(value)) return BigInt(value.length);
  if (isRecord(value)) return BigInt(Object.keys(value).length);
  throw new Error(`len of type ${goTypeName(value)}`);
}

/** text/template's `index`: maps by string key (a missing key gives nil), lists by int. */
function index(item: unknown, ...keys: unknown[]): unknown {
  if (isNil(item)) throw new Error('index of untyped nil');
  let current: unknown = item;
  for (const key of keys) {
    if (isNil(current)) throw new Error('index of nil pointer');
    if (Array.isArray(current)) {
      if (isNil(key)) throw new Error('cannot index slice/array with nil');
      if (typeof key !== 'bigint') throw new Error(`cannot index slice/array with type ${goTypeName(key)}`);
      if (key < 0n || key >= BigInt(current.length)) throw new Error(`index out of range: ${key}`);
      current = current[Number(key)];
    } else if (isRecord(current)) {
      if (isNil(key)) throw new Error('value is nil; should be of type string');
      if (typeof key !== 'string') throw new Error(`value has type ${goTypeName(key)}; should be string`);
      // A missing key gives the zero `interface{}`: nil, which prints as <no value>.
      current = Object.hasOwn(current, key) ? current[key] : null;
    } else if (typeof current === 'string') {
      throw new UnsupportedFeatureError('index of a string (it gives a byte) is not supported by the simulator');
    } else {
      throw new Error(`can't index item of type ${goTypeName(current)}`);
    }
  }
  return current;
}

/** One `%s`, `%d` or `%v` argument, with Go's `%!verb(type=value)` for a mismatched verb. */
function formatArgument(argument: unknown, verb: string): string {
  if (isNil(argument)) return verb === 'v' ? '<nil>' : `%!${verb}(<nil>)`;
  if (typeof argument === 'object')
    throw new UnsupportedFeatureError('printf of a map or a list is not supported by the simulator (use toJson)');
  const fits = verb === 'v' || (verb === 's' && typeof argument === 'string') || (verb === 'd' && typeof argument === 'bigint');
  const text = formatScalar(argument);
  return fits ? text : `%!${verb}(${goTypeName(argument)}=${text})`;
}

/** `fmt.Sprintf` for the verbs `%s`, `%d`, `%v` and `%%`, without flags, widths or precisions. */
function sprintf(format: string, ...args: unknown[]): string {
  let out = '';
  let next = 0;
  for (let at = 0; at < format.length; at++) {
    if (format[at] !== '%') {
      out += format[at];
      continue;
    }
    const verb = format[++at];
    if (verb === '%') out += '%';
    else if (verb === 's' || verb === 'd' || verb === 'v')
      out += next < args.length ? formatArgument(args[next++], verb) : `%!${verb}(MISSING)`;
    else throw new UnsupportedFeatureError(`printf format "${format}": only %s, %d, %v and %% are supported by the simulator`);
  }
  if (next < args.length) {
    const extra = args
      .slice(next)
      .map((argument) => (isNil(argument) ? '<nil>' : `${goTypeName(argument)}=${formatArgument(argument, 'v')}`));
    out += `%!(EXTRA ${extra.join(', ')})`;
  }
  return out;
}

/**
 * `strings.ToLower`/`ToUpper` map each code point with Unicode's simple mapping. JavaScript applies the
 * full mapping, which differs only where it yields several code points (`ß` -> `SS`); we refuse those.
 */
function mapCase(text: string, upper: boolean): string {
  let out = '';
  for (const char of text) {
    const mapped = upper ? char.toUpperCase() : char.toLowerCase();
    if (Array.from(mapped).length !== 1)
      throw new UnsupportedFeatureError(`${upper ? 'upper' : 'lower'} of "${char}" is not supported by the simulator`);
    out += mapped;
  }
  return out;
}

/** Sprig's `empty`, which `default` uses: zero values, empty strings, lists and maps, and nil. */
function empty(value: unknown): boolean {
  return !truth(value);
}

const strings = (count: number): ParamType[] => Array<ParamType>(count).fill('string');
const text = (value: unknown): string => value as string;

/** Sprig's `regexMatch` drops the compile error: a pattern Go refuses matches nothing (`sprig/regex.go`). */
function sprigRegexMatch(pattern: string, value: string): boolean {
  if (goRegexpCompileError(pattern) !== undefined) return false;
  return goRegexpMatch(pattern, value);
}

export const TEMPLATE_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  // `and` and `or` short-circuit; the executor evaluates them itself and only uses their arity here.
  and: { params: ['any'], variadic: 'any', call: () => undefined },
  or: { params: ['any'], variadic: 'any', call: () => undefined },
  not: { params: ['any'], call: ([value]) => !truth(value) },
  eq: { params: ['any'], variadic: 'any', call: ([left, ...rights]) => eq(left, ...rights) },
  ne: { params: ['any', 'any'], call: ([left, right]) => !eq(left, right) },
  len: { params: ['any'], call: ([value]) => length(value) },
  index: { params: ['any'], variadic: 'any', call: ([item, ...keys]) => index(item, ...keys) },
  printf: { params: ['string'], variadic: 'any', call: ([format, ...args]) => sprintf(text(format), ...args) },
  toJson: { params: ['any'], call: ([value]) => goJson(value) },
  lower: { params: strings(1), call: ([value]) => mapCase(text(value), false) },
  upper: { params: strings(1), call: ([value]) => mapCase(text(value), true) },
  trim: { params: strings(1), call: ([value]) => goTrimSpace(text(value)) },
  // Sprig puts the subject last, so it can be piped: `.x | trimPrefix "a"`.
  trimPrefix: {
    params: strings(2),
    call: ([prefix, value]) => (text(value).startsWith(text(prefix)) ? text(value).slice(text(prefix).length) : text(value)),
  },
  trimSuffix: {
    params: strings(2),
    call: ([suffix, value]) =>
      text(suffix) !== '' && text(value).endsWith(text(suffix)) ? text(value).slice(0, -text(suffix).length) : text(value),
  },
  hasPrefix: { params: strings(2), call: ([prefix, value]) => text(value).startsWith(text(prefix)) },
  regexMatch: { params: strings(2), call: ([pattern, value]) => sprigRegexMatch(text(pattern), text(value)) },
  regexFind: { params: strings(2), call: ([pattern, value]) => goRegexpFind(text(pattern), text(value)) },
  regexReplaceAll: {
    params: strings(3),
    call: ([pattern, value, replacement]) => goReplaceAll(text(pattern), text(value), text(replacement)),
  },
  default: {
    params: ['any'],
    variadic: 'any',
    call: ([fallback, ...given]) => (given.length === 0 || empty(given[0]) ? fallback : given[0]),
  },
};
