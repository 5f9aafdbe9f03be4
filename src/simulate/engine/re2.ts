/**
 * Go regular expressions (RE2 syntax, Go's `regexp` package) run as JavaScript ones.
 *
 * Argo Events compiles user patterns with Go's `regexp` (data filters, govaluate `=~`, Sprig's `regex*`
 * functions). We translate a pattern to a JavaScript RegExp only when it stays inside a subset on which
 * both engines agree, and refuse everything else with an UnsupportedFeatureError:
 *
 * - supported: literals, `.`, `^`, `$`, groups `( )`, `(?: )`, `(?P<name> )` and `(?<name> )`,
 *   alternation, `* + ? {n} {n,} {n,m}` and their lazy forms, classes `[...]`/`[^...]` with ranges,
 *   `\d \D \w \W \s \S \b \B \A \z`, escapes `\a \f \t \n \r \v \xHH \x{H...}`, escaped punctuation, and
 *   one leading `(?i)`.
 * - refused: lookaround and backreferences (Go rejects them), other flags (`(?m)`, `(?s)`, `(?U)`, `(?i:...)`,
 *   a `(?i)` that is not leading), `\p{...}`, `\Q...\E`, `\C`, octal escapes, POSIX classes `[[:alpha:]]`,
 *   repeat counts over 1000, and anything the JavaScript engine then fails to compile.
 *
 * Why the translation is not the identity: Go's `.` excludes only `\n` (JavaScript's also excludes `\r`,
 * U+2028, U+2029), Go's `\s` is ASCII `[\t\n\f\r ]` (JavaScript's is Unicode), a `{` or `]` that does not
 * open a repeat or close a class is a literal in Go but a syntax error under JavaScript's `u` flag, and
 * `\a` does not exist in JavaScript. We always compile with `u` so that, like Go (which matches UTF-8
 * code points), `.` and classes consume whole code points. Matching is leftmost-first in both engines
 * (Go documents that it picks the match a backtracking engine would), so match positions agree.
 *
 * Assumed, not verified against Go: `(?i)` case folding. JavaScript's `iu` uses Unicode simple case
 * folding, Go folds along `unicode.SimpleFold` orbits; they agree for the letters we meet in practice. Under
 * `iu` JavaScript's `\b` also treats U+017F and U+212A as word characters, Go's `\b` does not.
 */
import { UnsupportedFeatureError } from './unsupported';

/** A translated pattern: the JavaScript source and flags (without `g`). */
interface Translation {
  readonly source: string;
  readonly flags: string;
}

const GO_SPACE_CLASS_BODY = '\\t\\n\\f\\r ';
/** Characters that must be escaped to be literal in a JavaScript `u`-mode pattern. */
const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));
/** Go's repeat count limit (`regexp/syntax`: "invalid repeat count" above 1000). */
const MAX_REPEAT = 1000;

class Translator {
  private index = 0;
  private out = '';
  private readonly names = new Set<string>();

  public constructor(private readonly pattern: string) {}

  public translate(): Translation {
    let flags = 'u';
    if (this.pattern.startsWith('(?i)')) {
      flags = 'iu';
      this.index = 4;
    }
    while (this.index < this.pattern.length) this.atom();
    return { source: this.out, flags };
  }

  private refuse(what: string): never {
    throw new UnsupportedFeatureError(`regexp "${this.pattern}": ${what} is not supported by the simulator`);
  }

  private peek(offset = 0): string {
    return this.pattern[this.index + offset] ?? '';
  }

  /** One piece of the pattern outside a class. */
  private atom(): void {
    const char = this.peek();
    switch (char) {
      case '\\':
        this.escapeOutsideClass();
        return;
      case '[':
        this.characterClass();
        return;
      case '(':
        this.groupOpen();
        return;
      case '{':
        this.braceOutsideClass();
        return;
      case '.':
        // Go's `.` is any character but `\n` (without the `s` flag, which we refuse).
        this.out += '[^\\n]';
        this.index++;
        return;
      case ']':
      case '}':
        // Literal in Go when nothing opened them; a syntax error unescaped in JavaScript `u` mode.
        this.out += `\\${char}`;
        this.index++;
        return;
      case ')':
      case '|':
      case '*':
      case '+':
      case '?':
      case '^':
      case '$':
        this.out += char;
        this.index++;
        return;
      default:
        this.literal();
    }
  }

  private literal(): void {
    const codePoint = this.pattern.codePointAt(this.index)!;
    const char = String.fromCodePoint(codePoint);
    this.out += literalOutsideClass(char);
    this.index += char.length;
  }

  private groupOpen(): void {
    if (this.peek(1) !== '?') {
      this.out += '(';
      this.index++;
      return;
    }
    const rest = this.pattern.slice(this.index);
    if (rest.startsWith('(?:')) {
      this.out += '(?:';
      this.index += 3;
      return;
    }
    const named = /^\(\?P?<([^>]*)>/.exec(rest);
    if (named && !rest.startsWith('(?<=') && !rest.startsWith('(?<!')) {
      this.namedGroup(named[1]);
      this.index += named[0].length;
      return;
    }
    if (/^\(\?<?[=!]/.test(rest)) this.refuse('lookaround (which Go rejects)');
    const flag = /^\(\?[^)]*\)?/.exec(rest)?.[0] ?? '(?';
    this.refuse(`the inline flag group "${flag}" (only one leading "(?i)" is)`);
  }

  private namedGroup(name: string): void {
    // Go accepts [A-Za-z0-9_]+; JavaScript group names cannot start with a digit.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) this.refuse(`the group name "${name}"`);
    if (this.names.has(name)) this.refuse(`the duplicate group name "${name}" (which Go rejects)`);
    this.names.add(name);
    this.out += `(?<${name}>`;
  }

  /** `{n}`, `{n,}`, `{n,m}` repeat; any other `{` is a literal in Go. */
  private braceOutsideClass(): void {
    const repeat = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.index));
    if (!repeat) {
      this.out += '\\{';
      this.index++;
      return;
    }
    const counts = [repeat[1], repeat[3]].filter((count) => count !== undefined && count !== '').map(Number);
    if (counts.some((count) => count > MAX_REPEAT)) this.refuse(`the repeat count in "${repeat[0]}" (over ${MAX_REPEAT}, which Go rejects)`);
    this.out += repeat[0];
    this.index += repeat[0].length;
  }

  private escapeOutsideClass(): void {
    const next = this.peek(1);
    const perl = perlClassOutsideClass(next);
    if (perl !== undefined) {
      this.out += perl;
      this.index += 2;
      return;
    }
    switch (next) {
      case 'b':
      case 'B':
        this.out += `\\${next}`;
        this.index += 2;
        return;
      case 'A':
        // Without the `m` flag (refused) `^` is the beginning of the text, as `\A` is.
        this.out += '^';
        this.index += 2;
        return;
      case 'z':
        this.out += '$';
        this.index += 2;
        return;
      default:
        this.out += literalOutsideClass(this.escapedCharacter());
    }
  }

  /**
   * An escape that stands for one character (`\n`, `\x41`, `\.`); consumes it and returns the character.
   * Shared by both contexts, like Go's `parseEscape`.
   */
  private escapedCharacter(): string {
    const next = this.peek(1);
    if (next === '') this.refuse('a trailing backslash (which Go rejects)');
    const simple: Record<string, string> = { a: '\x07', f: '\f', t: '\t', n: '\n', r: '\r', v: '\v' };
    if (simple[next] !== undefined) {
      this.index += 2;
      return simple[next];
    }
    if (next === 'x') return this.hexEscape();
    if (/[0-9]/.test(next)) this.refuse(`the escape "\\${next}" (a backreference or octal escape)`);
    if (next === 'p' || next === 'P') this.refuse(`the Unicode class "\\${next}"`);
    if (next === 'Q') this.refuse('\\Q...\\E quoting');
    if (/[A-Za-z]/.test(next)) this.refuse(`the escape "\\${next}"`);
    const codePoint = this.pattern.codePointAt(this.index + 1)!;
    if (codePoint >= 0x80) this.refuse(`the escape of the non-ASCII character "${String.fromCodePoint(codePoint)}" (which Go rejects)`);
    this.index += 2;
    return next;
  }

  private hexEscape(): string {
    const rest = this.pattern.slice(this.index);
    const match = /^\\x(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{2}))/.exec(rest);
    if (!match) this.refuse(`the escape "${rest.slice(0, 4)}"`);
    const codePoint = parseInt(match[1] ?? match[2], 16);
    if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) this.refuse(`the escape "${match[0]}"`);
    this.index += match[0].length;
    return String.fromCodePoint(codePoint);
  }

  /** `[...]`: rewritten item by item, each literal escaped, so JavaScript's stricter `u` mode accepts it. */
  private characterClass(): void {
    this.index++;
    let body = '';
    if (this.peek() === '^') {
      body += '^';
      this.index++;
    }
    let first = true;
    while (first || this.peek() !== ']') {
      if (this.index >= this.pattern.length) this.refuse('an unterminated character class');
      // Go: a `]` right after `[` or `[^` is a literal.
      first = false;
      body += this.classItem();
    }
    this.index++;
    this.out += `[${body}]`;
  }

  private classItem(): string {
    const rest = this.pattern.slice(this.index);
    if (rest.startsWith('[:')) this.refuse(`the POSIX class in "${rest.slice(0, 10)}"`);
    if (rest.startsWith('\\')) {
      const next = this.peek(1);
      if (next === 's') {
        this.index += 2;
        return GO_SPACE_CLASS_BODY;
      }
      if (next === 'S') this.refuse('"\\S" inside a character class');
      if (/[dDwW]/.test(next)) {
        this.index += 2;
        return `\\${next}`;
      }
    }
    const low = this.classCharacter();
    // Go (Perl mode): `a-b` is a range unless the `-` is followed by the closing `]`.
    if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
      this.index++;
      if (this.peek() === '\\' && /[dDwWsS]/.test(this.peek(1))) this.refuse('a range ending in a class escape');
      const high = this.classCharacter();
      if (high.codePointAt(0)! < low.codePointAt(0)!) this.refuse(`the reversed range "${low}-${high}" (which Go rejects)`);
      return `${literalInClass(low)}-${literalInClass(high)}`;
    }
    return literalInClass(low);
  }

  private classCharacter(): string {
    if (this.peek() === '\\') return this.escapedCharacter();
    const char = String.fromCodePoint(this.pattern.codePointAt(this.index)!);
    this.index += char.length;
    return char;
  }
}

function perlClassOutsideClass(letter: string): string | undefined {
  if (letter === 's') return `[${GO_SPACE_CLASS_BODY}]`;
  if (letter === 'S') return `[^${GO_SPACE_CLASS_BODY}]`;
  if (/^[dDwW]$/.test(letter)) return `\\${letter}`;
  return undefined;
}

function hexEscape(char: string): string {
  return `\\u{${char.codePointAt(0)!.toString(16)}}`;
}

function literalOutsideClass(char: string): string {
  if (JS_SYNTAX.has(char)) return `\\${char}`;
  if (char < ' ' || char === '\x7f') return hexEscape(char);
  return char;
}

function literalInClass(char: string): string {
  if (JS_SYNTAX.has(char) || char === '-') return `\\${char}`;
  if (char < ' ' || char === '\x7f') return hexEscape(char);
  return char;
}

const cache = new Map<string, RegExp>();

function translate(pattern: string): Translation {
  return new Translator(pattern).translate();
}

/** The JavaScript RegExp (flags `u` or `iu`, never `g`) that matches as Go's `regexp.Compile(pattern)` would. */
export function toJsRegExp(pattern: string): RegExp {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const { source, flags } = translate(pattern);
  let regexp: RegExp;
  try {
    regexp = new RegExp(source, flags);
  } catch (error) {
    throw new UnsupportedFeatureError(`regexp "${pattern}": the simulator cannot compile it (${(error as Error).message})`);
  }
  cache.set(pattern, regexp);
  return regexp;
}

/** Go's `regexp.MatchString(pattern, text)`: an unanchored search. */
export function goRegexpMatch(pattern: string, text: string): boolean {
  return toJsRegExp(pattern).test(text);
}

/** Go's `Regexp.FindString`: the leftmost match, or "" when there is none. */
export function goRegexpFind(pattern: string, text: string): string {
  return toJsRegExp(pattern).exec(text)?.[0] ?? '';
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
  const base = toJsRegExp(pattern);
  const regexp = new RegExp(base.source, `${base.flags}g`);
  let out = '';
  let lastMatchEnd = 0;
  let searchPos = 0;
  while (searchPos <= text.length) {
    regexp.lastIndex = searchPos;
    const match = regexp.exec(text);
    if (!match) break;
    const start = match.index;
    const end = start + match[0].length;
    out += text.slice(lastMatchEnd, start);
    if (end > lastMatchEnd || start === 0) out += goExpand(template, match);
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
export function goExpand(template: string, match: RegExpExecArray): string {
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
    out += groupText(match, reference.name, reference.number);
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

function groupText(match: RegExpExecArray, name: string, number: number): string {
  if (number >= 0) return number < match.length ? match[number] ?? '' : '';
  const groups = match.groups;
  if (groups && Object.prototype.hasOwnProperty.call(groups, name)) return groups[name] ?? '';
  return '';
}
