/**
 * Where the Argo Workflows semantics live in an object: the workflow spec (a CronWorkflow's under
 * `spec.workflowSpec`), its templates and the steps and DAG tasks that call them. The rules walk these so
 * that each one reports at the same paths.
 */
// @ts-nocheck

import { fieldPath, type ManifestObject } from '../finding';
import { isUntypedRecord as isRecord } from '../../is-record';

export type Json = Record<string, any>;
export type Path = readonly (string | number)[];

/** The rules read manifests field by field, untyped: `isRecord` narrows to `Json`. */
export { isRecord };
export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The kinds that hold a workflow spec. */
export const WORKFLOW_KINDS: readonly string[] = ['Workflow', 'WorkflowTemplate', 'ClusterWorkflowTemplate', 'CronWorkflow'];

/** Every template type field; a template has exactly one. */
export const TEMPLATE_TYPES = [
  'container',
  'script',
  'dag',
  'steps',
  'resource',
  'suspend',
  'containerSet',
  'data',
  'http',
  'plugin',
] as const;
/** Templates that run as a pod of their own. */
export const LEAF_TYPES: readonly string[] = ['container', 'script', 'resource', 'containerSet', 'data', 'http', 'plugin', 'suspend'];

export interface WorkflowSpec {
  readonly spec: Json;
  readonly at: Path;
}

/** The object's workflow spec, or `undefined` for another kind or a spec that is not an object. */
export function workflowSpecOf(target: ManifestObject): WorkflowSpec | undefined {
  const at: Path = target.kind === 'CronWorkflow' ? ['spec', 'workflowSpec'] : ['spec'];
  const spec = at.reduce<unknown>((value, step) => (isRecord(value) ? value[step as string] : undefined), target.object);
  return isRecord(spec) ? { spec, at } : undefined;
}

export interface TemplateAt {
  readonly template: Json;
  readonly name: string;
  readonly at: Path;
}

export function templatesOf(workflow: WorkflowSpec): TemplateAt[] {
  return listOf(workflow.spec.templates).flatMap((template, index) =>
    isRecord(template)
      ? [{ template, name: typeof template.name === 'string' ? template.name : '', at: [...workflow.at, 'templates', index] }]
      : [],
  );
}

/** The template types a template has. */
export const typesOf = (template: Json): string[] =>
  TEMPLATE_TYPES.filter((type) => template[type] !== undefined && template[type] !== null);

/** A step or DAG task: something that invokes a template. */
export interface CallAt {
  readonly call: Json;
  readonly name: string;
  readonly at: Path;
  /** The steps/DAG template it belongs to. */
  readonly holder: TemplateAt;
}

export function dagTasksOf(holder: TemplateAt): CallAt[] {
  return listOf(holder.template.dag?.tasks).flatMap((task, index) =>
    isRecord(task)
      ? [{ call: task, name: typeof task.name === 'string' ? task.name : '', at: [...holder.at, 'dag', 'tasks', index], holder }]
      : [],
  );
}

export function stepsOf(holder: TemplateAt): CallAt[] {
  return listOf(holder.template.steps).flatMap((group, groupIndex) =>
    listOf(group).flatMap((step, index) =>
      isRecord(step)
        ? [{ call: step, name: typeof step.name === 'string' ? step.name : '', at: [...holder.at, 'steps', groupIndex, index], holder }]
        : [],
    ),
  );
}

/** Every step and DAG task of the spec. */
export const callsOf = (workflow: WorkflowSpec): CallAt[] =>
  templatesOf(workflow).flatMap((holder) => [...dagTasksOf(holder), ...stepsOf(holder)]);

/** True when the text holds an unresolved `{{...}}` placeholder. */
export const hasPlaceholder = (text: unknown): boolean => typeof text === 'string' && text.includes('{{');

export const pathOf = (at: Path, ...more: (string | number)[]): string => fieldPath(...at, ...more);

/** The Workflows kinds' objects of the run, with their specs. */
export function workflowObjects(
  objects: readonly ManifestObject[],
  kinds: readonly string[] = WORKFLOW_KINDS,
): { target: ManifestObject; workflow: WorkflowSpec }[] {
  return objects.flatMap((target) => {
    if (!kinds.includes(target.kind)) return [];
    const workflow = workflowSpecOf(target);
    return workflow ? [{ target, workflow }] : [];
  });
}

/** The parameters (or artifacts) list at `holder[key].parameters`. */
export const namedList = (holder: unknown, key: 'parameters' | 'artifacts'): Json[] =>
  listOf(isRecord(holder) ? holder[key] : undefined).filter(isRecord);
