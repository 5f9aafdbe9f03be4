/**
 * The CEL rules (`x-kubernetes-validations`) of any CRD schema, evaluated by @bufbuild/cel: ajv cannot
 * evaluate CEL, and the API server enforces these rules at apply time. A rule the library cannot parse, a
 * transition rule (one that reads `oldSelf`, which the API server evaluates only on update, with the stored
 * object we do not have), and a rule calling the Kubernetes CEL libraries are reported as not evaluated,
 * never silently passed.
 *
 * `self` is the JSON value at the rule's schema node; the library reads integral numbers as CEL `int`, as
 * the API server does for integer fields. Choice and reasons: docs/fidelity.md.
 */
// @ts-nocheck

import type { CelEnv } from '@bufbuild/cel';
import { CEL_LIMITS, ruleCost, valueShape } from './cel-cost';
import { celLibrary } from './cel-library';
import { cachedParse } from './cel-parse-cache';
import { dereferenced } from './compact-schema';
import { isRecord, SCHEMA_LISTS, type JsonSchema } from './json-schema-passes';
import { escapePointer, type SchemaProblem } from './schema-problem';

type CompiledRule = (context: Record<string, unknown>) => unknown;

let environment: CelEnv | undefined;

/** Parses and plans a CEL expression once; the returned function throws the library's evaluation error. */
function compile(expression: string): CompiledRule {
  const { celEnv, isCelError, plan } = celLibrary();
  environment ??= celEnv();
  const program = plan(environment, cachedParse(expression));
  return (context) => {
    const result = program(context as Parameters<typeof program>[0]);
    if (isCelError(result)) throw new Error(result.message);
    return result;
  };
}

/** `self.all(t, P)` over a list: the API server's verdict is the same as P on each item, which names the item. */
interface PerItemRule {
  readonly variable: string;
  readonly predicate: CompiledRule;
}

const ALL_ITEMS = /^\s*self\.all\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,([\s\S]*)\)\s*$/;
const perItemRules = new Map<string, PerItemRule | undefined>();

function perItemRule(rule: string): PerItemRule | undefined {
  if (perItemRules.has(rule)) return perItemRules.get(rule);
  const match = ALL_ITEMS.exec(rule);
  let found: PerItemRule | undefined;
  try {
    if (match) found = { variable: match[1], predicate: compile(match[2]) };
  } catch {
    found = undefined;
  }
  perItemRules.set(rule, found);
  return found;
}

const compiled = new Map<string, CompiledRule | string>();

/**
 * Functions of the Kubernetes CEL libraries (URLs, quantities, IPs, CIDRs, semver, format, authorizer) that
 * a general CEL library does not have: a rule calling one is not evaluated here.
 */
const KUBERNETES_ONLY_FUNCTION =
  /\b(isURL|url|isQuantity|quantity|isIP|ip|isCIDR|cidr|isSemver|semver|authorizer|format\.[A-Za-z0-9]+)\s*\(/;

/** The rule compiled once, or why it cannot be evaluated here. */
function compileRule(rule: string): CompiledRule | string {
  const known = compiled.get(rule);
  if (known !== undefined) return known;
  let result: CompiledRule | string;
  try {
    const program = compile(rule);
    if (/\boldSelf\b/.test(rule)) result = 'a transition rule (oldSelf) is only evaluated on update';
    else if (KUBERNETES_ONLY_FUNCTION.test(rule)) result = 'it calls a function of the Kubernetes CEL libraries';
    else result = program;
  } catch (error) {
    result = `the CEL library cannot compile it (${(error as Error).message.split('\n')[0]})`;
  }
  compiled.set(rule, result);
  return result;
}

/** A CEL rule found in a schema. */
interface CelValidation {
  readonly rule: string;
  readonly message: string;
  /** The compiled rule, or why it is not evaluated. */
  readonly check: CompiledRule | string;
}

/**
 * What the API server has spent on an object's rules so far (cel-cost.ts): it stops a rule past the
 * per-call limit and the object's rules past the runtime budget.
 */
interface CostBudget {
  spent: number;
  exhausted: boolean;
}

/** The cost of a rule on a value, with the value's own sizes: what the API server counts at most. */
function costOnValue(rule: string, value: unknown): number {
  try {
    return ruleCost(cachedParse(rule).expr as Parameters<typeof ruleCost>[0], valueShape(value)).max;
  } catch {
    return 0;
  }
}

function celValidations(schema: JsonSchema): CelValidation[] {
  const rules = schema['x-kubernetes-validations'];
  if (!Array.isArray(rules)) return [];
  return rules
    .filter((entry): entry is { rule: string; message?: string } => isRecord(entry) && typeof entry.rule === 'string')
    .map((entry) => ({ rule: entry.rule, message: entry.message ?? `failed rule: ${entry.rule}`, check: compileRule(entry.rule) }));
}

/** Where a CEL rule is in a schema, and its text. */
export interface CelRuleLocation {
  /** Schema location: property names, `*` for list items, `{}` for map values. */
  readonly at: string;
  readonly rule: string;
}

/**
 * The CEL rules of a schema that this package does not evaluate, with where they are. Structural schemas
 * allow no `x-kubernetes-*` inside allOf/anyOf/oneOf/not, so rules there are reported too (never evaluated).
 */
export function unevaluatedCelRules(schema: JsonSchema, at = ''): CelRuleLocation[] {
  const found: CelRuleLocation[] = celValidations(schema)
    .filter((validation) => typeof validation.check === 'string')
    .map((validation) => ({ at: at || '/', rule: validation.rule }));
  for (const [name, child] of Object.entries(isRecord(schema.properties) ? schema.properties : {}))
    found.push(...unevaluatedCelRules(child, `${at}/${name}`));
  if (isRecord(schema.items)) found.push(...unevaluatedCelRules(schema.items, `${at}/*`));
  if (isRecord(schema.additionalProperties)) found.push(...unevaluatedCelRules(schema.additionalProperties, `${at}/{}`));
  for (const key of [...SCHEMA_LISTS, 'not']) {
    if (JSON.stringify(schema[key] ?? null).includes('"x-kubernetes-validations"'))
      found.push({ at: `${at || '/'} (inside ${key})`, rule: 'x-kubernetes-validations' });
  }
  return found;
}

/**
 * Whether any node of `schemas` (and what they hold, `$ref`s aside) has a CEL rule that
 * `unevaluatedCelRules` would report, or a rule inside allOf/anyOf/oneOf/not: a look at every node without
 * building paths, so that the walk that says where each one is runs only when there is one (the built-in
 * Argo schemas have none). It may answer true for a rule the walk does not reach, never false for one it does.
 */
export function holdsUnevaluatedCelRule(schemas: readonly unknown[]): boolean {
  const pending = [...schemas];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    if (!isRecord(node)) continue;
    for (const key in node) {
      const child = node[key];
      if (key === 'x-kubernetes-validations') {
        if (celValidations(node).some((validation) => typeof validation.check === 'string')) return true;
      } else if ((key === 'not' || SCHEMA_LISTS.includes(key)) && JSON.stringify(child ?? null).includes('"x-kubernetes-validations"')) {
        return true;
      } else if (child !== null && typeof child === 'object') pending.push(child);
    }
  }
  return false;
}

/** One evaluation: nothing when the rule holds, else the problem at `at`. */
function evaluateRule(rule: string, message: string, check: CompiledRule, context: Record<string, unknown>, at: string): SchemaProblem[] {
  let holds: unknown;
  try {
    holds = check(context);
  } catch (error) {
    // The API server reports an evaluation error (a missing key, say) as a failed validation too.
    return [{ pointer: at, message: `${message} (CEL error: ${(error as Error).message.split('\n')[0]})`, kind: 'cel' }];
  }
  if (holds === true) return [];
  return [
    { pointer: at, message: holds === false ? message : `${message} (rule ${rule} gave ${String(holds)}, not a boolean)`, kind: 'cel' },
  ];
}

/**
 * Evaluates the CEL rules of `schema` (and of its sub-schemas) against `value`, as the API server would.
 * `$ref`s are followed into `definitions` where the value leads, instead of the whole tree being inlined
 * first (a copy of the Argo Workflows schema, a tenth of what a synthesis allocated for validation).
 * @param definitions the shared definitions of a compact schema @default none
 */
export function celProblems(
  schema: JsonSchema,
  value: unknown,
  at = '',
  definitions: Readonly<Record<string, JsonSchema>> = {},
  budget: CostBudget = { spent: 0, exhausted: false },
): SchemaProblem[] {
  return celProblemsAt(dereferenced(schema, definitions), value, at, definitions, budget);
}

function celProblemsAt(
  schema: JsonSchema,
  value: unknown,
  at: string,
  definitions: Readonly<Record<string, JsonSchema>>,
  budget: CostBudget,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const { rule, message, check } of celValidations(schema)) {
    if (typeof check === 'string' || value === undefined || budget.exhausted) continue;
    const cost = costOnValue(rule, value);
    if (cost > CEL_LIMITS.perCall) {
      problems.push({
        pointer: at,
        message: `${message} (the rule's cost on this value, up to ${cost}, is over the API server's limit of ${CEL_LIMITS.perCall} per rule: it stops the rule and refuses the object)`,
        kind: 'cel',
      });
      continue;
    }
    budget.spent += cost;
    if (budget.spent > CEL_LIMITS.runtimeBudget) {
      budget.exhausted = true;
      problems.push({
        pointer: at,
        message: `validation failed due to running out of cost budget, no further validation rules will be run (the object's rules cost up to ${budget.spent}, over the API server's budget of ${CEL_LIMITS.runtimeBudget})`,
        kind: 'cel',
      });
      continue;
    }
    const perItem = Array.isArray(value) ? perItemRule(rule) : undefined;
    if (perItem && Array.isArray(value)) {
      value.forEach((item: unknown, index: number) => {
        problems.push(
          ...evaluateRule(
            rule,
            message,
            (context) => perItem.predicate(context),
            { self: value, [perItem.variable]: item },
            `${at}/${index}`,
          ),
        );
      });
    } else {
      problems.push(...evaluateRule(rule, message, check, { self: value }, at));
    }
  }
  if (isRecord(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const [key, child] of Object.entries(value)) {
      const sub = Object.hasOwn(properties, key)
        ? properties[key]
        : isRecord(schema.additionalProperties)
          ? schema.additionalProperties
          : undefined;
      if (sub) problems.push(...celProblems(sub, child, `${at}/${escapePointer(key)}`, definitions, budget));
    }
  } else if (Array.isArray(value) && isRecord(schema.items)) {
    value.forEach((item: unknown, index: number) => {
      problems.push(...celProblems(schema.items, item, `${at}/${index}`, definitions, budget));
    });
  }
  return problems;
}
