/**
 * The validators of `test/support/argo-schemas.ts`, the built-in Argo schemas (`schemas/`, generated from the
 * upstream files in `../shared/argo/`):
 *
 * 1. they do not false-positive: every Argo object of the upstream example corpora (`examples-workflows/`,
 *    `examples-events/`) validates with zero problems, except the few listed below, each with its reason and
 *    its exact expected finding (asserted, so a fixed upstream example or a changed validator shows up);
 * 2. they can fail: hand-made invalid objects are rejected with readable, located messages;
 * 3. what the platform emits passes them (WorkflowTemplates, Sensors, the EventSource, CodeRuns against
 *    our own CRD).
 *
 * The corpus tests (1) need `../shared/argo/` and are skipped, with the reason, without it; 2 and 3 run
 * everywhere. Compiled validators are cached (see src/validate/schema/validator-cache.ts).
 */
// @ts-nocheck

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, type DocumentOptions, type ParseOptions, type SchemaOptions, type YAMLError } from 'yaml';
import { CodeRunSpecSchema } from '../constructs/model/coderun-schema';
import {
  ARGO_SCHEMAS_DIR,
  ARGO_WORKFLOWS_KINDS,
  describeWithUpstream,
  upstreamCorpusFiles,
  validateArgoEventsObject,
  validateArgoWorkflowsObject,
  validateCrdSchema,
} from './support/argo-schemas';
import { synth, type K8sObject } from './support/synth';
import { isUntypedRecord as isRecord } from '../src/is-record';
import { customCrd } from './support/custom-crd';

type Json = Record<string, any>;

// ---------------------------------------------------------------------------------------------------------
// Reading the upstream YAML as the Argo tools (Go's YAML parser) read it
// ---------------------------------------------------------------------------------------------------------

/**
 * Files that `yaml`'s default reading (YAML 1.2 core schema) does not read as Go does. Every other file must
 * parse cleanly and read the same under YAML 1.1 and 1.2 (checked), or parse under YAML 1.1 when 1.2 fails
 * (the fallback), so nothing is skipped silently.
 */
type SpecialReading =
  /** Both versions parse but read differently; the YAML 1.1 reading is Go's. */
  | { readonly read: 'yaml-1.1'; readonly reason: string }
  /** Both versions parse but read differently; the YAML 1.2 reading is Go's. */
  | { readonly read: 'yaml-1.2'; readonly reason: string }
  /** Neither version parses: a Go leniency, repaired by re-indenting the closing `"]` lines two spaces deeper. */
  | { readonly read: 'reindent-flow-end'; readonly reason: string }
  /** Neither version parses: a duplicate key (a genuine upstream defect); read as non-strict Go does, last key wins. */
  | { readonly read: 'last-duplicate-wins'; readonly reason: string; readonly duplicateAtLine: number };

const OCTAL_MODE =
  '`mode: 0755` is octal 493 in YAML 1.1, which is how Go reads it and what the file means; YAML 1.2 reads decimal 755, which the CRD rejects (`maximum: 511`)';
const GO_FLOW_INDENT =
  'a multi-line quoted scalar in a flow sequence (`args: ["` ... `"]`) whose closing `"]` line is indented no deeper than its key: ' +
  "YAML 1.1 and 1.2 forbid it (yaml: MISSING_CHAR / BAD_INDENT), Go's YAML parser (kubectl, argo) accepts it. Re-indenting that line " +
  'does not change the value (line folding strips leading white space)';

const WORKFLOWS_READINGS: Readonly<Record<string, SpecialReading>> = {
  'arguments-artifacts.yaml': { read: 'yaml-1.1', reason: OCTAL_MODE },
  'input-artifact-http.yaml': { read: 'yaml-1.1', reason: OCTAL_MODE },
  'buildkit-template.yaml': {
    read: 'yaml-1.2',
    reason:
      'the `yaml` package\'s 1.1 schema reads the plain scalar `.` (a `git clone` target) as the float NaN; Go reads the string ".", as YAML 1.2 does',
  },
  'ci.yaml': { read: 'reindent-flow-end', reason: GO_FLOW_INDENT },
  'ci-output-artifact.yaml': { read: 'reindent-flow-end', reason: GO_FLOW_INDENT },
  'influxdb-ci.yaml': { read: 'reindent-flow-end', reason: GO_FLOW_INDENT },
  'k8s-orchestration.yaml': { read: 'reindent-flow-end', reason: GO_FLOW_INDENT },
  'nested-workflow.yaml': { read: 'reindent-flow-end', reason: GO_FLOW_INDENT },
  'secrets.yaml': { read: 'reindent-flow-end', reason: GO_FLOW_INDENT },
  'sidecar.yaml': { read: 'reindent-flow-end', reason: GO_FLOW_INDENT },
  'volumes-emptydir.yaml': { read: 'reindent-flow-end', reason: GO_FLOW_INDENT },
  'k8s-patch-json-workflow.yaml': {
    read: 'last-duplicate-wins',
    reason:
      'genuine upstream defect: `metadata.annotations` appears twice (lines 6 and 13). `argo lint` (strict decoding) and YAML reject it; ' +
      'non-strict Go readers keep the last one, which is how the rest of the file is validated here',
    duplicateAtLine: 13,
  },
};

interface YamlReading {
  readonly objects: unknown[];
  readonly errors: YAMLError[];
}

function readYaml(text: string, options: ParseOptions & DocumentOptions & SchemaOptions = {}): YamlReading {
  const documents = Array.from(parseAllDocuments(text, options));
  const errors = documents.flatMap((document) => document.errors);
  // A document with errors is not read at all: yaml's error recovery yields wrong values (e.g. truncated strings).
  const objects =
    errors.length > 0 ? [] : documents.map((document) => document.toJS()).filter((object) => object !== null && object !== undefined);
  return { objects, errors };
}

const errorCodes = (reading: YamlReading): string[] => [...new Set(reading.errors.map((error) => error.code))].sort();

/** The objects of an upstream example file, read as Go reads it (see `SpecialReading`), with the checks that justify it. */
function readExample(file: string, special: SpecialReading | undefined): unknown[] {
  const name = path.basename(file);
  const text = readFileSync(file, 'utf8');
  const yaml12 = readYaml(text);
  const yaml11 = readYaml(text, { version: '1.1' });
  const readingsDiffer = yaml12.errors.length === 0 && yaml11.errors.length === 0 && !isDeepStrictEqual(yaml12.objects, yaml11.objects);
  switch (special?.read) {
    case undefined:
      if (yaml12.errors.length === 0) {
        expect(readingsDiffer, `${name}: YAML 1.1 and 1.2 read it differently; classify it in the readings table`).toBe(false);
        return yaml12.objects;
      }
      expect(
        yaml11.errors.map((error) => error.message),
        `${name} parses with neither YAML 1.2 nor 1.1; list it with the reason`,
      ).toEqual([]);
      return yaml11.objects;
    case 'yaml-1.1':
    case 'yaml-1.2':
      expect(readingsDiffer, `${name} is listed as reading differently under YAML 1.1 and 1.2`).toBe(true);
      return special.read === 'yaml-1.1' ? yaml11.objects : yaml12.objects;
    case 'reindent-flow-end': {
      for (const reading of [yaml12, yaml11])
        expect(errorCodes(reading), `${name} is listed as unparsable`).toEqual(expect.arrayContaining(['BAD_INDENT', 'MISSING_CHAR']));
      const repaired = readYaml(text.replace(/^( *)(["']\])[ \t]*$/gm, '$1  $2'));
      expect(
        repaired.errors.map((error) => error.message),
        `${name} after re-indenting its closing "] lines`,
      ).toEqual([]);
      return repaired.objects;
    }
    case 'last-duplicate-wins': {
      for (const reading of [yaml12, yaml11]) {
        expect(errorCodes(reading)).toEqual(['DUPLICATE_KEY']);
        expect(reading.errors[0].linePos?.[0].line).toBe(special.duplicateAtLine);
      }
      const lenient = readYaml(text, { uniqueKeys: false });
      expect(lenient.errors).toEqual([]);
      return lenient.objects;
    }
  }
}

const label = (object: Json): string => `${object.kind}/${object.metadata?.name ?? object.metadata?.generateName}`;

// ---------------------------------------------------------------------------------------------------------
// 1a. The Argo Workflows example corpus
// ---------------------------------------------------------------------------------------------------------

const WORKFLOWS_EXAMPLES = path.join(ARGO_SCHEMAS_DIR, 'examples-workflows');

describeWithUpstream('the Argo Workflows validator on the upstream examples (argo-workflows v4.1.2 examples/*.yaml)', () => {
  const files = upstreamCorpusFiles('examples-workflows', { recursive: false }).map((file) => path.basename(file));
  const seen = new Map<string, number>();

  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThan(150);
    for (const listed of Object.keys(WORKFLOWS_READINGS)) expect(files, `listed file ${listed}`).toContain(listed);
  });

  it.each(files)('%s: every Workflow, WorkflowTemplate, ClusterWorkflowTemplate and CronWorkflow validates', (file) => {
    const objects = readExample(path.join(WORKFLOWS_EXAMPLES, file), WORKFLOWS_READINGS[file]);
    expect(objects.length, 'documents').toBeGreaterThan(0);
    for (const object of objects) {
      if (!isRecord(object) || !ARGO_WORKFLOWS_KINDS.includes(object.kind)) continue;
      seen.set(object.kind, (seen.get(object.kind) ?? 0) + 1);
      expect(validateArgoWorkflowsObject(object), label(object)).toEqual([]);
    }
  });

  it('covered all four kinds', () => {
    expect([...seen.keys()].sort()).toEqual([...ARGO_WORKFLOWS_KINDS].sort());
    expect([...seen.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(170);
  });
});

// ---------------------------------------------------------------------------------------------------------
// 1b. The Argo Events example corpus
// ---------------------------------------------------------------------------------------------------------

const EVENTS_EXAMPLES = path.join(ARGO_SCHEMAS_DIR, 'examples-events');

/** Why an upstream Events example does not validate, and exactly what the validator reports for it. */
interface EventsFinding {
  /**
   * `upstream-defect`: the example uses a key the v1.9.11 types do not have; Kubernetes' case-sensitive
   * decoding drops it, so the example does not do what it says. (The JSON schema's `required` lists, which
   * come from Go fields without `omitempty` and which nothing in Argo enforces, are not followed.)
   */
  readonly cause: 'upstream-defect';
  readonly reason: string;
  readonly problems: readonly string[];
}

const EVENTS_FINDINGS: Readonly<Record<string, EventsFinding>> = {
  'sensors/trigger-openwhisk.yaml': {
    cause: 'upstream-defect',
    reason: 'the key is `openwhisk`; the Go field is `OpenWhisk` with JSON tag `openWhisk`, so the trigger has no type once decoded',
    problems: ['/spec/triggers/0/template: must NOT have additional properties (openwhisk)'],
  },
  'sensors/trigger-with-atleast-once-semantics.yaml': {
    cause: 'upstream-defect',
    reason:
      '`atLeastOnce` is a field of the Trigger, not of its template; under `template` it is dropped and the trigger stays at-most-once',
    problems: ['/spec/triggers/0/template: must NOT have additional properties (atLeastOnce)'],
  },
  'sensors/trigger-with-policy.yaml': {
    cause: 'upstream-defect',
    reason: '`policy` is a field of the Trigger, not of its template; under `template` it is dropped',
    problems: ['/spec/triggers/0/template: must NOT have additional properties (policy)'],
  },
  'sensors/url-sensor.yaml': {
    cause: 'upstream-defect',
    reason:
      "the key is `verifycert`; URLArtifact's JSON tag is `verifyCert`, so it is dropped (harmless here: the value is the default, false)",
    problems: ['/spec/triggers/0/template/k8s/source/url: must NOT have additional properties (verifycert)'],
  },
  'event-sources/stripe.yaml': {
    cause: 'upstream-defect',
    reason: 'StripeEventSource has no `namespace` field in v1.9.11 (the comment above it is stale); it is dropped',
    problems: ['/spec/stripe/example: must NOT have additional properties (namespace)'],
  },
};

describeWithUpstream('the Argo Events validator on the upstream examples (argo-events v1.9.11 examples/{sensors,event-sources})', () => {
  const files = ['sensors', 'event-sources'].flatMap((directory) =>
    upstreamCorpusFiles(`examples-events/${directory}`, { recursive: false }).map((file) => `${directory}/${path.basename(file)}`),
  );
  const seen = new Map<string, number>();

  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const listed of Object.keys(EVENTS_FINDINGS)) expect(files, `listed file ${listed}`).toContain(listed);
  });

  it.each(files)('%s: every Sensor and EventSource validates (or has exactly its listed finding)', (file) => {
    const objects = readExample(path.join(EVENTS_EXAMPLES, file), undefined);
    expect(objects.length, 'documents').toBeGreaterThan(0);
    const problems: string[] = [];
    for (const object of objects) {
      if (!isRecord(object)) continue;
      seen.set(object.kind, (seen.get(object.kind) ?? 0) + 1);
      // One sensor example ships the WorkflowTemplate it submits: check it with the Workflows validator.
      if (ARGO_WORKFLOWS_KINDS.includes(object.kind)) expect(validateArgoWorkflowsObject(object), label(object)).toEqual([]);
      else problems.push(...validateArgoEventsObject(object));
    }
    expect(problems).toEqual(EVENTS_FINDINGS[file]?.problems ?? []);
  });

  it('covered Sensors and EventSources (and nothing it could not validate)', () => {
    expect(Object.fromEntries(seen)).toEqual({ Sensor: expect.any(Number), EventSource: expect.any(Number), WorkflowTemplate: 1 });
    expect((seen.get('Sensor') ?? 0) + (seen.get('EventSource') ?? 0)).toBeGreaterThan(100);
  });
});

// ---------------------------------------------------------------------------------------------------------
// 2. The validators can fail
// ---------------------------------------------------------------------------------------------------------

describe('the Argo Workflows validator rejects', () => {
  /** A small valid WorkflowTemplate: a DAG (with `depends`) over a script template. */
  function workflowTemplate(change: (template: Json) => void = () => {}): Json {
    const object: Json = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'WorkflowTemplate',
      metadata: { name: 'negative-cases' },
      spec: {
        entrypoint: 'main',
        arguments: { parameters: [{ name: 'repository', value: 'org/repo' }] },
        templates: [
          {
            name: 'main',
            dag: {
              tasks: [
                { name: 'first', template: 'work' },
                { name: 'second', template: 'work', depends: 'first' },
              ],
            },
          },
          {
            name: 'work',
            inputs: { artifacts: [{ name: 'source', path: '/src', git: { repo: 'https://github.com/org/repo.git' } }] },
            script: { image: 'alpine:3.23', command: ['sh'], source: 'echo hi' },
          },
        ],
      },
    };
    change(object);
    return object;
  }

  it('nothing in the valid base', () => {
    expect(validateArgoWorkflowsObject(workflowTemplate())).toEqual([]);
  });

  it('an unknown field in a template', () => {
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.spec.templates[1].colour = 'red')))).toEqual([
      '/spec/templates/1: must NOT have additional properties (colour)',
    ]);
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.spec.templates[0].dag.tasks[0].foo = 1)))).toEqual([
      '/spec/templates/0/dag/tasks/0: must NOT have additional properties (foo)',
    ]);
  });

  it('a 129-character template name (128 is fine)', () => {
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.spec.templates[1].name = 'x'.repeat(128))))).toEqual([]);
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.spec.templates[1].name = 'x'.repeat(129))))).toEqual([
      '/spec/templates/1/name: must NOT have more than 128 characters',
    ]);
  });

  it('a numeric parameter value', () => {
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.spec.arguments.parameters[0].value = 5)))).toEqual([
      '/spec/arguments/parameters/0/value: must be string',
    ]);
  });

  it('a template with both script and dag', () => {
    const both = workflowTemplate((wt) => (wt.spec.templates[0].script = { image: 'alpine:3.23', source: 'true' }));
    expect(validateArgoWorkflowsObject(both)).toEqual(['/spec/templates/0: template must have at most one template type']);
  });

  it("'depends' with 'dependencies', 'continueOn' with 'depends', and a digit-led task name with either", () => {
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.spec.templates[0].dag.tasks[1].dependencies = ['first'])))).toEqual([
      "/spec/templates/0/dag/tasks/1: cannot use both 'depends' and 'dependencies'",
    ]);
    expect(
      validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.spec.templates[0].dag.tasks[1].continueOn = { failed: true }))),
    ).toEqual(["/spec/templates/0/dag/tasks/1: cannot use 'continueOn' when using 'depends'"]);
    const digit = workflowTemplate((wt) => (wt.spec.templates[0].dag.tasks[1].name = '2nd'));
    expect(validateArgoWorkflowsObject(digit)).toEqual([
      `/spec/templates/0/dag/tasks/1: task name cannot begin with a digit when using 'depends' or 'dependencies'`,
    ]);
    // Without depends/dependencies a digit-led name is allowed (the CRD pattern permits it).
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.spec.templates[0].dag.tasks[0].name = '1st')))).toEqual([]);
  });

  it('activeDeadlineSeconds and a non-empty timeout on a dag (fine on a leaf template)', () => {
    const onDag = workflowTemplate((wt) => Object.assign(wt.spec.templates[0], { activeDeadlineSeconds: 60, timeout: '1m' }));
    expect(validateArgoWorkflowsObject(onDag)).toEqual([
      '/spec/templates/0: timeout cannot be applied to steps or dag templates',
      '/spec/templates/0: activeDeadlineSeconds is only valid for leaf templates',
    ]);
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.spec.templates[0].timeout = '')))).toEqual([]);
    expect(
      validateArgoWorkflowsObject(
        workflowTemplate((wt) => Object.assign(wt.spec.templates[1], { activeDeadlineSeconds: 60, timeout: '1m' })),
      ),
    ).toEqual([]);
  });

  it('the other CRD rules: two artifact locations, count with end, manifest with manifestFrom', () => {
    const twoLocations = workflowTemplate((wt) => (wt.spec.templates[1].inputs.artifacts[0].s3 = { key: 'k' }));
    expect(validateArgoWorkflowsObject(twoLocations)).toEqual([
      '/spec/templates/1/inputs/artifacts/0: at most one artifact location can be specified',
    ]);
    const sequence = workflowTemplate((wt) => (wt.spec.templates[0].dag.tasks[0].withSequence = { count: '3', end: '5' }));
    expect(validateArgoWorkflowsObject(sequence)).toEqual([
      '/spec/templates/0/dag/tasks/0/withSequence: only one of count or end can be defined',
    ]);
    const resource = workflowTemplate((wt) =>
      wt.spec.templates.push({ name: 'apply', resource: { action: 'apply', manifest: '{}', manifestFrom: { artifact: { name: 'm' } } } }),
    );
    expect(validateArgoWorkflowsObject(resource)).toEqual([
      '/spec/templates/2/resource: only one of manifest or manifestFrom can be specified',
    ]);
  });

  it('the same rules inside a CronWorkflow, and an unknown enum value', () => {
    const base = workflowTemplate();
    const cron = {
      apiVersion: base.apiVersion,
      kind: 'CronWorkflow',
      metadata: { name: 'nightly' },
      spec: { schedules: ['0 1 * * *'], workflowSpec: base.spec },
    };
    expect(validateArgoWorkflowsObject(cron)).toEqual([]);
    cron.spec.workflowSpec.templates[0].script = { image: 'alpine:3.23', source: 'true' };
    cron.spec.workflowSpec.templates.push({ name: 'get', resource: { action: 'fetch', manifest: '{}' } });
    expect(validateArgoWorkflowsObject(cron)).toEqual([
      '/spec/workflowSpec/templates/2/resource/action: must be equal to one of the allowed values ("get", "create", "apply", "delete", "replace", "patch")',
      '/spec/workflowSpec/templates/0: template must have at most one template type',
    ]);
  });

  it('a metadata.name that is not a DNS-1123 label of at most 63 characters', () => {
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.metadata.name = 'x'.repeat(63))))).toEqual([]);
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.metadata.name = 'x'.repeat(64))))).toEqual([
      '/metadata/name: must NOT be longer than 63 characters (has 64)',
    ]);
    expect(validateArgoWorkflowsObject(workflowTemplate((wt) => (wt.metadata.name = 'Play_Test')))).toEqual([
      `/metadata/name: "Play_Test" is not a DNS-1123 label (lower-case alphanumerics and '-', starting and ending alphanumeric)`,
    ]);
  });

  it('a kind it does not know, and a non-object', () => {
    expect(validateArgoWorkflowsObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } })).toEqual([
      '/kind: "ConfigMap" is not an Argo Workflows kind (expected one of WorkflowTemplate, Workflow, ClusterWorkflowTemplate, CronWorkflow)',
    ]);
    expect(validateArgoWorkflowsObject('kind: Workflow')).toEqual(['/: must be object']);
  });
});

describe('the Argo Events validator rejects', () => {
  // Valid bases every clone has: the default platform's first gate Sensor and its GitHub EventSource (the
  // upstream examples are checked by the corpus tests above when ../shared/argo/ is there).
  const ours = synth();
  const sensor = (): Json => structuredClone(ours.byKind('Sensor')[0]);
  const githubEventSource = (): Json => structuredClone(ours.byKind('EventSource')[0]);

  it('nothing in the valid bases (a Sensor and the EventSource the platform emits)', () => {
    expect(validateArgoEventsObject(sensor())).toEqual([]);
    expect(validateArgoEventsObject(githubEventSource())).toEqual([]);
  });

  it('an unknown field inside a trigger', () => {
    const inK8s = sensor();
    inK8s.spec.triggers[0].template.k8s.colour = 'red';
    expect(validateArgoEventsObject(inK8s)).toEqual(['/spec/triggers/0/template/k8s: must NOT have additional properties (colour)']);
    const inTrigger = sensor();
    inTrigger.spec.triggers[0].retry = { steps: 3 };
    expect(validateArgoEventsObject(inTrigger)).toEqual(['/spec/triggers/0: must NOT have additional properties (retry)']);
  });

  it('a GitHub EventSource without `events` passes the schema: Argo requires them only when it creates the webhook', () => {
    // The JSON Schema's `required: [events]` comes from a Go field without omitempty; the controller's
    // validation (pkg/eventsources/sources/github/validate.go) needs events only with API credentials.
    const eventSource = githubEventSource();
    delete eventSource.spec.github.play.events;
    expect(validateArgoEventsObject(eventSource)).toEqual([]);
  });

  it('wrong types, a wrong apiVersion, a kind it does not know', () => {
    const wrong = sensor();
    wrong.spec.dependencies[0].filters.data[0].value = 'pull_request';
    wrong.spec.triggers[0].atLeastOnce = 'yes';
    expect(validateArgoEventsObject(wrong)).toEqual([
      '/spec/dependencies/0/filters/data/0/value: must be array',
      '/spec/triggers/0/atLeastOnce: must be boolean',
    ]);
    expect(validateArgoEventsObject({ ...sensor(), apiVersion: 'argoproj.io/v1beta1' })).toEqual([
      '/apiVersion: must be equal to constant ("argoproj.io/v1alpha1")',
    ]);
    expect(validateArgoEventsObject({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Workflow' })).toEqual([
      '/kind: "Workflow" is not an Argo Events kind (expected one of Sensor, EventSource, EventBus)',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// 3. What the platform emits
// ---------------------------------------------------------------------------------------------------------

const platforms = {
  'the default platform': synth(),
  'the workflow-name strategy': synth({ file: { events: { resume: 'workflow-name' } }, env: {} }),
};

describe.each(Object.entries(platforms))('%s', (_name, platform) => {
  it('has WorkflowTemplates that the upstream CRD accepts with unknown fields rejected', () => {
    const templates = platform.byKind('WorkflowTemplate');
    expect(templates.length).toBeGreaterThan(0);
    for (const template of templates) expect(validateArgoWorkflowsObject(template), label(template)).toEqual([]);
  });

  it('has Sensors and an EventSource that the Argo Events schema accepts', () => {
    const events = [...platform.byKind('Sensor'), ...platform.byKind('EventSource')];
    expect(events.length).toBeGreaterThan(1);
    for (const object of events) expect(validateArgoEventsObject(object), label(object)).toEqual([]);
  });
});

describe('the CodeRun CRD (validateCrdSchema)', () => {
  const platform = platforms['the default platform'];
  const crd = platform.one('CustomResourceDefinition', 'coderuns.agents.platform');
  const play: K8sObject = platform.one('WorkflowTemplate', 'play');
  const base = { apiVersion: 'agents.platform/v1', kind: 'CodeRun', metadata: { name: 'x' } };
  const spec = {
    taskId: 5,
    service: 's',
    repositoryUrl: 'o/r',
    docsRepositoryUrl: 'o/r',
    model: 'm',
    githubApp: 'A',
    cliConfig: { cliType: 'claude', model: 'm' },
  };

  it('accepts every CodeRun the play creates, once Argo substitutes its references', () => {
    const manifests: string[] = play.spec.templates
      .filter((template: Json) => template.resource?.action === 'create')
      .map((template: Json) => template.resource.manifest);
    expect(manifests.length).toBeGreaterThan(0);
    for (const manifest of manifests) {
      // toJson writes a JSON string, fromJSON an object (the CLI settings); the other references here are numbers
      // (task id, attempt).
      const coderun = JSON.parse(
        manifest.replace(/\{\{[^}]+\}\}/g, (reference: string) =>
          reference.startsWith('{{=toJson(') ? '"x"' : reference.startsWith('{{=fromJSON(') ? '{}' : '5',
        ),
      );
      expect(validateCrdSchema(crd, coderun)).toEqual([]);
      expect(CodeRunSpecSchema.safeParse(coderun.spec).success).toBe(true);
    }
  });

  it('rejects an unknown spec field, an empty cliConfig, a wrong type, a wrong apiVersion or kind, and a bad name', () => {
    expect(validateCrdSchema(crd, { ...base, spec })).toEqual([]);
    expect(validateCrdSchema(crd, { ...base, spec: { ...spec, colour: 'red' } })).toEqual([
      '/spec: must NOT have additional properties (colour)',
    ]);
    expect(validateCrdSchema(crd, { ...base, spec: { ...spec, cliConfig: {} } })).toContain(
      "/spec/cliConfig: must have required property 'cliType'",
    );
    expect(validateCrdSchema(crd, { ...base, spec: { ...spec, cliConfig: { cliType: '', model: 'm' } } }).join('\n')).toMatch(
      /^\/spec\/cliConfig\/cliType: /,
    );
    expect(validateCrdSchema(crd, { ...base, spec: { ...spec, taskId: '5' } })).toEqual(['/spec/taskId: must be integer']);
    expect(validateCrdSchema(crd, { ...base, apiVersion: 'agents.platform/v2', kind: 'CodeRuns', spec })).toEqual([
      '/apiVersion: "agents.platform/v2" is not served by coderuns.agents.platform (agents.platform/v1)',
      '/kind: "CodeRuns" is not "CodeRun"',
    ]);
    expect(validateCrdSchema(crd, { ...base, metadata: { name: 'Task_5' }, spec })).toEqual([
      `/metadata/name: "Task_5" is not a DNS-1123 subdomain (lower-case alphanumerics and '-' and '.', starting and ending alphanumeric)`,
    ]);
  });

  it("reads OpenAPI 3.0's boolean exclusiveMinimum and nullable (a CRD of its own)", () => {
    const widgets = customCrd({
      kind: 'Widget',
      name: 'widgets.example.com',
      spec: {
        type: 'object',
        properties: {
          count: { type: 'integer', minimum: 0, exclusiveMinimum: true },
          note: { type: 'string', nullable: true },
        },
      },
    });
    const widget = (spec: Json): Json => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w.1' }, spec });
    expect(validateCrdSchema(widgets, widget({ count: 1, note: null }))).toEqual([]);
    expect(validateCrdSchema(widgets, widget({ count: 0, note: 5 }))).toEqual([
      '/spec/count: must be > 0',
      '/spec/note: must be string,null',
    ]);
  });

  it('refuses a CRD whose CEL rule it cannot evaluate, instead of passing it silently', () => {
    const withRule = structuredClone(crd) as Json;
    withRule.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [
      { rule: 'isURL(self.taskId)', message: 'small tasks only' },
    ];
    expect(() => validateCrdSchema(withRule, { ...base, spec })).toThrow(/CEL rule at \/spec not evaluated .*: isURL\(self.taskId\)/);
  });
});
