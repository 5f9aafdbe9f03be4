/**
 * What `agent-play validate --skip KIND --disable RULE` leaves out, as kubeconform's `-skip` and a linter's
 * rule switches do: objects of a skipped kind are not checked (no schema, metadata or lint finding on them;
 * they still count for what other objects reference, so that skipping WorkflowTemplates does not make a
 * Sensor's gate look missing), and a disabled rule or check reports nothing. A name that matches nothing is a
 * usage error that says what exists, never a silent no-op.
 */
// @ts-nocheck

import type { ManifestObject } from './finding';

/** A `--skip` or `--disable` value that names nothing there is. */
export class SelectionError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'SelectionError';
  }
}

/** Edit distance (insertions, deletions, substitutions), case ignored: how far a typo is from a name. */
function distance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  let previous = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[y.length];
}

/**
 * The known name closest to `wanted`, when it is close enough to be a typo of it, or the shortest that starts
 * with it (`pvc-prune` for `pvc-prune-protection`).
 */
export function closestName(wanted: string, known: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  const names = [...known];
  const extended = names.filter((name) => name.toLowerCase().startsWith(wanted.toLowerCase())).sort((a, b) => a.length - b.length);
  if (wanted.length >= 3 && extended.length > 0) return extended[0];
  for (const name of names) {
    const d = distance(wanted, name);
    if (!best || d < best.distance) best = { name, distance: d };
  }
  return best && best.distance <= Math.max(2, Math.floor(wanted.length / 3)) ? best.name : undefined;
}

const unknownName = (option: string, value: string, what: string, known: readonly string[]): SelectionError => {
  const meant = closestName(value, known);
  return new SelectionError(`${option} ${value}: no such ${what}${meant ? `; did you mean ${meant}?` : ''} (known: ${known.join(', ')})`);
};

/** The group of an apiVersion: `apps` for `apps/v1`, `core` for `v1`. */
const groupOf = (apiVersion: unknown): string => {
  const text = String(apiVersion ?? '');
  return text.includes('/') ? text.slice(0, text.indexOf('/')) : 'core';
};

/** The names an object answers to in `--skip`: `Kind`, `group/Kind` (`core/Pod`), `apiVersion/Kind`. */
const namesOf = (object: ManifestObject): string[] => {
  const { apiVersion } = object.object;
  return [object.kind, `${groupOf(apiVersion)}/${object.kind}`, `${String(apiVersion)}/${object.kind}`];
};

/**
 * Which objects `--skip` leaves out, and why (the report says it).
 * @param skip the values given, each `Kind`, `group/Kind` (`core` for the core group) or `apiVersion/Kind`
 * @param known the kinds that exist: every kind a schema knows (`apiVersion/Kind`) and every object read
 * @throws SelectionError for a value that matches no known kind
 */
export function skipSelector(
  skip: readonly string[],
  known: { readonly schemaKinds: readonly string[]; readonly objects: readonly ManifestObject[] },
): (object: ManifestObject) => string | undefined {
  if (skip.length === 0) return () => undefined;
  const names = new Set<string>();
  for (const kind of known.schemaKinds) {
    const slash = kind.lastIndexOf('/');
    const [apiVersion, name] = [kind.slice(0, slash), kind.slice(slash + 1)];
    names
      .add(name)
      .add(`${groupOf(apiVersion)}/${name}`)
      .add(kind);
  }
  for (const object of known.objects) for (const name of namesOf(object)) names.add(name);
  const kindsOnly = [...new Set([...names].filter((name) => !name.includes('/')))].sort();
  for (const value of skip) if (!names.has(value)) throw unknownName('--skip', value, 'kind in the schemas or the manifests', kindsOnly);
  const wanted = new Set(skip);
  return (object) => {
    const matched = namesOf(object).find((name) => wanted.has(name));
    return matched === undefined ? undefined : `--skip ${matched}`;
  };
}

/**
 * The rule ids `--disable` turns off.
 * @param known every rule and check id there is
 * @throws SelectionError for a value that is no rule id
 */
export function disabledRules(disable: readonly string[], known: readonly string[]): ReadonlySet<string> {
  const sorted = [...known].sort();
  for (const value of disable) if (!known.includes(value)) throw unknownName('--disable', value, 'rule', sorted);
  return new Set(disable);
}
