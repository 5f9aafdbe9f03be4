/**
 * Reads progress ConfigMaps as `kubectl get cm -l play-tracking=true -o yaml` prints them (a `List`), or as
 * single objects or multi-document YAML, into one entry per task record. A record that cannot be read is
 * kept as an entry with its problem: `status` shows it, `resume` refuses it.
 */
// @ts-nocheck

import { PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { legacyProgressKey, parseProgressKey } from '../../constructs/progress/progress-layout';
import { MAX_TASK_ID, repositoryLabelValue } from '../../constructs/model/naming';
import { readKubernetesYaml, type YamlDocument, YamlSyntaxError } from '../validate/kubernetes-yaml';
import { InputError } from '../io/input-error';
import { otherProgressEntries } from './legacy-progress';
import { parseProgressRecord, type ProgressRecord } from './progress-record';
import { isRecord } from '../is-record';
import { taskIdSpelling } from './task-id-spelling';
import { misplacedRecordProblem, readingOrder } from './record-location';

/** One task key of one progress ConfigMap. */
export interface TaskEntry {
  readonly configMap: string;
  readonly namespace?: string;
  /** The repository the ConfigMap is for (its `repository` key). */
  readonly repository?: string;
  readonly key: string;
  /** The task id the key names. */
  readonly task: string;
  readonly record?: ProgressRecord;
  /** Why the record cannot be used. */
  readonly problem?: string;
  /**
   * Another record of the same task, which the runtime reads before this one (an earlier layout's copy left
   * beside the task's shard): this one is stale, and `status` says so rather than list the task twice.
   */
  readonly supersededBy?: { readonly configMap: string; readonly key: string; readonly stage: string };
}

/** A progress ConfigMap as found in the input. */
export interface ProgressConfigMap {
  readonly name: string;
  readonly namespace?: string;
  readonly repository?: string;
  readonly entries: readonly TaskEntry[];
}

/** The key of a task's record around its id in the earlier, per-repository layout (`task-` and `.json`). */
const ID_MARKER = 'ID';
const [KEY_PREFIX, KEY_SUFFIX] = legacyProgressKey(ID_MARKER).split(ID_MARKER);

/** The task id in a record key of the earlier layout (`task-5.json` is 5), or `undefined` for a summary key. */
export function taskOfKey(key: string): string | undefined {
  if (!key.startsWith(KEY_PREFIX) || !key.endsWith(KEY_SUFFIX)) return undefined;
  const id = key.slice(KEY_PREFIX.length, key.length - KEY_SUFFIX.length);
  return /^\d+$/.test(id) ? id : undefined;
}

/** Where a key puts a record: its task, and its repository's label value in the shared layout. */
function placeOfKey(key: string): { readonly task: string; readonly repositoryLabel?: string } | undefined {
  const shared = parseProgressKey(key);
  if (shared !== undefined) return shared;
  const task = taskOfKey(key);
  return task === undefined ? undefined : { task };
}

/**
 * The progress ConfigMaps in `text`.
 * @param source the file name (or `-`) for error messages
 * @throws InputError when the text is not YAML, or holds no progress ConfigMap at all
 */
export function readProgressState(text: string, source: string): ProgressConfigMap[] {
  let documents: YamlDocument[];
  try {
    documents = readKubernetesYaml(text);
  } catch (error) {
    if (error instanceof YamlSyntaxError) throw new InputError([`${source}: not YAML: ${error.message}`]);
    throw error;
  }
  const objects = documents.flatMap(({ value }) => (isRecord(value) && Array.isArray(value.items) ? value.items : [value]));
  const configMaps = progressConfigMaps(objects);
  if (configMaps.length === 0) {
    throw new InputError([
      `${source}: no progress ConfigMap (kind ConfigMap labelled ${PROGRESS_TRACKING_LABEL}=true); get them with: kubectl get cm -l ${PROGRESS_TRACKING_LABEL}=true -o yaml`,
    ]);
  }
  return configMaps;
}

/** The progress ConfigMaps among Kubernetes objects (ConfigMaps labelled as progress), read into their entries. */
export function progressConfigMaps(objects: readonly unknown[]): ProgressConfigMap[] {
  const configMaps = objects
    .filter((object): object is Record<string, any> => isRecord(object) && object.kind === 'ConfigMap' && isTracked(object))
    .map(progressConfigMap);
  return markSuperseded(configMaps);
}

/**
 * Each record the runtime would not read because it reads another record of the same task first (same
 * namespace, repository and task; `readingOrder`), marked with that record: one task is one row of `status`,
 * and its stale copies are flagged, never listed as a second task.
 */
function markSuperseded(configMaps: readonly ProgressConfigMap[]): ProgressConfigMap[] {
  const taskOf = (entry: TaskEntry): string =>
    `${entry.namespace ?? ''}\u0000${entry.record?.repository.toLowerCase()}\u0000${entry.record?.task}`;
  const read = new Map<string, TaskEntry>();
  const rank = (entry: TaskEntry): number => {
    const record = entry.record as ProgressRecord;
    const at = readingOrder(record.repository, Number(record.task)).indexOf(entry.configMap);
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  for (const entry of configMaps.flatMap((configMap) => configMap.entries)) {
    if (entry.record === undefined) continue;
    const first = read.get(taskOf(entry));
    if (first === undefined || rank(entry) < rank(first)) read.set(taskOf(entry), entry);
  }
  return configMaps.map((configMap) => ({
    ...configMap,
    entries: configMap.entries.map((entry) => {
      const first = entry.record === undefined ? undefined : read.get(taskOf(entry));
      if (first === undefined || first === entry) return entry;
      return { ...entry, supersededBy: { configMap: first.configMap, key: first.key, stage: first.record?.stage ?? '?' } };
    }),
  }));
}

const isTracked = (object: Record<string, any>): boolean => object.metadata?.labels?.[PROGRESS_TRACKING_LABEL] === 'true';

function progressConfigMap(object: Record<string, any>): ProgressConfigMap {
  const name = String(object.metadata?.name ?? '');
  const namespace = typeof object.metadata?.namespace === 'string' ? object.metadata.namespace : undefined;
  const data: Record<string, unknown> = isRecord(object.data) ? object.data : {};
  const repository = typeof data.repository === 'string' ? data.repository : undefined;
  const entries = Object.keys(data)
    .flatMap((key): TaskEntry[] => {
      const place = placeOfKey(key);
      if (place === undefined) return [];
      const value = data[key];
      const base = { configMap: name, namespace, repository: repository ?? repositoryOfText(value), key, task: place.task };
      const uncanonical = uncanonicalKeyProblem(place.task);
      if (uncanonical !== undefined) return [{ ...base, problem: uncanonical }];
      if (typeof value !== 'string') return [{ ...base, problem: 'the value is not a string' }];
      // A record with releases and nothing else: events came for a task whose play has not started yet.
      if (place.repositoryLabel !== undefined && releasesOnly(value)) return [];
      const parsed = parseProgressRecord(value);
      if ('problem' in parsed) return [{ ...base, problem: parsed.problem }];
      const mismatch =
        disagreement(parsed.record, place, repository) ??
        misplacedRecordProblem(
          name,
          place.repositoryLabel === undefined ? 'legacy' : 'shared',
          parsed.record.repository,
          Number(place.task),
        );
      return [mismatch ? { ...base, problem: mismatch } : { ...base, repository: parsed.record.repository, record: parsed.record }];
    })
    .sort((a, b) => byRepositoryThenTask(a, b));
  const others = otherProgressEntries({ configMap: name, namespace, repository }, data, (key) => placeOfKey(key) !== undefined).map(
    (entry): TaskEntry => {
      if (entry.record === undefined) return entry;
      const misplaced = misplacedRecordProblem(name, 'flat', entry.record.repository, Number(entry.record.task));
      return misplaced === undefined ? entry : { ...entry, record: undefined, problem: misplaced };
    },
  );
  return { name, namespace, repository, entries: [...entries, ...others] };
}

/**
 * Why a key's task id is not the one form every part of the platform writes and reads (`task-007.json`,
 * which the runtime never reads: it reads and writes `task-7.json`), or `undefined`.
 */
function uncanonicalKeyProblem(task: string): string | undefined {
  const spelling = taskIdSpelling(task);
  if (spelling.form === 'canonical') return undefined;
  if (spelling.form === 'leading-zeros')
    return `the key names task "${task}", which is not a task id in its one form: the runtime reads and writes the key of task ${spelling.id}; rename the key or delete it`;
  return `the key names task "${task}", more than the largest task id (${MAX_TASK_ID}); delete the key`;
}

/** A record filed under another task or repository than its own says is not trusted. */
function disagreement(
  record: ProgressRecord,
  place: { readonly task: string; readonly repositoryLabel?: string },
  repository: string | undefined,
): string | undefined {
  if (record.task !== place.task) return `the record says task ${record.task} but is stored under the key of task ${place.task}`;
  if (place.repositoryLabel !== undefined && labelOf(record.repository) !== place.repositoryLabel)
    return `the record says repository ${record.repository} but is stored under the key of ${place.repositoryLabel}`;
  if (repository !== undefined && record.repository.toLowerCase() !== repository.toLowerCase())
    return `the record says repository ${record.repository} but the ConfigMap is for ${repository}`;
  return undefined;
}

function labelOf(repository: string): string | undefined {
  try {
    return repositoryLabelValue(repository);
  } catch {
    return undefined;
  }
}

/** The repository a stored record names, for an entry whose record cannot be used. */
function repositoryOfText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) && typeof parsed.repository === 'string' ? parsed.repository : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a stored record holds gate releases and no play's progress (no stage yet). */
function releasesOnly(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) && parsed.stage === undefined && isRecord(parsed.releases);
  } catch {
    return false;
  }
}

function byRepositoryThenTask(a: TaskEntry, b: TaskEntry): number {
  const left = (a.repository ?? '').toLowerCase();
  const right = (b.repository ?? '').toLowerCase();
  return left < right ? -1 : left > right ? 1 : Number(a.task) - Number(b.task);
}
