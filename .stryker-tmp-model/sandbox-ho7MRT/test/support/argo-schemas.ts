/**
 * The Argo schemas as the tests use them, in the terse form they assert (`/json/pointer: message`):
 *
 * - Argo Workflows kinds: the built-in v4.1.2 CRD schema (`schemas/argo-workflows.json`), closed (unknown
 *   fields rejected), plus its CEL rules, plus the DNS-1123 label rule for `metadata.name`.
 * - Argo Events kinds: the built-in v1.9.11 JSON Schema (`schemas/argo-events.json`), every Argo Events
 *   definition closed.
 * - Any CRD (apiextensions.k8s.io/v1), e.g. our CodeRun CRD: its `openAPIV3Schema`, closed.
 *
 * These are the schemas `agent-play validate` uses with no option, so they run in every clone. The upstream
 * files they are generated from, and the example corpus, live outside the project in `../shared/argo/`
 * (CI has it, a user's clone does not): tests that read it use `describeWithUpstream`, which skips them
 * with the reason when it is absent.
 */
// @ts-nocheck

import { describe } from 'vitest';
import { CORPUS_GROUP_PREFIX, GOLDEN_FILES, readGolden } from '../oracle-golden-files';
import { isDnsLabel, isDnsSubdomain } from '../../constructs/model/naming';
import { builtInArgoSchemas } from '../../src/validate/schema/argo-built-in';
import { CrdSchema } from '../../src/validate/schema/crd-schema';
import { problemLine, type SchemaProblem } from '../../src/validate/schema/schema-problem';
import { isUntypedRecord as isRecord } from '../../src/is-record';

import { ARGO_SCHEMAS_DIR, HAS_UPSTREAM_ARGO, yamlFilesUnder } from './upstream-argo';

export { ARGO_SCHEMAS_DIR, HAS_UPSTREAM_ARGO } from './upstream-argo';

/** Why upstream tests are skipped, said in their title. */
export const UPSTREAM_SKIP_REASON = 'skipped: ../shared/argo/ (the upstream Argo files and example corpus) is not beside this clone';

/**
 * `describe` for tests that read `../shared/argo/`: skipped, with the reason in its title, when it is absent.
 */
export function describeWithUpstream(title: string, body: () => void): void {
  if (HAS_UPSTREAM_ARGO) {
    describe(title, body);
    return;
  }
  // vitest's default report lists a skipped file without its titles: say why where everyone sees it.
  console.warn(`${title}: ${UPSTREAM_SKIP_REASON}`);
  describe.skip(`${title} (${UPSTREAM_SKIP_REASON})`, body);
}

/**
 * The YAML files of a folder of the upstream corpus (`examples-workflows`, `examples-events/sensors` ...), as
 * paths from `../shared/argo/`, sorted. Read from the folder when it is there; otherwise from the list of files
 * Argo answered for (test/golden/oracle/corpus.json), so that a clone without `../shared/` still lists every
 * corpus test, each reported as skipped with the reason, instead of dropping them from the report.
 */
export function upstreamCorpusFiles(directory: string, options: { recursive: boolean }): string[] {
  const files = HAS_UPSTREAM_ARGO ? filesOnDisk(directory, options.recursive) : filesArgoAnswered(directory, options.recursive);
  return files.sort();
}

function filesOnDisk(directory: string, recursive: boolean): string[] {
  return yamlFilesUnder(`${ARGO_SCHEMAS_DIR}/${directory}`, { recursive }).map((file) => `${directory}/${file}`);
}

function filesArgoAnswered(directory: string, recursive: boolean): string[] {
  const golden = readGolden<{ groups: Record<string, unknown> }>(GOLDEN_FILES.groups.corpus);
  const prefix = `${CORPUS_GROUP_PREFIX}${directory}/`;
  return Object.keys(golden.groups)
    .filter((id) => id.startsWith(prefix) && id.endsWith('.yaml'))
    .map((id) => id.slice(CORPUS_GROUP_PREFIX.length))
    .filter((file) => recursive || !file.slice(directory.length + 1).includes('/'));
}

type Json = Record<string, any>;

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
  const [legal, limit] =
    rule === 'label'
      ? [isDnsLabel(name, Number.MAX_SAFE_INTEGER), 63]
      : [isDnsSubdomain(name) || (name.length > 253 && isDnsSubdomain(name.slice(0, 253))), 253];
  const problems: string[] = [];
  if (!legal)
    problems.push(
      `/metadata/name: "${name}" is not a DNS-1123 ${rule} (lower-case alphanumerics and '-'${rule === 'subdomain' ? " and '.'" : ''}, starting and ending alphanumeric)`,
    );
  if (name.length > limit) problems.push(`/metadata/name: must NOT be longer than ${limit} characters (has ${name.length})`);
  return problems;
}

const builtIn = (kinds: readonly string[]) =>
  new Map(
    builtInArgoSchemas()
      .filter((schema) => kinds.includes(schema.kind))
      .map((schema) => [schema.kind, schema]),
  );

/** The Argo Workflows kinds `validateArgoWorkflowsObject` knows. */
export const ARGO_WORKFLOWS_KINDS: readonly string[] = ['WorkflowTemplate', 'Workflow', 'ClusterWorkflowTemplate', 'CronWorkflow'];
const workflowsSchemas = builtIn(ARGO_WORKFLOWS_KINDS);

/**
 * Problems of an Argo Workflows object (WorkflowTemplate, Workflow, ClusterWorkflowTemplate, CronWorkflow)
 * against its v4.1.2 CRD with unknown fields rejected, the CRD's CEL rules, and the DNS-1123 label rule for
 * `metadata.name`. One readable line per problem, led by the JSON pointer; `[]` when valid.
 */
export function validateArgoWorkflowsObject(obj: unknown): string[] {
  if (!isRecord(obj)) return ['/: must be object'];
  const kind = obj.kind;
  const schema = typeof kind === 'string' ? workflowsSchemas.get(kind) : undefined;
  if (!schema) return [`/kind: ${JSON.stringify(kind)} is not an Argo Workflows kind (expected one of ${ARGO_WORKFLOWS_KINDS.join(', ')})`];
  return [...lines(schema.validate(obj)), ...nameProblems(obj, 'label')];
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
const eventsSchemas = builtIn(ARGO_EVENTS_KINDS);

/**
 * Problems of an Argo Events object (Sensor, EventSource, EventBus) against the v1.9.11 JSON Schema with
 * unknown fields of the Argo Events types rejected. Note the schema's `required` lists are stricter than the
 * controller (see docs/validate.md). One readable line per problem; `[]` when valid.
 */
export function validateArgoEventsObject(obj: unknown): string[] {
  if (!isRecord(obj)) return ['/: must be object'];
  const kind = obj.kind;
  const schema = typeof kind === 'string' ? eventsSchemas.get(kind) : undefined;
  if (!schema) return [`/kind: ${JSON.stringify(kind)} is not an Argo Events kind (expected one of ${ARGO_EVENTS_KINDS.join(', ')})`];
  return lines(schema.validate(obj));
}
