/**
 * Every template a workflow names must exist (argo-semantics §2 rules 2-5 and 42): the entrypoint, onExit,
 * hooks, each step's and task's `template`, and a `templateRef` into a (Cluster)WorkflowTemplate of the same
 * run. A reference to a WorkflowTemplate that is not in the run is not checked (it lives elsewhere), nor is
 * one that holds a `{{...}}` placeholder.
 */
// @ts-nocheck

import type { LintContext, LintRule, ManifestObject, Violation } from '../finding';
import {
  callsOf,
  hasPlaceholder,
  isRecord,
  pathOf,
  templatesOf,
  workflowObjects,
  workflowSpecOf,
  WORKFLOW_KINDS,
  type Json,
  type Path,
  type WorkflowSpec,
} from './argo-spec';

/** The template names of the (Cluster)WorkflowTemplate `name` in the run, or `undefined` when it is not in the run. */
export function referencedTemplateNames(context: LintContext, name: string, clusterScope: boolean): Set<string> | undefined {
  const kind = clusterScope ? 'ClusterWorkflowTemplate' : 'WorkflowTemplate';
  const found = workflowObjects(context.objects, [kind]).find(({ target }) => target.name === name);
  return found ? new Set(templatesOf(found.workflow).map((template) => template.name)) : undefined;
}

function localReference(name: unknown, at: Path, local: ReadonlySet<string>, what: string): Violation[] {
  if (name === undefined || hasPlaceholder(name)) return [];
  if (typeof name !== 'string' || name === '') return [{ path: pathOf(at), message: `${what} must name a template` }];
  return local.has(name) ? [] : [{ path: pathOf(at), message: `${what} names template "${name}", which is not defined in spec.templates` }];
}

function templateRefViolations(ref: unknown, at: Path, context: LintContext): Violation[] {
  if (!isRecord(ref)) return [{ path: pathOf(at), message: 'templateRef must be an object with name and template' }];
  const missing = ['name', 'template'].filter((field) => typeof ref[field] !== 'string' || ref[field] === '');
  if (missing.length > 0) return [{ path: pathOf(at), message: `templateRef needs ${missing.join(' and ')}` }];
  if (hasPlaceholder(ref.name) || hasPlaceholder(ref.template)) return [];
  const names = referencedTemplateNames(context, ref.name, ref.clusterScope === true);
  if (!names || names.has(ref.template)) return [];
  return [
    {
      path: pathOf(at, 'template'),
      message: `template "${ref.template}" is not defined in ${ref.clusterScope === true ? 'ClusterWorkflowTemplate' : 'WorkflowTemplate'} "${ref.name}"`,
    },
  ];
}

/** A step, task or hook: exactly one of template, templateRef (or an inline template). */
function callViolations(call: Json, at: Path, local: ReadonlySet<string>, context: LintContext, what: string): Violation[] {
  const given = ['template', 'templateRef', 'inline'].filter((field) => call[field] !== undefined);
  if (given.length === 0) return [{ path: pathOf(at), message: `${what} names no template: set template or templateRef` }];
  if (given.length > 1) return [{ path: pathOf(at), message: `${what} sets ${given.join(' and ')}: set only one` }];
  if (call.template !== undefined) return localReference(call.template, [...at, 'template'], local, what);
  if (call.templateRef !== undefined) return templateRefViolations(call.templateRef, [...at, 'templateRef'], context);
  return [];
}

function hooksViolations(hooks: unknown, at: Path, local: ReadonlySet<string>, context: LintContext): Violation[] {
  if (!isRecord(hooks)) return [];
  return Object.entries(hooks).flatMap(([key, hook]) => {
    if (!isRecord(hook)) return [];
    const hookAt = [...at, key];
    const violations = callViolations(hook, hookAt, local, context, `hook "${key}"`);
    if (key !== 'exit' && (typeof hook.expression !== 'string' || hook.expression === ''))
      violations.push({
        path: pathOf(hookAt, 'expression'),
        message: `hook "${key}" needs an expression (only the "exit" hook runs without one)`,
      });
    return violations;
  });
}

function specViolations(target: ManifestObject, workflow: WorkflowSpec, context: LintContext): Violation[] {
  const { spec, at } = workflow;
  const local = new Set(templatesOf(workflow).map((template) => template.name));
  const violations: Violation[] = [];
  const isWorkflow = target.kind === 'Workflow' || target.kind === 'CronWorkflow';
  if (spec.workflowTemplateRef !== undefined) {
    if (spec.templates !== undefined)
      violations.push({
        path: pathOf(at, 'templates'),
        message: 'a workflow with workflowTemplateRef takes its templates from the WorkflowTemplate: remove spec.templates',
      });
    return violations;
  }
  if (isWorkflow && (typeof spec.entrypoint !== 'string' || spec.entrypoint === ''))
    violations.push({ path: pathOf(at, 'entrypoint'), message: 'a Workflow needs spec.entrypoint (or spec.workflowTemplateRef)' });
  violations.push(...localReference(spec.entrypoint, [...at, 'entrypoint'], local, 'entrypoint'));
  violations.push(...localReference(spec.onExit, [...at, 'onExit'], local, 'onExit'));
  violations.push(...hooksViolations(spec.hooks, [...at, 'hooks'], local, context));
  for (const { call, at: callAt, name } of callsOf(workflow)) {
    violations.push(...callViolations(call, callAt, local, context, `"${name}"`));
    violations.push(...hooksViolations(call.hooks, [...callAt, 'hooks'], local, context));
  }
  return violations;
}

export const templateReferenceRule: LintRule = {
  id: 'template-reference',
  severity: 'error',
  description:
    'entrypoint, onExit, hooks, steps, tasks and templateRefs name templates that exist; a workflowTemplateRef comes without templates',
  kinds: WORKFLOW_KINDS,
  check: (target, context) => {
    const workflow = workflowSpecOf(target);
    return workflow ? specViolations(target, workflow, context) : [];
  },
};
