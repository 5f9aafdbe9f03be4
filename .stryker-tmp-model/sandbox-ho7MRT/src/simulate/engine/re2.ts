/**
 * Go regular expressions (Go's `regexp` package, RE2 syntax) through re2js, a JavaScript port of RE2/J that
 * parses and matches with RE2's own rules: the same syntax (`(?i:...)`, `[[:alpha:]]`, `\pL`, `\Q...\E`,
 * `(?s)`, `(?m)`, `(?U)`), the same refusals (`\C`, lookaround, backreferences, repeat counts over 1000)
 * with Go's error texts, and leftmost-first matching. Lookbehind, which re2js offers beyond RE2 behind a
 * flag, stays off. test/golden/regexp.json holds what Go itself answers for each vector; the tests compare.
 *
 * Only Go's replacement rules live here (`ReplaceAllString`'s loop and `Expand`'s `$name` references): they
 * differ from Java's, which re2js implements.
 *
 * Argo Events compiles user patterns with `regexp.Compile` (data filters of type string, govaluate's
 * `=~`/`!~`, Sprig's `regex*` functions: pkg/sensors/dependencies/filter.go of argoproj/argo-events).
 * Positions here are UTF-16 indexes where Go counts UTF-8 bytes; only the empty-match step of
 * `ReplaceAllString` depends on widths, and it steps by one code point in both.
 */
// @ts-nocheck

import { RE2JS, RE2JSException, type Matcher } from 're2js';
import { UnsupportedFeatureError } from './unsupported';

/** Go's compile error for `pattern` (`error parsing regexp: ...`), or undefined when Go compiles it. */
export function goRegexpCompileError(pattern: string): string | undefined {
  try {
    compileGoRegexp(pattern);
    return undefined;
  } catch (error) {
    // A pattern the simulator refuses but Go compiles (duplicate group names) is valid Go.
    if (error instanceof UnsupportedFeatureError) return undefined;
    return (error as Error).message;
  }
}

/** Go's wording of a re2js syntax error: Go always ends with the offending text, "`...`", empty included. */
function goMessage(error: RE2JSException): string {
  return error.message.endsWith('`') ? error.message : `${error.message}: \`\``;
}

const cache = new Map<string, RE2JS>();

/**
 * `regexp.Compile(pattern)`. Throws an Error with Go's message when Go refuses the pattern; that is an
 * error of the input as in Go, not a feature the simulator lacks.
 */
export function compileGoRegexp(pattern: string): RE2JS {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    // RE2 (C++, and re2js after it) rejects a group name used twice; Go's parser accepts it.
    if (error.message.includes('duplicate capture group name')) {
      throw new UnsupportedFeatureError(
        `regexp "${pattern}": a group name used twice (which Go accepts) is not supported by the simulator`,
      );
    }
    throw new Error(goMessage(error));
  }
  cache.set(pattern, compiled);
  return compiled;
}

/** Go's `regexp.MatchString(pattern, text)`: an unanchored search. */
export function goRegexpMatch(pattern: string, text: string): boolean {
  return compileGoRegexp(pattern).matcher(text).find();
}

/** Go's `Regexp.FindString`: the leftmost match, or "" when there is none. */
export function goRegexpFind(pattern: string, text: string): string {
  const matcher = compileGoRegexp(pattern).matcher(text);
  return matcher.find() ? (matcher.group() ?? '') : '';
}

/** The width in UTF-16 units of the code point at `index` (0 at the end), like `utf8.DecodeRuneInString`. */
function codePointWidth(text: string, index: number): number {
  if (index >= text.length) return 0;
  return text.codePointAt(index)! > 0xffff ? 2 : 1;
}

/**
 * Go's `Regexp.ReplaceAllString(text, template)`. Follows Go's loop (`regexp.go` `replaceAll`), which
 * differs from JavaScript's `String.replace` on empty matches: an empty match right after a match is not
 * replaced (`a*` on "baaac" gives "XbXcX" in Go, "XbXXcX" in JavaScript).
 */
export function goReplaceAll(pattern: string, text: string, template: string): string {
  const regexp = compileGoRegexp(pattern);
  const matcher = regexp.matcher(text);
  const names = regexp.namedGroups();
  let out = '';
  let lastMatchEnd = 0;
  let searchPos = 0;
  while (searchPos <= text.length) {
    if (!matcher.find(searchPos)) break;
    const start = matcher.start();
    const end = matcher.end();
    out += text.slice(lastMatchEnd, start);
    if (end > lastMatchEnd || start === 0) out += goExpand(template, matcher, names);
    lastMatchEnd = end;
    const width = codePointWidth(text, searchPos);
    if (searchPos + width > end) searchPos += width;
    else if (searchPos + 1 > end) searchPos++;
    else searchPos = end;
  }
  return out + text.slice(lastMatchEnd);
}

/**
 * Go's `Regexp.Expand`: `$1`, `${1}`, `$name`, `${name}` insert groups (the name is as long as possible:
 * `$1x` is the group named `1x`, which does not exist, so it inserts nothing); `$$` is a dollar; a `$` not
 * followed by a valid name stays as is; a group that did not participate, or does not exist, inserts "".
 */
export function goExpand(template: string, match: Matcher, names: Readonly<Record<string, number>>): string {
  let out = '';
  let rest = template;
  for (;;) {
    const dollar = rest.indexOf('$');
    if (dollar < 0) break;
    out += rest.slice(0, dollar);
    rest = rest.slice(dollar + 1);
    if (rest.startsWith('$')) {
      out += '$';
      rest = rest.slice(1);
      continue;
    }
    const reference = extractReference(rest);
    if (!reference) {
      out += '$';
      continue;
    }
    rest = reference.rest;
    out += groupText(match, names, reference.name, reference.number);
  }
  return out + rest;
}

interface Reference {
  readonly name: string;
  /** The group number, or -1 when the name is not a plain decimal number (Go's `extract`). */
  readonly number: number;
  readonly rest: string;
}

/** Go's `regexp.extract`: a leading `name` or `{name}`, names made of letters, digits and `_`. */
function extractReference(text: string): Reference | undefined {
  const braced = text.startsWith('{');
  const body = braced ? text.slice(1) : text;
  const name = /^[\p{L}\p{Nd}_]+/u.exec(body)?.[0];
  if (name === undefined) return undefined;
  let consumed = name.length;
  if (braced) {
    if (body[consumed] !== '}') return undefined;
    consumed++;
  }
  const isNumber = /^[0-9]+$/.test(name) && !(name.length > 1 && name.startsWith('0')) && name.length <= 8;
  return { name, number: isNumber ? Number(name) : -1, rest: body.slice(consumed) };
}

/** A group's text; "" for a group that did not take part or does not exist (Go's `Expand`). */
function groupText(match: Matcher, names: Readonly<Record<string, number>>, name: string, number: number): string {
  const index = number >= 0 ? number : Object.hasOwn(names, name) ? names[name] : -1;
  if (index < 0 || index > match.groupCount()) return '';
  return match.group(index) ?? '';
}
