/**
 * Go text/template with Sprig, as Argo Events v1.9 renders `dataTemplate` (`.Input` = gjson's `Value()` of
 * the event data) and data-filter templates, for a documented subset; anything outside it is refused with
 * an UnsupportedFeatureError rather than guessed.
 *
 * Syntax (go-template-lexer.ts, go-template-parser.ts): text; actions `{{ }}` with trim markers `{{- ` and
 * ` -}}`; comments; pipelines with `|` and parentheses; fields `.Input.body.number` on maps; variables
 * `$x := ...`, `$x = ...` (Go 1.11+ assignment) and `$`; `if` / `else if` / `else` / `end`; `range` over
 * lists, with `.` bound to each element, `range $e := ...`, `range $i, $e := ...` and `{{else}}`; string
 * literals `"..."` (Go escapes) and raw `` `...` ``; decimal numbers; `true`, `false`, `nil`.
 * Functions: see go-template-functions.ts.
 *
 * Execution follows `text/template/exec.go`:
 * - a missing map key gives "no value": it prints `<no value>`, is false, and fields of it are again
 *   "no value"; a field of a JSON `null` is an error ("nil pointer evaluating interface {}.x");
 * - strings print raw; JSON numbers are float64 and print with `%v`, so 42 prints `42`, 1.5 prints `1.5`
 *   and 1234567 prints `1.234567e+06`; integers (`len`, literals) print in decimal; booleans print
 *   `true`/`false`; printing a map or list is refused (Go would print `map[...]` / `[...]`; use `toJson`);
 * - truth: "", 0, false, nil, empty lists and maps are false;
 * - variables declared inside `if`/`range` end with it; `range` resets body variables each iteration;
 * - `and`/`or` short-circuit and return the deciding operand.
 * Template syntax errors and Go execution errors are plain Errors that give `line:column`.
 */
// @ts-nocheck

import { goJson, goTypeName } from './go-format';
import { isRecord } from '../../is-record';
import { formatScalar, isNil, TEMPLATE_FUNCTIONS, truth, type ParamType } from './go-template-functions';
import { templateContext, templatePosition, unsupportedInTemplate } from './go-template-lexer';
import { TemplateParser, type Command, type ControlNode, type Operand, type Pipe, type TemplateNode } from './go-template-parser';
import { UnsupportedFeatureError } from './unsupported';

export { goJson };

/** The "no previous command" marker for the first command of a pipeline (Go's `missingVal`). */
const MISSING = Symbol('missing');
/** The previous command's result, given to the next one as its last argument, or MISSING. */
type Final = unknown;

interface Variable {
  readonly name: string;
  value: unknown;
}

class Executor {
  private readonly vars: Variable[];
  private out = '';
  /** Where execution is, for error messages (Go's `state.at`). */
  private pos = 0;

  public constructor(
    private readonly template: string,
    data: unknown,
  ) {
    this.vars = [{ name: '$', value: data }];
  }

  public run(nodes: readonly TemplateNode[], dot: unknown): string {
    this.walkList(dot, nodes);
    return this.out;
  }

  private fail(message: string): never {
    throw new Error(`template: param:${templatePosition(this.template, this.pos)}: executing "param": ${message}`);
  }

  private refuse(what: string): never {
    throw unsupportedInTemplate(this.template, this.pos, what);
  }

  private walkList(dot: unknown, nodes: readonly TemplateNode[]): void {
    for (const node of nodes) this.walk(dot, node);
  }

  private walk(dot: unknown, node: TemplateNode): void {
    switch (node.kind) {
      case 'text':
        this.out += node.text;
        return;
      case 'action': {
        this.pos = node.pos;
        const value = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.print(value);
        return;
      }
      case 'if':
        this.walkIf(dot, node);
        return;
      case 'range':
        this.walkRange(dot, node);
        return;
    }
  }

  /** Variables declared in the condition or the branches end with the `if`. */
  private walkIf(dot: unknown, node: ControlNode): void {
    const mark = this.vars.length;
    this.pos = node.pos;
    const condition = this.evalPipeline(dot, node.pipe);
    if (truth(condition)) this.walkList(dot, node.list);
    else if (node.elseList) this.walkList(dot, node.elseList);
    this.vars.length = mark;
  }

  private walkRange(dot: unknown, node: ControlNode): void {
    const mark = this.vars.length;
    this.pos = node.pos;
    const value = this.evalPipeline(dot, node.pipe);
    const bodyMark = this.vars.length;
    if (Array.isArray(value) && value.length > 0) {
      value.forEach((element, index) => {
        this.bindRangeVariables(node.pipe, BigInt(index), element);
        this.walkList(element, node.list);
        this.vars.length = bodyMark;
      });
    } else if (isNil(value) || Array.isArray(value)) {
      if (node.elseList) this.walkList(dot, node.elseList);
    } else if (isRecord(value)) {
      this.refuse('range over a map');
    } else if (typeof value === 'bigint') {
      this.refuse('range over an integer');
    } else {
      this.fail(`range can't iterate over ${formatScalar(value)}`);
    }
    this.vars.length = mark;
  }

  /** Go's `oneIteration`: one variable gets the element, two get the index and the element. */
  private bindRangeVariables(pipe: Pipe, index: bigint, element: unknown): void {
    const [first, second] = pipe.decl;
    if (first === undefined) return;
    if (pipe.isAssign) {
      this.setVar(first, second === undefined ? element : index);
      if (second !== undefined) this.setVar(second, element);
      return;
    }
    this.vars[this.vars.length - 1].value = element;
    if (second !== undefined) this.vars[this.vars.length - 2].value = index;
  }

  private print(value: unknown): void {
    if (isNil(value)) this.out += '<no value>';
    else if (typeof value === 'object')
      this.refuse(
        `printing a ${Array.isArray(value) ? 'list' : 'map'} (Go prints ${Array.isArray(value) ? '[...]' : 'map[...]'}; pipe it to toJson)`,
      );
    else this.out += formatScalar(value);
  }

  private lookup(name: string): unknown {
    for (let index = this.vars.length - 1; index >= 0; index--) if (this.vars[index].name === name) return this.vars[index].value;
    return this.fail(`undefined variable: ${name}`);
  }

  private setVar(name: string, value: unknown): void {
    for (let index = this.vars.length - 1; index >= 0; index--) {
      if (this.vars[index].name === name) {
        this.vars[index].value = value;
        return;
      }
    }
    this.fail(`undefined variable: ${name}`);
  }

  /** Runs the commands, each given the previous result as its last argument, then declares or assigns. */
  private evalPipeline(dot: unknown, pipe: Pipe): unknown {
    let value: unknown = MISSING;
    for (const command of pipe.cmds) {
      value = this.evalCommand(dot, command, value);
      // Go digs into `interface{}` results: a JSON null held in one becomes "no value".
      if (value === null) value = undefined;
    }
    for (const name of pipe.decl) {
      if (pipe.isAssign) this.setVar(name, value);
      else this.vars.push({ name, value });
    }
    return value;
  }

  private evalCommand(dot: unknown, command: Command, final: Final): unknown {
    const [first] = command.args;
    this.pos = first.pos;
    switch (first.kind) {
      case 'field':
        return this.evalFieldChain(dot, first.idents, command.args, final);
      case 'chain':
        return this.evalChain(dot, first, command.args, final);
      case 'identifier':
        return this.evalFunction(dot, first.name, command.args.slice(1), final);
      case 'variable':
        return this.evalVariable(first, command.args, final);
      default:
        break;
    }
    this.notAFunction(command.args, final);
    switch (first.kind) {
      case 'pipe':
        return this.evalPipeline(dot, first.pipe);
      case 'dot':
        return dot;
      case 'nil':
        return this.fail('nil is not a command');
      default:
        return first.value;
    }
  }

  private notAFunction(args: readonly Operand[], final: Final): void {
    if (args.length > 1 || final !== MISSING) this.fail(`can't give argument to non-function ${describeOperand(args[0])}`);
  }

  private evalFieldChain(receiver: unknown, idents: readonly string[], args: readonly Operand[], final: Final): unknown {
    let value = receiver;
    idents.forEach((name, index) => {
      const last = index === idents.length - 1;
      value = this.evalField(name, last && (args.length > 1 || final !== MISSING), value);
    });
    return value;
  }

  /** A map key; "no value" stays "no value"; a JSON null or a non-map is an error. */
  private evalField(name: string, hasArgs: boolean, receiver: unknown): unknown {
    if (receiver === undefined) return undefined;
    if (receiver === null) return this.fail(`nil pointer evaluating interface {}.${name}`);
    if (!isRecord(receiver)) return this.fail(`can't evaluate field ${name} in type ${goTypeName(receiver)}`);
    if (hasArgs) return this.fail(`${name} is not a method but has arguments`);
    return Object.hasOwn(receiver, name) ? receiver[name] : undefined;
  }

  private evalVariable(operand: Extract<Operand, { kind: 'variable' }>, args: readonly Operand[], final: Final): unknown {
    const [name, ...fields] = operand.idents;
    const value = this.lookup(name);
    if (fields.length === 0) {
      this.notAFunction(args.length > 0 ? args : [operand], final);
      return value;
    }
    return this.evalFieldChain(value, fields, args, final);
  }

  private evalChain(dot: unknown, chain: Extract<Operand, { kind: 'chain' }>, args: readonly Operand[], final: Final): unknown {
    const receiver = this.evalArg(dot, 'any', chain.node);
    return this.evalFieldChain(receiver === null ? undefined : receiver, chain.fields, args, final);
  }

  private evalFunction(dot: unknown, name: string, argNodes: readonly Operand[], final: Final): unknown {
    const fn = TEMPLATE_FUNCTIONS[name];
    const pos = this.pos;
    const count = argNodes.length + (final === MISSING ? 0 : 1);
    const fixed = fn.params.length;
    if (fn.variadic !== undefined && count < fixed) this.fail(`wrong number of args for ${name}: want at least ${fixed} got ${count}`);
    if (fn.variadic === undefined && count !== fixed) this.fail(`wrong number of args for ${name}: want ${fixed} got ${count}`);
    if (name === 'and' || name === 'or') return this.evalAndOr(dot, name, argNodes, final);
    const typeAt = (index: number): ParamType => (index < fixed ? fn.params[index] : fn.variadic!);
    const args = argNodes.map((node, index) => this.evalArg(dot, typeAt(index), node));
    if (final !== MISSING) args.push(this.validate(final, typeAt(count - 1)));
    this.pos = pos;
    try {
      return fn.call(args);
    } catch (error) {
      if (error instanceof UnsupportedFeatureError)
        throw new UnsupportedFeatureError(`${templateContext(this.template, pos)}: ${error.message}`);
      return this.fail(`error calling ${name}: ${(error as Error).message}`);
    }
  }

  /** `and`/`or` evaluate arguments left to right and stop at the first false / true one. */
  private evalAndOr(dot: unknown, name: 'and' | 'or', argNodes: readonly Operand[], final: Final): unknown {
    let value: unknown;
    for (const node of argNodes) {
      value = this.evalArg(dot, 'any', node);
      if (truth(value) === (name === 'or')) return value;
    }
    return final === MISSING ? value : final;
  }

  /** An argument, checked against the parameter type as Go's `evalArg` / `validateType` do. */
  private evalArg(dot: unknown, type: ParamType, node: Operand): unknown {
    this.pos = node.pos;
    switch (node.kind) {
      case 'dot':
        return this.validate(dot, type);
      case 'nil':
        return type === 'any' ? undefined : this.fail('cannot assign nil to string');
      case 'field':
        return this.validate(this.evalFieldChain(dot, node.idents, [node], MISSING), type);
      case 'variable':
        return this.validate(this.evalVariable(node, [node], MISSING), type);
      case 'chain':
        return this.validate(this.evalChain(dot, node, [node], MISSING), type);
      case 'pipe':
        return this.validate(this.evalPipeline(dot, node.pipe), type);
      case 'identifier':
        return this.validate(this.evalFunction(dot, node.name, [], MISSING), type);
      case 'string':
        return node.value;
      case 'bool':
        return type === 'any' ? node.value : this.fail(`expected string; found ${node.value}`);
      case 'number':
        return type === 'any' ? node.value : this.fail(`expected string; found ${node.text}`);
    }
  }

  private validate(value: unknown, type: ParamType): unknown {
    if (type === 'any' || typeof value === 'string') return value;
    if (value === undefined) return this.fail('invalid value; expected string');
    return this.fail(`wrong type for value; expected string; got ${value === null ? 'interface {}' : goTypeName(value)}`);
  }
}

function describeOperand(operand: Operand): string {
  switch (operand.kind) {
    case 'field':
      return `.${operand.idents.join('.')}`;
    case 'variable':
      return operand.idents.join('.');
    case 'string':
      return JSON.stringify(operand.value);
    case 'number':
      return operand.text;
    case 'bool':
      return String(operand.value);
    default:
      return operand.kind;
  }
}

/**
 * Renders `template` with `data` as dot (and `$`), as Go's text/template with Sprig would. Argo Events
 * passes `{ Input: <event data> }`.
 */
export function renderGoTemplate(template: string, data: unknown): string {
  const nodes = new TemplateParser(template).parse();
  return new Executor(template, data).run(nodes, data);
}
