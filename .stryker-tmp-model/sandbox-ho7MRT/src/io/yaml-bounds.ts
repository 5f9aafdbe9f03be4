/**
 * How deep and how large a YAML text is, measured before any parser (or regular expression) sees it. The
 * `yaml` package composes nesting by recursion and builds an object for every token: a kilobyte of `[`
 * aborted the process inside V8 (a fatal "RegExpCompiler Allocation failed", which no `catch` sees), and a
 * few megabytes of flat items took minutes and gigabytes. One pass over the characters refuses the text when
 * its nesting or its number of values is past what any manifest or configuration needs.
 *
 * What is structure and what is text (a `[` in a quoted, plain or block scalar, in a comment) is decided as
 * the `yaml` package's lexer decides it (`yaml/dist/parse/lexer.js`, whose states this follows: stream,
 * line start, block start, document, flow collection, and the three scalars), so the count is never fooled
 * by text the parser would read as structure. Flow collections count one level each; each column at which a
 * block node starts counts two (a mapping and a sequence may share a column), an upper bound of the block
 * nesting the parser builds. test/yaml-bounds.test.ts holds the bound to the depth of the parser's own
 * syntax tree over generated texts.
 */
// @ts-nocheck


/** The deepest nesting a value may have (every input); deeper documents are refused once read. */
export const MAX_NESTING_DEPTH = 256;

/**
 * The most the measured bound may reach before the text is refused unread: the bound may count twice the
 * depth (a mapping and its sequence on one column); the parser's stack stays well below this.
 */
export const MAX_NESTING_BOUND = 2 * MAX_NESTING_DEPTH;

/**
 * The most values (block items and entries, flow items, documents, aliases) a text may hold: far above any
 * manifest (the default platform holds about 3,000), far below what takes the `yaml` package minutes and
 * gigabytes (two million took 90 s and 2 GB; the Argo Workflows CRD, 2.8 MB, holds 35,000).
 */
export const MAX_YAML_VALUES = 500_000;

/** Why a text is refused unread: the line where the limit was passed, and what it was. */
export interface YamlBoundsProblem {
  readonly line: number;
  readonly message: string;
}

/** The limits `yamlBoundsProblem` applies. */
export interface YamlLimits {
  /** The most the nesting bound may reach. */
  readonly depth: number;
  /** The most values the text may hold. */
  readonly values: number;
}

const DEFAULT_LIMITS: YamlLimits = { depth: MAX_NESTING_BOUND, values: MAX_YAML_VALUES };

/**
 * The first limit `text` passes, or `undefined` when it is within them; linear in the text's length.
 *
 * @param limits @default depth MAX_NESTING_BOUND, values MAX_YAML_VALUES
 */
export function yamlBoundsProblem(text: string, limits: YamlLimits = DEFAULT_LIMITS): YamlBoundsProblem | undefined {
  return new YamlMeasure(text, limits).run();
}

type State = 'stream' | 'line-start' | 'block-start' | 'doc' | 'flow';

const isEmpty = (ch: string | undefined): boolean => ch === undefined || ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t';
const isFlowIndicator = (ch: string | undefined): boolean => ch === ',' || ch === '[' || ch === ']' || ch === '{' || ch === '}';
const isNotAnchorChar = (ch: string | undefined): boolean => ch === undefined || ch === ',' || isFlowIndicator(ch) || isEmpty(ch);
const TAG_CHARS = /[0-9A-Za-z\-#;/?:@&=+$_.!~*'()]/;
const HEX = /[0-9A-Fa-f]/;

/** One measuring pass: the lexer's position and state, and what is open and counted. */
class YamlMeasure {
  private pos = 0;
  /** Where the current line starts, for columns. */
  private lineStart = 0;
  private flowLevel = 0;
  private flowKey = false;
  private indentNext = 0;
  private indentValue = 0;
  private blockScalarIndent = -1;
  private blockScalarKeep = false;
  /** The columns of the open block nodes, innermost last. */
  private readonly columns: number[] = [];
  /** Whether a node opened a column on this line since the last indicator (a `:` after it makes it a key). */
  private keyOpened = false;
  /**
   * For each open flow collection, the indicators (`key:`, `- `, `? `) of its current entry: the parser nests a
   * mapping or a sequence for each (`[a: b: c: d]` is four levels), until a `,` or the collection's end.
   */
  private readonly flowKeys: number[] = [];
  private flowKeySum = 0;
  private values = 0;
  private problem: string | undefined;

  public constructor(
    private readonly text: string,
    private readonly limits: YamlLimits,
  ) {}

  public run(): YamlBoundsProblem | undefined {
    let state: State | undefined = 'stream';
    while (state !== undefined && this.pos < this.text.length && this.problem === undefined) state = this.step(state);
    if (this.problem === undefined) return undefined;
    return { line: this.lineOf(Math.min(this.pos, this.text.length)), message: this.problem };
  }

  private step(state: State): State | undefined {
    if (state === 'stream') return this.stream();
    if (state === 'line-start') return this.lineStartState();
    if (state === 'block-start') return this.blockStart();
    if (state === 'doc') return this.document();
    return this.flow();
  }

  // ---- what is counted

  private count(): void {
    this.values += 1;
    if (this.values > this.limits.values)
      this.problem ??= `more than ${this.limits.values.toLocaleString('en-US')} values (list items, mapping entries, documents); no manifest or configuration holds that many: is it the right file?`;
  }

  private checkDepth(): void {
    if (2 * this.columns.length + this.flowLevel + this.flowKeySum > this.limits.depth)
      this.problem ??= `nested too deeply to read (more than ${MAX_NESTING_DEPTH} levels of lists and mappings); no Kubernetes object is`;
  }

  /** A block node starting at the current position: a new level when it is deeper than the innermost open one. */
  private open(): void {
    this.keyOpened = true;
    const column = this.pos - this.lineStart;
    if (this.columns.length === 0 || this.columns[this.columns.length - 1] < column) {
      this.columns.push(column);
      this.checkDepth();
    }
  }

  /** A flow collection opens: its entries' `key:` count starts at none. */
  private enterFlow(): void {
    this.flowLevel += 1;
    this.flowKeys.push(0);
    this.checkDepth();
  }

  private leaveFlow(): void {
    this.flowLevel -= 1;
    this.flowKeySum -= this.flowKeys.pop() ?? 0;
  }

  /** Every open flow collection ends at once (the lexer's unindent). */
  private endFlows(): void {
    this.flowLevel = 0;
    this.flowKeys.length = 0;
    this.flowKeySum = 0;
  }

  /** An indicator in the current flow entry: one more level the parser may nest. */
  private flowKeyIndicator(): void {
    if (this.flowKeys.length === 0) return;
    this.flowKeys[this.flowKeys.length - 1] += 1;
    this.flowKeySum += 1;
    this.checkDepth();
  }

  /** A `,`: the next entry of the current flow collection starts with no key. */
  private nextFlowEntry(): void {
    if (this.flowKeys.length === 0) return;
    this.flowKeySum -= this.flowKeys[this.flowKeys.length - 1];
    this.flowKeys[this.flowKeys.length - 1] = 0;
  }

  private lineOf(position: number): number {
    let line = 1;
    for (let at = this.text.indexOf('\n'); at !== -1 && at < position; at = this.text.indexOf('\n', at + 1)) line += 1;
    return line;
  }

  // ---- the lexer's helpers

  private charAt(n: number): string | undefined {
    return this.text[this.pos + n];
  }

  /** The end of the current line (before `\r\n` or `\n`), or the end of the text. */
  private lineEnd(): number {
    let end = this.text.indexOf('\n', this.pos);
    if (end === -1) return this.text.length;
    if (this.text[end - 1] === '\r') end -= 1;
    return end;
  }

  private atLineEnd(): boolean {
    let i = this.pos;
    let ch = this.text[i];
    while (ch === ' ' || ch === '\t') ch = this.text[++i];
    if (ch === undefined || ch === '#' || ch === '\n') return true;
    return ch === '\r' && this.text[i + 1] === '\n';
  }

  private spaces(allowTabs: boolean): number {
    const start = this.pos;
    let ch = this.text[this.pos];
    while (ch === ' ' || (allowTabs && ch === '\t')) ch = this.text[++this.pos];
    return this.pos - start;
  }

  private newline(): number {
    const ch = this.text[this.pos];
    let n = 0;
    if (ch === '\n') n = 1;
    else if (ch === '\r' && this.charAt(1) === '\n') n = 2;
    this.pos += n;
    if (n > 0) this.lineStart = this.pos;
    return n;
  }

  private until(test: (ch: string | undefined) => boolean): void {
    while (!test(this.text[this.pos])) this.pos += 1;
  }

  /** Moves to `index`, keeping `lineStart` on the line the position is in. */
  private moveTo(index: number): void {
    const lastNewline = this.text.lastIndexOf('\n', index - 1);
    if (lastNewline >= this.pos) this.lineStart = lastNewline + 1;
    this.pos = index;
  }

  private continueScalar(offset: number): number {
    let ch = this.text[offset];
    if (this.indentNext > 0) {
      let indent = 0;
      while (ch === ' ') ch = this.text[++indent + offset];
      if (ch === '\r' && this.text[indent + offset + 1] === '\n') return offset + indent + 1;
      return ch === '\n' || indent >= this.indentNext ? offset + indent : -1;
    }
    if (ch === '-' || ch === '.') {
      const marker = this.text.substr(offset, 3);
      if ((marker === '---' || marker === '...') && isEmpty(this.text[offset + 3])) return -1;
    }
    return offset;
  }

  // ---- the lexer's states

  private stream(): State {
    if (this.text[this.pos] === '\ufeff') this.pos += 1;
    if (this.text[this.pos] === '%' || this.atLineEnd()) {
      this.pos = this.lineEnd();
      this.newline();
      return 'stream';
    }
    // A document starts: nothing is open.
    this.columns.length = 0;
    this.count();
    return this.lineStartState();
  }

  private lineStartState(): State {
    const ch = this.charAt(0);
    if (ch === '-' || ch === '.') {
      const marker = this.text.substr(this.pos, 3);
      if ((marker === '---' || marker === '...') && isEmpty(this.charAt(3))) {
        this.pos += 3;
        this.indentValue = 0;
        this.indentNext = 0;
        this.columns.length = 0;
        if (marker === '---') this.count();
        return marker === '---' ? 'doc' : 'stream';
      }
    }
    this.indentValue = this.spaces(false);
    if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1))) this.indentNext = this.indentValue;
    while (this.columns.length > 0 && this.columns[this.columns.length - 1] > this.indentValue) this.columns.pop();
    this.keyOpened = false;
    return this.blockStart();
  }

  private blockStart(): State {
    const ch0 = this.charAt(0);
    if ((ch0 === '-' || ch0 === '?' || ch0 === ':') && isEmpty(this.charAt(1))) {
      this.open();
      this.count();
      this.pos += 1;
      const n = 1 + this.spaces(true);
      this.indentNext = this.indentValue + 1;
      this.indentValue += n;
      return 'block-start';
    }
    return 'doc';
  }

  private document(): State | undefined {
    this.spaces(true);
    this.indicators();
    const ch = this.text[this.pos];
    if (ch === '#') this.pos = this.lineEnd();
    if (ch === '#' || ch === undefined || ch === '\n' || (ch === '\r' && this.charAt(1) === '\n')) {
      this.newline();
      return this.lineStartState();
    }
    if (ch === '{' || ch === '[') {
      this.open();
      this.count();
      this.pos += 1;
      this.flowKey = false;
      this.endFlows();
      this.enterFlow();
      return 'flow';
    }
    if (ch === '}' || ch === ']') {
      this.pos += 1;
      return 'doc';
    }
    this.open();
    if (ch === '*') {
      this.count();
      this.until(isNotAnchorChar);
      return 'doc';
    }
    if (ch === '"' || ch === "'") return this.quotedScalar();
    if (ch === '|' || ch === '>') return this.blockScalar();
    return this.plainScalar();
  }

  private flow(): State | undefined {
    let nl: number;
    let sp: number;
    let indent = -1;
    do {
      nl = this.newline();
      if (nl > 0) {
        sp = this.spaces(false);
        this.indentValue = indent = sp;
      } else sp = 0;
      sp += this.spaces(true);
    } while (nl + sp > 0);
    if (this.pos >= this.text.length) return undefined;
    const ch = this.text[this.pos];
    const unindented = indent !== -1 && indent < this.indentNext && ch !== '#';
    const marker = this.text.substr(this.pos, 3);
    if (unindented || (indent === 0 && (marker === '---' || marker === '...') && isEmpty(this.charAt(3)))) {
      const atFlowEndMarker = indent === this.indentNext - 1 && this.flowLevel === 1 && (ch === ']' || ch === '}');
      if (!atFlowEndMarker) {
        // The `yaml` lexer ends every open flow collection here (an error) and reads the line as a new one.
        this.endFlows();
        return this.lineStartState();
      }
    }
    while (this.text[this.pos] === ',') {
      this.count();
      this.nextFlowEntry();
      this.pos += 1;
      this.spaces(true);
      this.flowKey = false;
    }
    this.indicators();
    const next = this.text[this.pos];
    if (next === undefined || next === '\n' || (next === '\r' && this.charAt(1) === '\n')) return 'flow';
    if (next === '#') {
      this.pos = this.lineEnd();
      return 'flow';
    }
    if (next === '{' || next === '[') {
      this.count();
      this.pos += 1;
      this.flowKey = false;
      this.enterFlow();
      return 'flow';
    }
    if (next === '}' || next === ']') {
      this.pos += 1;
      this.flowKey = true;
      this.leaveFlow();
      return this.flowLevel > 0 ? 'flow' : 'doc';
    }
    if (next === '*') {
      this.count();
      this.until(isNotAnchorChar);
      return 'flow';
    }
    if (next === '"' || next === "'") {
      this.flowKey = true;
      return this.quotedScalar();
    }
    if (next === ':') {
      const after = this.charAt(1);
      if (this.flowKey || isEmpty(after) || after === ',') {
        this.count();
        this.flowKeyIndicator();
        this.flowKey = false;
        this.pos += 1;
        this.spaces(true);
        return 'flow';
      }
    }
    this.flowKey = false;
    return this.plainScalar();
  }

  /** Tags, anchors and the indicators `-`, `?`, `:` before a node (the lexer's pushIndicators). */
  private indicators(): void {
    for (;;) {
      const ch = this.charAt(0);
      if (ch === '!') {
        this.tag();
        this.spaces(true);
      } else if (ch === '&') {
        this.until(isNotAnchorChar);
        this.spaces(true);
      } else if (
        (ch === '-' || ch === '?' || ch === ':') &&
        (isEmpty(this.charAt(1)) || (this.flowLevel > 0 && isFlowIndicator(this.charAt(1))))
      ) {
        if (this.flowLevel === 0) {
          // A `:` after a node on this line makes that node's column a mapping's; otherwise the indicator opens one.
          if (ch !== ':' || !this.keyOpened) this.open();
          this.keyOpened = false;
          this.indentNext = this.indentValue + 1;
        } else {
          // In a flow collection, the parser nests a block sequence for each `- ` and a mapping for each `key:`.
          this.flowKeyIndicator();
          if (this.flowKey) this.flowKey = false;
        }
        this.count();
        this.pos += 1;
        this.spaces(true);
      } else return;
    }
  }

  private tag(): void {
    const { text } = this;
    if (this.charAt(1) === '<') {
      let i = this.pos + 2;
      while (!isEmpty(text[i]) && text[i] !== '>') i += 1;
      this.pos = text[i] === '>' ? i + 1 : i;
      return;
    }
    let i = this.pos + 1;
    for (let ch = text[i]; ch !== undefined; ch = text[i]) {
      if (TAG_CHARS.test(ch)) i += 1;
      else if (ch === '%' && HEX.test(text[i + 1] ?? '') && HEX.test(text[i + 2] ?? '')) i += 3;
      else break;
    }
    this.pos = i;
  }

  private quotedScalar(): State {
    const { text } = this;
    const quote = text[this.pos];
    let end = text.indexOf(quote, this.pos + 1);
    if (quote === "'") {
      while (end !== -1 && text[end + 1] === "'") end = text.indexOf("'", end + 2);
    } else {
      while (end !== -1) {
        let n = 0;
        while (text[end - 1 - n] === '\\') n += 1;
        if (n % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
    }
    // Only line breaks inside the quotes: a line indented too little ends the scalar there (an error).
    if (end !== -1) {
      let nl = text.indexOf('\n', this.pos);
      if (nl > end) nl = -1;
      while (nl !== -1) {
        const cs = this.continueScalar(nl + 1);
        if (cs === -1) break;
        nl = text.indexOf('\n', cs);
        if (nl >= end) nl = -1;
      }
      if (nl !== -1) end = nl - (text[nl - 1] === '\r' ? 2 : 1);
    }
    // An unclosed quote runs to the end of the text.
    this.moveTo(end === -1 ? text.length : end + 1);
    return this.flowLevel > 0 ? 'flow' : 'doc';
  }

  private blockScalar(): State | undefined {
    const { text } = this;
    this.blockScalarIndent = -1;
    this.blockScalarKeep = false;
    for (let i = this.pos + 1; ; i += 1) {
      const ch = text[i];
      if (ch === '+') this.blockScalarKeep = true;
      else if (ch !== undefined && ch > '0' && ch <= '9') this.blockScalarIndent = Number(ch) - 1;
      else if (ch !== '-') break;
    }
    // The header and anything after it on its line (a comment, or text the parser refuses).
    this.pos = this.lineEnd();
    this.newline();
    return this.blockScalarContent();
  }

  private blockScalarContent(): State | undefined {
    const { text } = this;
    let nl = this.pos - 1;
    let indent = 0;
    let ch: string | undefined;
    let i = this.pos;
    for (ch = text[i]; ch !== undefined; ch = text[++i]) {
      if (ch === ' ') indent += 1;
      else if (ch === '\n') {
        nl = i;
        indent = 0;
      } else if (ch !== '\r' || text[i + 1] !== '\n') break;
    }
    if (indent >= this.indentNext) {
      if (this.blockScalarIndent === -1) this.indentNext = indent;
      else this.indentNext = this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
      do {
        const cs = this.continueScalar(nl + 1);
        if (cs === -1) break;
        nl = text.indexOf('\n', cs);
      } while (nl !== -1);
      if (nl === -1) nl = text.length;
    }
    // Trailing insufficiently indented tabs are taken into the scalar (the lexer's rule).
    i = nl + 1;
    ch = text[i];
    while (ch === ' ') ch = text[++i];
    if (ch === '\t') {
      while (ch === '\t' || ch === ' ' || ch === '\r' || ch === '\n') ch = text[++i];
      nl = i - 1;
    } else if (!this.blockScalarKeep) {
      for (;;) {
        let j = nl - 1;
        let back = text[j];
        if (back === '\r') back = text[--j];
        const lastChar = j;
        while (back === ' ') back = text[--j];
        if (back === '\n' && j >= this.pos && j + 1 + indent > lastChar) nl = j;
        else break;
      }
    }
    this.moveTo(Math.min(nl + 1, text.length));
    if (this.pos >= text.length) return undefined;
    return this.lineStartState();
  }

  private plainScalar(): State {
    const { text } = this;
    const inFlow = this.flowLevel > 0;
    let end = this.pos - 1;
    let i = this.pos - 1;
    for (let ch = text[++i]; ch !== undefined; ch = text[++i]) {
      if (ch === ':') {
        const next = text[i + 1];
        if (isEmpty(next) || (inFlow && isFlowIndicator(next))) break;
        end = i;
      } else if (isEmpty(ch)) {
        let next = text[i + 1];
        if (ch === '\r') {
          if (next === '\n') {
            i += 1;
            ch = '\n';
            next = text[i + 1];
          } else end = i;
        }
        if (next === '#' || (inFlow && isFlowIndicator(next))) break;
        if (ch === '\n') {
          const cs = this.continueScalar(i + 1);
          if (cs === -1) break;
          i = Math.max(i, cs - 2);
        }
      } else {
        if (inFlow && isFlowIndicator(ch)) break;
        end = i;
      }
    }
    this.moveTo(end + 1);
    return inFlow ? 'flow' : 'doc';
  }
}
