/**
 * The subset of Go text/template (with Sprig functions) that our sensors' trigger parameters use, with Go's
 * semantics: trim markers, pipelines, fields of maps, variables (`:=` declares, `=` assigns), `if` / `else
 * if` / `else`, `range` over arrays, comparison and boolean functions, and a handful of Sprig string and
 * regexp functions. Anything else is refused.
 */
import { goRegexpMatch, goReplaceAll, toJsRegExp } from './re2';
import { UnsupportedFeatureError } from './unsupported';

type Token =
  | { kind: 'field'; path: string[] }
  | { kind: 'variable'; name: string; path: string[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'ident'; name: string }
  | { kind: 'punct'; value: '(' | ')' | '|' | ':=' | '=' };

type Operand = Token | { kind: 'sub'; pipeline: Pipeline };
interface Command { readonly operands: Operand[] }
interface Pipeline { readonly declare?: { name: string; assign: boolean }; readonly commands: Command[] }

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipeline: Pipeline }
  | { kind: 'if'; branches: { condition: Pipeline; body: Node[] }[]; otherwise: Node[] }
  | { kind: 'range'; pipeline: Pipeline; body: Node[]; otherwise: Node[] };

interface RawAction { readonly content: string; readonly at: number }
type Piece = { kind: 'text'; text: string } | { kind: 'action'; action: RawAction };

/** Text and actions, with `{{-` and `-}}` trimming the neighbouring white space. */
function scan(template: string): Piece[] {
  const pieces: Piece[] = [];
  let index = 0;
  let trimNext = false;
  while (index < template.length) {
    const open = template.indexOf('{{', index);
    let text = template.slice(index, open < 0 ? template.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open < 0) {
      if (text) pieces.push({ kind: 'text', text });
      break;
    }
    const close = template.indexOf('}}', open);
    if (close < 0) throw new Error(`template: unclosed action at ${open}`);
    let content = template.slice(open + 2, close);
    if (content.startsWith('- ')) {
      text = text.replace(/\s+$/, '');
      content = content.slice(2);
    }
    trimNext = content.endsWith(' -');
    if (trimNext) content = content.slice(0, -2);
    if (text) pieces.push({ kind: 'text', text });
    pieces.push({ kind: 'action', action: { content: content.trim(), at: open } });
    index = close + 2;
  }
  return pieces;
}

function tokenize(action: RawAction): Token[] {
  const tokens: Token[] = [];
  const source = action.content;
  let index = 0;
  const fail = (what: string): never => {
    throw new UnsupportedFeatureError(`template action "{{${source}}}" at ${action.at}: ${what}`);
  };
  while (index < source.length) {
    const rest = source.slice(index);
    const space = /^\s+/.exec(rest);
    if (space) { index += space[0].length; continue; }
    const match =
      /^\.((?:[A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*)*)?/.exec(rest) ?? undefined;
    if (rest.startsWith('.') && match) {
      tokens.push({ kind: 'field', path: match[1] ? match[1].split('.') : [] });
      index += match[0].length;
      continue;
    }
    const variable = /^\$([A-Za-z_][A-Za-z0-9_]*)?((?:\.[A-Za-z_][A-Za-z0-9_]*)*)/.exec(rest);
    if (variable) {
      tokens.push({ kind: 'variable', name: `$${variable[1] ?? ''}`, path: variable[2] ? variable[2].slice(1).split('.') : [] });
      index += variable[0].length;
      continue;
    }
    const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    if (quoted) { tokens.push({ kind: 'string', value: JSON.parse(`"${quoted[1]}"`) as string }); index += quoted[0].length; continue; }
    const raw = /^`([^`]*)`/.exec(rest);
    if (raw) { tokens.push({ kind: 'string', value: raw[1] }); index += raw[0].length; continue; }
    const number = /^-?[0-9]+(\.[0-9]+)?/.exec(rest);
    if (number) { tokens.push({ kind: 'number', value: Number(number[0]) }); index += number[0].length; continue; }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (ident) { tokens.push({ kind: 'ident', name: ident[0] }); index += ident[0].length; continue; }
    const punct = /^(:=|=|\(|\)|\|)/.exec(rest);
    if (punct) { tokens.push({ kind: 'punct', value: punct[0] as ':=' }); index += punct[0].length; continue; }
    fail(`cannot read "${rest}"`);
  }
  return tokens;
}

function parsePipeline(tokens: Token[], action: RawAction): Pipeline {
  let position = 0;
  let declare: Pipeline['declare'];
  const first = tokens[0];
  const second = tokens[1];
  if (first?.kind === 'variable' && first.path.length === 0 && second?.kind === 'punct' && (second.value === ':=' || second.value === '=')) {
    declare = { name: first.name, assign: second.value === '=' };
    position = 2;
  }
  const parseCommands = (): Command[] => {
    const commands: Command[] = [{ operands: [] }];
    while (position < tokens.length) {
      const token = tokens[position];
      if (token.kind === 'punct' && token.value === ')') break;
      position++;
      if (token.kind === 'punct' && token.value === '|') { commands.push({ operands: [] }); continue; }
      if (token.kind === 'punct' && token.value === '(') {
        const inner = parseCommands();
        const closing = tokens[position++];
        if (!closing || closing.kind !== 'punct' || closing.value !== ')') throw new Error(`template action "{{${action.content}}}": unclosed "("`);
        commands[commands.length - 1].operands.push({ kind: 'sub', pipeline: { commands: inner } });
        continue;
      }
      if (token.kind === 'punct') throw new UnsupportedFeatureError(`template action "{{${action.content}}}": unexpected "${token.value}"`);
      commands[commands.length - 1].operands.push(token);
    }
    if (commands.some((command) => command.operands.length === 0)) throw new Error(`template action "{{${action.content}}}": empty command`);
    return commands;
  };
  const commands = parseCommands();
  if (position !== tokens.length) throw new Error(`template action "{{${action.content}}}": unexpected ")"`);
  return { declare, commands };
}

/** Parses pieces into nodes until one of `stops` (an `else` or `end` action), which it returns. */
function parseNodes(pieces: Piece[], cursor: { index: number }, stops: readonly string[]): { nodes: Node[]; stop?: RawAction } {
  const nodes: Node[] = [];
  while (cursor.index < pieces.length) {
    const piece = pieces[cursor.index++];
    if (piece.kind === 'text') { nodes.push(piece); continue; }
    const { action } = piece;
    const keyword = /^[a-z]+/.exec(action.content)?.[0] ?? '';
    if (keyword === 'end' || keyword === 'else') {
      if (!stops.includes(keyword)) throw new Error(`template: unexpected {{${action.content}}} at ${action.at}`);
      return { nodes, stop: action };
    }
    if (keyword === 'if') { nodes.push(parseIf(pieces, cursor, action.content.slice(2), action)); continue; }
    if (keyword === 'range') { nodes.push(parseRange(pieces, cursor, action)); continue; }
    if (['with', 'define', 'template', 'block', 'break', 'continue'].includes(keyword)) throw new UnsupportedFeatureError(`template: "{{${action.content}}}" (${keyword}) is not supported by the simulator`);
    nodes.push({ kind: 'action', pipeline: parsePipeline(tokenize(action), action) });
  }
  if (stops.length > 0) throw new Error('template: missing {{end}}');
  return { nodes };
}

function parseIf(pieces: Piece[], cursor: { index: number }, condition: string, action: RawAction): Node {
  const branches: { condition: Pipeline; body: Node[] }[] = [];
  let current = condition;
  for (;;) {
    const conditionAction = { content: current.trim(), at: action.at };
    const { nodes, stop } = parseNodes(pieces, cursor, ['else', 'end']);
    branches.push({ condition: parsePipeline(tokenize(conditionAction), conditionAction), body: nodes });
    if (stop!.content === 'end') return { kind: 'if', branches, otherwise: [] };
    if (/^else\s+if\s/.test(stop!.content)) { current = stop!.content.replace(/^else\s+if/, ''); continue; }
    const rest = parseNodes(pieces, cursor, ['end']);
    return { kind: 'if', branches, otherwise: rest.nodes };
  }
}

function parseRange(pieces: Piece[], cursor: { index: number }, action: RawAction): Node {
  const content = action.content.slice('range'.length).trim();
  if (/^\$[A-Za-z_0-9]*\s*(,|:=)/.test(content)) throw new UnsupportedFeatureError(`template: range with variables ("{{${action.content}}}") is not supported by the simulator`);
  const pipeline = parsePipeline(tokenize({ content, at: action.at }), action);
  const { nodes, stop } = parseNodes(pieces, cursor, ['else', 'end']);
  const otherwise = stop!.content === 'else' ? parseNodes(pieces, cursor, ['end']).nodes : [];
  return { kind: 'range', pipeline, body: nodes, otherwise };
}

type Scope = Map<string, unknown>[];

function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '' || value === 0) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function fieldOf(value: unknown, path: readonly string[], where: string): unknown {
  let current = value;
  for (const key of path) {
    if (current === undefined || current === null) throw new Error(`template: nil pointer evaluating ${where}.${key}`);
    if (typeof current !== 'object' || Array.isArray(current)) throw new Error(`template: cannot read field ${key} of ${typeof current}`);
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function asString(value: unknown, fn: string): string {
  if (typeof value !== 'string') throw new Error(`template: ${fn} wants a string, got ${value === undefined ? 'nil' : typeof value}`);
  return value;
}

/** Go's encoding/json: keys sorted, no spaces, `<`, `>`, `&` escaped. */
export function goJson(value: unknown): string {
  const sorted = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sorted);
    if (item !== null && typeof item === 'object') return Object.fromEntries(Object.keys(item).sort().map((key) => [key, sorted((item as Record<string, unknown>)[key])]));
    return item;
  };
  return (JSON.stringify(sorted(value ?? null)) ?? 'null').replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const FUNCTIONS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  and: (...args) => args.find((arg) => !truthy(arg)) ?? args[args.length - 1],
  or: (...args) => args.find((arg) => truthy(arg)) ?? args[args.length - 1],
  not: (value) => !truthy(value),
  eq: (left, ...rights) => rights.some((right) => left === right),
  ne: (left, right) => left !== right,
  len: (value) => (typeof value === 'string' || Array.isArray(value) ? value.length : Object.keys(value ?? {}).length),
  index: (value, ...keys) => keys.reduce((current: any, key) => (current === undefined || current === null ? undefined : current[key as string]), value),
  lower: (value) => asString(value, 'lower').toLowerCase(),
  upper: (value) => asString(value, 'upper').toUpperCase(),
  trim: (value) => asString(value, 'trim').trim(),
  trimPrefix: (prefix, value) => {
    const text = asString(value, 'trimPrefix');
    return text.startsWith(asString(prefix, 'trimPrefix')) ? text.slice((prefix as string).length) : text;
  },
  trimSuffix: (suffix, value) => {
    const text = asString(value, 'trimSuffix');
    return text.endsWith(asString(suffix, 'trimSuffix')) ? text.slice(0, text.length - (suffix as string).length) : text;
  },
  hasPrefix: (prefix, value) => asString(value, 'hasPrefix').startsWith(asString(prefix, 'hasPrefix')),
  regexMatch: (pattern, value) => goRegexpMatch(asString(pattern, 'regexMatch'), asString(value, 'regexMatch')),
  regexFind: (pattern, value) => toJsRegExp(asString(pattern, 'regexFind')).exec(asString(value, 'regexFind'))?.[0] ?? '',
  regexReplaceAll: (pattern, value, replacement) => goReplaceAll(asString(pattern, 'regexReplaceAll'), asString(value, 'regexReplaceAll'), asString(replacement, 'regexReplaceAll')),
  default: (fallback, value) => (truthy(value) ? value : fallback),
  toJson: (value) => goJson(value),
  printf: (format, ...args) => {
    let next = 0;
    return asString(format, 'printf').replace(/%[sdv%]/g, (verb) => (verb === '%%' ? '%' : printValue(args[next++])));
  },
};

function printValue(value: unknown): string {
  if (value === undefined || value === null) return '<no value>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new UnsupportedFeatureError('template: printing a map or a list is not supported by the simulator (use toJson)');
}

function lookup(scope: Scope, name: string): unknown {
  for (let level = scope.length - 1; level >= 0; level--) if (scope[level].has(name)) return scope[level].get(name);
  throw new Error(`template: undefined variable "${name}"`);
}

function evaluateOperand(operand: Operand, dot: unknown, scope: Scope): unknown {
  switch (operand.kind) {
    case 'field': return fieldOf(dot, operand.path, '');
    case 'variable': return fieldOf(lookup(scope, operand.name), operand.path, operand.name);
    case 'string': case 'number': return operand.value;
    case 'sub': return evaluatePipeline(operand.pipeline, dot, scope);
    case 'ident':
      if (operand.name === 'true' || operand.name === 'false') return operand.name === 'true';
      if (operand.name === 'nil') return null;
      return callFunction(operand.name, []);
    default: throw new UnsupportedFeatureError('template: unexpected token');
  }
}

function callFunction(name: string, args: unknown[]): unknown {
  const fn = FUNCTIONS[name];
  if (!fn) throw new UnsupportedFeatureError(`template: function "${name}" is not supported by the simulator`);
  return fn(...args);
}

function evaluateCommand(command: Command, dot: unknown, scope: Scope, piped: unknown[]): unknown {
  const [head, ...rest] = command.operands;
  if (head.kind === 'ident' && !['true', 'false', 'nil'].includes(head.name)) {
    return callFunction(head.name, [...rest.map((operand) => evaluateOperand(operand, dot, scope)), ...piped]);
  }
  if (rest.length > 0 || piped.length > 0) throw new Error('template: only functions take arguments');
  return evaluateOperand(head, dot, scope);
}

function evaluatePipeline(pipeline: Pipeline, dot: unknown, scope: Scope): unknown {
  let value: unknown;
  pipeline.commands.forEach((command, index) => {
    value = evaluateCommand(command, dot, scope, index === 0 ? [] : [value]);
  });
  if (pipeline.declare) {
    if (pipeline.declare.assign) {
      const level = [...scope].reverse().find((frame) => frame.has(pipeline.declare!.name));
      if (!level) throw new Error(`template: undefined variable "${pipeline.declare.name}"`);
      level.set(pipeline.declare.name, value);
    } else {
      scope[scope.length - 1].set(pipeline.declare.name, value);
    }
  }
  return value;
}

function execute(nodes: readonly Node[], dot: unknown, scope: Scope): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'action') {
      const value = evaluatePipeline(node.pipeline, dot, scope);
      if (!node.pipeline.declare) out += printValue(value);
    } else if (node.kind === 'if') {
      const branch = node.branches.find((candidate) => truthy(evaluatePipeline(candidate.condition, dot, scope)));
      out += execute(branch ? branch.body : node.otherwise, dot, [...scope, new Map()]);
    } else {
      const items = evaluatePipeline(node.pipeline, dot, scope);
      if (items !== undefined && items !== null && !Array.isArray(items)) throw new UnsupportedFeatureError('template: range over a map is not supported by the simulator');
      const list = (items ?? []) as unknown[];
      if (list.length === 0) out += execute(node.otherwise, dot, [...scope, new Map()]);
      for (const item of list) out += execute(node.body, item, [...scope, new Map()]);
    }
  }
  return out;
}

/** Renders `template` with `data` as dot, as Go's text/template with Sprig would. */
export function renderGoTemplate(template: string, data: unknown): string {
  const pieces = scan(template);
  const { nodes } = parseNodes(pieces, { index: 0 }, []);
  return execute(nodes, data, [new Map<string, unknown>([['$', data]])]);
}
