/**
 * `{{...}}` references resolvable (argo-semantics §2 I, rules 38-41), checked the way Argo's validator
 * checks them: only simple tags that start with `inputs.`, `outputs.`, `steps.`, `tasks.`, `workflow.`,
 * `item.` or `pod.` are looked at; `{{=expression}}` tags and every other prefix are skipped, as Argo skips
 * them. `workflow.labels.X` must be declared where Argo looks for it: the object's own labels,
 * `spec.workflowMetadata.labels` or `labelsFrom` (a WorkflowTemplate's own labels are not carried into its
 * Workflows, but Argo's lint accepts them, so this does too).
 */
// @ts-nocheck

import type { LintRule, ManifestObject, Violation } from '../finding';
import {
  dagTasksOf,
  isRecord,
  namedList,
  pathOf,
  stepsOf,
  templatesOf,
  workflowSpecOf,
  WORKFLOW_KINDS,
  type Json,
  type Path,
  type TemplateAt,
  type WorkflowSpec,
} from './argo-spec';

const CHECKED_PREFIXES = ['item.', 'steps.', 'inputs.', 'outputs.', 'pod.', 'workflow.', 'tasks.'];
const WORKFLOW_FIXED = [
  'name',
  'namespace',
  'uid',
  'mainEntrypoint',
  'serviceAccountName',
  'status',
  'parameters',
  'parameters.json',
  'labels',
  'labels.json',
  'annotations',
  'annotations.json',
];
const WORKFLOW_PREFIXES = ['creationTimestamp', 'scheduledTime', 'duration'];
const TAG = /\{\{([^{}]*)\}\}/g;

const keysOf = (value: unknown): string[] => (isRecord(value) ? Object.keys(value) : []);

/** The `workflow.*` names resolvable in this object. */
function workflowScope(target: ManifestObject, workflow: WorkflowSpec): { names: Set<string>; anyParameter: boolean } {
  const { spec } = workflow;
  const metadata = isRecord(target.object.metadata) ? target.object.metadata : {};
  const workflowMetadata = isRecord(spec.workflowMetadata) ? spec.workflowMetadata : {};
  // A CronWorkflow's spec.workflowMetadata sits beside its workflowSpec; for the other kinds it is workflowMetadata again.
  const cronMetadata = isRecord(target.object.spec.workflowMetadata) ? target.object.spec.workflowMetadata : {};
  const names = new Set(WORKFLOW_FIXED);
  for (const parameter of namedList(spec.arguments, 'parameters')) names.add(`parameters.${parameter.name}`);
  for (const key of [
    ...keysOf(metadata.labels),
    ...keysOf(workflowMetadata.labels),
    ...keysOf(workflowMetadata.labelsFrom),
    ...keysOf(cronMetadata.labels),
    ...keysOf(cronMetadata.labelsFrom),
  ])
    names.add(`labels.${key}`);
  for (const key of [...keysOf(metadata.annotations), ...keysOf(workflowMetadata.annotations), ...keysOf(cronMetadata.annotations)])
    names.add(`annotations.${key}`);
  if (spec.priority !== undefined) names.add('priority');
  if (spec.onExit !== undefined || isRecord(spec.hooks?.exit)) names.add('failures');
  for (const { template } of templatesOf(workflow)) {
    for (const kind of ['parameters', 'artifacts'] as const) {
      for (const output of namedList(template.outputs, kind))
        if (typeof output.globalName === 'string') names.add(`outputs.${kind}.${output.globalName}`);
    }
  }
  // A (Cluster)WorkflowTemplate's parameters may come from the Workflow that submits it.
  return { names, anyParameter: target.kind === 'WorkflowTemplate' || target.kind === 'ClusterWorkflowTemplate' };
}

interface TemplateScope {
  readonly inputs: Set<string>;
  readonly steps: Set<string>;
  readonly tasks: Set<string>;
  readonly loops: boolean;
}

function templateScope(holder: TemplateAt): TemplateScope {
  const inputs = new Set<string>(['parameters', 'artifacts']);
  for (const parameter of namedList(holder.template.inputs, 'parameters')) inputs.add(`parameters.${parameter.name}`);
  for (const artifact of namedList(holder.template.inputs, 'artifacts')) {
    inputs.add(`artifacts.${artifact.name}`);
    inputs.add(`artifacts.${artifact.name}.path`);
  }
  const steps = stepsOf(holder);
  const tasks = dagTasksOf(holder);
  const loops = [...steps, ...tasks].some(({ call }) =>
    ['withItems', 'withParam', 'withSequence'].some((loop) => call[loop] !== undefined),
  );
  return { inputs, steps: new Set(steps.map((step) => step.name)), tasks: new Set(tasks.map((task) => task.name)), loops };
}

/** Why a reference does not resolve, or undefined when it does (or is not one Argo checks). */
function unresolved(
  reference: string,
  workflow: { names: Set<string>; anyParameter: boolean },
  scope: TemplateScope,
  isLeaf: boolean,
): string | undefined {
  if (!CHECKED_PREFIXES.some((prefix) => reference.startsWith(prefix))) return undefined;
  const [prefix, ...rest] = reference.split('.');
  const tail = rest.join('.');
  switch (prefix) {
    case 'outputs':
    case 'pod':
      return undefined;
    case 'item':
      return scope.loops || isLeaf ? undefined : 'item is only defined in a step or task with withItems, withParam or withSequence';
    case 'inputs':
      return scope.inputs.has(tail) ? undefined : `the template declares no input ${tail}`;
    case 'steps':
      return rest[0] === 'name' || scope.steps.has(rest[0]) ? undefined : `there is no step "${rest[0]}" in this template`;
    case 'tasks':
      return rest[0] === 'name' || scope.tasks.has(rest[0]) ? undefined : `there is no task "${rest[0]}" in this DAG`;
    default:
      return workflowUnresolved(tail, workflow);
  }
}

function workflowUnresolved(tail: string, workflow: { names: Set<string>; anyParameter: boolean }): string | undefined {
  if (workflow.names.has(tail) || WORKFLOW_PREFIXES.some((prefix) => tail === prefix || tail.startsWith(`${prefix}.`))) return undefined;
  if (tail.startsWith('parameters.'))
    return workflow.anyParameter ? undefined : `spec.arguments declares no parameter ${tail.slice('parameters.'.length)}`;
  if (tail.startsWith('labels.'))
    return `label ${tail.slice('labels.'.length)} is not declared in metadata.labels, spec.workflowMetadata.labels or labelsFrom, so Argo cannot resolve it`;
  if (tail.startsWith('annotations.'))
    return `annotation ${tail.slice('annotations.'.length)} is not declared in metadata.annotations or spec.workflowMetadata.annotations`;
  if (tail === 'failures') return 'workflow.failures is only defined in an onExit handler: set spec.onExit';
  return `workflow.${tail} is not a workflow variable Argo knows`;
}

/**
 * Every string of a value that holds a `{{`, with its path. One path grows and shrinks as the walk goes and
 * is copied only for a string found: a generator per level, and a path per node, cost more than the rule.
 */
export function taggedStringsIn(value: unknown, at: Path): { text: string; at: Path }[] {
  const found: { text: string; at: Path }[] = [];
  const path: (string | number)[] = [...at];
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      if (node.includes('{{')) found.push({ text: node, at: [...path] });
    } else if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index += 1) {
        path.push(index);
        visit(node[index]);
        path.pop();
      }
    } else if (isRecord(node)) {
      for (const key of Object.keys(node)) {
        path.push(key);
        visit((node as Json)[key]);
        path.pop();
      }
    }
  };
  visit(value);
  return found;
}

export const variableReferenceRule: LintRule = {
  id: 'variable-reference',
  severity: 'error',
  description: '{{inputs.*}}, {{steps.*}}, {{tasks.*}}, {{workflow.*}} and {{item.*}} references resolve, as argo lint resolves them',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow || workflow.spec.workflowTemplateRef !== undefined) return [];
    const globals = workflowScope(target, workflow);
    const violations: Violation[] = [];
    for (const holder of templatesOf(workflow)) {
      const scope = templateScope(holder);
      const isLeaf = holder.template.dag === undefined && holder.template.steps === undefined;
      for (const { text, at } of taggedStringsIn(holder.template, holder.at)) {
        for (const match of text.matchAll(TAG)) {
          // An `{{=expression}}` tag starts with none of the checked prefixes, so unresolved() skips it.
          const reference = match[1].trim();
          const why = unresolved(reference, globals, scope, isLeaf);
          if (why) violations.push({ path: pathOf(at), message: `{{${reference}}} cannot be resolved: ${why}` });
        }
      }
    }
    return violations;
  },
};
