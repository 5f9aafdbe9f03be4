/**
 * Reads progress ConfigMaps as `kubectl get cm -l play-tracking=true -o yaml` prints them (a `List`), or as
 * single objects or multi-document YAML, into one entry per task record. A record that cannot be read is
 * kept as an entry with its problem: `status` shows it, `resume` refuses it.
 */
import { PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { legacyProgressKey, parseProgressKey } from '../../constructs/progress/progress-layout';
import { repositoryLabelValue } from '../../constructs/model/naming';
import { readKubernetesYaml, type YamlDocument, YamlSyntaxError } from '../validate/kubernetes-yaml';
import { InputError } from '../io/input-error';
import { otherProgressEntries } from './legacy-progress';
import { parseProgressRecord, type ProgressRecord } from './progress-record';
import { isRecord } from '../is-record';

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
  return objects
    .filter((object): object is Record<string, any> => isRecord(object) && object.kind === 'ConfigMap' && isTracked(object))
    .map(progressConfigMap);
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
      if (typeof value !== 'string') return [{ ...base, problem: 'the value is not a string' }];
      // A record with releases and nothing else: events came for a task whose play has not started yet.
      if (place.repositoryLabel !== undefined && releasesOnly(value)) return [];
      const parsed = parseProgressRecord(value);
      if ('problem' in parsed) return [{ ...base, problem: parsed.problem }];
      const mismatch = disagreement(parsed.record, place, repository);
      return [mismatch ? { ...base, problem: mismatch } : { ...base, repository: parsed.record.repository, record: parsed.record }];
    })
    .sort((a, b) => byRepositoryThenTask(a, b));
  const others = otherProgressEntries({ configMap: name, namespace, repository }, data, (key) => placeOfKey(key) !== undefined);
  return { name, namespace, repository, entries: [...entries, ...others] };
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
