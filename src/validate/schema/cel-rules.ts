/**
 * The CEL rules (`x-kubernetes-validations`) of the Argo Workflows CRDs, re-implemented: ajv cannot evaluate
 * CEL, and the API server enforces these at apply time. A rule found in a CRD that is not one of these is
 * reported as not evaluated (a user's own CRD may carry any rule), never silently passed.
 */
import { isRecord, SCHEMA_LISTS, type JsonSchema } from './json-schema-passes';
import { escapePointer, type SchemaProblem } from './schema-problem';

/** CEL `has(self.field)` on a JSON object: the key is present. */
const has = (value: unknown, field: string): boolean => isRecord(value) && value[field] !== undefined;

/** A check of one CEL rule: the problems (detail strings, `''` for none) found at `value`, with their pointers. */
type CelCheck = (value: unknown, at: string) => { at: string; detail: string }[];

/** A rule that must hold for `self` as a whole. */
const whole =
  (holds: (self: Record<string, any>) => true | string): CelCheck =>
  (value, at) => {
    if (!isRecord(value)) return [];
    const result = holds(value);
    return result === true ? [] : [{ at, detail: result }];
  };

/** A `self.all(t, ...)` rule on a list: reported on each offending item, not on the list. */
const everyItem =
  (holds: (item: Record<string, any>) => true | string): CelCheck =>
  (value, at) => {
    if (!Array.isArray(value)) return [];
    return value.flatMap((item, index) => {
      const result = isRecord(item) ? holds(item) : true;
      return result === true ? [] : [{ at: `${at}/${index}`, detail: result }];
    });
  };

/** The present fields among `fields`, if more than one is present. */
function atMostOne(self: Record<string, any>, fields: readonly string[]): true | string {
  const present = fields.filter((field) => has(self, field));
  return present.length <= 1 ? true : `has ${present.join(', ')}`;
}

const TEMPLATE_TYPES = ['container', 'script', 'dag', 'steps', 'resource', 'suspend', 'containerSet', 'data', 'http', 'plugin'] as const;
const ARTIFACT_LOCATIONS = ['s3', 'git', 'http', 'artifactory', 'hdfs', 'raw', 'oss', 'gcs', 'azure', 'plugin'] as const;

const normalizeRule = (rule: string): string => rule.replace(/\s+/g, ' ').trim();

/** Every CEL rule of the Argo Workflows v4.1.2 CRDs (the same 9 in all four kinds), keyed by its exact text. */
const CEL_RULES: ReadonlyMap<string, CelCheck> = new Map<string, CelCheck>(
  (
    [
      [
        "self.all(t, (has(t.container) ? 1 : 0) + (has(t.script) ? 1 : 0) + (has(t.dag) ? 1 : 0) + (has(t.steps) ? 1 : 0) + (has(t.resource) ? 1 : 0) + (has(t.suspend) ? 1 : 0) + (has(t.containerSet) ? 1 : 0) + (has(t.data) ? 1 : 0) + (has(t.http) ? 1 : 0) + (has(t.plugin) ? 1 : 0) <= 1)",
        everyItem((template) => atMostOne(template, TEMPLATE_TYPES)),
      ],
      ['self.all(t, !(has(t.timeout) && t.timeout != "" && (has(t.steps) || has(t.dag))))', everyItem((t) => !(has(t, 'timeout') && t.timeout !== '' && (has(t, 'steps') || has(t, 'dag'))) || '')],
      ['self.all(t, !(has(t.activeDeadlineSeconds) && (has(t.steps) || has(t.dag))))', everyItem((t) => !(has(t, 'activeDeadlineSeconds') && (has(t, 'steps') || has(t, 'dag'))) || '')],
      ['!has(self.depends) || !has(self.dependencies)', whole((task) => !has(task, 'depends') || !has(task, 'dependencies') || '')],
      ['!has(self.depends) || !has(self.continueOn)', whole((task) => !has(task, 'depends') || !has(task, 'continueOn') || '')],
      [
        "!(has(self.depends) || has(self.dependencies)) || !self.name.matches('^[0-9]')",
        whole((task) => !(has(task, 'depends') || has(task, 'dependencies')) || typeof task.name !== 'string' || !/^[0-9]/.test(task.name) || `name "${task.name}"`),
      ],
      ['!(has(self.count) && has(self.end))', whole((sequence) => !(has(sequence, 'count') && has(sequence, 'end')) || '')],
      [
        '(has(self.manifest) && !has(self.manifestFrom)) || (!has(self.manifest) && has(self.manifestFrom)) || (!has(self.manifest) && !has(self.manifestFrom))',
        whole((resource) => !(has(resource, 'manifest') && has(resource, 'manifestFrom')) || ''),
      ],
      [
        '(has(self.s3) ? 1 : 0) + (has(self.git) ? 1 : 0) + (has(self.http) ? 1 : 0) + (has(self.artifactory) ? 1 : 0) + (has(self.hdfs) ? 1 : 0) + (has(self.raw) ? 1 : 0) + (has(self.oss) ? 1 : 0) + (has(self.gcs) ? 1 : 0) + (has(self.azure) ? 1 : 0) + (has(self.plugin) ? 1 : 0) <= 1',
        whole((artifact) => atMostOne(artifact, ARTIFACT_LOCATIONS)),
      ],
      [
        "!has(self.realtime) || !self.realtime || !self.value.contains('resourcesDuration.')",
        whole((gauge) => !has(gauge, 'realtime') || !gauge.realtime || typeof gauge.value !== 'string' || !gauge.value.includes('resourcesDuration.') || `value "${gauge.value}"`),
      ],
    ] as const
  ).map(([rule, check]) => [normalizeRule(rule), check]),
);

/** A CEL rule found in a schema. */
interface CelValidation {
  readonly rule: string;
  readonly message: string;
  /** `undefined` when the rule is not one this package evaluates. */
  readonly check?: CelCheck;
}

function celValidations(schema: JsonSchema): CelValidation[] {
  const rules = schema['x-kubernetes-validations'];
  if (!Array.isArray(rules)) return [];
  return rules
    .filter((entry): entry is { rule: string; message?: string } => isRecord(entry) && typeof entry.rule === 'string')
    .map((entry) => ({ rule: entry.rule, message: entry.message ?? `failed rule: ${entry.rule}`, check: CEL_RULES.get(normalizeRule(entry.rule)) }));
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
    .filter((validation) => !validation.check)
    .map((validation) => ({ at: at || '/', rule: validation.rule }));
  for (const [name, child] of Object.entries(isRecord(schema.properties) ? schema.properties : {})) found.push(...unevaluatedCelRules(child, `${at}/${name}`));
  if (isRecord(schema.items)) found.push(...unevaluatedCelRules(schema.items, `${at}/*`));
  if (isRecord(schema.additionalProperties)) found.push(...unevaluatedCelRules(schema.additionalProperties, `${at}/{}`));
  for (const key of [...SCHEMA_LISTS, 'not']) {
    if (JSON.stringify(schema[key] ?? null).includes('"x-kubernetes-validations"')) found.push({ at: `${at || '/'} (inside ${key})`, rule: 'x-kubernetes-validations' });
  }
  return found;
}

/** Evaluates the CEL rules of `schema` (and of its sub-schemas) against `value`, as the API server would. */
export function celProblems(schema: JsonSchema, value: unknown, at = ''): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const { message, check } of celValidations(schema)) {
    if (!check) continue;
    for (const found of check(value, at)) problems.push({ pointer: found.at, message: `${message}${found.detail ? ` (${found.detail})` : ''}`, kind: 'cel' });
  }
  if (isRecord(value)) {
    const properties = isRecord(schema.properties) ? schema.properties : {};
    for (const [key, child] of Object.entries(value)) {
      const sub = Object.hasOwn(properties, key) ? properties[key] : isRecord(schema.additionalProperties) ? schema.additionalProperties : undefined;
      if (sub) problems.push(...celProblems(sub, child, `${at}/${escapePointer(key)}`));
    }
  } else if (Array.isArray(value) && isRecord(schema.items)) {
    value.forEach((item, index) => problems.push(...celProblems(schema.items, item, `${at}/${index}`)));
  }
  return problems;
}
