/**
 * The parser of Go's text/template (`text/template/parse/parse.go`), for the subset the simulator
 * executes: text, actions, `if` / `else if` / `else` / `end`, `range` (with `else`, and `$e :=` or
 * `$i, $e :=`), pipelines with `|`, variable declarations `:=` and assignments `=`, parenthesized
 * pipelines, fields `.a.b`, variables `$x.a`, chains `(pipeline).a`, literals and function calls.
 *
 * Like Go, it rejects at parse time a variable used before its declaration (declarations end with the
 * enclosing `if`/`range`), operands not separated by spaces, and non-executable later pipeline stages
 * (`{{ .x | "y" }}`). Refused (UnsupportedFeatureError): `with`, `define`, `template`, `block`, `break`,
 * `continue`, functions outside go-template-functions.ts, and number or string spellings outside the
 * decimal / plain-escape subset.
 */
// @ts-nocheck

import { TemplateLexer, templatePosition, unsupportedInTemplate, type Item, type ItemType } from './go-template-lexer';
import { TEMPLATE_FUNCTIONS } from './go-template-functions';

export type Operand =
  | { readonly kind: 'field'; readonly idents: readonly string[]; readonly pos: number }
  | { readonly kind: 'variable'; readonly idents: readonly string[]; readonly pos: number }
  | { readonly kind: 'chain'; readonly node: Operand; readonly fields: readonly string[]; readonly pos: number }
  | { readonly kind: 'identifier'; readonly name: string; readonly pos: number }
  | { readonly kind: 'dot' | 'nil'; readonly pos: number }
  | { readonly kind: 'bool'; readonly value: boolean; readonly pos: number }
  | { readonly kind: 'number'; readonly text: string; readonly value: number | bigint; readonly pos: number }
  | { readonly kind: 'string'; readonly value: string; readonly pos: number }
  | { readonly kind: 'pipe'; readonly pipe: Pipe; readonly pos: number };

export interface Command {
  readonly args: readonly Operand[];
  readonly pos: number;
}

export interface Pipe {
  /** Declared or assigned variable names (`$x`), in order. */
  readonly decl: readonly string[];
  readonly isAssign: boolean;
  readonly cmds: readonly Command[];
  readonly pos: number;
}

/** `if` or `range`: a pipeline, a body, and an optional `{{else}}` body. */
export interface ControlNode {
  readonly kind: 'if' | 'range';
  readonly pipe: Pipe;
  readonly list: readonly TemplateNode[];
  readonly elseList?: readonly TemplateNode[];
  readonly pos: number;
}

export type TemplateNode =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'action'; readonly pipe: Pipe; readonly pos: number }
  | ControlNode;

/** `{{end}}` and `{{else}}` while parsing; they end a list and never reach the tree. */
type Delimiter = { readonly kind: 'end'; readonly pos: number } | { readonly kind: 'else'; readonly pos: number };

const OPERAND_START = new Set<ItemType>([
  'bool',
  'dot',
  'field',
  'identifier',
  'number',
  'nil',
  'rawString',
  'string',
  'variable',
  'leftParen',
]);
const UNSUPPORTED_KEYWORDS = new Set(['block', 'break', 'continue', 'define', 'template', 'with']);
const NOT_EXECUTABLE = new Set<Operand['kind']>(['bool', 'dot', 'nil', 'number', 'string']);

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
};

export class TemplateParser {
  private readonly items: Item[];
  private index = 0;
  /** Variables in scope, as Go's parser tracks them (`$` is always defined). */
  private readonly vars: string[] = ['$'];

  public constructor(private readonly template: string) {
    this.items = new TemplateLexer(template).run();
  }

  public parse(): TemplateNode[] {
    const list: TemplateNode[] = [];
    while (this.peek().type !== 'eof') {
      const node = this.textOrAction();
      if (node.kind === 'end' || node.kind === 'else') return this.fail(node.pos, `unexpected {{${node.kind}}}`);
      list.push(node);
    }
    return list;
  }

  private fail(pos: number, message: string): never {
    throw new Error(`template: param:${templatePosition(this.template, pos)}: ${message}`);
  }

  private refuse(pos: number, what: string): never {
    throw unsupportedInTemplate(this.template, pos, what);
  }

  private next(): Item {
    return this.items[Math.min(this.index++, this.items.length - 1)];
  }

  private backup(): void {
    this.index--;
  }

  private peek(): Item {
    return this.items[Math.min(this.index, this.items.length - 1)];
  }

  private nextNonSpace(): Item {
    let item = this.next();
    while (item.type === 'space') item = this.next();
    return item;
  }

  private peekNonSpace(): Item {
    const item = this.nextNonSpace();
    this.backup();
    return item;
  }

  private unexpected(item: Item, context: string): never {
    return this.fail(item.pos, `unexpected ${describe(item)} in ${context}`);
  }

  private expect(type: ItemType, context: string): Item {
    const item = this.nextNonSpace();
    if (item.type !== type) this.unexpected(item, context);
    return item;
  }

  private textOrAction(): TemplateNode | Delimiter {
    const item = this.nextNonSpace();
    if (item.type === 'text') return { kind: 'text', text: item.value };
    if (item.type === 'leftDelim') return this.action();
    return this.unexpected(item, 'input');
  }

  /** Nodes up to the `{{end}}` or `{{else}}` that closes them. */
  private itemList(): { list: TemplateNode[]; stop: Delimiter } {
    const list: TemplateNode[] = [];
    while (this.peekNonSpace().type !== 'eof') {
      const node = this.textOrAction();
      if (node.kind === 'end' || node.kind === 'else') return { list, stop: node };
      list.push(node);
    }
    return this.fail(this.peek().pos, 'unexpected EOF');
  }

  private action(): TemplateNode | Delimiter {
    const item = this.nextNonSpace();
    if (item.type === 'keyword') {
      switch (item.value) {
        case 'else':
          return this.elseControl(item);
        case 'end':
          this.expect('rightDelim', 'end');
          return { kind: 'end', pos: item.pos };
        case 'if':
          return this.control('if', item.pos);
        case 'range':
          return this.control('range', item.pos);
        default:
          if (UNSUPPORTED_KEYWORDS.has(item.value)) this.refuse(item.pos, `{{${item.value}}}`);
      }
    }
    this.backup();
    return { kind: 'action', pipe: this.pipeline('command', 'rightDelim'), pos: item.pos };
  }

  /** `{{else}}`, or `{{else if ...}}`, whose `if` is left for `control` to read. */
  private elseControl(item: Item): Delimiter {
    const peek = this.peekNonSpace();
    if (peek.type === 'keyword' && (peek.value === 'if' || peek.value === 'with')) return { kind: 'else', pos: item.pos };
    this.expect('rightDelim', 'else');
    return { kind: 'else', pos: item.pos };
  }

  /** `if` and `range`: `{{else if}}` is `{{else}}{{if}}...{{end}}` with the inner `{{end}}` shared. */
  private control(kind: 'if' | 'range', pos: number): TemplateNode {
    const scope = this.vars.length;
    const pipe = this.pipeline(kind, 'rightDelim');
    const { list, stop } = this.itemList();
    let elseList: TemplateNode[] | undefined;
    if (stop.kind === 'else') {
      const peek = this.peek();
      if (kind === 'if' && peek.type === 'keyword' && peek.value === 'if') {
        this.next();
        elseList = [this.control('if', peek.pos)];
      } else {
        const rest = this.itemList();
        if (rest.stop.kind !== 'end') this.fail(rest.stop.pos, `expected end; found {{${rest.stop.kind}}}`);
        elseList = rest.list;
      }
    }
    this.vars.length = scope;
    return { kind, pipe, list, elseList, pos };
  }

  private pipeline(context: string, end: ItemType): Pipe {
    const pos = this.peekNonSpace().pos;
    const decl: string[] = [];
    let isAssign = false;
    for (;;) {
      const start = this.index;
      const variable = this.nextNonSpace();
      if (variable.type !== 'variable') {
        this.index = start;
        break;
      }
      const next = this.peekNonSpace();
      if (next.type === 'assign' || next.type === 'declare') {
        isAssign = next.type === 'assign';
        this.nextNonSpace();
        decl.push(variable.value);
        this.vars.push(variable.value);
        break;
      }
      if (next.type === 'char' && next.value === ',') {
        this.nextNonSpace();
        decl.push(variable.value);
        this.vars.push(variable.value);
        if (context === 'range' && decl.length < 2) {
          if (['variable', 'rightDelim', 'rightParen'].includes(this.peekNonSpace().type)) continue;
          this.fail(next.pos, 'range can only initialize variables');
        }
        this.fail(next.pos, `too many declarations in ${context}`);
      }
      this.index = start;
      break;
    }
    const cmds: Command[] = [];
    for (;;) {
      const item = this.nextNonSpace();
      if (item.type === end) break;
      if (!OPERAND_START.has(item.type)) this.unexpected(item, context);
      this.backup();
      cmds.push(this.command());
    }
    this.checkPipeline(cmds, context, pos);
    return { decl, isAssign, cmds, pos };
  }

  private checkPipeline(cmds: readonly Command[], context: string, pos: number): void {
    if (cmds.length === 0) this.fail(pos, `missing value for ${context}`);
    cmds.slice(1).forEach((command, index) => {
      if (NOT_EXECUTABLE.has(command.args[0].kind)) this.fail(command.pos, `non executable command in pipeline stage ${index + 2}`);
    });
  }

  private command(): Command {
    const pos = this.peekNonSpace().pos;
    const args: Operand[] = [];
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) args.push(operand);
      const item = this.next();
      if (item.type === 'space') continue;
      if (item.type === 'rightDelim' || item.type === 'rightParen') this.backup();
      else if (item.type === 'pipe') {
        const after = this.peekNonSpace().type;
        if (after === 'rightDelim' || after === 'rightParen') this.refuse(item.pos, 'a pipeline ending in "|"');
      } else this.unexpected(item, 'operand');
      break;
    }
    if (args.length === 0) this.fail(pos, 'empty command');
    return { args, pos };
  }

  /** A term, and the fields that follow it (`.a.b`, `$x.a`, `(pipeline).a`). */
  private operand(): Operand | undefined {
    const node = this.term();
    if (!node || this.peek().type !== 'field') return node;
    const fields: string[] = [];
    while (this.peek().type === 'field') fields.push(this.next().value.slice(1));
    if (node.kind === 'field' || node.kind === 'variable') return { ...node, idents: [...node.idents, ...fields] };
    if (NOT_EXECUTABLE.has(node.kind)) this.fail(node.pos, 'unexpected . after term');
    return { kind: 'chain', node, fields, pos: node.pos };
  }

  private term(): Operand | undefined {
    const item = this.nextNonSpace();
    const pos = item.pos;
    switch (item.type) {
      case 'identifier':
        if (!Object.hasOwn(TEMPLATE_FUNCTIONS, item.value)) this.refuse(pos, `the function "${item.value}"`);
        return { kind: 'identifier', name: item.value, pos };
      case 'dot':
        return { kind: 'dot', pos };
      case 'nil':
        return { kind: 'nil', pos };
      case 'bool':
        return { kind: 'bool', value: item.value === 'true', pos };
      case 'variable':
        if (!this.vars.includes(item.value)) this.fail(pos, `undefined variable "${item.value}"`);
        return { kind: 'variable', idents: [item.value], pos };
      case 'field':
        return { kind: 'field', idents: [item.value.slice(1)], pos };
      case 'number':
        return this.number(item);
      case 'leftParen':
        return { kind: 'pipe', pipe: this.pipeline('parenthesized pipeline', 'rightParen'), pos };
      case 'string':
        return { kind: 'string', value: this.unquote(item), pos };
      case 'rawString':
        // strconv.Unquote drops carriage returns from raw strings.
        return { kind: 'string', value: item.value.slice(1, -1).replace(/\r/g, ''), pos };
      default:
        this.backup();
        return undefined;
    }
  }

  /** Decimal integers become Go `int` (bigint); numbers with `.` or an exponent become float64. */
  private number(item: Item): Operand {
    const { value: text, pos } = item;
    if (/^[+-]?[0-9]+$/.test(text)) {
      if (/^[+-]?0[0-9]/.test(text)) this.refuse(pos, `the octal number ${text}`);
      const value = BigInt(text.replace(/^\+/, ''));
      if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) this.fail(pos, `integer overflow: ${text}`);
      return { kind: 'number', text, value, pos };
    }
    if (/^[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?$/.test(text)) {
      const value = Number(text);
      if (!Number.isFinite(value)) this.fail(pos, `number out of range: ${text}`);
      return { kind: 'number', text, value, pos };
    }
    if (text.includes('_')) this.refuse(pos, `the number ${text} with "_"`);
    return this.fail(pos, `illegal number syntax: "${text}"`);
  }

  /** strconv.Unquote of a double-quoted string, for the escapes that stay valid UTF-8. */
  private unquote(item: Item): string {
    const body = item.value.slice(1, -1);
    let out = '';
    for (let at = 0; at < body.length; at++) {
      if (body[at] !== '\\') {
        out += body[at];
        continue;
      }
      const escapeChar = body[++at];
      if (SIMPLE_ESCAPES[escapeChar] !== undefined) {
        out += SIMPLE_ESCAPES[escapeChar];
        continue;
      }
      const hex = { x: 2, u: 4, U: 8 }[escapeChar as 'x' | 'u' | 'U'];
      const digits = hex ? body.slice(at + 1, at + 1 + hex) : '';
      if (!hex || !new RegExp(`^[0-9A-Fa-f]{${hex}}$`).test(digits)) {
        if (/[0-7]/.test(escapeChar)) this.refuse(item.pos, 'octal escapes in strings');
        this.fail(item.pos, `invalid syntax in string ${item.value}`);
      }
      const codePoint = parseInt(digits, 16);
      if (escapeChar === 'x' && codePoint >= 0x80) this.refuse(item.pos, `the byte escape \\x${digits} in a string`);
      if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff))
        this.fail(item.pos, `invalid syntax in string ${item.value}`);
      out += String.fromCodePoint(codePoint);
      at += hex;
    }
    return out;
  }
}

function describe(item: Item): string {
  if (item.type === 'eof') return 'EOF';
  if (item.type === 'rightDelim') return '"}}"';
  return `<${item.value}>`;
}
