/**
 * Where a task's progress record lives in the cluster: one key of one of a fixed set of ConfigMaps shared by
 * every repository, so that the Roles name a fixed set of ConfigMaps whatever the number of repositories, and
 * no object nears the 1 MiB limit. The runtime steps, RBAC, `agent-play status` and `resume` all take the
 * names from here.
 *
 * Earlier layouts are still read (never written): one ConfigMap per repository split into 64 shards
 * (`play-progress-{owner}-{repo}-{n}`, key `task-{id}.json`), and before it a single one per repository.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { dnsName, fnv1a, parseRepository, repositoryLabelValue } from '../model/naming';

/**
 * How many ConfigMaps hold the progress of every task of every repository. A record is about 1 to 2 KiB: 128
 * ConfigMaps of at most 1 MiB hold some 60,000 records (docs/limits.md says what to do past that).
 */
export const PROGRESS_SHARDS = 128;

/** The prefix of the progress ConfigMaps: `play-progress-shard-{n}`. */
const SHARD_PREFIX = 'play-progress-shard';

/** The name of progress shard `shard`. */
export function progressShardName(shard: number): string {
  return `${SHARD_PREFIX}-${shard}`;
}

/** Every progress ConfigMap, shard 0 first (for RBAC `resourceNames`). */
export function progressShardNames(): string[] {
  return Array.from({ length: PROGRESS_SHARDS }, (_unused, shard) => progressShardName(shard));
}

/**
 * The shard of a task's record: a hash of the repository (as its label value, so that `Octo/Web` and
 * `octo/web` are one repository) and the task id, modulo `PROGRESS_SHARDS`.
 *
 * @throws when the repository is not `owner/name`
 */
export function progressShardOf(repository: string, task: number): number {
  return fnv1a(`${repositoryLabelValue(repository)}/${task}`) % PROGRESS_SHARDS;
}

/** The ConfigMap that holds a task's record. @throws when the repository is not `owner/name` */
export function progressConfigMapOf(repository: string, task: number): string {
  return progressShardName(progressShardOf(repository, task));
}

/**
 * The key of a task's record in its ConfigMap: `{repository label}.task-{id}.json`, e.g.
 * `octo-org.payments.task-5.json`. Each task writes only its own key.
 *
 * @throws when the repository is not `owner/name`
 */
export function progressKeyOf(repository: string, task: number): string {
  return `${repositoryLabelValue(repository)}${TASK_KEY_INFIX}${task}${TASK_KEY_SUFFIX}`;
}

const TASK_KEY_INFIX = '.task-';
const TASK_KEY_SUFFIX = '.json';

/** The repository label and task of a record key, or `undefined` for a key that is not a record's. */
export function parseProgressKey(key: string): { readonly repositoryLabel: string; readonly task: string } | undefined {
  if (!key.endsWith(TASK_KEY_SUFFIX)) return undefined;
  const at = key.lastIndexOf(TASK_KEY_INFIX);
  if (at <= 0) return undefined;
  const task = key.slice(at + TASK_KEY_INFIX.length, key.length - TASK_KEY_SUFFIX.length);
  if (!/^\d+$/.test(task)) return undefined;
  return { repositoryLabel: key.slice(0, at), task };
}

/** How many ConfigMaps one repository's progress was spread over in the earlier, per-repository layout. */
export const LEGACY_PROGRESS_SHARDS = 64;

/** The base name of a repository's progress ConfigMaps in the earlier layouts. @throws when not `owner/name` */
export function legacyProgressConfigMapBase(repository: string): string {
  const { owner, name } = parseRepository(repository);
  return dnsName(['play-progress', owner, name]);
}

/**
 * Where an earlier layout kept a task's record, newest layout first: its repository shard, then the single
 * ConfigMap of the layout before it; the key is `task-{id}.json` in both.
 */
export function legacyProgressLocations(repository: string, task: number): Array<{ readonly configMap: string; readonly key: string }> {
  const base = legacyProgressConfigMapBase(repository);
  const key = legacyProgressKey(task);
  return [
    { configMap: `${base}-${task % LEGACY_PROGRESS_SHARDS}`, key },
    { configMap: base, key },
  ];
}

/** The key of a task's record in the earlier, per-repository layouts. */
export function legacyProgressKey(task: number | string): string {
  return `task-${task}.json`;
}
