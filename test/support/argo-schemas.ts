/**
 * The upstream Argo schemas kept OUTSIDE the project in `../shared/argo/` (see its README.md; never copied
 * into the project), read through the same runtime code as `agent-play validate --crds ../shared/argo`
 * (`src/validate/schema/`), in the terse form the tests assert (`/json/pointer: message`):
 *
 * - Argo Workflows kinds: the full CRD's `openAPIV3Schema`, closed (unknown fields rejected), plus its CEL
 *   rules, plus the DNS-1123 label rule for `metadata.name`.
 * - Argo Events kinds: `argo-events.schema.json`, with every Argo Events definition closed.
 * - Any CRD (apiextensions.k8s.io/v1), e.g. our CodeRun CRD: its `openAPIV3Schema`, closed.
 *
 * Every validator is compiled lazily, once per process, and cached.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isDnsLabel, isDnsSubdomain } from '../../constructs/model/naming';
import { readKubernetesYaml } from '../../src/validate/kubernetes-yaml';
import { CrdSchema } from '../../src/validate/schema/crd-schema';
import { DefinitionsSchema } from '../../src/validate/schema/events-json-schema';
import { problemLine, type SchemaProblem } from '../../src/validate/schema/schema-problem';

/** The upstream schemas: `../shared/argo/` relative to the project root, resolved from `test/support/`. */
export const ARGO_SCHEMAS_DIR = path.resolve(__dirname, '../../../shared/argo');

type Json = Record<string, any>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Terse lines; a CEL rule the runtime cannot evaluate makes the test fail loudly rather than pass. */
function lines(problems: readonly SchemaProblem[]): string[] {
  const unevaluated = problems.find((problem) => problem.kind === 'cel-not-evaluated');
  if (unevaluated) throw new Error(unevaluated.message);
  return problems.map(problemLine);
}

function nameProblems(object: Json, rule: 'label' | 'subdomain'): string[] {
  const name: unknown = object.metadata?.name;
  if (name === undefined) return [];
  if (typeof name !== 'string') return ['/metadata/name: must be string'];
  const [legal, limit] = rule === 'label' ? [isDnsLabel(name, Number.MAX_SAFE_INTEGER), 63] : [isDnsSubdomain(name) || (name.length > 253 && isDnsSubdomain(name.slice(0, 253))), 253];
  const problems: string[] = [];
  if (!legal) problems.push(`/metadata/name: "${name}" is not a DNS-1123 ${rule} (lower-case alphanumerics and '-'${rule === 'subdomain' ? " and '.'" : ''}, starting and ending alphanumeric)`);
  if (name.length > limit) problems.push(`/metadata/name: must NOT be longer than ${limit} characters (has ${name.length})`);
  return problems;
}

const WORKFLOWS_CRD_FILES: Readonly<Record<string, string>> = {
  WorkflowTemplate: 'argoproj.io_workflowtemplates.yaml',
  Workflow: 'argoproj.io_workflows.yaml',
  ClusterWorkflowTemplate: 'argoproj.io_clusterworkflowtemplates.yaml',
  CronWorkflow: 'argoproj.io_cronworkflows.yaml',
};

/** The Argo Workflows kinds `validateArgoWorkflowsObject` knows. */
export const ARGO_WORKFLOWS_KINDS: readonly string[] = Object.keys(WORKFLOWS_CRD_FILES);

const workflowsSchemas = new Map<string, CrdSchema>();

function workflowsSchema(kind: string): CrdSchema {
  let schema = workflowsSchemas.get(kind);
  if (!schema) {
    const [crd] = readKubernetesYaml(readFileSync(path.join(ARGO_SCHEMAS_DIR, WORKFLOWS_CRD_FILES[kind]), 'utf8'));
    schema = CrdSchema.fromCrd(crd.value);
    workflowsSchemas.set(kind, schema);
  }
  return schema;
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
  return [...lines(workflowsSchema(kind).validate(obj)), ...nameProblems(obj, 'label')];
}

/**
 * Problems of `obj` against a CustomResourceDefinition (apiextensions.k8s.io/v1) given as an object: the
 * schema of the version named by `obj.apiVersion` (or the storage version if it names none), closed;
 * `apiVersion`/`kind` must match the CRD; `metadata.name` must be a DNS-1123 subdomain.
 * Compiled once per distinct CRD version schema.
 */
export function validateCrdSchema(crd: unknown, obj: unknown): string[] {
  const schema = CrdSchema.fromCrd(crd);
  if (!isRecord(obj)) return ['/: must be object'];
  return [...lines(schema.validate(obj)), ...nameProblems(obj, 'subdomain')];
}

/** The Argo Events kinds `validateArgoEventsObject` knows. */
export const ARGO_EVENTS_KINDS: readonly string[] = ['Sensor', 'EventSource', 'EventBus'];

let eventsSchema: DefinitionsSchema | undefined;

function eventsDefinitions(): DefinitionsSchema {
  if (!eventsSchema) {
    const document: unknown = JSON.parse(readFileSync(path.join(ARGO_SCHEMAS_DIR, 'argo-events.schema.json'), 'utf8'));
    const schema = DefinitionsSchema.fromDocument(document);
    if (!schema) throw new Error('argo-events.schema.json has no Argo Events kinds');
    eventsSchema = schema;
  }
  return eventsSchema;
}

/**
 * Problems of an Argo Events object (Sensor, EventSource, EventBus) against the upstream v1.9.11 JSON Schema
 * with unknown fields of the Argo Events types rejected. Note the schema's `required` lists are stricter
 * than the controller (see shared/argo/README.md). One readable line per problem; `[]` when valid.
 */
export function validateArgoEventsObject(obj: unknown): string[] {
  if (!isRecord(obj)) return ['/: must be object'];
  const kind = obj.kind;
  const definition = eventsDefinitions().kinds.find((candidate) => candidate.kind === kind);
  if (typeof kind !== 'string' || !ARGO_EVENTS_KINDS.includes(kind) || !definition) {
    return [`/kind: ${JSON.stringify(kind)} is not an Argo Events kind (expected one of ${ARGO_EVENTS_KINDS.join(', ')})`];
  }
  return lines(eventsDefinitions().validate(definition, obj));
}
