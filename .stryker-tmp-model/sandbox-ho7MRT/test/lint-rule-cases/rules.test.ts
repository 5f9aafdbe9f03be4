/**
 * Every lint rule, table-driven: each case breaks one branch of a rule and must be reported by it with the
 * message that names the problem; beside it the same run fixed must pass that rule. The fixtures in
 * test/fixtures/lint prove each rule fires once; these prove each branch, so a mutant in any of them fails.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { parseFieldPath, type ManifestObject, type Violation } from '../../src/validate/finding';
import { LINT_RULES } from '../../src/validate/rules';
import { WORKFLOW_KINDS } from '../../src/validate/rules/argo-spec';
import { manifest, run, type RuleTable } from './cases';
import { CONTROLLER_TABLES } from './tables/controller';
import { EVENTS_TABLES } from './tables/events';
import { RUNTIME_TABLES } from './tables/runtime';
import { WORKFLOW_TABLES } from './tables/workflow';

const TABLES: RuleTable[] = [...WORKFLOW_TABLES, ...EVENTS_TABLES, ...RUNTIME_TABLES, ...CONTROLLER_TABLES];

/**
 * Where a violation points must exist in the object it blames, up to its last step (a missing field may be
 * the problem), or into a string that embeds YAML (a resource manifest): a path that names nothing sends the
 * user to the wrong place.
 */
function pointsIntoObject(violation: Violation, checked: ManifestObject): boolean {
  if (violation.path === '') return true;
  const steps = parseFieldPath(violation.path);
  if (!steps) return false;
  let value: unknown = (violation.object ?? checked).object;
  for (const step of steps.slice(0, -1)) {
    if (typeof value === 'string') return true;
    if (value === null || typeof value !== 'object' || !(step in (value as object))) return false;
    value = (value as Record<string | number, unknown>)[step];
  }
  return typeof value === 'string' || (value !== null && typeof value === 'object');
}

describe.each(TABLES.map((table) => [table.rule.id, table] as const))('%s', (_id, { rule, cases }) => {
  it.each(cases.map((item) => [item.name, item] as const))('%s', (_name, item) => {
    const found = run(rule, item.broken);
    expect(found.map((violation) => violation.message).join('\n'), 'the broken run is reported').toContain(item.message);
    if (item.path !== undefined) expect(found.map((violation) => violation.path)).toContain(item.path);
    for (const violation of found)
      expect(pointsIntoObject(violation, item.broken[0]), `${violation.path} points into the object`).toBe(true);
    expect(run(rule, item.fixed), 'the fixed run passes').toEqual([]);
  });
});

describe('the tables', () => {
  it('cover every lint rule of the registry', () => {
    const covered = new Set(TABLES.map((table) => table.rule.id));
    expect(LINT_RULES.map((rule) => rule.id).filter((id) => !covered.has(id))).toEqual([]);
  });
});

describe('a workflow whose spec cannot be read', () => {
  // A Workflow kind with no spec object (a CronWorkflow without workflowSpec) has nothing these rules check:
  // the guard that skips it is what keeps each rule from throwing on it.
  const unreadable = (kind: string, spec: unknown): ManifestObject => ({
    ...manifest(kind, 'run', {}),
    object: { apiVersion: 'argoproj.io/v1alpha1', kind, metadata: { name: 'run' }, spec },
  });
  const objects = [
    unreadable('Workflow', 'x'),
    unreadable('WorkflowTemplate', undefined),
    unreadable('CronWorkflow', { schedules: ['@daily'] }),
  ];
  const rules = TABLES.map((table) => table.rule).filter((rule) => WORKFLOW_KINDS.every((kind) => rule.kinds?.includes(kind)));
  it.each(rules.map((rule) => [rule.id, rule] as const))('%s reports nothing', (_id, rule) => {
    for (const object of objects) expect(run(rule, [object]), object.kind).toEqual([]);
  });
});
