/**
 * The real-world corpus: every upstream example manifest of Argo Workflows (`../shared/argo/examples-workflows/`)
 * and Argo Events (`../shared/argo/examples-events/`), each file run through the whole engine as
 * `agent-play validate FILE` runs it with the built-in schemas and as `--crds ../shared/argo` runs it with the
 * upstream files (schemas, metadata checks, every lint rule): both give the same findings. Zero
 * errors and zero warnings, except the real upstream defects listed below file by
 * file with the exact findings expected: a fixed example, a new false positive or a lost finding all fail.
 *
 * With the built-in schemas, each file's verdicts are also held to Argo's own (test/golden/oracle/corpus.json,
 * written by `npm run oracle`): they agree, or differ only by a rule of ours that is stricter on purpose, as
 * listed in test/golden/oracle/differences.json (test/oracle-compare.ts).
 *
 * The files that need Kubernetes' way of reading YAML are checked for the values Go reads.
 */
// @ts-nocheck

import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateObjects } from '../src/validate/engine';
import type { Finding } from '../src/validate/finding';
import { readManifestText } from '../src/validate/manifest-reader';
import { LINT_RULES } from '../src/validate/rules';
import { SchemaCatalog } from '../src/validate/schema/schema-catalog';
import { allowed, type Difference, groupDifferences } from './oracle-compare';
import { corpusGroupId } from './oracle-golden-files';
import { GOLDEN_FILES, type GroupsGolden, readGolden } from './oracle-goldens';
import { groupHash } from './oracle-inputs';
import { ARGO_SCHEMAS_DIR, describeWithUpstream, HAS_UPSTREAM_ARGO, upstreamCorpusFiles } from './support/argo-schemas';

/**
 * Why an upstream example has findings: the example is wrong, what it says is not what Argo does (a dropped
 * field, a key in the wrong place). (The Argo Events JSON Schema's `required` lists, which come from Go fields
 * without `omitempty` and which nothing in Argo enforces, are not followed: no example is refused for them.)
 */
type Cause = 'upstream-defect';

interface Expected {
  readonly cause: Cause;
  readonly reason: string;
  /** Each finding as `Kind/name: path: message [rule]` (the file prefix left out). */
  readonly findings: readonly string[];
}

const UNKNOWN =
  'unknown field: not in the schema (the API server would drop it; kubectl --validate=strict and argo lint reject it) [schema]';

/**
 * Files with findings, keyed by their path under `examples-workflows/` or `examples-events/`. Add a row
 * when a new rule finds a REAL upstream defect, with the reason.
 */
export const EXPECTED_FINDINGS: Readonly<Record<string, Expected>> = {
  'examples-workflows/k8s-patch-json-workflow.yaml': {
    cause: 'upstream-defect',
    reason: '`metadata.annotations` appears twice (lines 6 and 13): `argo lint` rejects the file, lenient readers keep the second',
    findings: [
      'Workflow/k8s-patch-json-workflow-: metadata.annotations: duplicate key "annotations" (line 13; first at line 6): the Argo tools and strict decoding reject the file, lenient readers keep only the last one [yaml-duplicate-key]',
    ],
  },
  'examples-workflows/fun-with-gifs.yaml': {
    cause: 'upstream-defect',
    reason: '`generateName` is indented under `labels`: the Workflow has no name, and a label value cannot end with "-"',
    findings: [
      "Workflow/: metadata.labels.generateName: label value \"fun-with-gifs-\" is not legal: at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric (or empty) [metadata-labels]",
      'Workflow/: metadata.name: the object has no name: set metadata.name (or metadata.generateName for objects created by `kubectl create`) [metadata-name]',
    ],
  },
  'examples-workflows/k8s-jobs.yaml': {
    cause: 'upstream-defect',
    reason: '`name: k8s-jobs` is indented into the block scalar of the annotation above it: the Workflow has no name',
    findings: [
      'Workflow/: metadata.name: the object has no name: set metadata.name (or metadata.generateName for objects created by `kubectl create`) [metadata-name]',
    ],
  },
  'examples-events/sensors/trigger-openwhisk.yaml': {
    cause: 'upstream-defect',
    reason: 'the key is `openwhisk`; the field is `openWhisk`, so the trigger has no type once decoded',
    findings: [
      `Sensor/trigger-openwhisk: spec.triggers[0].template.openwhisk: ${UNKNOWN}`,
      'Sensor/trigger-openwhisk: spec.triggers[0].template: trigger "openwhisk-trigger" has no type (one of k8s, argoWorkflow, http, awsLambda, custom, kafka, nats, slack, openWhisk, log, azureEventHubs, pulsar, email, azureServiceBus) [sensor-triggers]',
    ],
  },
  'examples-events/sensors/trigger-with-atleast-once-semantics.yaml': {
    cause: 'upstream-defect',
    reason:
      '`atLeastOnce` is a field of the Trigger, not of its template; under `template` it is dropped and the trigger stays at-most-once',
    findings: [`Sensor/trigger-with-atleast-once-semantics: spec.triggers[0].template.atLeastOnce: ${UNKNOWN}`],
  },
  'examples-events/sensors/trigger-with-policy.yaml': {
    cause: 'upstream-defect',
    reason: '`policy` is a field of the Trigger, not of its template; under `template` it is dropped',
    findings: [`Sensor/trigger-with-policy: spec.triggers[0].template.policy: ${UNKNOWN}`],
  },
  'examples-events/sensors/url-sensor.yaml': {
    cause: 'upstream-defect',
    reason: 'the key is `verifycert`; the field is `verifyCert`, so it is dropped (harmless: the value is the default)',
    findings: [`Sensor/url-sensor: spec.triggers[0].template.k8s.source.url.verifycert: ${UNKNOWN}`],
  },
  'examples-events/event-sources/stripe.yaml': {
    cause: 'upstream-defect',
    reason: 'StripeEventSource has no `namespace` field in v1.9.11 (the comment above it is stale); it is dropped',
    findings: [`EventSource/stripe: spec.stripe.example.namespace: ${UNKNOWN}`],
  },
};

/**
 * Warnings are advice, and upstream examples are written to be short, not safe: these rules may warn on
 * any example (each warning is still printed by \`agent-play validate\`); every other rule must stay silent.
 */
const ADVISORY_RULES: Readonly<Record<string, string>> = {
  'sensor-data-filter-regex': 'most upstream filters match unanchored values such as `opened`, which also matches `reopened`',
  'pvc-prune-protection': 'upstream examples are not deployed with ArgoCD',
  'sensor-trigger-at-least-once': 'examples show retryStrategy alone, which Argo Events ignores without atLeastOnce',
  'events-pod-security': 'no example sets a restricted security context on its Sensor or EventSource pods',
  'claim-pod-deadline': 'the volume examples are short demo pods on a claim, with no deadline of their own',
};

/** The schemas each pass runs with: what a user gets with no option, and the upstream files themselves. */
const CATALOGS: readonly [string, () => SchemaCatalog][] = [
  ['the built-in schemas', () => SchemaCatalog.builtIn()],
  ['--crds ../shared/argo', () => SchemaCatalog.fromDirectories([ARGO_SCHEMAS_DIR])],
];
const CORPUS = [
  ...upstreamCorpusFiles('examples-workflows', { recursive: true }),
  ...upstreamCorpusFiles('examples-events', { recursive: true }),
];

function validateFile(file: string, catalog: SchemaCatalog = SchemaCatalog.builtIn()) {
  const text = readFileSync(path.join(ARGO_SCHEMAS_DIR, file), 'utf8');
  const reading = readManifestText(text, file);
  return {
    text,
    reading,
    report: validateObjects({ objects: reading.objects, readingFindings: reading.findings, catalog, rules: LINT_RULES }),
  };
}

const argoAnswers = readGolden<GroupsGolden>(GOLDEN_FILES.groups.corpus);
const listedDifferences = readGolden<{ differences: Difference[] }>(GOLDEN_FILES.differences).differences;

/** The file's verdicts beside Argo's: the differences must be the listed ones, each allowed. */
function expectArgoVerdicts(file: string, text: string, report: ReturnType<typeof validateFile>['report']): void {
  const group = { id: corpusGroupId(file), files: [{ name: file, text }] };
  const answer = argoAnswers.groups[group.id];
  expect(answer?.sha256, 'Argo answered for another text of this file: run npm run oracle').toBe(groupHash(group));
  const differences = groupDifferences(group, answer, report);
  expect(differences).toEqual(listedDifferences.filter((difference) => difference.group === group.id));
  expect(differences.filter((difference) => !allowed(difference))).toEqual([]);
}

const short = (finding: Finding): string =>
  `${finding.kind}/${finding.name}: ${finding.path ? `${finding.path}: ` : ''}${finding.message} [${finding.rule}]`;

describeWithUpstream('the upstream example corpus through the whole engine', () => {
  describe.each(CATALOGS)('with %s', (_name, catalogOf) => {
    const catalog = HAS_UPSTREAM_ARGO ? catalogOf() : SchemaCatalog.builtIn();
    const checkedKinds = new Map<string, number>();
    const advisories = new Map<string, Set<string>>();

    it('finds the corpus and every listed file in it, and Argo answered for each file', () => {
      expect(CORPUS.length).toBeGreaterThan(250);
      expect(Object.keys(argoAnswers.groups).sort()).toEqual(CORPUS.map(corpusGroupId).sort());
      for (const listed of Object.keys(EXPECTED_FINDINGS)) expect(CORPUS).toContain(listed);
    });

    it.each(CORPUS)('%s', (file) => {
      const { text, reading, report } = validateFile(file, catalog);
      if (catalog === SchemaCatalog.builtIn()) expectArgoVerdicts(file, text, report);
      expect(reading.objects.length, 'objects').toBeGreaterThan(0);
      for (const object of report.objects) {
        if (object.schema) checkedKinds.set(object.kind, (checkedKinds.get(object.kind) ?? 0) + 1);
      }
      const advisory = report.findings.filter((finding) => finding.severity === 'warning' && ADVISORY_RULES[finding.rule] !== undefined);
      for (const finding of advisory) advisories.set(finding.rule, (advisories.get(finding.rule) ?? new Set()).add(file));
      const rest = report.findings.filter((finding) => !advisory.includes(finding));
      expect(rest.map(short).sort()).toEqual([...(EXPECTED_FINDINGS[file]?.findings ?? [])].sort());
    });

    it('warns where the advisory rules should: unanchored GitHub filters, a claim ArgoCD could prune', () => {
      expect([...(advisories.get('sensor-data-filter-regex') ?? [])]).toContain('examples-events/sensors/github.yaml');
      expect([...(advisories.get('pvc-prune-protection') ?? [])]).toEqual(['examples-workflows/testvolume.yaml']);
      expect([...(advisories.get('claim-pod-deadline') ?? [])]).toContain('examples-workflows/volumes-existing.yaml');
    });

    it('warns where Argo Events examples take the runtime risks: retries that never run, pods a restricted namespace refuses', () => {
      expect([...(advisories.get('sensor-trigger-at-least-once') ?? [])]).toContain('examples-events/sensors/github.yaml');
      expect([...(advisories.get('events-pod-security') ?? [])]).toContain('examples-events/sensors/github.yaml');
      expect([...(advisories.get('events-pod-security') ?? [])]).toContain('examples-events/event-sources/github.yaml');
    });

    it('checked every Argo kind of the corpus against an upstream schema', () => {
      for (const kind of ['Workflow', 'WorkflowTemplate', 'ClusterWorkflowTemplate', 'CronWorkflow', 'Sensor', 'EventSource']) {
        expect(checkedKinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
      }
      expect([...checkedKinds.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(280);
    });
  });
});

describeWithUpstream('reading the corpus as Kubernetes reads YAML', () => {
  const only = (file: string) => validateFile(file).reading.objects[0].object;

  it('reads `mode: 0755` as the octal 493 (YAML 1.1), as Go does', () => {
    const artifacts = only('examples-workflows/arguments-artifacts.yaml');
    expect(JSON.stringify(artifacts)).toContain('"mode":493');
  });

  it('keeps a plain `.` a string (a git clone target), where the 1.1 float pattern of the yaml package reads NaN', () => {
    const cloneArgs = argsIn(only('examples-workflows/buildkit-template.yaml')).find((args) => args.includes('--single-branch'));
    expect(cloneArgs?.at(-1)).toBe('.');
  });

  it.each([
    'ci.yaml',
    'ci-output-artifact.yaml',
    'influxdb-ci.yaml',
    'k8s-orchestration.yaml',
    'nested-workflow.yaml',
    'secrets.yaml',
    'sidecar.yaml',
    'volumes-emptydir.yaml',
  ])("%s: a multi-line quoted scalar closed at its key's indentation (Go accepts it) reads as one folded string", (name) => {
    const file = `examples-workflows/${name}`;
    const text = readFileSync(path.join(ARGO_SCHEMAS_DIR, file), 'utf8');
    expect(text).toMatch(/^ *["']\]\s*$/m);
    const firstLines = [...text.matchAll(/\[["']\n\s*(.+)\n/g)].map((match) => match[1].trim().replace(/\\"/g, '"'));
    expect(firstLines.length).toBeGreaterThan(0);
    const strings = validateFile(file)
      .reading.objects.flatMap((object) => argsIn(object.object))
      .flat();
    // Each scalar is one string holding its first line, folded: no line break survives.
    for (const first of firstLines)
      expect(
        strings.some((arg) => arg.includes(first) && !arg.includes('\n')),
        first,
      ).toBe(true);
  });
});

/** Every `args` list of strings anywhere in a value. */
function argsIn(value: unknown): string[][] {
  if (Array.isArray(value)) return value.flatMap(argsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === 'args' && Array.isArray(child) ? [child.map(String), ...argsIn(child)] : argsIn(child),
  );
}
