/**
 * The cost of a CEL rule as the API server counts it, so that a rule too costly for the API server is
 * reported rather than run for minutes (issue 23: a cubic rule over 300 items ran 55 s here).
 *
 * The API server estimates each rule's cost when a CRD is created, from the schema's `maxLength`,
 * `maxItems` and `maxProperties` (or, without them, from how many values fit in a 3 MiB request), and
 * refuses a CRD whose rule costs more than 10,000,000 times the number of values it applies to, or whose
 * rules cost more than 100,000,000 together (k8s.io/apiextensions-apiserver validation.go:
 * StaticEstimatedCostLimit, StaticEstimatedCRDCostLimit). When it validates an object it stops a rule past
 * 1,000,000 (celconfig.PerCallLimit) and the object's rules past 10,000,000 together
 * (RuntimeCELCostBudget).
 *
 * The estimate follows cel-go's (checker/cost.go: one per identifier and field access, nothing for a
 * constant, a tenth per character compared or searched, ten per list created, a comprehension's step and
 * condition once per element of its range) with k8s.io/apiserver's sizes (pkg/cel/common/schemas.go:
 * strings up to four bytes a character). At validation the same estimate is taken with the sizes of the
 * value itself: an upper bound of what the API server counts while it runs the rule, so a rule under the
 * limits is run, and one over them is reported as the API server would stop it, without running it.
 */
// @ts-nocheck

import { isRecord, type JsonSchema } from './json-schema-passes';

/** A range of costs or sizes, as cel-go keeps them. */
export interface Estimate {
  readonly min: number;
  readonly max: number;
}

/** The API server's limits (k8s.io/apiserver pkg/apis/cel/config.go; apiextensions validation.go). */
export const CEL_LIMITS = {
  perCall: 1_000_000,
  runtimeBudget: 10_000_000,
  perRule: 10_000_000,
  perCrd: 100_000_000,
  requestBytes: 3 * 1024 * 1024,
} as const;

/** What the estimator knows of a value: its kind, how big it can be, and what it holds. */
export interface Shape {
  readonly kind: 'string' | 'list' | 'map' | 'object' | 'scalar' | 'dyn';
  /** Characters of a string, elements of a list or map. */
  readonly size: Estimate;
  /** The shape of a list's elements or a map's values. */
  readonly item?: Shape;
  /** The shape of an object's field. */
  readonly field?: (name: string) => Shape | undefined;
}

const fixed = (value: number): Estimate => ({ min: value, max: value });
const add = (a: Estimate, b: Estimate): Estimate => ({ min: a.min + b.min, max: a.max + b.max });
const union = (a: Estimate, b: Estimate): Estimate => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
const byFactor = (size: Estimate, factor: number): Estimate => ({ min: Math.ceil(size.min * factor), max: Math.ceil(size.max * factor) });
const times = (a: Estimate, b: Estimate): Estimate => ({ min: a.min * b.min, max: a.max * b.max });
const sum = (estimates: readonly Estimate[]): Estimate => estimates.reduce(add, fixed(0));

const UNKNOWN: Shape = { kind: 'dyn', size: { min: 0, max: Number.MAX_SAFE_INTEGER } };
const SCALAR: Shape = { kind: 'scalar', size: fixed(1) };
/** Characters, elements or properties that fit in a request, as k8s.io/apiserver estimates them. */
const requestWide = (minSerializedSize: number, perValue: number): number =>
  Math.floor((CEL_LIMITS.requestBytes - 2) / (minSerializedSize + perValue));

/** The smallest JSON a value of the schema can be (k8s.io/apiserver DeclType.MinSerializedSize). */
function minSerializedSize(schema: JsonSchema): number {
  if (schema['x-kubernetes-int-or-string'] === true) return 1;
  switch (schema.type) {
    case 'string':
      return 2;
    case 'boolean':
      return 4;
    case 'integer':
    case 'number':
      return 1;
    case 'object': {
      let size = 2;
      const properties = isRecord(schema.properties) ? schema.properties : {};
      for (const name of Array.isArray(schema.required) ? schema.required : [])
        if (isRecord(properties[name]) && properties[name].default === undefined)
          size += name.length + minSerializedSize(properties[name]) + 4;
      return size;
    }
    default:
      return 2;
  }
}

const STRING_FORMAT_LENGTH: Readonly<Record<string, number>> = { duration: 64, date: 12, 'date-time': 52 };

/**
 * The shape of a schema's values, with the largest sizes the API server assumes. `resolve` follows a
 * shared definition (compact schemas) to what it stands for.
 */
export function schemaShape(schema: JsonSchema, resolve: (node: JsonSchema) => JsonSchema = (node) => node, root = false): Shape {
  const node = resolve(schema);
  if (node['x-kubernetes-int-or-string'] === true) return { kind: 'dyn', size: { min: 0, max: CEL_LIMITS.requestBytes - 2 } };
  switch (node.type) {
    case 'string': {
      let max = CEL_LIMITS.requestBytes - 2;
      if (typeof node.maxLength === 'number' && node.format !== 'duration') max = Math.max(0, node.maxLength) * 4;
      else if (Array.isArray(node.enum) && node.enum.length > 0)
        max = Math.max(...node.enum.map((value: unknown) => (typeof value === 'string' ? value.length : 0)));
      else if (typeof node.format === 'string' && STRING_FORMAT_LENGTH[node.format]) max = STRING_FORMAT_LENGTH[node.format];
      return { kind: 'string', size: { min: 0, max } };
    }
    case 'array': {
      if (!isRecord(node.items)) return UNKNOWN;
      const items = resolve(node.items);
      const max = typeof node.maxItems === 'number' ? Math.max(0, node.maxItems) : requestWide(minSerializedSize(items), 1);
      return { kind: 'list', size: { min: 0, max }, item: schemaShape(items, resolve) };
    }
    case 'object': {
      if (isRecord(node.additionalProperties)) {
        const values = resolve(node.additionalProperties);
        const max = typeof node.maxProperties === 'number' ? node.maxProperties : requestWide(minSerializedSize(values), 6);
        return { kind: 'map', size: { min: 0, max }, item: schemaShape(values, resolve) };
      }
      const properties: JsonSchema = isRecord(node.properties) ? node.properties : {};
      return {
        kind: 'object',
        size: fixed(1),
        field: (name) => {
          if (isRecord(properties[name])) return schemaShape(properties[name], resolve);
          if (root && ['apiVersion', 'kind'].includes(name)) return { kind: 'string', size: { min: 0, max: CEL_LIMITS.requestBytes - 2 } };
          if (root && name === 'metadata') return metadataShape;
          return undefined;
        },
      };
    }
    default:
      return SCALAR;
  }
}

const metadataShape: Shape = {
  kind: 'object',
  size: fixed(1),
  field: (name) =>
    ['name', 'generateName'].includes(name) ? { kind: 'string', size: { min: 0, max: CEL_LIMITS.requestBytes - 2 } } : undefined,
};

/** A field the value does not have: nothing to iterate or compare (evaluating it is an error, at no cost). */
const ABSENT: Shape = { kind: 'dyn', size: fixed(0) };

/** The shape of a value as it is: its own sizes (the largest of its elements' for what they hold). */
export function valueShape(value: unknown): Shape {
  if (typeof value === 'string') return { kind: 'string', size: fixed([...value].length) };
  if (Array.isArray(value)) return { kind: 'list', size: fixed(value.length), item: joined(value.map(valueShape)) };
  if (isRecord(value)) {
    const entries = Object.values(value);
    return {
      kind: 'object',
      size: fixed(entries.length),
      item: joined(entries.map(valueShape)),
      field: (name) => (Object.hasOwn(value, name) ? valueShape(value[name]) : ABSENT),
    };
  }
  return SCALAR;
}

/** One shape for several values: the largest of each size. */
function joined(shapes: readonly Shape[]): Shape | undefined {
  if (shapes.length === 0) return undefined;
  return shapes.reduce((a, b) => ({
    kind: a.kind === b.kind ? a.kind : 'dyn',
    size: union(a.size, b.size),
    item: a.item && b.item ? joined([a.item, b.item]) : (a.item ?? b.item),
    field:
      a.field && b.field
        ? (name) => joined([a.field?.(name), b.field?.(name)].filter((shape) => shape !== undefined))
        : (a.field ?? b.field),
  }));
}

type Expr = { exprKind: { case: string; value: any } };

/** What an expression costs and what its value looks like. */
interface Costed {
  readonly cost: Estimate;
  readonly shape: Shape;
}

/** cel-go's estimate of `expr`, with `self` of `shape`. */
export function ruleCost(expr: Expr, self: Shape): Estimate {
  return costOf(expr, new Map([['self', self]])).cost;
}

function costOf(expr: Expr, scope: ReadonlyMap<string, Shape>): Costed {
  const { case: kind, value } = expr.exprKind;
  switch (kind) {
    case 'constExpr':
      return { cost: fixed(0), shape: constantShape(value) };
    case 'identExpr':
      return { cost: fixed(1), shape: scope.get(value.name) ?? UNKNOWN };
    case 'selectExpr': {
      const operand = costOf(value.operand, scope);
      // A presence test costs nothing of its own in the API server's environment (cel-go PresenceTestHasCost(false)).
      if (value.testOnly) return { cost: operand.cost, shape: SCALAR };
      const selected = operand.shape.kind === 'map' ? operand.shape.item : operand.shape.field?.(value.field);
      const access = operand.shape.kind === 'object' || operand.shape.kind === 'map' ? fixed(1) : fixed(0);
      return { cost: add(operand.cost, access), shape: selected ?? UNKNOWN };
    }
    case 'listExpr': {
      const elements = (value.elements as Expr[]).map((element) => costOf(element, scope));
      const item = joined(elements.map((element) => element.shape));
      return {
        cost: add(sum(elements.map((element) => element.cost)), fixed(10)),
        shape: { kind: 'list', size: fixed(elements.length), item },
      };
    }
    case 'structExpr': {
      const entries = (value.entries as { value: Expr; mapKey?: Expr }[]).flatMap((entry) => [
        entry.value,
        ...(entry.mapKey ? [entry.mapKey] : []),
      ]);
      return {
        cost: add(sum(entries.map((entry) => costOf(entry, scope).cost)), fixed(30)),
        shape: { kind: 'map', size: fixed(value.entries.length) },
      };
    }
    case 'comprehensionExpr':
      return comprehensionCost(value, scope);
    case 'callExpr':
      return callCost(value, scope);
    default:
      return { cost: fixed(0), shape: UNKNOWN };
  }
}

function constantShape(constant: { constantKind: { case: string; value: unknown } }): Shape {
  const { case: kind, value } = constant.constantKind;
  if (kind === 'stringValue') return { kind: 'string', size: fixed([...(value as string)].length) };
  if (kind === 'bytesValue') return { kind: 'string', size: fixed((value as Uint8Array).length) };
  return SCALAR;
}

function comprehensionCost(value: any, scope: ReadonlyMap<string, Shape>): Costed {
  const range = costOf(value.iterRange, scope);
  const init = costOf(value.accuInit, scope);
  const inner = new Map(scope);
  inner.set(value.accuVar, init.shape);
  inner.set(value.iterVar, range.shape.item ?? UNKNOWN);
  if (value.iterVar2) inner.set(value.iterVar2, range.shape.item ?? UNKNOWN);
  const loop = add(costOf(value.loopCondition, inner).cost, costOf(value.loopStep, inner).cost);
  const result = costOf(value.result, inner);
  const cost = sum([range.cost, init.cost, result.cost, times(range.shape.size, loop)]);
  const listResult = value.accuInit.exprKind.case === 'listExpr';
  return { cost, shape: listResult ? { kind: 'list', size: range.shape.size, item: range.shape.item } : result.shape };
}

const STRING_COMPARISON = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_']);

function callCost(call: { function: string; target?: Expr; args: Expr[] }, scope: ReadonlyMap<string, Shape>): Costed {
  const args = call.args.map((arg) => costOf(arg, scope));
  const target = call.target ? costOf(call.target, scope) : undefined;
  const argCost = sum([...args.map((arg) => arg.cost), ...(target ? [target.cost] : [])]);
  const sizeOf = (costed: Costed | undefined): Estimate => costed?.shape.size ?? UNKNOWN.size;
  const name = call.function;
  if (name === '_&&_' || name === '_||_')
    return { cost: { min: args[0].cost.min, max: args[0].cost.max + args[1].cost.max }, shape: SCALAR };
  if (name === '_?_:_')
    return { cost: add(args[0].cost, union(args[1].cost, args[2].cost)), shape: joined([args[1].shape, args[2].shape]) ?? UNKNOWN };
  if (STRING_COMPARISON.has(name)) {
    const smallest = Math.min(sizeOf(args[0]).max, sizeOf(args[1]).max);
    return { cost: add(byFactor({ min: smallest > 0 ? 1 : 0, max: smallest }, 0.1), argCost), shape: SCALAR };
  }
  if (name === '_+_' && args.length === 2) {
    const size = add(sizeOf(args[0]), sizeOf(args[1]));
    if (args[0].shape.kind === 'list')
      return {
        cost: add(fixed(1), argCost),
        shape: { kind: 'list', size, item: joined([args[0].shape.item, args[1].shape.item].filter((item) => item !== undefined)) },
      };
    if (args[0].shape.kind === 'string') return { cost: add(byFactor(size, 0.1), argCost), shape: { kind: 'string', size } };
  }
  if ((name === 'startsWith' || name === 'endsWith') && args.length === 1)
    return { cost: add(byFactor(sizeOf(args[0]), 0.1), argCost), shape: SCALAR };
  if (name === 'contains' && target && args.length === 1)
    return { cost: add(times(byFactor(sizeOf(target), 0.1), byFactor(sizeOf(args[0]), 0.1)), argCost), shape: SCALAR };
  if (name === 'matches' && target && args.length === 1) {
    const text = byFactor(add(sizeOf(target), fixed(1)), 0.1);
    return { cost: add(times(text, byFactor(sizeOf(args[0]), 0.25)), argCost), shape: SCALAR };
  }
  if (name === '@in' && args.length === 2) return { cost: add(byFactor(sizeOf(args[1]), 1), argCost), shape: SCALAR };
  if (name === 'size') return { cost: add(fixed(1), argCost), shape: SCALAR };
  return { cost: add(fixed(1), argCost), shape: UNKNOWN };
}

/** A rule of a CRD's schema whose estimated cost is over the API server's limits. */
export interface CostlyRule {
  /** Where in the schema: property names, `*` for list items, `{}` for map values. */
  readonly at: string;
  readonly rule: string;
  readonly message: string;
}

/**
 * The rules of a schema the API server refuses the CRD for, by their estimated cost times how many values
 * they apply to (`validation.go`: getExpressionCost, then each against StaticEstimatedCostLimit and their
 * total against StaticEstimatedCRDCostLimit). `parse` gives a rule's AST; `resolve` follows shared definitions.
 */
export function costlyRules(root: JsonSchema, resolve: (node: JsonSchema) => JsonSchema, parse: (rule: string) => Expr): CostlyRule[] {
  const found: CostlyRule[] = [];
  let total = 0;
  const walk = (schema: JsonSchema, at: string, cardinality: number, bounded: boolean, isRoot: boolean): void => {
    const node = resolve(schema);
    for (const entry of Array.isArray(node['x-kubernetes-validations']) ? node['x-kubernetes-validations'] : []) {
      if (!isRecord(entry) || typeof entry.rule !== 'string') continue;
      let cost: number;
      try {
        cost = ruleCost(parse(entry.rule), schemaShape(node, resolve, isRoot)).max;
      } catch {
        continue;
      }
      const times = bounded ? cardinality : requestWide(minSerializedSize(node), 1);
      const expressionCost = cost === 0 ? 0 : Math.min(cost * Math.max(times, 1), Number.MAX_VALUE);
      total += expressionCost;
      if (expressionCost > CEL_LIMITS.perRule)
        found.push({ at: at || '/', rule: entry.rule, message: budgetMessage('estimated rule cost', expressionCost, CEL_LIMITS.perRule) });
    }
    for (const [name, child] of Object.entries(isRecord(node.properties) ? node.properties : {}))
      walk(child, `${at}/${name}`, cardinality, bounded, false);
    for (const [key, mark] of [
      ['items', '*'],
      ['additionalProperties', '{}'],
    ] as const) {
      if (!isRecord(node[key])) continue;
      const limit = key === 'items' ? node.maxItems : node.maxProperties;
      walk(node[key], `${at}/${mark}`, cardinality * (typeof limit === 'number' ? limit : 1), bounded && typeof limit === 'number', false);
    }
  };
  walk(root, '', 1, true, true);
  if (total > CEL_LIMITS.perCrd)
    found.push({
      at: '/',
      rule: 'x-kubernetes-validations',
      message: budgetMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total, CEL_LIMITS.perCrd),
    });
  return found;
}

/** The API server's words for a cost over a limit (validation.go, getCostErrorMessage). */
function budgetMessage(what: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const by = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${by} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
