/**
 * Validators for what we emit, built at test time from the upstream Argo schemas in `../shared/argo/`
 * (never copied into the project): the Workflows CRDs with unknown fields rejected, as `kubectl
 * --validate=strict` and `argo lint` reject them, plus the CRD's CEL rules that matter to us; and the Argo
 * Events JSON Schema for Sensors and EventSources. Each schema is compiled once per process.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

export const SHARED_ARGO = resolve(__dirname, '..', '..', '..', 'shared', 'argo');

type Schema = Record<string, any>;

/**
 * Adds `additionalProperties: false` to every object schema that lists its properties and does not
 * preserve unknown fields: the API server's pruning, turned into an error.
 */
export function closeObjects(node: unknown, shouldClose: (schema: Schema) => boolean = () => true): unknown {
  if (Array.isArray(node)) return node.map((item) => closeObjects(item, shouldClose));
  if (node === null || typeof node !== 'object') return node;
  const schema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'properties' ? mapValues(value as Schema, (child) => closeObjects(child, shouldClose)) : closeObjects(value, shouldClose)])) as Schema;
  if (schema.properties && schema['x-kubernetes-preserve-unknown-fields'] !== true && schema.additionalProperties === undefined && shouldClose(schema)) {
    schema.additionalProperties = false;
  }
  return schema;
}

function mapValues(record: Schema, map: (value: unknown) => unknown): Schema {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

function describe(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const extra = error.keyword === 'additionalProperties' ? ` (${(error.params as { additionalProperty: string }).additionalProperty})` : '';
    return `${error.instancePath || '/'}: ${error.message}${extra}`;
  });
}

const CRD_FILES: Readonly<Record<string, string>> = {
  WorkflowTemplate: 'argoproj.io_workflowtemplates.yaml',
  Workflow: 'argoproj.io_workflows.yaml',
  ClusterWorkflowTemplate: 'argoproj.io_clusterworkflowtemplates.yaml',
  CronWorkflow: 'argoproj.io_cronworkflows.yaml',
};

const workflowValidators = new Map<string, ValidateFunction>();

/**
 * OpenAPI 3.0 (what CRDs use) to JSON Schema draft-07 (what ajv reads): a boolean `exclusiveMinimum` or
 * `exclusiveMaximum` qualifies `minimum` / `maximum`; `nullable` admits null.
 */
function fromOpenApi(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fromOpenApi);
  if (node === null || typeof node !== 'object') return node;
  const schema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, key === 'properties' ? mapValues(value as Schema, fromOpenApi) : fromOpenApi(value)])) as Schema;
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof schema[exclusive] !== 'boolean') continue;
    if (schema[exclusive]) schema[exclusive] = schema[bound];
    else delete schema[exclusive];
    if (schema[exclusive] !== undefined) delete schema[bound];
  }
  if (schema.nullable === true && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  return schema;
}

/** The closed schema of a CRD object (apiextensions.k8s.io/v1), compiled. */
export function compileCrd(crd: Schema): ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile(closeObjects(fromOpenApi(crd.spec.versions[0].schema.openAPIV3Schema)) as Schema);
}

function workflowsValidator(kind: string): ValidateFunction {
  let validator = workflowValidators.get(kind);
  if (!validator) {
    validator = compileCrd(parse(readFileSync(join(SHARED_ARGO, CRD_FILES[kind]), 'utf8')));
    workflowValidators.set(kind, validator);
  }
  return validator;
}

const TEMPLATE_TYPES = ['container', 'containerSet', 'steps', 'script', 'resource', 'dag', 'suspend', 'data', 'http', 'plugin'];
const LEAF_TYPES = new Set(['container', 'containerSet', 'script', 'resource', 'suspend', 'data', 'http', 'plugin']);

/** The CEL rules of the Workflows CRDs that ajv cannot evaluate, for the templates of a spec. */
function celProblems(spec: Schema | undefined): string[] {
  const problems: string[] = [];
  (spec?.templates ?? []).forEach((template: Schema, index: number) => {
    const where = `/spec/templates/${index}`;
    const types = TEMPLATE_TYPES.filter((type) => template[type] !== undefined);
    if (types.length > 1) problems.push(`${where}: template must have at most one template type (has ${types.join(', ')})`);
    const leaf = types.some((type) => LEAF_TYPES.has(type));
    if (template.activeDeadlineSeconds !== undefined && !leaf) problems.push(`${where}: activeDeadlineSeconds is only valid for leaf templates`);
    if (template.timeout !== undefined && (template.steps || template.dag)) problems.push(`${where}: timeout cannot be applied to steps or dag templates`);
    (template.dag?.tasks ?? []).forEach((task: Schema, taskIndex: number) => {
      const at = `${where}/dag/tasks/${taskIndex}`;
      if (task.depends !== undefined && task.dependencies !== undefined) problems.push(`${at}: cannot use both 'depends' and 'dependencies'`);
      if (task.depends !== undefined && task.continueOn !== undefined) problems.push(`${at}: cannot use 'continueOn' when using 'depends'`);
      if ((task.depends !== undefined || task.dependencies !== undefined) && /^[0-9]/.test(task.name)) problems.push(`${at}: task name cannot begin with a digit when using 'depends' or 'dependencies'`);
    });
  });
  return problems;
}

/** Problems of a Workflows object (Workflow, WorkflowTemplate, ...) against its upstream CRD, closed. */
export function validateWorkflowsObject(object: Schema): string[] {
  if (!CRD_FILES[object.kind]) return [`kind ${object.kind} is not an Argo Workflows kind`];
  const validator = workflowsValidator(object.kind);
  const problems = validator(object) ? [] : describe(validator.errors);
  const name: unknown = object.metadata?.name;
  if (typeof name === 'string' && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) problems.push(`/metadata/name: "${name}" is not a DNS-1123 label`);
  if (typeof name === 'string' && name.length > 63) problems.push(`/metadata/name: longer than 63 characters`);
  const spec = object.kind === 'CronWorkflow' ? object.spec?.workflowSpec : object.spec;
  return [...problems, ...celProblems(spec)];
}

let eventsAjv: Ajv | undefined;
const EVENTS_ID = 'http://events.argoproj.io/events.json';

function eventsValidator(kind: string): ValidateFunction {
  if (!eventsAjv) {
    const schema = JSON.parse(readFileSync(join(SHARED_ARGO, 'argo-events.schema.json'), 'utf8')) as Schema;
    delete schema.$schema;
    for (const [key, definition] of Object.entries(schema.definitions as Schema)) {
      if (key.startsWith('io.argoproj.events.v1alpha1.')) schema.definitions[key] = closeObjects(definition, () => true);
    }
    eventsAjv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    eventsAjv.addSchema(schema);
  }
  return eventsAjv.getSchema(`${EVENTS_ID}#/definitions/io.argoproj.events.v1alpha1.${kind}`) ?? eventsAjv.compile({ $ref: `${EVENTS_ID}#/definitions/io.argoproj.events.v1alpha1.${kind}` });
}

/** Problems of a Sensor, EventSource or EventBus against the upstream Argo Events JSON Schema, closed. */
export function validateEventsObject(object: Schema): string[] {
  if (!['Sensor', 'EventSource', 'EventBus'].includes(object.kind)) return [`kind ${object.kind} is not an Argo Events kind`];
  const validator = eventsValidator(object.kind);
  return validator(object) ? [] : describe(validator.errors);
}
