/**
 * Reads and writes a task's progress record through the Kubernetes API. Every write is a merge patch of the
 * task's own key that carries the resourceVersion it read, retried on conflict: tasks that share a ConfigMap
 * never overwrite each other, and a write that loses a race is redone on what won it.
 *
 * Pure: no cdk8s, no I/O (the API comes with the step's context).
 */
// @ts-nocheck

import { PROGRESS_TRACKING_LABEL } from '../model/labels';
import { ApiError, ApiResources, configMapRef, HttpStatus, isAlreadyExists, isNotFound, type KubeObject } from '../runtime/kube-api';
import { explainApiError, retryOnConflict } from '../runtime/conflict-retry';
import type { StepContext } from '../runtime/runtime-step';
import { legacyProgressLocations, progressConfigMapOf, progressKeyOf } from './progress-layout';
import { emptyRecord, type ProgressRecord, type TaskIdentity } from './progress-record';

/** A record as read: the record, or why the stored text cannot be one; and where it was found. */
export interface StoredRecord {
  /** The record; absent when the task has none, or when `problem` says why it cannot be used. */
  readonly record?: ProgressRecord;
  /** Why the stored text is not a record of this task. */
  readonly problem?: string;
  /** The ConfigMap it was found in (an earlier layout's, when `legacy`). */
  readonly configMap?: string;
  /** Found in an earlier layout (read only; the next write moves it to its shard). */
  readonly legacy?: boolean;
}

/**
 * The record stored as `text` for a task, or why it is not one: not JSON, not an object, or naming another
 * task or repository than the key it is stored under (repository names compare without case, as GitHub's).
 */
export function parseStoredRecord(text: string, identity: TaskIdentity): { record: ProgressRecord } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'the stored record is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'the stored record is not a JSON object' };
  const record = parsed as Record<string, unknown>;
  if (typeof record.repository !== 'string' || record.repository.toLowerCase() !== identity.repository.toLowerCase())
    return { problem: `the stored record names repository ${JSON.stringify(record.repository)}, not ${identity.repository}` };
  if (record.task !== String(identity.task))
    return { problem: `the stored record names task ${JSON.stringify(record.task)}, not ${identity.task}` };
  return { record: record as unknown as ProgressRecord };
}

function dataOf(configMap: KubeObject): Record<string, unknown> {
  const data = configMap.data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
}

/** The ConfigMap `name`, or `undefined` when it does not exist. */
async function configMapOrNone(context: StepContext, namespace: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await context.api.get(configMapRef(namespace, name));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw explainApiError(error, `reading ConfigMap ${name}`);
  }
}

function storedIn(configMap: KubeObject | undefined, key: string, identity: TaskIdentity, legacy: boolean): StoredRecord | undefined {
  const text = configMap === undefined ? undefined : dataOf(configMap)[key];
  if (text === undefined) return undefined;
  const where = { configMap: configMap?.metadata.name, ...(legacy ? { legacy } : {}) };
  if (typeof text !== 'string') return { ...where, problem: 'the stored record is not text' };
  return { ...where, ...parseStoredRecord(text, identity) };
}

/**
 * A task's record: from its shard, else from where an earlier layout kept it (read only).
 *
 * @throws StepFailure on an API error other than "not found"
 */
export async function readRecord(context: StepContext, namespace: string, identity: TaskIdentity): Promise<StoredRecord> {
  const current = storedIn(
    await configMapOrNone(context, namespace, progressConfigMapOf(identity.repository, identity.task)),
    progressKeyOf(identity.repository, identity.task),
    identity,
    false,
  );
  if (current !== undefined) return current;
  for (const location of legacyProgressLocations(identity.repository, identity.task)) {
    const found = storedIn(await configMapOrNone(context, namespace, location.configMap), location.key, identity, true);
    if (found !== undefined) return found;
  }
  return {};
}

/** What an update makes of the record: the record to write, or `undefined` to write nothing. */
export type RecordUpdate = (before: ProgressRecord) => ProgressRecord | undefined;

/**
 * Reads the task's record, applies `update`, and writes the result under the task's key with the
 * resourceVersion read, again on a conflict. A record that cannot be used (not JSON, another task's) is
 * replaced, and the step says so; a record only in an earlier layout is moved to its shard. The shard
 * ConfigMap is created, labelled for `agent-play status`, when it does not exist.
 *
 * @returns the record written, or the record as it was when `update` changed nothing
 * @throws StepFailure when the API refuses (403 included) or the object keeps changing
 */
export async function updateRecord(
  context: StepContext,
  namespace: string,
  identity: TaskIdentity,
  update: RecordUpdate,
): Promise<ProgressRecord> {
  const name = progressConfigMapOf(identity.repository, identity.task);
  const key = progressKeyOf(identity.repository, identity.task);
  const what = `writing ${key} in ConfigMap ${name}`;
  return retryOnConflict(context, what, async () => {
    const configMap = await configMapOrNone(context, namespace, name);
    const stored = storedIn(configMap, key, identity, false) ?? (await legacyRecord(context, namespace, identity));
    if (stored?.problem !== undefined) context.log(`${stored.configMap}/${key}: ${stored.problem}; writing a new record over it`);
    const before = stored?.record ?? emptyRecord(identity);
    const after = update(before);
    if (after === undefined) return before;
    const text = JSON.stringify(after);
    if (configMap === undefined) {
      const created = await createShard(context, namespace, name, key, text);
      if (created) return after;
      // Another step created the shard meanwhile: a conflict like any other, read it and redo the update.
      throw new ApiError(HttpStatus.conflict, 'Conflict', `ConfigMap ${name} was created meanwhile`);
    }
    await context.api.mergePatch(configMapRef(namespace, name), {
      metadata: { resourceVersion: configMap.metadata.resourceVersion },
      data: { [key]: text },
    });
    return after;
  });
}

async function legacyRecord(context: StepContext, namespace: string, identity: TaskIdentity): Promise<StoredRecord | undefined> {
  const found = await readRecord(context, namespace, identity);
  return found.legacy ? found : undefined;
}

/** Creates the shard with the one record; false when another step created the shard first. */
async function createShard(context: StepContext, namespace: string, name: string, key: string, text: string): Promise<boolean> {
  try {
    await context.api.create(ApiResources.configMaps, namespace, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace, labels: { [PROGRESS_TRACKING_LABEL]: 'true' } },
      data: { [key]: text },
    });
    return true;
  } catch (error) {
    if (isAlreadyExists(error)) return false;
    throw explainApiError(error, `creating ConfigMap ${name}`);
  }
}
