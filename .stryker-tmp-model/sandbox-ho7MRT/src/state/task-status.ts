/**
 * What `agent-play status` concludes about each task: where it is, and whether it looks stuck. An agent stage
 * that has not written progress for longer than `stuckAfter` probably hangs; a play waiting at a gate waits
 * for a human or a bot, so it is only flagged after the longer `gateStuckAfter`; a failed play is flagged
 * always; a completed one never.
 */
// @ts-nocheck

import { ProgressStatuses } from '../../constructs/model/play-contract';
import type { TaskEntry } from './progress-state';

export interface StuckThresholds {
  /** Seconds an agent stage may go without progress. */
  readonly stuckAfter: number;
  /** Seconds a play may wait at a gate. */
  readonly gateStuckAfter: number;
}

export interface TaskStatus {
  readonly repository: string;
  readonly task: string;
  readonly stage: string;
  readonly status: string;
  /** The remediation round (1 for a record written before rounds; absent for an unreadable record). */
  readonly round?: number;
  /** Why the task failed, when its record says (rounds exhausted). */
  readonly reason?: string;
  /** The remediation history: what sent the task back, or re-ran its stale work. */
  readonly remediations?: readonly { round: number; kind: string; reason: string; reviewer: string; url: string; at: string }[];
  readonly lastAgent: string;
  readonly lastUpdated: string;
  /** Seconds since the last update, at the time of the report. */
  readonly ageSeconds?: number;
  readonly workflowName: string;
  readonly configMap: string;
  /** Why the task needs a look: stuck, failed, or a record that cannot be read. */
  readonly flag?: string;
}

/** `7h`, `3d4h`, `45m`: an age as people read it. */
export function formatAge(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return hours > 0 ? `${days}d${hours}h` : `${days}d`;
  if (hours > 0) return minutes > 0 ? `${hours}h${minutes}m` : `${hours}h`;
  return `${minutes}m`;
}

function flagOf(status: string, ageSeconds: number, thresholds: StuckThresholds, reason?: string): string | undefined {
  if (status === ProgressStatuses.failed && reason !== undefined) return `failed: ${reason}`;
  if (status === ProgressStatuses.failed) return 'failed: resume it with agent-play resume';
  if (status === ProgressStatuses.inProgress && ageSeconds > thresholds.stuckAfter)
    return `stuck: no progress for ${formatAge(ageSeconds)} (more than ${formatAge(thresholds.stuckAfter)})`;
  if (status === ProgressStatuses.suspended && ageSeconds > thresholds.gateStuckAfter)
    return `waiting at the gate for ${formatAge(ageSeconds)} (more than ${formatAge(thresholds.gateStuckAfter)}): is its event lost?`;
  return undefined;
}

/** How far ahead of the reader's clock a record's time may be (clock skew between nodes) before it is a lie. */
export const CLOCK_SKEW_SECONDS = 300;

/**
 * What makes a readable record untrustworthy: a stale copy the runtime does not read, or a last update in the
 * future (such a record could never be found stuck, its age being always zero).
 */
function recordFlag(entry: TaskEntry, now: Date): string | undefined {
  const record = entry.record as NonNullable<TaskEntry['record']>;
  const newer = entry.supersededBy;
  if (newer !== undefined)
    return `stale copy in ConfigMap ${entry.configMap} (stage ${record.stage}): the runtime reads ${newer.configMap} ${newer.key} (stage ${newer.stage}); delete the key ${entry.key}`;
  const ahead = Math.floor((Date.parse(record.lastUpdated) - now.getTime()) / 1000);
  if (ahead > CLOCK_SKEW_SECONDS)
    return `lastUpdated ${record.lastUpdated} is ${formatAge(ahead)} in the future: a clock far off, or a record written by hand; it can never be found stuck`;
  return undefined;
}

/** The status of one entry at `now`. */
export function taskStatus(entry: TaskEntry, now: Date, thresholds: StuckThresholds): TaskStatus {
  const record = entry.record;
  if (!record) {
    return {
      repository: entry.repository ?? '?',
      task: entry.task,
      stage: '?',
      status: 'unreadable',
      lastAgent: '',
      lastUpdated: '',
      workflowName: '',
      configMap: entry.configMap,
      flag: `unreadable record ${entry.key}: ${entry.problem}`,
    };
  }
  const ageSeconds = Math.max(0, Math.floor((now.getTime() - Date.parse(record.lastUpdated)) / 1000));
  const flag = recordFlag(entry, now) ?? flagOf(record.status, ageSeconds, thresholds, record.reason);
  return {
    repository: record.repository,
    task: record.task,
    stage: record.stage,
    status: record.status,
    round: record.round ?? 1,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
    remediations: record.remediations.map(({ eventId: _eventId, ...entry }) => entry),
    lastAgent: record.lastAgent ?? '',
    lastUpdated: record.lastUpdated,
    ageSeconds,
    workflowName: record.workflowName,
    configMap: entry.configMap,
    ...(flag ? { flag } : {}),
  };
}

/** Every task, sorted by repository, then task id as a number. */
export function taskStatuses(entries: readonly TaskEntry[], now: Date, thresholds: StuckThresholds): TaskStatus[] {
  return entries
    .map((entry) => taskStatus(entry, now, thresholds))
    .sort((a, b) => (a.repository < b.repository ? -1 : a.repository > b.repository ? 1 : Number(a.task) - Number(b.task)));
}
