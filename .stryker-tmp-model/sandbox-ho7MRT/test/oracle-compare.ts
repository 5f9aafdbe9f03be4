/**
 * agent-play's answers beside Argo's (test/golden/oracle/, written by `npm run oracle`).
 *
 * Validity: for every object Argo decides, `agent-play validate`'s verdict (an error finding or none) and
 * Argo's (the strict YAML reading kubectl and the Argo CLIs do, the controller's decoding, the API server's
 * metadata and CRD schema checks, the controller's own validation) must agree, or differ only by a rule of
 * ours that is stricter on purpose (INTENDED, with why). Finer than the verdict, two answers must agree
 * field by field: the fields the controller's decoding drops are the fields `validate` calls unknown, and
 * the pods Pod Security admission refuses at `restricted` are the ones `pod-security-restricted` and
 * `events-pod-security` warn about (where those rules look).
 *
 * Sensor runs: `simulate`'s sensor-runner must pass the same dependencies, fire the same triggers as many
 * times, and create the same objects as Argo Events' own code on every delivery.
 */
// @ts-nocheck

import type { ValidationReport } from '../src/validate/engine';
import type { Finding } from '../src/validate/finding';
import { SchemaCatalog, SchemaSourceError } from '../src/validate/schema/schema-catalog';
import { validateManifestTexts } from '../src/validate/validate-texts';
import { githubEventData, runSensor, type SensorRun } from '../src/simulate/sensor-runner';
import type { GoObject, GoPod, GroupAnswer, RunAnswer } from './oracle-goldens';
import type { InputGroup, SensorRunInput } from './oracle-inputs';
import { readManifestText } from '../src/validate/manifest-reader';

/**
 * The rules (or kinds of finding) that refuse, on purpose, objects Argo accepts: each a runtime pitfall Argo
 * lets through. A difference by any other rule is a defect of ours.
 */
export const INTENDED: Readonly<Record<string, string>> = {
  'schema: unknown field (Argo Events)':
    'the Argo Events CRDs keep unknown fields and the controllers drop them while decoding: a misspelled or misplaced field is silently ignored at run time',
  'sensor-triggers': 'a trigger with no type (a misspelled type key) is accepted by ValidateSensor and never fires',
  'sensor-conditions': 'conditions naming no dependency are accepted, and the trigger fails when the Sensor runs',
  'sensor-data-filter': 'a data filter whose value cannot match its type is accepted, and never matches',
  'sensor-parameter': 'a parameter from a dependency the Sensor lacks is accepted, and falls back or fails at run time',
  'sensor-event-source': 'a dependency on an EventSource or event name that does not exist is accepted, and waits forever',
  'events-namespace': 'a Sensor and its EventSources or EventBus in different namespaces are accepted, and never meet',
  'sensor-gate-exists': 'a Sensor that resumes a gate no WorkflowTemplate has is accepted, and resumes nothing',
  'dag-depends-syntax': 'a depends expression Argo accepts at lint but cannot evaluate fails the DAG at run time',
  'remediator-stages': 'a remediator naming a stage the play does not have is accepted, and restarts nowhere',
  'spec-labels': 'a workflowMetadata label with a placeholder or illegal value is accepted, and every Workflow created from it is refused',
  'suspend-duration': 'a suspend duration Go cannot parse is accepted at lint and fails the step at run time',
  'labels-from-variable':
    'a {{workflow.labels.K}} for a labelsFrom key is accepted at lint, and every step after the first reconciliation gets the text itself',
  'agent-service-account-token':
    "an agent's pod with the play's service-account token is accepted, and hands the CLI the rights of the play",
  'argo-cli-version': 'an Argo CLI of another major is just an image to Argo, and its updates drop the node fields its version lacks',
};

const WORKFLOW_KINDS = new Set(['Workflow', 'WorkflowTemplate', 'ClusterWorkflowTemplate', 'CronWorkflow']);
const EVENTS_KINDS = new Set(['Sensor', 'EventSource', 'EventBus']);

/** Why Argo refuses an object, one line per reason; none when it accepts it. */
export function argoReasons(object: GoObject): string[] {
  const reasons: string[] = [];
  if (object.yaml) reasons.push(`strict YAML: ${object.yaml}`);
  if (object.decode) reasons.push(`decoding: ${object.decode}`);
  for (const problem of object.metadata ?? []) reasons.push(`API server: ${problem}`);
  for (const problem of object.schema ?? []) reasons.push(`API server: ${problem}`);
  // `argo lint` decodes strictly; the Argo Events CRDs keep unknown fields, which their controllers drop.
  if (WORKFLOW_KINDS.has(object.kind)) for (const field of object.unknownFields ?? []) reasons.push(`argo lint: ${field}`);
  if (object.validate) reasons.push(`${WORKFLOW_KINDS.has(object.kind) ? 'argo lint' : 'controller'}: ${object.validate}`);
  return reasons;
}

/** The name a finding of ours goes by in the differences: its rule, with what kind of schema finding it is. */
export function findingClass(finding: Finding): string {
  if (finding.rule !== 'schema' || !finding.message.startsWith('unknown field')) return finding.rule;
  return `schema: unknown field${EVENTS_KINDS.has(finding.kind) ? ' (Argo Events)' : ''}`;
}

/** A place where agent-play and Argo do not answer alike. */
export interface Difference {
  readonly group: string;
  readonly object: string;
  /** `stricter`: we refuse what Argo accepts; `gap`: Argo refuses what we accept; the others, field by field. */
  readonly kind: 'stricter' | 'gap' | 'unknown-fields' | 'pod-security';
  /** Our findings (errors for a verdict), as `rule: path: message`. */
  readonly ours: readonly string[];
  readonly argo: readonly string[];
  /** Whether every finding of ours is a rule of INTENDED. */
  readonly intended: boolean;
}

const objectKey = (file: string, kind: string, name: string): string => `${file} ${kind}/${name}`;

/** agent-play's report on a group, as `agent-play validate` gives it (`--crds` for a CRD case). */
export function ourReport(group: InputGroup): ValidationReport | SchemaSourceError {
  let catalog: SchemaCatalog;
  try {
    catalog = group.crdsDir ? SchemaCatalog.fromDirectories([group.crdsDir]) : SchemaCatalog.builtIn();
  } catch (error) {
    if (error instanceof SchemaSourceError) return error;
    throw error;
  }
  const files = group.files.filter((file) => !(group.crdsDir && file.name.includes('/crds/')));
  return validateManifestTexts(new Map(files.map((file) => [file.name, file.text])), '', catalog);
}

const described = (finding: Finding): string => `${findingClass(finding)}: ${finding.path ? `${finding.path}: ` : ''}${finding.message}`;

/** The differences in one group: by verdict, then field by field. */
export function groupDifferences(group: InputGroup, answer: GroupAnswer, report: ValidationReport | SchemaSourceError): Difference[] {
  const differences: Difference[] = [];
  const crds = answer.objects.filter((object) => object.kind === 'CustomResourceDefinition' && group.crdsDir);
  if (report instanceof SchemaSourceError) {
    // `--crds` refused: Argo must refuse one of the CRDs too.
    if (!crds.some((crd) => argoReasons(crd).length > 0))
      differences.push({ group: group.id, object: '--crds', kind: 'stricter', ours: [report.message], argo: [], intended: false });
    return differences;
  }
  for (const crd of crds) {
    const reasons = argoReasons(crd);
    if (reasons.length > 0)
      differences.push({
        group: group.id,
        object: `CustomResourceDefinition/${crd.name}`,
        kind: 'gap',
        ours: [],
        argo: reasons,
        intended: false,
      });
  }
  const findings = new Map<string, Finding[]>();
  for (const finding of report.findings) {
    const key = objectKey(finding.file, finding.kind, finding.name);
    findings.set(key, [...(findings.get(key) ?? []), finding]);
  }
  const byKey = new Map<string, GoObject[]>();
  for (const object of answer.objects) {
    if (crds.includes(object)) continue;
    const key = objectKey(object.file, object.kind, object.name);
    byKey.set(key, [...(byKey.get(key) ?? []), object]);
  }
  const objects = objectsOf(group);
  for (const [key, same] of byKey) {
    const ours = findings.get(key) ?? [];
    const errors = ours.filter((finding) => finding.severity === 'error');
    const reasons = same.flatMap(argoReasons);
    const label = `${same[0].kind}/${same[0].name}`;
    if (errors.length > 0 && reasons.length === 0) {
      const classes = errors.map(findingClass);
      differences.push({
        group: group.id,
        object: label,
        kind: 'stricter',
        ours: errors.map(described),
        argo: [],
        intended: classes.every((name) => INTENDED[name] !== undefined),
      });
    } else if (errors.length === 0 && reasons.length > 0) {
      differences.push({ group: group.id, object: label, kind: 'gap', ours: [], argo: reasons, intended: false });
    }
    differences.push(...unknownFieldDifferences(group.id, label, same, ours));
    differences.push(...podDifferences(group.id, label, same, ours, objects.get(key)));
  }
  return differences;
}

/** The paths our `schema` findings call unknown fields must be the fields the controller's decoding drops. */
function unknownFieldDifferences(group: string, label: string, same: readonly GoObject[], ours: readonly Finding[]): Difference[] {
  if (!same.some((object) => WORKFLOW_KINDS.has(object.kind) || EVENTS_KINDS.has(object.kind))) return [];
  const argo = same
    .flatMap((object) => object.unknownFields ?? [])
    .map((text) => /^unknown field "(.*)"$/.exec(text)?.[1] ?? text)
    .sort();
  const found = ours
    .filter((finding) => finding.rule === 'schema' && finding.message.startsWith('unknown field'))
    .map((finding) => finding.path)
    .sort();
  if (JSON.stringify(argo) === JSON.stringify(found)) return [];
  return [{ group, object: label, kind: 'unknown-fields', ours: found, argo, intended: false }];
}

/** A template's pod that our rule looks at: one that sets a security context somewhere (pod-security.ts). */
function podRuleLooks(object: Record<string, any> | undefined, pod: GoPod): boolean {
  if (object === undefined) return false;
  const spec = object.kind === 'CronWorkflow' ? object.spec?.workflowSpec : object.spec;
  const template = (spec?.templates ?? []).find((candidate: any) => candidate?.name === pod.name);
  if (!template) return false;
  const mains = template.containerSet ? (template.containerSet.containers ?? []) : [template.container ?? template.script ?? {}];
  return (template.securityContext ?? spec.securityContext) !== undefined || mains.some((main: any) => main?.securityContext !== undefined);
}

/** Pod Security admission's refusals must be our warnings, pod by pod. */
function podDifferences(
  group: string,
  label: string,
  same: readonly GoObject[],
  ours: readonly Finding[],
  object: Record<string, any> | undefined,
): Difference[] {
  const differences: Difference[] = [];
  for (const answer of same) {
    for (const pod of answer.pods ?? []) {
      if (pod.error) continue;
      const events = EVENTS_KINDS.has(answer.kind);
      if (!events && !podRuleLooks(object, pod)) continue;
      const warned = ours.filter((finding) =>
        events
          ? finding.rule === 'events-pod-security'
          : finding.rule === 'pod-security-restricted' && finding.message.startsWith(`template "${pod.name}"`),
      );
      if (warned.length > 0 === pod.forbidden.length > 0) continue;
      differences.push({
        group,
        object: events ? label : `${label} template ${pod.name}`,
        kind: 'pod-security',
        ours: warned.map(described),
        argo: pod.forbidden,
        intended: false,
      });
    }
  }
  return differences;
}

/** The objects of a group as we read them, by key (for the rules' own conditions). */
function objectsOf(group: InputGroup): Map<string, Record<string, any>> {
  const found = new Map<string, Record<string, any>>();
  for (const file of group.files) {
    for (const object of readManifestText(file.text, file.name).objects)
      found.set(objectKey(file.name, object.kind, object.name), object.object);
  }
  return found;
}

/** Every difference of every group, ours computed here. */
export function differencesOf(groups: readonly { readonly group: InputGroup; readonly answer: GroupAnswer }[]): Difference[] {
  return groups.flatMap(({ group, answer }) => groupDifferences(group, answer, ourReport(group)));
}

// ---- Sensor runs ----

/** What the simulator does with one delivery, in the oracle's terms. */
interface OurEvent {
  readonly passed: readonly string[];
  readonly fired: Readonly<Record<string, readonly unknown[]>>;
  readonly error?: string;
}

/** Each delivery's body parsed once: a list of deliveries goes to every Sensor of a platform. */
const payloads = new WeakMap<SensorRunInput['events'][number], Record<string, unknown>>();

function ourEvent(sensor: Record<string, any>, delivery: SensorRunInput['events'][number]): OurEvent {
  let payload = payloads.get(delivery);
  if (!payload) {
    payload = JSON.parse(delivery.body) as Record<string, unknown>;
    payloads.set(delivery, payload);
  }
  const data = githubEventData(delivery.headers['X-Github-Event'][0], payload, delivery.headers['X-Github-Delivery'][0]);
  let run: SensorRun;
  try {
    run = runSensor(sensor, data, { name: delivery.eventSourceName, eventName: delivery.eventName });
  } catch (error) {
    return { passed: [], fired: {}, error: (error as Error).message };
  }
  const fired: Record<string, unknown[]> = {};
  for (const trigger of run.fired) fired[trigger.name] = [...(fired[trigger.name] ?? []), trigger.resource];
  return { passed: [...run.matched].sort(), fired };
}

/** Where the simulator and Argo Events disagree on a run, one line each (none when they agree). */
export function runDisagreements(input: SensorRunInput, answer: RunAnswer): string[] {
  if (answer.error) return [`Argo could not run the Sensor: ${answer.error}`];
  const lines: string[] = [];
  input.events.forEach((delivery, index) => {
    const go = answer.events[index];
    const ours = ourEvent(input.sensor, delivery);
    const at = `${delivery.id}`;
    const passed = go.dependencies
      .filter((dependency) => dependency.listens && dependency.passed)
      .map((dependency) => dependency.name)
      .sort();
    const goFirings = go.triggers.flatMap((trigger) => trigger.firings.map((firing) => ({ trigger: trigger.name, ...firing })));
    const goErrors = goFirings.filter((firing) => firing.error);
    if (ours.error !== undefined) {
      if (goErrors.length === 0) lines.push(`${at}: the simulator fails (${ours.error}); Argo does not`);
      return;
    }
    if (goErrors.length > 0)
      lines.push(
        `${at}: Argo's trigger fails (${goErrors.map((firing) => `${firing.trigger}: ${firing.error}`).join('; ')}); the simulator's does not`,
      );
    if (JSON.stringify(passed) !== JSON.stringify(ours.passed))
      lines.push(`${at}: dependencies passed: Argo ${JSON.stringify(passed)}, simulator ${JSON.stringify(ours.passed)}`);
    for (const trigger of go.triggers) {
      const resources = trigger.firings.filter((firing) => !firing.error).map((firing) => firing.resource);
      const mine = ours.fired[trigger.name] ?? [];
      if (resources.length !== mine.length) {
        lines.push(`${at}: trigger ${trigger.name} fires ${resources.length} time(s) in Argo, ${mine.length} in the simulator`);
        continue;
      }
      resources.forEach((resource, firing) => {
        if (JSON.stringify(canonical(resource)) !== JSON.stringify(canonical(mine[firing])))
          lines.push(
            `${at}: trigger ${trigger.name} creates ${JSON.stringify(resource)} in Argo, ${JSON.stringify(mine[firing])} in the simulator`,
          );
      });
    }
  });
  return lines;
}

/** A JSON value with its keys sorted: Go's maps have no order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/**
 * Differences that are not a stricter rule of ours and that this project has not fixed, each with why: a
 * test fails on any other. Keyed `group object kind`.
 */
export const KNOWN_GAPS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      'pod-resources-template-override',
      'pod-resources',
      'resource-claims-template-override',
      'resource-claims',
      'workflow-level-executor-plugin',
    ].flatMap((name) =>
      ['gap', 'unknown-fields'].map((kind) => [
        `corpus/examples-workflows/${name}.yaml Workflow/${name}- ${kind}`,
        'podResources, resourceClaims and executorPlugins are Argo Workflows v4.1 fields; the oracle runs v4.0.5 (the newest release the module proxy serves), whose types lack them',
      ]),
    ),
  ),
  'corpus/examples-workflows/dag-inline-cronworkflow.yaml CronWorkflow/dag-inline gap':
    'the CronWorkflow refers to the WorkflowTemplate of another example file; each corpus file is validated alone, and agent-play does not resolve templates it is not given',
  'corpus/examples-workflows/dag-inline-clusterworkflowtemplate.yaml ClusterWorkflowTemplate/dag-inline gap':
    'the example sets a namespace on a cluster-scoped object, which the API server refuses; the metadata rule does not know scopes (a defect of ours, left for the metadata checks)',
};

export const differenceKey = (difference: Difference): string => `${difference.group} ${difference.object} ${difference.kind}`;

/** Whether a difference is allowed: a rule of INTENDED, or a gap named in KNOWN_GAPS. */
export const allowed = (difference: Difference): boolean => difference.intended || KNOWN_GAPS[differenceKey(difference)] !== undefined;
