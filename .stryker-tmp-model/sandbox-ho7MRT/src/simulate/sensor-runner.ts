/**
 * Runs an Argo Events Sensor, as we synthesize it, against one GitHub delivery: its dependency filters and
 * its trigger parameters, with Argo Events' own semantics (gjson paths, Go regexps, govaluate expressions,
 * Go templates). It covers the subset of Sensor features we emit and refuses every other one, so a result
 * is never a guess.
 */
// @ts-nocheck

import { UnsupportedFeatureError } from './engine/unsupported';
import { gjsonGet, gjsonString } from './engine/gjson';
import { sjsonSet } from './engine/sjson';
import { renderGoTemplate } from './engine/go-template';
import { evaluateExpr } from './engine/govaluate';
import { goRegexpMatch } from './engine/re2';

/** The event data a GitHub EventSource publishes: headers, and the body with the event type copied in. */
export interface GithubEventData {
  readonly headers: Record<string, string[]>;
  readonly body: Record<string, unknown>;
  readonly metadata: Record<string, string>;
}

/**
 * Builds the data Argo Events' GitHub EventSource publishes for a delivery: the body as decoded into a map
 * (duplicate keys resolved, the last winning: see readPayload), with `X-GitHub-Event` and `X-GitHub-Delivery`
 * set into it over any keys of those names (argo-events v1.9.11, pkg/eventsources/sources/github/start.go).
 */
export function githubEventData(event: string, payload: Record<string, unknown>, delivery: string): GithubEventData {
  return {
    headers: { 'X-Github-Event': [event], 'X-Github-Delivery': [delivery], 'Content-Type': ['application/json'] },
    body: { ...payload, 'X-GitHub-Event': event, 'X-GitHub-Delivery': delivery },
    metadata: {},
  };
}

/** Why a dependency did not match: the first filter that failed. */
export interface FilterMiss {
  readonly dependency: string;
  readonly reason: string;
}

/** A trigger that fired, with its resource after the parameters were applied. */
export interface FiredTrigger {
  readonly name: string;
  readonly kind: 'k8s' | 'argoWorkflow';
  readonly operation: string;
  readonly resource: Record<string, any>;
  readonly args: readonly string[];
  /**
   * How many attempts a failing trigger gets: `retryStrategy.steps` (at least 1) with `atLeastOnce`, else
   * one, since without it the trigger runs in a goroutine and its failure never reaches the retry loop
   * (argo-events `pkg/sensors/listener.go`; `pkg/shared/util/retry.go`, `DoWithRetry`).
   */
  readonly attempts: number;
}

export interface SensorRun {
  readonly sensor: string;
  readonly matched: readonly string[];
  readonly misses: readonly FilterMiss[];
  readonly fired: readonly FiredTrigger[];
}

const SUPPORTED_DEPENDENCY_KEYS = new Set(['name', 'eventSourceName', 'eventName', 'filters']);
const SUPPORTED_FILTER_KEYS = new Set(['data', 'exprs', 'exprLogicalOperator']);
const SUPPORTED_TEMPLATE_KEYS = new Set(['name', 'conditions', 'k8s', 'argoWorkflow']);
const SUPPORTED_SOURCE_KEYS = new Set(['dependencyName', 'dataKey', 'dataTemplate', 'value']);

function refuseUnknown(where: string, value: Record<string, unknown>, supported: Set<string>): void {
  for (const key of Object.keys(value)) {
    if (!supported.has(key)) throw new UnsupportedFeatureError(`${where}.${key}: the simulator does not implement this Sensor feature`);
  }
}

/** Runs `sensor` against `data`; `source` names the EventSource (name and event name) the delivery came through. */
export function runSensor(sensor: Record<string, any>, data: GithubEventData, source: { name: string; eventName: string }): SensorRun {
  const name: string = sensor.metadata.name;
  const matched: string[] = [];
  const misses: FilterMiss[] = [];
  for (const dependency of sensor.spec.dependencies as Record<string, any>[]) {
    refuseUnknown(`Sensor ${name} dependency ${dependency.name}`, dependency, SUPPORTED_DEPENDENCY_KEYS);
    if (dependency.eventSourceName !== source.name || dependency.eventName !== source.eventName) {
      misses.push({ dependency: dependency.name, reason: `listens to ${dependency.eventSourceName}/${dependency.eventName}` });
      continue;
    }
    const reason = filterMiss(`Sensor ${name} dependency ${dependency.name}`, dependency.filters ?? {}, data);
    if (reason === undefined) matched.push(dependency.name);
    else misses.push({ dependency: dependency.name, reason });
  }
  const fired: FiredTrigger[] = [];
  for (const trigger of sensor.spec.triggers as Record<string, any>[]) {
    const template = trigger.template;
    refuseUnknown(`Sensor ${name} trigger ${template.name}`, template, SUPPORTED_TEMPLATE_KEYS);
    if (trigger.parameters?.length)
      throw new UnsupportedFeatureError(`Sensor ${name} trigger ${template.name}: trigger-level parameters are not implemented`);
    if (
      !conditionsHold(
        template.conditions,
        sensor.spec.dependencies.map((dependency: any) => dependency.name),
        matched,
      )
    )
      continue;
    fired.push({ ...fireTrigger(`Sensor ${name} trigger ${template.name}`, template, matched, data), attempts: attemptsOf(trigger) });
  }
  return { sensor: name, matched, misses, fired };
}

/**
 * Argo Events evaluates expressions first, then data filters; both groups must pass (we emit no
 * `filtersLogicalOperator`). Expressions must all hold, or with `exprLogicalOperator: or` one of them: an
 * alternative whose field is missing or whose evaluation fails is skipped (argo-events
 * `pkg/sensors/dependencies/filter.go`, `filterExpr`).
 */
function filterMiss(where: string, filters: Record<string, any>, data: GithubEventData): string | undefined {
  refuseUnknown(`${where}.filters`, filters, SUPPORTED_FILTER_KEYS);
  const operator = filters.exprLogicalOperator ?? 'and';
  if (operator !== 'and' && operator !== 'or')
    throw new UnsupportedFeatureError(`${where}: exprLogicalOperator "${operator}" is not implemented`);
  const exprs: Record<string, any>[] = filters.exprs ?? [];
  const exprMisses = exprs.map((expr) => exprMiss(expr, data));
  const exprMissed =
    operator === 'or' ? exprs.length > 0 && exprMisses.every((miss) => miss !== undefined) : exprMisses.some((miss) => miss !== undefined);
  if (exprMissed) return exprMisses.filter((miss) => miss !== undefined).join('; ');
  for (const filter of filters.data ?? []) {
    const miss = dataFilterMiss(where, filter, data);
    if (miss !== undefined) return miss;
  }
  return undefined;
}

/** Why one expression filter does not hold, or undefined when it holds. */
function exprMiss(expr: Record<string, any>, data: GithubEventData): string | undefined {
  const variables: Record<string, unknown> = {};
  for (const field of expr.fields) {
    const result = gjsonGet(data, field.path);
    if (!result.exists) return `${field.path} is missing`;
    variables[field.name] = result.value;
  }
  let holds: boolean;
  try {
    holds = evaluateExpr(expr.expr, variables);
  } catch (error) {
    // Argo Events counts an expression that fails to evaluate as a filter that does not pass.
    if (error instanceof UnsupportedFeatureError) throw error;
    return `${expr.expr} failed: ${(error as Error).message}`;
  }
  if (!holds)
    return `${expr.expr} is false (${expr.fields.map((field: any) => `${field.name}=${JSON.stringify(variables[field.name])}`).join(', ')})`;
  return undefined;
}

function dataFilterMiss(where: string, filter: Record<string, any>, data: GithubEventData): string | undefined {
  refuseUnknown(`${where} data filter ${filter.path}`, filter, new Set(['path', 'type', 'value', 'comparator']));
  const result = gjsonGet(data, filter.path);
  if (!result.exists) return `${filter.path} is missing`;
  const comparator = filter.comparator ?? '=';
  if (comparator !== '=' && comparator !== '!=')
    throw new UnsupportedFeatureError(`${where}: comparator "${comparator}" is not implemented`);
  let hit: boolean;
  if (filter.type === 'string') {
    const text = gjsonString(result);
    hit = (filter.value as string[]).some((pattern) => goRegexpMatch(pattern, text));
  } else if (filter.type === 'bool') {
    const actual = result.value === true || result.value === 'true';
    hit = (filter.value as string[]).some((value) => parseGoBool(value) === actual);
  } else {
    throw new UnsupportedFeatureError(`${where}: data filter type "${filter.type}" is not implemented`);
  }
  if (comparator === '!=') hit = !hit;
  return hit ? undefined : `${filter.path} is ${JSON.stringify(gjsonString(result))}, not ${filter.value.join(' or ')}`;
}

function parseGoBool(text: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw new UnsupportedFeatureError(`"${text}" is not a Go boolean`);
}

/**
 * A trigger fires when its conditions hold; without conditions it needs every dependency. We emit
 * conditions of the form `a || b`: dependency names joined by `||`.
 */
function conditionsHold(conditions: string | undefined, all: readonly string[], matched: readonly string[]): boolean {
  if (conditions === undefined) return all.length > 0 && all.every((name) => matched.includes(name));
  const names = conditions.split('||').map((part) => part.trim());
  for (const name of names) {
    if (!all.includes(name))
      throw new UnsupportedFeatureError(`conditions "${conditions}": only dependency names joined by || are implemented`);
  }
  return names.some((name) => matched.includes(name));
}

function attemptsOf(trigger: Record<string, any>): number {
  if (trigger.atLeastOnce !== true) return 1;
  const steps = Number(trigger.retryStrategy?.steps ?? 1);
  return Number.isInteger(steps) && steps > 1 ? steps : 1;
}

function fireTrigger(
  where: string,
  template: Record<string, any>,
  matched: readonly string[],
  data: GithubEventData,
): Omit<FiredTrigger, 'attempts'> {
  const kind = template.k8s ? 'k8s' : 'argoWorkflow';
  const body = template.k8s ?? template.argoWorkflow;
  if (!body?.operation)
    throw new UnsupportedFeatureError(`${where}: a trigger without an explicit operation is not simulated (Argo rejects it)`);
  if (!body.source?.resource) throw new UnsupportedFeatureError(`${where}: only inline source.resource is implemented`);
  let resource: Record<string, any> = structuredClone(body.source.resource);
  for (const parameter of body.parameters ?? []) {
    refuseUnknown(`${where} parameter ${parameter.dest}`, parameter.src, SUPPORTED_SOURCE_KEYS);
    if (parameter.operation !== undefined && parameter.operation !== 'overwrite')
      throw new UnsupportedFeatureError(`${where}: parameter operation "${parameter.operation}" is not implemented`);
    const value = resolveParameter(where, parameter.src, matched, data);
    if (value !== undefined) resource = sjsonSet(resource, parameter.dest, value) as Record<string, any>;
  }
  return { name: template.name, kind, operation: body.operation, resource, args: [...(body.args ?? [])] };
}

/** A template's output, or undefined when it fails the way Go's text/template fails (Argo then falls back). */
function renderTemplate(template: string, data: GithubEventData): string | undefined {
  try {
    return renderGoTemplate(template, { Input: data });
  } catch (error) {
    if (error instanceof UnsupportedFeatureError) throw error;
    return undefined;
  }
}

/**
 * Argo Events' resolution: a parameter of a dependency that did not fire takes its `value`, or is skipped;
 * otherwise the template first, then the key, then `value`. A template that fails, renders nothing, or
 * renders exactly `<no value>` counts as a failure.
 */
function resolveParameter(where: string, src: Record<string, any>, matched: readonly string[], data: GithubEventData): string | undefined {
  if (!matched.includes(src.dependencyName)) return src.value;
  if (src.dataTemplate !== undefined) {
    const text = renderTemplate(src.dataTemplate, data);
    if (text !== undefined && text !== '' && text !== '<no value>') return text;
  }
  if (src.dataKey !== undefined) {
    const result = gjsonGet(data, src.dataKey);
    if (result.exists) return gjsonString(result);
  }
  if (src.value !== undefined) return src.value;
  throw new Error(`${where}: unable to resolve the parameter of ${src.dependencyName} (the trigger fails in Argo Events too)`);
}
