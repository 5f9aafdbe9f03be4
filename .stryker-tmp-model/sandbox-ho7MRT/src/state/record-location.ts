/**
 * Where the runtime reads a task's record, and whether a record stored elsewhere may be believed. The runtime
 * reads only the record's own place (`constructs/progress/progress-layout.ts`): the task's shard, else the
 * earlier layouts' ConfigMaps of its repository, in that order. A record stored anywhere else (another
 * repository's ConfigMap, another shard) is never read by a play, so `status` and `resume` must not believe it
 * either: it says what it likes about a repository it was not filed under.
 */
// @ts-nocheck

import { legacyProgressConfigMapBase, legacyProgressLocations, progressConfigMapOf } from '../../constructs/progress/progress-layout';

/** How a record is filed: under a shared-layout key, an earlier layout's `task-{id}.json`, or the original's flat keys. */
export type RecordLayout = 'shared' | 'legacy' | 'flat';

/** The ConfigMaps the runtime reads a task's record from, the first it reads first. */
export function readingOrder(repository: string, task: number): string[] {
  return [progressConfigMapOf(repository, task), ...legacyProgressLocations(repository, task).map((location) => location.configMap)];
}

/** The ConfigMaps in which a record of `layout` for the task is where the runtime looks. */
function placesOf(repository: string, task: number, layout: RecordLayout): string[] {
  if (layout === 'shared') return [progressConfigMapOf(repository, task)];
  if (layout === 'legacy') return legacyProgressLocations(repository, task).map((location) => location.configMap);
  // The original system named its ConfigMap `play-progress-{owner}-{repo}` (seed-origin section 5), which is
  // our earlier layout's base name for every repository a Kubernetes name can spell as it is.
  return [legacyProgressConfigMapBase(repository), `play-progress-${repository.replace('/', '-')}`.toLowerCase()];
}

/**
 * Why a record of `repository`'s task `task` stored in ConfigMap `configMap` is not where the runtime reads
 * it, or `undefined` when it is.
 */
export function misplacedRecordProblem(configMap: string, layout: RecordLayout, repository: string, task: number): string | undefined {
  let places: string[];
  try {
    places = placesOf(repository, task, layout);
  } catch {
    return undefined; // the record's repository is refused by its own schema first
  }
  if (places.includes(configMap)) return undefined;
  return `the record says task ${task} of ${repository}, which the runtime keeps in ConfigMap ${places[0]}, not in ${configMap}: it is not read by any play; delete it or move it there`;
}
