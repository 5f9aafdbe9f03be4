/**
 * Offline validation of Kubernetes objects against the upstream Argo schemas kept OUTSIDE the project in
 * `../shared/argo/` (see its README.md; never copied into the project):
 *
 * - Argo Workflows kinds: the full CRD's `openAPIV3Schema`, closed (unknown fields rejected, as
 *   `kubectl --validate=strict` and `argo lint --strict` reject them), plus the CRD's CEL
 *   `x-kubernetes-validations` rules re-implemented in TypeScript (ajv cannot evaluate CEL), plus the
 *   API server's DNS-1123 rule for `metadata.name`.
 * - Argo Events kinds: `argo-events.schema.json`, with every `io.argoproj.events.v1alpha1.*` definition
 *   closed (the Events CRDs carry no field schema at all).
 * - Any CRD (apiextensions.k8s.io/v1), e.g. our CodeRun CRD: its `openAPIV3Schema`, closed.
 *
 * Every validator is compiled lazily, once per process, and cached.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

/** The upstream schemas: `../shared/argo/` relative to the project root, resolved from `test/support/`. */
export const ARGO_SCHEMAS_DIR = path.resolve(__dirname, '../../../shared/argo');

type Schema = Record<string, any>;

const isRecord = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------------------------------------
// Schema passes
// ---------------------------------------------------------------------------------------------------------

/** Keywords whose value is a map of sub-schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
/** Keywords whose value is a sub-schema (or, for `items`, possibly a list of them). */
const SCHEMA_SINGLES = ['additionalProperties', 'items', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
/** Keywords whose value is a list of sub-schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

/** Rebuilds a schema bottom-up, applying `change` to every (sub-)schema after its children. */
function mapSchema(node: unknown, change: (schema: Schema) => Schema): unknown {
  if (Array.isArray(node)) return node.map((item) => mapSchema(item, change));
  if (!isRecord(node)) return node;
  const schema: Schema = { ...node };
  for (const key of SCHEMA_MAPS) {
    if (isRecord(schema[key])) schema[key] = Object.fromEntries(Object.entries(schema[key]).map(([name, child]) => [name, mapSchema(child, change)]));
  }
  for (const key of SCHEMA_SINGLES) if (schema[key] !== undefined && typeof schema[key] !== 'boolean') schema[key] = mapSchema(schema[key], change);
  for (const key of SCHEMA_LISTS) if (Array.isArray(schema[key])) schema[key] = schema[key].map((child: unknown) => mapSchema(child, change));
  return change(schema);
}

/**
 * Adds `additionalProperties: false` to a `type: object` schema that lists `properties` and neither
 * preserves unknown fields nor says anything about additional properties already: what the API server
 * silently prunes becomes an error, as with `kubectl --validate=strict`.
 */
function close(schema: Schema): Schema {
  if (schema.type !== 'object' || !isRecord(schema.properties)) return schema;
  if (schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties !== undefined) return schema;
  return { ...schema, additionalProperties: false };
}

/**
 * OpenAPI 3.0 (what CRDs are written in) to JSON Schema draft-07 (what ajv reads): a boolean
 * `exclusiveMinimum` / `exclusiveMaximum` qualifies `minimum` / `maximum`; `nullable: true` admits null.
 * (The Argo CRDs use neither; generated CRDs such as ours may.)
 */
function fromOpenApi(schema: Schema): Schema {
  const result = { ...schema };
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof result[exclusive] !== 'boolean') continue;
    if (result[exclusive] && typeof result[bound] === 'number') {
      result[exclusive] = result[bound];
      delete result[bound];
    } else delete result[exclusive];
  }
  if (result.nullable === true) {
    if (typeof result.type === 'string') result.type = [result.type, 'null'];
    if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null];
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// CEL rules (x-kubernetes-validations) re-implemented
// ---------------------------------------------------------------------------------------------------------

/** CEL `has(self.field)` on a JSON object: the key is present. */
const has = (value: unknown, field: string): boolean => isRecord(value) && value[field] !== undefined;

/** A check of one CEL rule: the problems (detail strings, `''` for none) found at `value`, with their paths. */
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

/**
 * Every CEL rule found in the Argo Workflows v4.1.2 CRDs (the same 9 in all four kinds), keyed by its exact
 * text. A CRD carrying a rule that is not here makes compilation fail loudly, so a schema refresh cannot
 * silently drop a rule.
 */
const CEL_RULES: ReadonlyMap<string, CelCheck> = new Map<string, CelCheck>(
  (
    [
      [
        "self.all(t, (has(t.container) ? 1 : 0) + (has(t.script) ? 1 : 0) + (has(t.dag) ? 1 : 0) + (has(t.steps) ? 1 : 0) + (has(t.resource) ? 1 : 0) + (has(t.suspend) ? 1 : 0) + (has(t.containerSet) ? 1 : 0) + (has(t.data) ? 1 : 0) + (has(t.http) ? 1 : 0) + (has(t.plugin) ? 1 : 0) <= 1)",
        everyItem((template) => atMostOne(template, TEMPLATE_TYPES)),
      ],
      ['self.all(t, !(has(t.timeout) && t.timeout != "" && (has(t.steps) || has(t.dag))))', everyItem((t) => !(has(t, 'timeout') && t.timeout !== '' && (has(t, 'steps') || has(t, 'dag'))) || '')],
      ['self.all(t, !(has(t.activeDeadlineSeconds) && (has(t.steps) || has(t.dag))))', everyItem((t) => !(has(t, 'activeDeadlineSeconds') && (has(t, 'steps') || has(t, 'dag'))) || '')],
      ["!has(self.depends) || !has(self.dependencies)", whole((task) => !has(task, 'depends') || !has(task, 'dependencies') || '')],
      ["!has(self.depends) || !has(self.continueOn)", whole((task) => !has(task, 'depends') || !has(task, 'continueOn') || '')],
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

interface CelValidation {
  readonly message: string;
  readonly check: CelCheck;
}

/** A schema node's CEL rules, bound to their implementations; throws on a rule that is not implemented. */
function celValidations(schema: Schema, where: string): CelValidation[] {
  const rules = schema['x-kubernetes-validations'];
  if (!Array.isArray(rules)) return [];
  return rules.map((entry: { rule: string; message?: string }) => {
    const check = CEL_RULES.get(normalizeRule(entry.rule));
    if (!check) throw new Error(`CEL rule at ${where || '/'} is not implemented in test/support/argo-schemas.ts: ${entry.rule}`);
    return { message: entry.message ?? `failed rule: ${entry.rule}`, check };
  });
}

/** Throws if any CEL rule in the schema is not implemented (checked once, when the validator is built). */
function assertCelImplemented(schema: Schema, where = ''): void {
  celValidations(schema, where);
  for (const [name, child] of Object.entries(isRecord(schema.properties) ? schema.properties : {})) assertCelImplemented(child, `${where}/${name}`);
  if (isRecord(schema.items)) assertCelImplemented(schema.items, `${where}/*`);
  if (isRecord(schema.additionalProperties)) assertCelImplemented(schema.additionalProperties, `${where}/{}`);
  // Structural schemas allow no x-kubernetes-* inside allOf/anyOf/oneOf/not, and celProblems does not look there.
  for (const key of [...SCHEMA_LISTS, 'not']) {
    if (JSON.stringify(schema[key] ?? null).includes('"x-kubernetes-validations"')) throw new Error(`CEL rule inside ${key} at ${where || '/'} is not evaluated by test/support/argo-schemas.ts`);
  }
}

/** Evaluates the CEL rules of `schema` (and of its sub-schemas) against `value`, as the API server would. */
function celProblems(schema: Schema, value: unknown, at: string): string[] {
  const problems = celValidations(schema, at).flatMap(({ message, check }) => check(value, at).map((found) => `${found.at || '/'}: ${message}${found.detail ? ` (${found.detail})` : ''}`));
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

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

// ---------------------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------------------

/** One readable line per ajv error: `<JSON pointer>: <message> (<detail>)`, without repeats. */
function formatErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  const lines = (errors ?? []).map((error) => {
    const params = error.params as Record<string, any>;
    let detail = '';
    if (error.keyword === 'additionalProperties') detail = ` (${params.additionalProperty})`;
    else if (error.keyword === 'enum') detail = ` (${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')})`;
    else if (error.keyword === 'const') detail = ` (${JSON.stringify(params.allowedValue)})`;
    return `${error.instancePath || '/'}: ${error.message}${detail}`;
  });
  return [...new Set(lines)];
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function nameProblems(object: Record<string, any>, rule: 'label' | 'subdomain'): string[] {
  const name: unknown = object.metadata?.name;
  if (name === undefined) return [];
  if (typeof name !== 'string') return ['/metadata/name: must be string'];
  const [pattern, limit] = rule === 'label' ? [DNS1123_LABEL, 63] : [DNS1123_SUBDOMAIN, 253];
  const problems: string[] = [];
  if (!pattern.test(name)) problems.push(`/metadata/name: "${name}" is not a DNS-1123 ${rule} (lower-case alphanumerics and '-'${rule === 'subdomain' ? " and '.'" : ''}, starting and ending alphanumeric)`);
  if (name.length > limit) problems.push(`/metadata/name: must NOT be longer than ${limit} characters (has ${name.length})`);
  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// CRD validators (Argo Workflows CRDs and any other CRD)
// ---------------------------------------------------------------------------------------------------------

interface CrdValidator {
  readonly schema: Schema;
  readonly validate: ValidateFunction;
}

/**
 * ajv options for every schema here: draft-07, unknown keywords (`x-kubernetes-*`) ignored, all errors, no
 * format checks (`int32`, `int-or-string`, ... are not ajv formats). `code.optimize: false` skips ajv's
 * generated-code optimisation passes, which halves the ~2.5 s compile of a Workflows CRD without changing
 * what is accepted.
 */
const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false, code: { optimize: false } } as const;

/** Prepares (closes, converts) and compiles one CRD version's `openAPIV3Schema`. */
function compileOpenApiSchema(openApi: Schema): CrdValidator {
  assertCelImplemented(openApi);
  const schema = mapSchema(openApi, (node) => close(fromOpenApi(node))) as Schema;
  const ajv = new Ajv(AJV_OPTIONS);
  return { schema, validate: ajv.compile(schema) };
}

function runCrdValidator(validator: CrdValidator, object: unknown): string[] {
  const problems = validator.validate(object) ? [] : formatErrors(validator.validate.errors);
  return [...problems, ...celProblems(validator.schema, object, '')];
}

const WORKFLOWS_CRD_FILES: Readonly<Record<string, string>> = {
  WorkflowTemplate: 'argoproj.io_workflowtemplates.yaml',
  Workflow: 'argoproj.io_workflows.yaml',
  ClusterWorkflowTemplate: 'argoproj.io_clusterworkflowtemplates.yaml',
  CronWorkflow: 'argoproj.io_cronworkflows.yaml',
};

/** The Argo Workflows kinds `validateArgoWorkflowsObject` knows. */
export const ARGO_WORKFLOWS_KINDS: readonly string[] = Object.keys(WORKFLOWS_CRD_FILES);

const workflowsValidators = new Map<string, CrdValidator>();

function workflowsValidator(kind: string): CrdValidator {
  let validator = workflowsValidators.get(kind);
  if (!validator) {
    const crd = parse(readFileSync(path.join(ARGO_SCHEMAS_DIR, WORKFLOWS_CRD_FILES[kind]), 'utf8')) as Schema;
    const version = crd.spec.versions[0];
    validator = compileOpenApiSchema(version.schema.openAPIV3Schema);
    workflowsValidators.set(kind, validator);
  }
  return validator;
}

/**
 * Problems of an Argo Workflows object (WorkflowTemplate, Workflow, ClusterWorkflowTemplate, CronWorkflow)
 * against its upstream v4.1.2 CRD with unknown fields rejected, the CRD's CEL rules, and the DNS-1123 label
 * rule for `metadata.name`. One readable line per problem, led by the JSON pointer; `[]` when valid.
 */
export function validateArgoWorkflowsObject(obj: unknown): string[] {
  if (!isRecord(obj)) return ['/: must be object'];
  const kind = obj.kind;
  if (typeof kind !== 'string' || !WORKFLOWS_CRD_FILES[kind]) {
    return [`/kind: ${JSON.stringify(kind)} is not an Argo Workflows kind (expected one of ${ARGO_WORKFLOWS_KINDS.join(', ')})`];
  }
  return [...runCrdValidator(workflowsValidator(kind), obj), ...nameProblems(obj, 'label')];
}

const crdValidators = new Map<string, CrdValidator>();

/**
 * Problems of `obj` against a CustomResourceDefinition (apiextensions.k8s.io/v1) given as an object: the
 * schema of the version named by `obj.apiVersion` (or the storage version if it names none), closed;
 * `apiVersion`/`kind` must match the CRD; `metadata.name` must be a DNS-1123 subdomain.
 * Compiled once per distinct CRD version schema.
 */
export function validateCrdSchema(crd: unknown, obj: unknown): string[] {
  if (!isRecord(crd) || crd.kind !== 'CustomResourceDefinition' || !Array.isArray(crd.spec?.versions)) {
    throw new Error('validateCrdSchema: the first argument is not an apiextensions.k8s.io/v1 CustomResourceDefinition');
  }
  if (!isRecord(obj)) return ['/: must be object'];
  const versions = crd.spec.versions as Schema[];
  const problems: string[] = [];
  const [group, version] = typeof obj.apiVersion === 'string' && obj.apiVersion.includes('/') ? obj.apiVersion.split('/', 2) : [undefined, undefined];
  if (group !== crd.spec.group || !versions.some((candidate) => candidate.name === version)) {
    problems.push(`/apiVersion: ${JSON.stringify(obj.apiVersion)} is not served by ${crd.metadata?.name} (${versions.map((candidate) => `${crd.spec.group}/${candidate.name}`).join(', ')})`);
  }
  if (obj.kind !== crd.spec.names?.kind) problems.push(`/kind: ${JSON.stringify(obj.kind)} is not ${JSON.stringify(crd.spec.names?.kind)}`);
  const chosen = versions.find((candidate) => candidate.name === version) ?? versions.find((candidate) => candidate.storage) ?? versions[0];
  const openApi = chosen?.schema?.openAPIV3Schema;
  if (!isRecord(openApi)) throw new Error(`validateCrdSchema: version ${chosen?.name} of ${crd.metadata?.name} has no openAPIV3Schema`);
  const key = JSON.stringify(openApi);
  let validator = crdValidators.get(key);
  if (!validator) {
    validator = compileOpenApiSchema(openApi);
    crdValidators.set(key, validator);
  }
  return [...problems, ...runCrdValidator(validator, obj), ...nameProblems(obj, 'subdomain')];
}

// ---------------------------------------------------------------------------------------------------------
// Argo Events
// ---------------------------------------------------------------------------------------------------------

const EVENTS_ID = 'http://events.argoproj.io/events.json';
const EVENTS_PREFIX = 'io.argoproj.events.v1alpha1.';

/** The Argo Events kinds `validateArgoEventsObject` knows. */
export const ARGO_EVENTS_KINDS: readonly string[] = ['Sensor', 'EventSource', 'EventBus'];

let eventsAjv: Ajv | undefined;
const eventsValidators = new Map<string, ValidateFunction>();

/**
 * `argo-events.schema.json` with every `io.argoproj.events.v1alpha1.*` object definition closed. Each such
 * definition is flat (its properties are scalars, `$ref`s, or arrays/maps of them; no nested object
 * schemas), so closing the definition itself closes exactly that Go struct and leaves the k8s core
 * definitions (`io.k8s.*`) open.
 */
function eventsSchema(): Schema {
  const schema = JSON.parse(readFileSync(path.join(ARGO_SCHEMAS_DIR, 'argo-events.schema.json'), 'utf8')) as Schema;
  delete schema.$schema;
  for (const [name, definition] of Object.entries(schema.definitions as Record<string, Schema>)) {
    if (name.startsWith(EVENTS_PREFIX)) schema.definitions[name] = close(definition);
  }
  return schema;
}

function eventsValidator(kind: string): ValidateFunction {
  let validator = eventsValidators.get(kind);
  if (!validator) {
    if (!eventsAjv) {
      eventsAjv = new Ajv(AJV_OPTIONS);
      eventsAjv.addSchema(eventsSchema());
    }
    validator = eventsAjv.compile({ $ref: `${EVENTS_ID}#/definitions/${EVENTS_PREFIX}${kind}` });
    eventsValidators.set(kind, validator);
  }
  return validator;
}

/**
 * Problems of an Argo Events object (Sensor, EventSource, EventBus) against the upstream v1.9.11 JSON Schema
 * with unknown fields of the Argo Events types rejected. Note the schema's `required` lists are stricter
 * than the controller (see shared/argo/README.md). One readable line per problem; `[]` when valid.
 */
export function validateArgoEventsObject(obj: unknown): string[] {
  if (!isRecord(obj)) return ['/: must be object'];
  const kind = obj.kind;
  if (typeof kind !== 'string' || !ARGO_EVENTS_KINDS.includes(kind)) {
    return [`/kind: ${JSON.stringify(kind)} is not an Argo Events kind (expected one of ${ARGO_EVENTS_KINDS.join(', ')})`];
  }
  const validator = eventsValidator(kind);
  return validator(obj) ? [] : formatErrors(validator.errors);
}
