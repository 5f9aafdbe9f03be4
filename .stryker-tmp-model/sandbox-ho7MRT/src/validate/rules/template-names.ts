/**
 * Names inside a workflow spec (argo-semantics §2 B): templates, DAG tasks and steps must be named, unique,
 * `^[a-zA-Z0-9][-a-zA-Z0-9]*$` and at most 128 characters; parameter and artifact names unique and
 * `^[-a-zA-Z0-9_]+$`.
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import {
  dagTasksOf,
  hasPlaceholder,
  namedList,
  pathOf,
  stepsOf,
  templatesOf,
  workflowSpecOf,
  WORKFLOW_KINDS,
  type Json,
  type Path,
} from './argo-spec';

const FIELD_NAME = /^[a-zA-Z0-9][-a-zA-Z0-9]*$/;
const PARAMETER_NAME = /^[-a-zA-Z0-9_]+$/;
const MAX_FIELD_NAME = 128;

interface Named {
  readonly name: unknown;
  readonly at: Path;
}

function fieldNameViolations(entries: readonly Named[], what: string): Violation[] {
  const violations: Violation[] = [];
  const seen = new Set<string>();
  for (const { name, at } of entries) {
    const path = pathOf(at, 'name');
    if (typeof name !== 'string' || name === '') {
      violations.push({ path, message: `every ${what} needs a name` });
      continue;
    }
    // Step names may hold placeholders; Argo checks them after replacing those.
    const checked = name.replace(/\{\{[^}]*\}\}/g, 'x');
    if (!FIELD_NAME.test(checked))
      violations.push({ path, message: `${what} name "${name}" must match ^[a-zA-Z0-9][-a-zA-Z0-9]*$ (no '_' or '.')` });
    else if (checked.length > MAX_FIELD_NAME)
      violations.push({ path, message: `${what} name "${name}" is longer than ${MAX_FIELD_NAME} characters` });
    if (seen.has(name)) violations.push({ path, message: `${what} name "${name}" is used twice; names must be unique` });
    seen.add(name);
  }
  return violations;
}

function parameterNameViolations(holder: unknown, at: Path): Violation[] {
  return (['parameters', 'artifacts'] as const).flatMap((key) => {
    const seen = new Set<string>();
    return namedList(holder, key).flatMap((entry, index): Violation[] => {
      const path = pathOf(at, key, index, 'name');
      const name = entry.name;
      if (typeof name !== 'string' || name === '') return [{ path, message: `every ${key.slice(0, -1)} needs a name` }];
      const problems: Violation[] = [];
      const legal = key === 'parameters' ? PARAMETER_NAME.test(name) : /^[-a-zA-Z0-9_{}.]+$/.test(name);
      if (!legal && !hasPlaceholder(name))
        problems.push({ path, message: `${key.slice(0, -1)} name "${name}" may only hold letters, digits, '-' and '_'` });
      if (seen.has(name)) problems.push({ path, message: `${key.slice(0, -1)} "${name}" is declared twice` });
      seen.add(name);
      return problems;
    });
  });
}

function templateParameterViolations(template: Json, at: Path): Violation[] {
  const calls = [...dagTasksOf({ template, name: '', at }), ...stepsOf({ template, name: '', at })];
  return [
    ...parameterNameViolations(template.inputs, [...at, 'inputs']),
    ...parameterNameViolations(template.outputs, [...at, 'outputs']),
    ...calls.flatMap((call) => parameterNameViolations(call.call.arguments, [...call.at, 'arguments'])),
  ];
}

export const argoNamesRule: LintRule = {
  id: 'argo-names',
  severity: 'error',
  description:
    'templates, DAG tasks and steps named, unique, ^[a-zA-Z0-9][-a-zA-Z0-9]*$ and at most 128 characters; parameter and artifact names legal and unique',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    const templates = templatesOf(workflow);
    const violations = fieldNameViolations(
      templates.map(({ template, at }) => ({ name: template.name, at })),
      'template',
    );
    violations.push(...parameterNameViolations(workflow.spec.arguments, [...workflow.at, 'arguments']));
    for (const holder of templates) {
      violations.push(
        ...fieldNameViolations(
          dagTasksOf(holder).map(({ call, at }) => ({ name: call.name, at })),
          'DAG task',
        ),
      );
      violations.push(
        ...fieldNameViolations(
          stepsOf(holder).map(({ call, at }) => ({ name: call.name, at })),
          'step',
        ),
      );
      violations.push(...templateParameterViolations(holder.template, holder.at));
    }
    return violations;
  },
};
