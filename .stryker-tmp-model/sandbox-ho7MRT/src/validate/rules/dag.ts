/**
 * DAG templates (argo-semantics §2 G): at least one task; dependencies that exist; `depends` parsed (Argo
 * only evaluates it at runtime) and never mixed with `dependencies` or `continueOn` in one DAG; no cycle;
 * `target` naming tasks; an argument taken from `{{tasks.X...}}` only after X.
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { parseBooleanExpression } from './boolean-expression';
import {
  dagTasksOf,
  hasPlaceholder,
  isRecord,
  listOf,
  pathOf,
  templatesOf,
  workflowSpecOf,
  WORKFLOW_KINDS,
  type CallAt,
  type TemplateAt,
} from './argo-spec';

const TASK_OPERAND = /[a-zA-Z0-9][-a-zA-Z0-9]*(\.[A-Z][a-zA-Z]+)?/;
const RESULTS = ['Succeeded', 'Failed', 'Errored', 'Skipped', 'Omitted', 'Daemoned', 'AnySucceeded', 'AllFailed'];
const LOOP_RESULTS = ['AnySucceeded', 'AllFailed'];

const isLooped = (task: CallAt): boolean => ['withItems', 'withParam', 'withSequence'].some((loop) => task.call[loop] !== undefined);

/** The DAG templates of an object. */
function dagsOf(target: Parameters<LintRule['check']>[0]): TemplateAt[] {
  const workflow = workflowSpecOf(target);
  return workflow ? templatesOf(workflow).filter((holder) => isRecord(holder.template.dag)) : [];
}

/** The tasks a task waits for, by name, from `dependencies` or the parsed `depends` (unparsable: none). */
export function dependenciesOf(task: CallAt): string[] {
  if (Array.isArray(task.call.dependencies)) return task.call.dependencies.filter((name): name is string => typeof name === 'string');
  if (typeof task.call.depends !== 'string') return [];
  const parsed = parseBooleanExpression(task.call.depends, TASK_OPERAND);
  return parsed.ok ? [...new Set(parsed.operands.map((operand) => operand.name))] : [];
}

const dagRule = (id: string, description: string, check: (dag: TemplateAt, tasks: CallAt[]) => Violation[]): LintRule => ({
  id,
  severity: 'error',
  description,
  kinds: WORKFLOW_KINDS,
  check: (target) => dagsOf(target).flatMap((dag) => check(dag, dagTasksOf(dag))),
});

export const dagTasksRule = dagRule('dag-tasks', 'a DAG template has at least one task', (dag, tasks) =>
  tasks.length > 0 ? [] : [{ path: pathOf(dag.at, 'dag', 'tasks'), message: `DAG template "${dag.name}" has no tasks` }],
);

export const dagDependsSyntaxRule = dagRule(
  'dag-depends-syntax',
  '`depends` parses: task names, .Result suffixes, &&, ||, ! and parentheses',
  (_dag, tasks) =>
    tasks.flatMap((task) => {
      if (task.call.depends === undefined || hasPlaceholder(task.call.depends)) return [];
      if (typeof task.call.depends !== 'string')
        return [{ path: pathOf(task.at, 'depends'), message: 'depends must be a string expression' }];
      const parsed = parseBooleanExpression(task.call.depends, TASK_OPERAND);
      return parsed.ok
        ? []
        : [{ path: pathOf(task.at, 'depends'), message: `depends "${task.call.depends}" does not parse: ${parsed.error}` }];
    }),
);

export const dagDependencyRule = dagRule(
  'dag-dependency',
  'every task a DAG task depends on exists, with a result Argo knows',
  (_dag, tasks) => {
    const byName = new Map(tasks.map((task) => [task.name, task]));
    return tasks.flatMap((task) => {
      const violations: Violation[] = [];
      for (const name of listOf(task.call.dependencies)) {
        if (typeof name === 'string' && !byName.has(name))
          violations.push({ path: pathOf(task.at, 'dependencies'), message: `dependency "${name}" is not a task of this DAG` });
      }
      const parsed = typeof task.call.depends === 'string' ? parseBooleanExpression(task.call.depends, TASK_OPERAND) : undefined;
      for (const operand of parsed?.ok ? parsed.operands : []) {
        const path = pathOf(task.at, 'depends');
        const dependency = byName.get(operand.name);
        if (!dependency) violations.push({ path, message: `depends names "${operand.name}", which is not a task of this DAG` });
        else if (operand.result !== undefined && !RESULTS.includes(operand.result))
          violations.push({ path, message: `"${operand.name}.${operand.result}": the result must be one of ${RESULTS.join(', ')}` });
        else if (operand.result !== undefined && LOOP_RESULTS.includes(operand.result) && !isLooped(dependency))
          violations.push({
            path,
            message: `"${operand.name}.${operand.result}" only applies to a task with withItems, withParam or withSequence`,
          });
      }
      return violations;
    });
  },
);

export const dagDependsMixedRule = dagRule(
  'dag-depends-mixed',
  '`depends` is never mixed with `dependencies` or `continueOn` in one DAG, and digit-led task names are not used with either',
  (_dag, tasks) => {
    const usesDepends = tasks.some((task) => task.call.depends !== undefined);
    const usesAny = usesDepends || tasks.some((task) => task.call.dependencies !== undefined);
    return tasks.flatMap((task): Violation[] => {
      const violations: Violation[] = [];
      if (usesDepends && task.call.dependencies !== undefined)
        violations.push({
          path: pathOf(task.at, 'dependencies'),
          message: "this DAG uses 'depends': write this task's dependencies as a depends expression too",
        });
      if (usesDepends && task.call.continueOn !== undefined)
        violations.push({
          path: pathOf(task.at, 'continueOn'),
          message:
            "continueOn cannot be used in a DAG that uses 'depends': write 'task.Failed' or 'task.Errored' in the dependent's depends instead",
        });
      if (usesAny && /^[0-9]/.test(task.name))
        violations.push({
          path: pathOf(task.at, 'name'),
          message: `task name "${task.name}" starts with a digit, which depends/dependencies cannot refer to`,
        });
      return violations;
    });
  },
);

/** A cycle among the tasks, as names `a -> b -> a`, or undefined. */
function findCycle(tasks: readonly CallAt[]): string[] | undefined {
  const edges = new Map(tasks.map((task) => [task.name, dependenciesOf(task)]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (name: string): string[] | undefined => {
    if (state.get(name) === 'done' || !edges.has(name)) return undefined;
    if (state.get(name) === 'visiting') return [...stack.slice(stack.indexOf(name)), name];
    state.set(name, 'visiting');
    stack.push(name);
    for (const next of edges.get(name) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(name, 'done');
    return undefined;
  };
  for (const task of tasks) {
    const cycle = visit(task.name);
    if (cycle) return cycle;
  }
  return undefined;
}

export const dagCycleRule = dagRule('dag-cycle', 'the tasks of a DAG have no dependency cycle', (dag, tasks) => {
  const cycle = findCycle(tasks);
  return cycle
    ? [{ path: pathOf(dag.at, 'dag', 'tasks'), message: `dependency cycle: ${cycle.join(' -> ')}; no task of it can ever start` }]
    : [];
});

export const dagTargetRule = dagRule('dag-target', 'dag.target names tasks of the DAG', (dag, tasks) => {
  const target = dag.template.dag.target;
  if (typeof target !== 'string' || hasPlaceholder(target)) return [];
  const names = new Set(tasks.map((task) => task.name));
  return target
    .split(/\s+/)
    .filter((name) => name !== '' && !names.has(name))
    .map((name) => ({ path: pathOf(dag.at, 'dag', 'target'), message: `target "${name}" is not a task of this DAG` }));
});

/**
 * Every task a task transitively depends on. `direct` holds each task's own dependencies, parsed once for
 * the DAG: parsing them again for every ancestor of every task made this rule quadratic in the DAG's size.
 */
function ancestorsOf(task: CallAt, direct: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>();
  const pending = [...(direct.get(task.name) ?? [])];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    pending.push(...(direct.get(name) ?? []));
  }
  return seen;
}

export const dagArgumentDependencyRule = dagRule(
  'dag-argument-dependency',
  'an argument that starts with {{tasks.X...}} comes from a task X that runs before',
  (_dag, tasks) => {
    const byName = new Map(tasks.map((task) => [task.name, task]));
    const direct = new Map(tasks.map((task) => [task.name, dependenciesOf(task)]));
    return tasks.flatMap((task) => {
      let ancestors: Set<string> | undefined;
      const runsAfter = (name: string): boolean => {
        ancestors ??= ancestorsOf(task, direct);
        return ancestors.has(name);
      };
      const parameters = listOf(task.call.arguments?.parameters).map((parameter, index) => ({
        text: isRecord(parameter) ? parameter.value : undefined,
        at: [...task.at, 'arguments', 'parameters', index, 'value'],
      }));
      const artifacts = listOf(task.call.arguments?.artifacts).map((artifact, index) => ({
        text: isRecord(artifact) ? artifact.from : undefined,
        at: [...task.at, 'arguments', 'artifacts', index, 'from'],
      }));
      return [...parameters, ...artifacts].flatMap(({ text, at }): Violation[] => {
        const match = typeof text === 'string' ? /^\{\{\s*tasks\.([a-zA-Z0-9][-a-zA-Z0-9]*)\./.exec(text) : null;
        if (!match || !byName.has(match[1]) || runsAfter(match[1])) return [];
        return [{ path: pathOf(at), message: `"${text}" needs task "${match[1]}" to have run: add it to this task's depends` }];
      });
    });
  },
);

export const DAG_RULES: readonly LintRule[] = [
  dagTasksRule,
  dagDependsSyntaxRule,
  dagDependencyRule,
  dagDependsMixedRule,
  dagCycleRule,
  dagTargetRule,
  dagArgumentDependencyRule,
];
