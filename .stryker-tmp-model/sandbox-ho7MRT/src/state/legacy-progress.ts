/**
 * Progress ConfigMaps that the task records (`task-{id}.json`) do not explain: those the original system
 * (5dlabs/cto, `controller/src/tasks/play/progress.rs`) wrote, and anything else labelled as progress.
 *
 * The original kept one task per repository in flat keys (`repository`, `branch`, `current-task-id`,
 * `workflow-name`, `status`, `stage`, `started-at`, `last-updated`); a team moving from it keeps its plays,
 * so such a ConfigMap is read as one task record. Our progress script writes the same flat keys as a
 * summary beside the task records, so they are only read this way when no task record is there.
 *
 * A labelled ConfigMap that neither format explains, and a key neither format knows (`task-abc.json`), is
 * flagged as an entry with its problem: `status` shows it, `resume` refuses it, nothing is skipped in silence.
 */
// @ts-nocheck

import { ProgressRecordSchema, type ProgressRecord } from './progress-record';

/** The flat keys of the original format, which our progress script also writes as a summary. */
export const LEGACY_KEYS = {
  repository: 'repository',
  branch: 'branch',
  taskId: 'current-task-id',
  workflowName: 'workflow-name',
  status: 'status',
  stage: 'stage',
  startedAt: 'started-at',
  lastUpdated: 'last-updated',
} as const;

const KNOWN_KEYS: readonly string[] = Object.values(LEGACY_KEYS);

/** Where an entry comes from, as `progress-state.ts` describes its entries. */
export interface ConfigMapOrigin {
  readonly configMap: string;
  readonly namespace?: string;
  readonly repository?: string;
}

/** An entry that is not a record of ours: a record in the original format, or a problem. */
export interface OtherEntry extends ConfigMapOrigin {
  readonly key: string;
  readonly task: string;
  readonly record?: ProgressRecord;
  readonly problem?: string;
}

/**
 * The original system's stage names, as its own resume step mapped them (seed-origin section 4, E3
 * `determine-resume-point`): `pending` is the implementation stage, `X-in-progress` is stage `X`. Any other
 * name is kept as it is; `resume` refuses a stage the configured stage machine does not have.
 */
export function legacyStage(stage: string): string {
  if (stage === 'pending') return 'implementation';
  return stage.endsWith('-in-progress') ? stage.slice(0, -'-in-progress'.length) : stage;
}

/** The original format's task record, or why it cannot be used (one line, naming the key). */
export function parseLegacyRecord(data: Readonly<Record<string, unknown>>): { record: ProgressRecord } | { problem: string } {
  const value = (key: string): unknown => data[key];
  const candidate = {
    repository: value(LEGACY_KEYS.repository),
    task: value(LEGACY_KEYS.taskId),
    workflowName: value(LEGACY_KEYS.workflowName),
    startedAt: value(LEGACY_KEYS.startedAt),
    lastUpdated: value(LEGACY_KEYS.lastUpdated),
    stage: typeof value(LEGACY_KEYS.stage) === 'string' ? legacyStage(value(LEGACY_KEYS.stage) as string) : value(LEGACY_KEYS.stage),
    status: value(LEGACY_KEYS.status),
  };
  const result = ProgressRecordSchema.safeParse(candidate);
  if (result.success) return { record: result.data };
  const issue = result.error.issues[0];
  const field = String(issue.path[0] ?? '');
  const key =
    Object.entries({
      repository: LEGACY_KEYS.repository,
      task: LEGACY_KEYS.taskId,
      workflowName: LEGACY_KEYS.workflowName,
      startedAt: LEGACY_KEYS.startedAt,
      lastUpdated: LEGACY_KEYS.lastUpdated,
      stage: LEGACY_KEYS.stage,
      status: LEGACY_KEYS.status,
    }).find(([name]) => name === field)?.[1] ?? field;
  const message = data[key] === undefined ? 'missing' : issue.message;
  return { problem: `5dlabs/cto progress format: key ${key}: ${message}` };
}

/**
 * The entries a progress ConfigMap holds beside its task records: the original format's record when there
 * are no task records, a problem when the ConfigMap holds nothing either format explains, and a problem for
 * each key neither format knows.
 *
 * @param isTaskKey whether a key is one of our task records (`task-5.json`)
 */
export function otherProgressEntries(
  origin: ConfigMapOrigin,
  data: Readonly<Record<string, unknown>>,
  isTaskKey: (key: string) => boolean,
): OtherEntry[] {
  const keys = Object.keys(data).sort();
  const hasTaskRecords = keys.some(isTaskKey);
  const entries: OtherEntry[] = [];
  if (!hasTaskRecords && LEGACY_KEYS.taskId in data) {
    const task = typeof data[LEGACY_KEYS.taskId] === 'string' ? (data[LEGACY_KEYS.taskId] as string) : '?';
    entries.push({ ...origin, key: LEGACY_KEYS.taskId, task, ...parseLegacyRecord(data) });
  } else if (!hasTaskRecords) {
    entries.push({
      ...origin,
      key: `ConfigMap ${origin.configMap}`,
      task: '?',
      problem: `labelled as progress but holds no task record: neither task-{id}.json keys (agent-play) nor ${LEGACY_KEYS.taskId} (5dlabs/cto); keys: ${keys.join(', ') || 'none'}`,
    });
  }
  for (const key of keys.filter((candidate) => !isTaskKey(candidate) && !KNOWN_KEYS.includes(candidate))) {
    entries.push({
      ...origin,
      key,
      task: '?',
      problem: `in ConfigMap ${origin.configMap}, neither a task record (task-{id}.json, the id in digits) nor a summary key (${KNOWN_KEYS.join(', ')})`,
    });
  }
  return entries;
}
