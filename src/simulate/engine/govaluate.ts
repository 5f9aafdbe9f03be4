/**
 * The subset of Knetic govaluate that expression filters use: bound variables, string and number literals,
 * `true`/`false`, `== != =~ !~ < <= > >=`, `&& || !` and parentheses.
 */
import { goRegexpMatch } from './re2';
import { UnsupportedFeatureError } from './unsupported';

type Token = { kind: 'name' | 'string' | 'number' | 'op'; text: string };

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(==|!=|=~|!~|<=|>=|&&|\|\||[<>!()])|'([^']*)'|"([^"]*)"|([0-9]+(?:\.[0-9]+)?)|([A-Za-z_][A-Za-z0-9_]*))/y;
  let index = 0;
  while (index < expr.length) {
    if (/^\s*$/.test(expr.slice(index))) break;
    pattern.lastIndex = index;
    const match = pattern.exec(expr);
    if (!match) throw new UnsupportedFeatureError(`expression "${expr}": cannot read "${expr.slice(index).trim()}"`);
    index = pattern.lastIndex;
    if (match[1]) tokens.push({ kind: 'op', text: match[1] });
    else if (match[2] !== undefined || match[3] !== undefined) tokens.push({ kind: 'string', text: match[2] ?? match[3] });
    else if (match[4]) tokens.push({ kind: 'number', text: match[4] });
    else tokens.push({ kind: 'name', text: match[5] });
  }
  return tokens;
}

export function evaluateExpr(expr: string, variables: Record<string, unknown>): boolean {
  const tokens = tokenize(expr);
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const take = (text?: string): Token => {
    const token = tokens[position++];
    if (!token || (text !== undefined && token.text !== text)) throw new UnsupportedFeatureError(`expression "${expr}": expected ${text ?? 'more'}`);
    return token;
  };
  const or = (): unknown => {
    let left = and();
    while (peek()?.text === '||') { take(); const right = and(); left = left === true || right === true; }
    return left;
  };
  const and = (): unknown => {
    let left = unary();
    while (peek()?.text === '&&') { take(); const right = unary(); left = left === true && right === true; }
    return left;
  };
  const unary = (): unknown => {
    if (peek()?.text === '!') { take(); return unary() !== true; }
    return comparison();
  };
  const comparison = (): unknown => {
    const left = primary();
    const op = peek();
    if (!op || op.kind !== 'op' || !['==', '!=', '=~', '!~', '<', '<=', '>', '>='].includes(op.text)) return left;
    take();
    return compare(op.text, left, primary());
  };
  const primary = (): unknown => {
    const token = take();
    if (token.text === '(' && token.kind === 'op') { const value = or(); take(')'); return value; }
    if (token.kind === 'string') return token.text;
    if (token.kind === 'number') return Number(token.text);
    if (token.kind === 'name') {
      if (token.text === 'true' || token.text === 'false') return token.text === 'true';
      if (!(token.text in variables)) throw new Error(`expression "${expr}": no variable "${token.text}"`);
      return variables[token.text];
    }
    throw new UnsupportedFeatureError(`expression "${expr}": unexpected "${token.text}"`);
  };
  const result = or();
  if (position !== tokens.length) throw new UnsupportedFeatureError(`expression "${expr}": unexpected "${tokens[position].text}"`);
  if (typeof result !== 'boolean') throw new Error(`expression "${expr}" is not a boolean`);
  return result;
}

function compare(op: string, left: unknown, right: unknown): boolean {
  if (op === '==') return typeof left === typeof right && left === right;
  if (op === '!=') return !(typeof left === typeof right && left === right);
  if (op === '=~' || op === '!~') {
    const hit = goRegexpMatch(String(right), String(left));
    return op === '=~' ? hit : !hit;
  }
  if (typeof left !== 'number' || typeof right !== 'number') throw new Error(`"${op}" compares numbers only`);
  return op === '<' ? left < right : op === '<=' ? left <= right : op === '>' ? left > right : left >= right;
}
