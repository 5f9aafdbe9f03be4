/**
 * Where a finding about a missing field points: at the deepest field of its path that exists, or at the one
 * to add beside it, so that the report can give a line of the file and the user sees where to write.
 */
// @ts-nocheck

import { isRecord, type Path } from './argo-spec';

/** `path` cut after its first step that is not an object in `object`: `spec.arguments` when there are no arguments. */
export function presentPath(object: unknown, path: Path): Path {
  const kept: (string | number)[] = [];
  let value = object;
  for (const step of path) {
    kept.push(step);
    if (!isRecord(value) || !isRecord(value[step])) break;
    value = value[step];
  }
  return kept;
}
