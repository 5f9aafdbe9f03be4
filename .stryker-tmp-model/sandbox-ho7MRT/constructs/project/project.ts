/**
 * A project: the tasks of one repository, each run as a child play, in dependency order. This module is
 * the pure part: the task list's schema, the order the tasks run in, and how they are cut into DAGs small
 * enough for Argo (at most 200 tasks each). Linear in the number of tasks and dependencies.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { ProjectTaskConfig } from '../model/config-shapes';
import { ProblemsError } from '../model/problems-error';

export type { ProjectConfig, ProjectTaskConfig } from '../model/config-shapes';

/** Argo accepts at most this many tasks in one DAG template. */
export const MAX_DAG_TASKS = 200;

/** A task in run order, with the dependencies that matter inside its chunk. */
export interface OrderedTask {
  readonly id: number;
  readonly dependsOn: readonly number[];
  readonly parameters: Readonly<Record<string, string>>;
}

/** A project's task list that cannot run: duplicate ids, unknown dependencies, a cycle. */
export class ProjectError extends ProblemsError {
  public constructor(problems: readonly string[]) {
    super(problems);
    this.name = 'ProjectError';
  }
}

function listProblems(tasks: readonly ProjectTaskConfig[]): string[] {
  const problems: string[] = [];
  const ids = new Set<number>();
  tasks.forEach((task, index) => {
    if (ids.has(task.id)) problems.push(`tasks[${index}].id: task ${task.id} is listed twice; give each task its own id`);
    ids.add(task.id);
  });
  tasks.forEach((task, index) => {
    task.dependsOn.forEach((dependency, position) => {
      if (dependency === task.id) problems.push(`tasks[${index}].dependsOn[${position}]: task ${task.id} depends on itself; remove it`);
      else if (!ids.has(dependency))
        problems.push(
          `tasks[${index}].dependsOn[${position}]: task ${task.id} depends on task ${dependency}, which is not in the project; add it or remove the dependency`,
        );
    });
  });
  return problems;
}

/** One cycle among the tasks that were left unordered, as `3 -> 7 -> 3` (3 waits for 7, which waits for 3). */
function cycleIn(remaining: ReadonlySet<number>, byId: ReadonlyMap<number, ProjectTaskConfig>): string {
  // Every remaining task has a remaining dependency, so walking dependencies must come back to a task seen.
  const seenAt = new Map<number, number>();
  const path: number[] = [];
  let current = [...remaining][0];
  while (!seenAt.has(current)) {
    seenAt.set(current, path.length);
    path.push(current);
    current = (byId.get(current)?.dependsOn ?? []).find((dependency) => remaining.has(dependency)) as number;
  }
  return [...path.slice(seenAt.get(current)), current].join(' -> ');
}

/**
 * The tasks in an order where every task comes after all it depends on (Kahn's algorithm; among tasks that
 * are ready together, the order of the list is kept).
 * @throws ProjectError naming every duplicate id and unknown dependency, or one cycle
 */
export function orderTasks(tasks: readonly ProjectTaskConfig[]): OrderedTask[] {
  const problems = listProblems(tasks);
  if (problems.length > 0) throw new ProjectError(problems);
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const waitingOn = new Map(tasks.map((task) => [task.id, new Set(task.dependsOn).size]));
  const dependents = new Map<number, number[]>(tasks.map((task) => [task.id, []]));
  for (const task of tasks) for (const dependency of new Set(task.dependsOn)) dependents.get(dependency)?.push(task.id);
  const ready = tasks.filter((task) => waitingOn.get(task.id) === 0).map((task) => task.id);
  const ordered: OrderedTask[] = [];
  for (let next = 0; next < ready.length; next += 1) {
    const task = byId.get(ready[next]) as ProjectTaskConfig;
    ordered.push({ id: task.id, dependsOn: [...new Set(task.dependsOn)], parameters: task.parameters });
    for (const dependent of dependents.get(task.id) ?? []) {
      const left = (waitingOn.get(dependent) ?? 0) - 1;
      waitingOn.set(dependent, left);
      if (left === 0) ready.push(dependent);
    }
  }
  if (ordered.length < tasks.length) {
    const remaining = new Set(tasks.filter((task) => (waitingOn.get(task.id) ?? 0) > 0).map((task) => task.id));
    throw new ProjectError([
      `tasks: dependency cycle ${cycleIn(remaining, byId)}: no task of it can ever start; remove one of these dependencies`,
    ]);
  }
  return ordered;
}

/**
 * Cuts the ordered tasks into chunks of at most `size`, run one chunk after the other. Inside a chunk, tasks
 * keep their dependencies on tasks of the same chunk; a dependency on an earlier chunk is met because that
 * chunk has finished.
 */
export function chunkTasks(ordered: readonly OrderedTask[], size: number = MAX_DAG_TASKS): OrderedTask[][] {
  const chunks: OrderedTask[][] = [];
  for (let start = 0; start < ordered.length; start += size) {
    const chunk = ordered.slice(start, start + size);
    const inChunk = new Set(chunk.map((task) => task.id));
    chunks.push(chunk.map((task) => ({ ...task, dependsOn: task.dependsOn.filter((dependency) => inChunk.has(dependency)) })));
  }
  return chunks;
}
