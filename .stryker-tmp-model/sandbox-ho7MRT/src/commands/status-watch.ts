/**
 * `agent-play status --watch`: follows the progress ConfigMaps in the cluster and prints one line each time
 * a task's stage or status changes (one JSON object a line with --format json). With --task it follows one
 * task and ends when its play completes (exit 0) or fails (exit 1), so a script can wait on a play.
 */
// @ts-nocheck

import { ProgressStatuses } from '../../constructs/model/play-contract';
import type { ClusterTarget } from '../cluster/cluster-target';
import { connect } from '../cluster/connect';
import { followProgress, type Scope } from '../cluster/progress-source';
import { progressConfigMaps } from '../state/progress-state';
import { type StuckThresholds, type TaskStatus, taskStatuses } from '../state/task-status';
import { ExitCode, type Io } from './command';

export interface FollowRequest {
  readonly thresholds: StuckThresholds;
  /** Follow this task only, until its play ends. */
  readonly task?: string;
  readonly json: boolean;
}

/** The signal that ends the follow: the caller's, or Ctrl-C. */
function stopSignal(io: Io): { signal: AbortSignal; release: () => void } {
  if (io.signal) return { signal: io.signal, release: () => undefined };
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  return { signal: controller.signal, release: () => process.off('SIGINT', stop) };
}

function line(status: TaskStatus, at: string, json: boolean): string {
  if (json)
    return `${JSON.stringify({ at, repository: status.repository, task: status.task, stage: status.stage, status: status.status, lastAgent: status.lastAgent, workflow: status.workflowName, flag: status.flag })}\n`;
  const flag = status.flag ? `  ! ${status.flag}` : '';
  return `${at}  ${status.repository}  task ${status.task}  ${status.stage}  ${status.status}${status.lastAgent ? `  (${status.lastAgent})` : ''}${flag}\n`;
}

/** @returns the exit code: 0 stopped or completed, 1 the followed play failed */
export async function followTasks(target: ClusterTarget, scope: Scope, io: Io, request: FollowRequest): Promise<number> {
  const cluster = await connect(target, io.env);
  const { signal: outer, release } = stopSignal(io);
  const inner = new AbortController();
  const signal = AbortSignal.any([outer, inner.signal]);
  const seen = new Map<string, string>();
  let code: number = ExitCode.ok;
  let announced = false;
  const onChange = (objects: readonly Record<string, unknown>[]): void => {
    const now = io.now ? io.now() : new Date();
    const entries = progressConfigMaps(objects).flatMap((configMap) => configMap.entries);
    const statuses = taskStatuses(entries, now, request.thresholds).filter(
      (status) => request.task === undefined || status.task === request.task,
    );
    if (request.task !== undefined && statuses.length === 0 && !announced) {
      announced = true;
      io.err(
        `waiting for task ${request.task} in ${scope.allNamespaces ? 'all namespaces' : `namespace ${cluster.namespace}`} of ${cluster.context}\n`,
      );
    }
    for (const status of statuses) {
      const key = `${status.repository}\0${status.task}`;
      const state = `${status.stage}\0${status.status}\0${status.flag ?? ''}`;
      if (seen.get(key) === state) continue;
      seen.set(key, state);
      io.out(line(status, now.toISOString(), request.json));
    }
    if (request.task === undefined) return;
    const ended = statuses.filter((status) => status.status === ProgressStatuses.completed || status.status === ProgressStatuses.failed);
    if (ended.length > 0 && ended.length === statuses.length) {
      code = ended.some((status) => status.status === ProgressStatuses.failed) ? ExitCode.failed : ExitCode.ok;
      inner.abort();
    }
  };
  try {
    await followProgress(cluster, scope, onChange, { signal });
  } finally {
    release();
  }
  return code;
}
