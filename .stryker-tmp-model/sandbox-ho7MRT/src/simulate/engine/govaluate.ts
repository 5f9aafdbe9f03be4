/**
 * The subset of Knetic/govaluate (commit 9aa4983, the one Argo Events v1.9 pins) that expr filters use.
 * Argo binds each `fields[].name` to gjson's `Result.Value()` of `fields[].path` and requires the result to
 * be `true`.
 *
 * Supported, with govaluate's semantics:
 * - operands: bound variables (plain names, or `[any name]`), numbers (`1`, `2.5`, `.5`), string literals
 *   in `'...'` or `"..."`, `true`, `false`, parentheses;
 * - `==` `!=`: Go's `reflect.DeepEqual`, so a string never equals a number and mixed types are just unequal;
 * - `<` `<=` `>` `>=`: two numbers, or two strings (byte-wise); anything else is an error;
 * - `=~` `!~`: the left side must be a string, the right a Go regexp (see re2.ts), searched unanchored;
 * - `&&` `||` (short-circuit: `false && x` never evaluates `x`) and prefix `!`, on booleans only.
 * Precedence, loosest first: `||`, `&&`, comparisons (left to right), prefix `!`. As in govaluate, `!`
 * applies to the operand right after it: `!a == b` is `(!a) == b`.
 *
 * Lexing quirks reproduced: a string ends at the next quote of either kind, and `\` inside it makes the
 * next character literal (`'a\.b'` is the text `a.b`, so a regexp needs `\\.`); operator characters are
 * read as one run up to the next space, letter, digit, quote or parenthesis, so `a==-1` or `a&&!b` are
 * errors ("Invalid token") in govaluate as here.
 *
 * Refused (UnsupportedFeatureError): arithmetic, bitwise and unary minus operators, `in`, the ternary
 * `?` `:` and `??`, functions and `,`, struct accessors (`a.B`), hex numbers, backslashes outside strings,
 * and string literals that look like dates or times (govaluate silently turns those into time values).
 * Errors that govaluate itself reports (unbound variable, type mismatch, bad syntax) are plain Errors.
 */
// @ts-nocheck

import { compareCodePoints, formatGoFloat, GO_SPACE } from './go-format';
import { goRegexpMatch } from './re2';
import { UnsupportedFeatureError } from './unsupported';

type Token =
  | { readonly kind: 'number' | 'string' | 'bool'; readonly value: unknown; readonly text: string }
  | { readonly kind: 'variable'; readonly name: string; readonly text: string }
  | { readonly kind: 'operator' | 'open' | 'close'; readonly text: string };

type Node =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'variable'; readonly name: string }
  | { readonly kind: 'not'; readonly operand: Node }
  | { readonly kind: 'binary'; readonly operator: string; readonly left: Node; readonly right: Node };

const COMPARATORS = new Set(['==', '!=', '>', '>=', '<', '<=', '=~', '!~']);
const SUPPORTED_SYMBOLS = new Set([...COMPARATORS, '&&', '||', '!']);
/** govaluate symbols we do not implement, with what they are. */
const UNSUPPORTED_SYMBOLS: Readonly<Record<string, string>> = {
  '+': 'arithmetic',
  '-': 'arithmetic or negation',
  '*': 'arithmetic',
  '/': 'arithmetic',
  '%': 'arithmetic',
  '**': 'arithmetic',
  '&': 'bitwise operators',
  '|': 'bitwise operators',
  '^': 'bitwise operators',
  '>>': 'bitwise operators',
  '<<': 'bitwise operators',
  '~': 'bitwise operators',
  '?': 'the ternary operator',
  ':': 'the ternary operator',
  '??': 'the "??" operator',
  ',': 'function arguments and arrays',
};

const SPACE = new RegExp(`[${GO_SPACE}]`, 'u');
const DIGIT = /\p{Nd}/u;
const LETTER = /\p{L}/u;
const NAME_CHAR = /[\p{L}\p{Nd}_.]/u;
/** Strings govaluate's `tryParseTime` could read as a time (a superset, to refuse rather than guess). */
const TIME_LIKE = [/^\d{4}-\d{2}-\d{2}/, /^\d{1,2}:\d{2}(AM|PM)$/, /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) /];

class Lexer {
  private index = 0;
  public readonly tokens: Token[] = [];

  public constructor(private readonly expr: string) {}

  public run(): Token[] {
    while (this.index < this.expr.length) {
      const char = this.expr[this.index];
      if (SPACE.test(char)) this.index++;
      else if (DIGIT.test(char) || char === '.') this.number();
      else if (char === '[') this.bracketVariable();
      else if (LETTER.test(char)) this.word();
      else if (char === '"' || char === "'") this.string();
      else if (char === '(' || char === ')') this.push({ kind: char === '(' ? 'open' : 'close', text: char });
      else this.symbol();
    }
    return this.tokens;
  }

  private push(token: Token): void {
    this.tokens.push(token);
    this.index += token.text.length;
  }

  private refuse(what: string): never {
    throw new UnsupportedFeatureError(`expression "${this.expr}": ${what} is not supported by the simulator`);
  }

  private fail(what: string): never {
    throw new Error(`expression "${this.expr}": ${what}`);
  }

  /** A run of digits and dots, read with Go's `strconv.ParseFloat`. */
  private number(): void {
    const rest = this.expr.slice(this.index);
    if (/^0x/.test(rest)) this.refuse('a hex number');
    const text = /^[\p{Nd}.]+/u.exec(rest)![0];
    if (!/^([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(text)) this.fail(`Unable to parse numeric value '${text}' to float64`);
    this.push({ kind: 'number', value: Number(text), text });
  }

  /** `[name]`: a variable whose name may hold any character; `\` escapes the next one. */
  private bracketVariable(): void {
    let name = '';
    let index = this.index + 1;
    while (index < this.expr.length && this.expr[index] !== ']') {
      if (this.expr[index] === '\\') index++;
      name += this.expr[index] ?? '';
      index++;
    }
    if (index >= this.expr.length) this.fail('Unclosed parameter bracket');
    this.tokens.push({ kind: 'variable', name, text: this.expr.slice(this.index, index + 1) });
    this.index = index + 1;
  }

  private word(): void {
    let end = this.index;
    while (end < this.expr.length && NAME_CHAR.test(this.expr[end])) end++;
    const text = this.expr.slice(this.index, end);
    if (text === 'true' || text === 'false') this.push({ kind: 'bool', value: text === 'true', text });
    else if (text === 'in' || text === 'IN') this.refuse('the "in" operator');
    else if (text.includes('.')) this.refuse(`the accessor "${text}"`);
    else if (this.expr[end] === '(') this.refuse(`the function call "${text}(...)"`);
    else this.push({ kind: 'variable', name: text, text });
  }

  /** Ends at the next quote of either kind, as govaluate's `isNotQuote` does. */
  private string(): void {
    let value = '';
    let index = this.index + 1;
    while (index < this.expr.length && this.expr[index] !== '"' && this.expr[index] !== "'") {
      if (this.expr[index] === '\\') index++;
      value += this.expr[index] ?? '';
      index++;
    }
    if (index >= this.expr.length) this.fail('Unclosed string literal');
    if (TIME_LIKE.some((pattern) => pattern.test(value))) this.refuse(`the string '${value}', which govaluate would read as a time`);
    this.tokens.push({ kind: 'string', value, text: this.expr.slice(this.index, index + 1) });
    this.index = index + 1;
  }

  /** Operator characters, read as one run like govaluate's `isNotAlphanumeric`. */
  private symbol(): void {
    let end = this.index;
    while (end < this.expr.length) {
      const char = this.expr[end];
      if (SPACE.test(char) || DIGIT.test(char) || LETTER.test(char) || '()[]"\''.includes(char)) break;
      if (char === '\\') this.refuse('a backslash outside a string');
      end++;
    }
    const text = this.expr.slice(this.index, end);
    if (SUPPORTED_SYMBOLS.has(text)) this.push({ kind: 'operator', text });
    else if (UNSUPPORTED_SYMBOLS[text] !== undefined) this.refuse(`${UNSUPPORTED_SYMBOLS[text]} ("${text}")`);
    else this.fail(`Invalid token: '${text}'`);
  }
}

class Parser {
  private position = 0;

  public constructor(
    private readonly expr: string,
    private readonly tokens: readonly Token[],
  ) {}

  public parse(): Node {
    if (this.tokens.length === 0) this.fail('an empty expression has no value');
    const node = this.or();
    const extra = this.tokens[this.position];
    if (extra) this.fail(`unexpected "${extra.text}"`);
    return node;
  }

  private fail(what: string): never {
    throw new Error(`expression "${this.expr}": ${what}`);
  }

  private peekOperator(): string | undefined {
    const token = this.tokens[this.position];
    return token?.kind === 'operator' ? token.text : undefined;
  }

  private or(): Node {
    return this.leftAssociative(
      (operator) => operator === '||',
      () => this.and(),
    );
  }

  private and(): Node {
    return this.leftAssociative(
      (operator) => operator === '&&',
      () => this.comparison(),
    );
  }

  private comparison(): Node {
    return this.leftAssociative(
      (operator) => COMPARATORS.has(operator),
      () => this.prefix(),
    );
  }

  /** Operands joined by the operators of one precedence level, grouped from the left. */
  private leftAssociative(isLevelOperator: (operator: string) => boolean, operand: () => Node): Node {
    let left = operand();
    for (let operator = this.peekOperator(); operator !== undefined && isLevelOperator(operator); operator = this.peekOperator()) {
      this.position++;
      left = { kind: 'binary', operator, left, right: operand() };
    }
    return left;
  }

  private prefix(): Node {
    if (this.peekOperator() !== '!') return this.value();
    this.position++;
    return { kind: 'not', operand: this.value() };
  }

  private value(): Node {
    const token = this.tokens[this.position++];
    if (!token) this.fail('the expression ends too early');
    switch (token.kind) {
      case 'number':
      case 'string':
      case 'bool':
        return { kind: 'literal', value: token.value };
      case 'variable':
        return { kind: 'variable', name: token.name };
      case 'open': {
        const inner = this.or();
        if (this.tokens[this.position++]?.kind !== 'close') this.fail('Unbalanced parenthesis');
        return inner;
      }
      default:
        return this.fail(`unexpected "${token.text}"`);
    }
  }
}

/** `%v` of a value, for govaluate's error messages. */
function show(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'number') return formatGoFloat(value, 'g');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Go's `reflect.DeepEqual` on JSON values (float64, string, bool, nil, maps, slices). */
function deepEqual(left: unknown, right: unknown): boolean {
  if (left === undefined) left = null;
  if (right === undefined) right = null;
  if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') return left === right;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    return left.length === other.length && left.every((item, index) => deepEqual(item, other[index]));
  }
  const a = left as Record<string, unknown>;
  const b = right as Record<string, unknown>;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}

class Evaluator {
  public constructor(
    private readonly expr: string,
    private readonly variables: Record<string, unknown>,
  ) {}

  private fail(what: string): never {
    throw new Error(`expression "${this.expr}": ${what}`);
  }

  public evaluate(node: Node): unknown {
    switch (node.kind) {
      case 'literal':
        return node.value;
      case 'variable':
        return this.variable(node.name);
      case 'not': {
        const operand = this.evaluate(node.operand);
        if (typeof operand !== 'boolean') this.fail(`Value '${show(operand)}' cannot be used with the prefix '!'`);
        return !operand;
      }
      case 'binary':
        return node.operator === '&&' || node.operator === '||'
          ? this.logical(node.operator, node.left, node.right)
          : this.compare(node.operator, this.evaluate(node.left), this.evaluate(node.right));
    }
  }

  private variable(name: string): unknown {
    if (!Object.hasOwn(this.variables, name)) {
      this.fail(`no variable "${name}" is bound (govaluate: No parameter '${name}' found.)`);
    }
    const value = this.variables[name];
    if (value !== undefined && value !== null && !['string', 'number', 'boolean', 'object'].includes(typeof value)) {
      throw new UnsupportedFeatureError(`expression "${this.expr}": variable "${name}" holds a ${typeof value}, which JSON cannot`);
    }
    return value ?? null;
  }

  /** govaluate short-circuits on exactly `false` / `true`, then requires both sides to be booleans. */
  private logical(operator: '&&' | '||', leftNode: Node, rightNode: Node): boolean {
    const left = this.evaluate(leftNode);
    if (operator === '&&' && left === false) return false;
    if (operator === '||' && left === true) return true;
    const right = this.evaluate(rightNode);
    for (const side of [left, right]) {
      if (typeof side !== 'boolean')
        this.fail(`Value '${show(side)}' cannot be used with the logical operator '${operator}', it is not a bool`);
    }
    return operator === '&&' ? left === true && right === true : left === true || right === true;
  }

  private compare(operator: string, left: unknown, right: unknown): boolean {
    if (operator === '==') return deepEqual(left, right);
    if (operator === '!=') return !deepEqual(left, right);
    if (operator === '=~' || operator === '!~') {
      if (typeof left !== 'string' || typeof right !== 'string') {
        this.fail(
          `Value '${show(typeof left !== 'string' ? left : right)}' cannot be used with the comparator '${operator}', it is not a number`,
        );
      }
      return goRegexpMatch(right, left) === (operator === '=~');
    }
    let order: number;
    if (typeof left === 'number' && typeof right === 'number') order = left < right ? -1 : left > right ? 1 : left === right ? 0 : NaN;
    else if (typeof left === 'string' && typeof right === 'string') order = compareCodePoints(left, right);
    else return this.fail(`Value '${show(left)}' cannot be used with the comparator '${operator}', it is not a number`);
    switch (operator) {
      case '<':
        return order < 0;
      case '<=':
        return order <= 0;
      case '>':
        return order > 0;
      default:
        return order >= 0;
    }
  }
}

/**
 * Evaluates a govaluate expression with `variables` bound, as Argo Events' expr filter does, and returns its
 * boolean result. A result that is not a boolean is an error (Argo would treat it as "not true").
 */
export function evaluateExpr(expr: string, variables: Record<string, unknown>): boolean {
  const tokens = new Lexer(expr).run();
  const tree = new Parser(expr, tokens).parse();
  const result = new Evaluator(expr, variables).evaluate(tree);
  if (typeof result !== 'boolean') throw new Error(`expression "${expr}" gives ${show(result)}, not a boolean`);
  return result;
}
