// @ts-nocheck
import { LONE_SURROGATE } from './text-characters';

/**
 * YAML text of plain JSON values (objects, arrays, strings, finite numbers, booleans, null), written without
 * the `yaml` package: loading it and building its document tree was a sixth of a synthesis. The layout is
 * the one `yaml`'s `stringify(value, { lineWidth: 0, aliasDuplicateObjects: false })` gives (block
 * collections, sequences indented under their key, multi-line strings as literal blocks, no folding), so the
 * committed manifests read the same. A string is quoted whenever YAML 1.1 (what Kubernetes' decoder follows)
 * or YAML 1.2 would read it as anything but that string: `on`, `yes`, `~`, `1_000`, `0o17`, `12:30`,
 * `2024-01-01`, `<<`, a leading indicator, `: ` or ` #` inside. A string holding a character that YAML 1.1
 * and 1.2 readers read differently (NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR are line breaks to Go's
 * yaml.v2, under kubectl and client-go), that a reader refuses raw (controls, DEL, C1 controls, U+FFFE/FFFF)
 * or that hides how text reads (bidirectional controls, U+FEFF) is double-quoted with that character escaped;
 * a value no UTF-8 text can hold (a lone surrogate) or JSON cannot (NaN, Infinity) is refused with its path
 * (text-characters.ts). test/yaml-text.test.ts holds it to `yaml.parse(toYamlText(x))` deep-equalling `x`
 * under both versions, and to containing none of those characters raw.
 */

/**
 * A string YAML 1.1 or 1.2 reads as something else: null, bool, int (binary, octal, 1.2's `0o`, decimal,
 * hex, sexagesimal), float (`.inf`, `.nan`, exponent, decimal, sexagesimal), timestamp, the merge key `<<`.
 * One expression, as every plain string is tested against it.
 */
const NOT_A_STRING =
  /^(?:(?:(?:~|[Nn]ull|NULL)?)|(?:(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON|N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF))|(?:[-+]?0b[0-1_]+)|(?:[-+]?0[0-7_]+)|(?:[-+]?0o[0-7]+)|(?:[-+]?[0-9][0-9_]*)|(?:[-+]?0x[0-9a-fA-F_]+)|(?:(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN))|(?:[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+)|(?:[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*)|(?:<<)|(?:[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?)|(?:[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:t|T|[ \t]+)[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?(?:[ \t]*(?:Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?))$/;

/**
 * What Go's yaml.v2 (resolve.go) also reads as a number: it drops every `_` first, then takes what Go's
 * `strconv.ParseInt(s, 0, 64)` takes (`0X1F`, `0O17`, `0B1`, with a sign), YAML's float form, or `0b`
 * followed by what `ParseInt(s, 2, 64)` takes (`0b-1`), so `0_x1f`, `0o1_7`, `1e_5` and `0b-0` are numbers to kubectl. Tested on the text without its underscores; a few strings that
 * would stay strings (`0o8`) are quoted too, which costs nothing.
 */
const GO_NUMBER = /^(?:[-+]?0[xXoObB][0-9a-fA-F]+|0b[-+][01]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
const GO_NUMBER_START = /^[-+.0-9]/;

/** A character or sequence that a plain scalar cannot hold where it stands (YAML 1.2 §7.3.3). */
const PLAIN_UNSAFE = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
/** A line that a reader would take for a directive or a document start or end. */
const DOCUMENT_MARKER = /^(%|---|\.\.\.)/m;
/** From this length of its JSON form on, a double-quoted value with line breaks is written over several lines. */
const MULTI_LINE_DOUBLE_QUOTED = 40;
/** The longest implicit key YAML allows; a longer key is written as an explicit `? key`. */
const IMPLICIT_KEY_LIMIT = 1024;
const STEP = '  ';
const BLOCK_END_NEWLINES = /(^|(?<!\n))\n+(?!\n|$)/g;
const ESCAPES: Readonly<Record<string, string>> = {
  '0000': '\\0',
  '0007': '\\a',
  '000b': '\\v',
  '001b': '\\e',
  '0085': '\\N',
  '00a0': '\\_',
  '2028': '\\L',
  '2029': '\\P',
};

/** Where a scalar is written: its indentation and whether it is a mapping key. */
interface Place {
  readonly indent: string;
  readonly key: boolean;
}

/** Thrown for a value that no YAML reader, or no Kubernetes object, reads back as itself; names where it is. */
export class YamlValueError extends TypeError {
  public constructor(
    /** Where the value is, e.g. `spec.templates[0].name`; `the value` for the whole value. */
    public readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'YamlValueError';
  }
}

/** The way down to the value being written: the objects that hold it (to find a loop) and their keys. */
interface Walk {
  readonly ancestors: Set<object>;
  readonly path: (string | number)[];
}

/**
 * The YAML document of `value`, ending in a line break.
 *
 * @throws YamlValueError naming the path of a value JSON has no form for (undefined at the top, a function, a
 *   bigint, a class instance, NaN or an infinity), of a string holding a lone surrogate, or of an object
 *   that contains itself
 */
export function toYamlText(value: unknown): string {
  return `${node(value, '', { ancestors: new Set(), path: [] })}\n`;
}

function refuse(walk: Walk, problem: string): never {
  let text = '';
  for (const part of walk.path) text += typeof part === 'number' ? `[${part}]` : text === '' ? part : `.${part}`;
  throw new YamlValueError(text === '' ? 'the value' : text, problem);
}

function node(value: unknown, indent: string, walk: Walk): string {
  if (Array.isArray(value)) return sequence(value, indent, walk);
  if (value !== null && typeof value === 'object') return mapping(value as Record<string, unknown>, indent, walk);
  return scalar(value, { indent, key: false }, walk);
}

function enter(value: object, walk: Walk): void {
  if (walk.ancestors.has(value)) refuse(walk, 'cannot write YAML of an object that contains itself');
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null)
    refuse(walk, `cannot write YAML of a ${prototype?.constructor?.name ?? 'class instance'}: plain objects only`);
  walk.ancestors.add(value);
}

function sequence(items: readonly unknown[], indent: string, walk: Walk): string {
  if (items.length === 0) return '[]';
  enter(items, walk);
  const itemIndent = indent + STEP;
  let text = '';
  for (let index = 0; index < items.length; index += 1) {
    walk.path.push(index);
    const item = node(items[index] === undefined ? null : items[index], itemIndent, walk);
    walk.path.pop();
    text += index === 0 ? `- ${item}` : `\n${indent}- ${item}`;
  }
  walk.ancestors.delete(items);
  return text;
}

function mapping(object: Record<string, unknown>, indent: string, walk: Walk): string {
  enter(object, walk);
  let text = '';
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (value === undefined) continue;
    walk.path.push(key);
    const entry = pair(key, value, indent, walk);
    walk.path.pop();
    text += text === '' ? entry : `\n${indent}${entry}`;
  }
  walk.ancestors.delete(object);
  return text === '' ? '{}' : text;
}

function pair(key: string, value: unknown, indent: string, walk: Walk): string {
  const inner = indent + STEP;
  const keyText = scalar(key, { indent: inner, key: true }, walk);
  const explicit = keyText.length > IMPLICIT_KEY_LIMIT;
  const written = node(value, inner, walk);
  const nonEmptyCollection = value !== null && typeof value === 'object' && written !== '[]' && written !== '{}';
  if (explicit) return `? ${keyText}\n${indent}: ${written}`;
  return `${keyText}:${nonEmptyCollection ? `\n${inner}` : ' '}${written}`;
}

function scalar(value: unknown, place: Place, walk: Walk): string {
  if (typeof value === 'string') return stringScalar(value, place, walk);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) refuse(walk, `${value} is not a number JSON (or a Kubernetes object) can hold`);
    return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return 'null';
  return refuse(walk, `cannot write YAML of a ${typeof value}: JSON values only`);
}

function stringScalar(value: string, place: Place, walk: Walk): string {
  if (needsEscapes(value, walk)) return doubleQuoted(value, place);
  const multiLine = value.includes('\n');
  if (place.key && multiLine) return quoted(value, place);
  if (PLAIN_UNSAFE.test(value)) return place.key || !multiLine ? quoted(value, place) : literalBlock(value, place);
  if (!place.key && multiLine) return literalBlock(value, place);
  if (DOCUMENT_MARKER.test(value)) {
    if (place.indent === '') return literalBlock(value, place);
    if (place.key && place.indent === STEP) return quoted(value, place);
  }
  const number = GO_NUMBER_START.test(value) && GO_NUMBER.test(value.replace(/_/g, ''));
  return number || NOT_A_STRING.test(value) ? quoted(value, place) : value;
}

/**
 * Any character `needsEscapes` must look at closely: most strings, scripts of several kilobytes among them,
 * hold none, which one expression finds faster than a loop. Surrogates are among them: a pair (an emoji) is
 * written as it is, a lone one refused.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const SUSPECT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ud800-\udfff\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/;

/**
 * What only a double-quoted scalar carries, as an escape: controls but tab and line feed (JSON escapes those),
 * DEL and the C1 controls, the line breaks of YAML 1.1 (NEL, U+2028, U+2029), the bidirectional controls,
 * U+FEFF, U+FFFE and U+FFFF. `RAW_ESCAPES` are those JSON.stringify leaves raw.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const ESCAPED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/;
const RAW_ESCAPES = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff\ufffe\uffff]/g;

/** Whether the string must be double-quoted for its escapes. @throws YamlValueError for a lone surrogate */
function needsEscapes(value: string, walk: Walk): boolean {
  if (!SUSPECT.test(value)) return false;
  const lone = LONE_SURROGATE.exec(value);
  if (lone) {
    const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
    refuse(walk, `holds a lone UTF-16 surrogate (U+${code} at character ${lone.index}), which no UTF-8 text, so no manifest, can hold`);
  }
  return ESCAPED.test(value);
}

/** Single quotes for a string holding `"` but no `'`, double quotes otherwise. */
function quoted(value: string, place: Place): string {
  return value.includes('"') && !value.includes("'") ? singleQuoted(value, place) : doubleQuoted(value, place);
}

function singleQuoted(value: string, place: Place): string {
  if ((place.key && value.includes('\n')) || /[ \t]\n|\n[ \t]/.test(value)) return doubleQuoted(value, place);
  const indent = place.indent || (DOCUMENT_MARKER.test(value) ? STEP : '');
  return `'${value.replace(/'/g, "''").replace(/\n+/g, `$&\n${indent}`)}'`;
}

/**
 * JSON's escapes with YAML's short forms; a long value's line breaks are written as line breaks (a blank
 * line each, as double-quoted YAML folds them), a key's stay escapes.
 */
function doubleQuoted(value: string, place: Place): string {
  const json = JSON.stringify(value).replace(RAW_ESCAPES, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const indent = place.indent || (DOCUMENT_MARKER.test(value) ? STEP : '');
  let text = '';
  let start = 0;
  for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
    if (ch === ' ' && json[i + 1] === '\\' && json[i + 2] === 'n') {
      // A space before a line break would be folded away: escape it.
      text += `${json.slice(start, i)}\\ `;
      i += 1;
      start = i;
      ch = '\\';
    }
    if (ch !== '\\') continue;
    if (json[i + 1] === 'u') {
      text += json.slice(start, i);
      const code = json.substr(i + 2, 4);
      text += ESCAPES[code] ?? (code.startsWith('00') ? `\\x${code.slice(2)}` : json.substr(i, 6));
      i += 5;
      start = i + 1;
    } else if (json[i + 1] === 'n' && !place.key && json[i + 2] !== '"' && json.length >= MULTI_LINE_DOUBLE_QUOTED) {
      text += `${json.slice(start, i)}\n\n`;
      while (json[i + 2] === '\\' && json[i + 3] === 'n' && json[i + 4] !== '"') {
        text += '\n';
        i += 2;
      }
      text += indent;
      if (json[i + 2] === ' ') text += '\\';
      i += 1;
      start = i + 1;
    } else {
      i += 1;
    }
  }
  return start ? text + json.slice(start) : json;
}

/**
 * A literal block (`|`), its chomping indicator keeping exactly the string's final line breaks and an
 * indentation indicator when its first line starts with a space or a tab; a string of blanks, or ending in a line of blanks, is
 * quoted instead.
 */
function literalBlock(original: string, place: Place): string {
  // Blanks on the last line, or only blanks and line breaks, would not survive the block's indentation.
  if (/\n[\t ]+$/.test(original) || /^[\n\t ]*$/.test(original)) return quoted(original, place);
  // A top-level block is indented too: unindented, a line that starts with a space would end it.
  const indent = place.indent || STEP;
  let endStart = original.length;
  while (endStart > 0 && '\n\t '.includes(original[endStart - 1])) endStart -= 1;
  let end = original.substring(endStart);
  const endNewline = end.indexOf('\n');
  const chomp = endNewline === -1 ? '-' : original === end || endNewline !== end.length - 1 ? '+' : '';
  let value = original;
  if (end) {
    value = value.slice(0, -end.length);
    if (end.endsWith('\n')) end = end.slice(0, -1);
    end = end.replace(BLOCK_END_NEWLINES, `$&${indent}`);
  }
  let startsWithSpace = false;
  let startEnd = 0;
  let startNewline = -1;
  for (; startEnd < value.length; startEnd += 1) {
    const ch = value[startEnd];
    if (ch === ' ') startsWithSpace = true;
    else if (ch === '\n') startNewline = startEnd;
    else break;
  }
  // Go's yaml.v2 refuses a tab where it is still finding a block's indentation: the indicator fixes it first.
  if (value[startEnd] === '\t') startsWithSpace = true;
  let start = value.substring(0, startNewline < startEnd ? startNewline + 1 : startEnd);
  if (start) {
    value = value.substring(start.length);
    start = start.replace(/\n+/g, `$&${indent}`);
  }
  const header = (startsWithSpace ? '2' : '') + chomp;
  return `|${header}\n${indent}${start}${value.replace(/\n+/g, `$&${indent}`)}${end}`;
}
