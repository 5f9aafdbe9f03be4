/**
 * The lexer of Go's text/template (`text/template/parse/lex.go`, Go 1.16+), reduced to what the
 * simulator parses: text, `{{ }}` with trim markers `{{- ` and ` -}}`, template comments (opened by `{{/*`), and inside
 * actions spaces, fields, variables, identifiers and keywords, strings, numbers, `|`, `(`, `)`, `:=`, `=`, `,`.
 *
 * Reproduced rules: a trim marker is a `-` next to the delimiter with a space (space, tab, CR or LF) on
 * its other side (`{{-3}}` is the number -3); trimming removes all such white space from the neighbouring
 * text; a field, variable or identifier must be followed by a space, `.`, `,`, `|`, `:`, `(`, `)` or `}}`
 * (so `.X-GitHub-Event` is an error: use `index`).
 */
// @ts-nocheck

import { UnsupportedFeatureError } from './unsupported';

export type ItemType =
  | 'text'
  | 'leftDelim'
  | 'rightDelim'
  | 'space'
  | 'field'
  | 'variable'
  | 'identifier'
  | 'keyword'
  | 'bool'
  | 'nil'
  | 'dot'
  | 'number'
  | 'string'
  | 'rawString'
  | 'char'
  | 'pipe'
  | 'leftParen'
  | 'rightParen'
  | 'declare'
  | 'assign'
  | 'eof';

export interface Item {
  readonly type: ItemType;
  readonly value: string;
  /** Offset in the template, for messages. */
  readonly pos: number;
}

const KEYWORDS = new Set(['block', 'break', 'continue', 'define', 'else', 'end', 'if', 'range', 'template', 'with']);

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\r' || char === '\n';
}

function isAlphaNumeric(char: string | undefined): boolean {
  return char !== undefined && (char === '_' || /^[\p{L}\p{Nd}]$/u.test(char));
}

/** Where in the template an offset is, for refusals: `template at 1:4 ("sha256sum "x" }}")`. */
export function templateContext(template: string, pos: number): string {
  const excerpt = template.slice(pos, pos + 40).split('\n')[0];
  return `template at ${templatePosition(template, pos)} (${JSON.stringify(excerpt)})`;
}

export function unsupportedInTemplate(template: string, pos: number, what: string): UnsupportedFeatureError {
  return new UnsupportedFeatureError(`${templateContext(template, pos)}: ${what} is not supported by the simulator`);
}

/** `line:column` of an offset, as Go's template errors give it. */
export function templatePosition(template: string, pos: number): string {
  const before = template.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `${line}:${column}`;
}

export class TemplateLexer {
  private pos = 0;
  private parenDepth = 0;
  private readonly items: Item[] = [];

  public constructor(private readonly input: string) {}

  public run(): Item[] {
    while (this.lexText()) {
      // each round lexes one text and one action or comment
    }
    this.items.push({ type: 'eof', value: '', pos: this.input.length });
    return this.items;
  }

  private fail(pos: number, message: string): never {
    throw new Error(`template: param:${templatePosition(this.input, pos)}: ${message}`);
  }

  private emit(type: ItemType, start: number, end: number): void {
    this.items.push({ type, value: this.input.slice(start, end), pos: start });
  }

  /** The length of a right delimiter at `at`: 2 for `}}`, 4 for a trim-marked ` -}}`, else 0. */
  private rightDelimAt(at: number): number {
    if (this.input.startsWith('}}', at)) return 2;
    if (isSpace(this.input[at]) && this.input[at + 1] === '-' && this.input.startsWith('}}', at + 2)) return 4;
    return 0;
  }

  private skipSpaces(at: number): number {
    while (isSpace(this.input[at])) at++;
    return at;
  }

  /** Text up to the next `{{`, then the action or comment; false at the end of the input. */
  private lexText(): boolean {
    const open = this.input.indexOf('{{', this.pos);
    if (open < 0) {
      if (this.pos < this.input.length) this.emit('text', this.pos, this.input.length);
      return false;
    }
    const trimLeft = this.input[open + 2] === '-' && isSpace(this.input[open + 3]);
    let textEnd = open;
    if (trimLeft) while (textEnd > this.pos && isSpace(this.input[textEnd - 1])) textEnd--;
    if (textEnd > this.pos) this.emit('text', this.pos, textEnd);
    const inside = open + 2 + (trimLeft ? 2 : 0);
    if (this.input.startsWith('/*', inside)) {
      this.lexComment(inside);
      return true;
    }
    this.items.push({ type: 'leftDelim', value: '{{', pos: open });
    this.pos = inside;
    this.parenDepth = 0;
    this.lexInsideAction();
    return true;
  }

  private lexComment(start: number): void {
    const close = this.input.indexOf('*/', start + 2);
    if (close < 0) this.fail(start, 'unclosed comment');
    const delim = this.rightDelimAt(close + 2);
    if (delim === 0) this.fail(close, 'comment ends before closing delimiter');
    this.pos = close + 2 + delim;
    if (delim === 4) this.pos = this.skipSpaces(this.pos);
  }

  private lexInsideAction(): void {
    for (;;) {
      const delim = this.rightDelimAt(this.pos);
      if (delim > 0) {
        if (this.parenDepth > 0) this.fail(this.pos, 'unclosed left paren');
        this.items.push({ type: 'rightDelim', value: '}}', pos: this.pos });
        this.pos += delim;
        if (delim === 4) this.pos = this.skipSpaces(this.pos);
        return;
      }
      if (this.pos >= this.input.length) this.fail(this.pos, 'unclosed action');
      this.lexToken();
    }
  }

  private lexToken(): void {
    const start = this.pos;
    const char = this.input[start];
    const single: Partial<Record<string, ItemType>> = { '=': 'assign', '|': 'pipe', ',': 'char' };
    if (isSpace(char)) return this.lexSpace();
    if (single[char] !== undefined) return this.emitAt(single[char]!, start, start + 1);
    if (char === ':') {
      if (this.input[start + 1] !== '=') this.fail(start, 'expected :=');
      return this.emitAt('declare', start, start + 2);
    }
    if (char === '"') return this.lexQuote();
    if (char === '`') return this.lexRawQuote();
    if (char === '$') return this.lexFieldOrVariable('variable');
    if (char === "'") throw unsupportedInTemplate(this.input, start, 'a character constant');
    if (char === '.' && !/[0-9]/.test(this.input[start + 1] ?? '')) return this.lexFieldOrVariable('field');
    if (char === '.' || char === '+' || char === '-' || /[0-9]/.test(char)) return this.lexNumber();
    if (isAlphaNumeric(char)) return this.lexIdentifier();
    if (char === '(' || char === ')') return this.lexParen(char);
    if (char <= '\x7e' && char >= ' ') return this.emitAt('char', start, start + 1);
    this.fail(start, `unrecognized character in action: ${JSON.stringify(char)}`);
  }

  private emitAt(type: ItemType, start: number, end: number): void {
    this.emit(type, start, end);
    this.pos = end;
  }

  /** A run of spaces, leaving the one that starts a ` -}}` trim marker. */
  private lexSpace(): void {
    const start = this.pos;
    while (isSpace(this.input[this.pos]) && this.rightDelimAt(this.pos) !== 4) this.pos++;
    if (this.pos > start) this.emit('space', start, this.pos);
  }

  private lexParen(char: '(' | ')'): void {
    this.parenDepth += char === '(' ? 1 : -1;
    if (this.parenDepth < 0) this.fail(this.pos, 'unexpected right paren');
    this.emitAt(char === '(' ? 'leftParen' : 'rightParen', this.pos, this.pos + 1);
  }

  private atTerminator(at: number): boolean {
    const char = this.input[at];
    return char === undefined || isSpace(char) || '.,|:()'.includes(char) || this.input.startsWith('}}', at);
  }

  private badCharacter(at: number): never {
    return this.fail(at, `bad character ${JSON.stringify(this.input[at])}`);
  }

  /** `.name`, `$name`, or a lone `.` / `$`. */
  private lexFieldOrVariable(type: 'field' | 'variable'): void {
    const start = this.pos;
    let end = start + 1;
    if (this.atTerminator(end)) return this.emitAt(type === 'field' ? 'dot' : 'variable', start, end);
    while (isAlphaNumeric(this.input[end])) end++;
    if (!this.atTerminator(end)) this.badCharacter(end);
    this.emitAt(type, start, end);
  }

  private lexIdentifier(): void {
    const start = this.pos;
    let end = start;
    while (isAlphaNumeric(this.input[end])) end++;
    if (!this.atTerminator(end)) this.badCharacter(end);
    const word = this.input.slice(start, end);
    const type: ItemType = KEYWORDS.has(word)
      ? 'keyword'
      : word === 'true' || word === 'false'
        ? 'bool'
        : word === 'nil'
          ? 'nil'
          : 'identifier';
    this.emitAt(type, start, end);
  }

  /** A number as Go's lexer delimits it; the parser decides which spellings the simulator accepts. */
  private lexNumber(): void {
    const start = this.pos;
    const refuse = (what: string): never => {
      throw unsupportedInTemplate(this.input, start, what);
    };
    const run = (at: number, chars: RegExp): number => {
      while (chars.test(this.input[at] ?? '')) at++;
      return at;
    };
    // Go's scanNumber: sign, digits, fraction, exponent, `i`; then nothing alphanumeric may follow.
    let at = /^[+-]$/.test(this.input[start]) ? start + 1 : start;
    if (this.input[at] === '0' && /^[xXoObB]$/.test(this.input[at + 1] ?? '')) refuse('a hex, octal or binary number');
    at = run(at, /^[0-9_]$/);
    if (this.input[at] === '.') at = run(at + 1, /^[0-9_]$/);
    if (/^[eE]$/.test(this.input[at] ?? '')) at = run(/^[+-]$/.test(this.input[at + 1] ?? '') ? at + 2 : at + 1, /^[0-9_]$/);
    if (this.input[at] === 'i') refuse('an imaginary number');
    if (isAlphaNumeric(this.input[at])) this.fail(start, `bad number syntax: ${JSON.stringify(this.input.slice(start, at + 1))}`);
    if (/^[+-]$/.test(this.input[at] ?? '')) refuse('a complex number');
    this.emitAt('number', start, at);
  }

  private lexQuote(): void {
    const start = this.pos;
    let at = start + 1;
    for (;;) {
      const char = this.input[at];
      if (char === '\\') {
        const next = this.input[at + 1];
        if (next === undefined || next === '\n') this.fail(start, 'unterminated quoted string');
        at += 2;
        continue;
      }
      if (char === undefined || char === '\n') this.fail(start, 'unterminated quoted string');
      if (char === '"') break;
      at++;
    }
    this.emitAt('string', start, at + 1);
  }

  private lexRawQuote(): void {
    const close = this.input.indexOf('`', this.pos + 1);
    if (close < 0) this.fail(this.pos, 'unterminated raw quoted string');
    this.emitAt('rawString', this.pos, close + 1);
  }
}
