/**
 * A parser for the small boolean languages Argo evaluates at runtime and never checks beforehand: a DAG
 * task's `depends` (`a && (b.Failed || !c)`) and a Sensor trigger's `conditions` (`dep-a || dep-b`).
 * Operators `&&`, `||`, `!` and parentheses; operands are names, optionally with a `.Result` suffix. It
 * returns the operands, or the first syntax error with its position.
 */
// @ts-nocheck


export interface Operand {
  readonly name: string;
  /** The `.Result` suffix without its dot, when present. */
  readonly result?: string;
}

export type ParseResult = { readonly ok: true; readonly operands: readonly Operand[] } | { readonly ok: false; readonly error: string };

type Token =
  | { readonly kind: 'operand'; readonly operand: Operand; readonly at: number }
  | { readonly kind: '&&' | '||' | '!' | '(' | ')'; readonly at: number };

/**
 * @param operand the pattern of one operand, anchored by the caller's tokenizer (e.g. a task name
 * optionally followed by `.Result`)
 */
export function parseBooleanExpression(text: string, operand: RegExp): ParseResult {
  const tokens = tokenize(text, operand);
  if (typeof tokens === 'string') return { ok: false, error: tokens };
  if (tokens.length === 0) return { ok: false, error: 'the expression is empty' };
  const parser = new Parser(tokens, text.length);
  const error = parser.parseAll();
  return error === undefined ? { ok: true, operands: parser.operands } : { ok: false, error };
}

function tokenize(text: string, operand: RegExp): Token[] | string {
  const tokens: Token[] = [];
  const sticky = new RegExp(operand.source, 'y');
  let at = 0;
  while (at < text.length) {
    if (/\s/.test(text[at])) {
      at += 1;
      continue;
    }
    const two = text.slice(at, at + 2);
    if (two === '&&' || two === '||') {
      tokens.push({ kind: two, at });
      at += 2;
      continue;
    }
    if (text[at] === '!' || text[at] === '(' || text[at] === ')') {
      tokens.push({ kind: text[at] as '!' | '(' | ')', at });
      at += 1;
      continue;
    }
    sticky.lastIndex = at;
    const match = sticky.exec(text);
    if (!match || match[0] === '') return `unexpected "${text.slice(at, at + 12)}" at character ${at + 1}`;
    const [name, result] = splitResult(match[0]);
    tokens.push({ kind: 'operand', operand: result === undefined ? { name } : { name, result }, at });
    at += match[0].length;
  }
  return tokens;
}

/** `task.Succeeded` is the task `task` and the result `Succeeded`; a name's own dots stay in the name. */
function splitResult(text: string): [string, string | undefined] {
  const match = /^(.*)\.([A-Z][A-Za-z]+)$/.exec(text);
  return match ? [match[1], match[2]] : [text, undefined];
}

/** Recursive descent: or := and ('||' and)*; and := unary ('&&' unary)*; unary := '!' unary | '(' or ')' | operand. */
class Parser {
  public readonly operands: Operand[] = [];
  private position = 0;

  public constructor(
    private readonly tokens: readonly Token[],
    private readonly length: number,
  ) {}

  public parseAll(): string | undefined {
    const error = this.or();
    if (error) return error;
    const extra = this.tokens[this.position];
    return extra ? `unexpected "${describe(extra)}" at character ${extra.at + 1}` : undefined;
  }

  private or(): string | undefined {
    return this.chain('||', () => this.and());
  }

  private and(): string | undefined {
    return this.chain('&&', () => this.unary());
  }

  private chain(operator: '&&' | '||', next: () => string | undefined): string | undefined {
    let error = next();
    while (!error && this.tokens[this.position]?.kind === operator) {
      this.position += 1;
      error = next();
    }
    return error;
  }

  private unary(): string | undefined {
    const token = this.tokens[this.position];
    if (!token) return `the expression ends where an operand was expected (character ${this.length + 1})`;
    this.position += 1;
    if (token.kind === '!') return this.unary();
    if (token.kind === 'operand') {
      this.operands.push(token.operand);
      return undefined;
    }
    if (token.kind !== '(') return `unexpected "${describe(token)}" at character ${token.at + 1}: an operand was expected`;
    const error = this.or();
    if (error) return error;
    if (this.tokens[this.position]?.kind !== ')') return `the "(" at character ${token.at + 1} is never closed`;
    this.position += 1;
    return undefined;
  }
}

const describe = (token: Token): string =>
  token.kind === 'operand' ? (token.operand.result ? `${token.operand.name}.${token.operand.result}` : token.operand.name) : token.kind;
