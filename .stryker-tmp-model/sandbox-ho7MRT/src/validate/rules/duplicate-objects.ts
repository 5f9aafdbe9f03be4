/**
 * One object, two contents: two documents of a run with the same API group, kind, namespace and name are one
 * object to the API server, so applying the folder keeps whichever comes last and GitOps flips between them
 * (two platforms synthesized into one namespace gave 23 such pairs). The same object twice with the same
 * content is harmless but said (one of them is surplus).
 */
// @ts-nocheck

import { isDeepStrictEqual } from 'node:util';
import type { LintContext, LintRule, ManifestObject, Violation } from '../finding';
import { ANY_KIND } from './object-size';

/** What the API server identifies an object by: the group of its apiVersion, kind, namespace and name. */
function identityOf(target: ManifestObject): string | undefined {
  if (target.kind === '' || target.name === '' || typeof target.object.apiVersion !== 'string') return undefined;
  // A generateName makes a new object each time: no two are the same.
  if (target.object.metadata?.name === undefined) return undefined;
  const apiVersion: string = target.object.apiVersion;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return [group, target.kind, target.namespace ?? '', target.name].join('\u0000');
}

/** The objects of each identity in a run, in order, computed once per run. */
const byIdentity = new WeakMap<readonly ManifestObject[], Map<string, ManifestObject[]>>();

function objectsOf(context: LintContext): Map<string, ManifestObject[]> {
  let all = byIdentity.get(context.objects);
  if (all === undefined) {
    all = new Map();
    for (const object of context.objects) {
      const identity = identityOf(object);
      if (identity === undefined) continue;
      const list = all.get(identity);
      if (list === undefined) all.set(identity, [object]);
      else list.push(object);
    }
    byIdentity.set(context.objects, all);
  }
  return all;
}

const where = (target: ManifestObject): string => (target.line === undefined ? target.file : `${target.file}:${target.line}`);

export const duplicateObjectRule: LintRule = {
  id: 'duplicate-object',
  severity: 'error',
  description:
    'no two documents of a run are one object (API group, kind, namespace, name) with different content: applied together, the last wins (the same content twice is a warning)',
  kinds: [ANY_KIND],
  // Said at each copy, naming another: whichever file a reader opens tells them.
  check: (target, context): Violation[] => {
    const identity = identityOf(target);
    const others = identity === undefined ? [] : (objectsOf(context).get(identity) ?? []).filter((object) => object !== target);
    if (others.length === 0) return [];
    const what = `${target.kind} ${target.namespace === undefined ? '' : `${target.namespace}/`}${target.name}`;
    const different = others.find((other) => !isDeepStrictEqual(other.object, target.object));
    if (different === undefined)
      return [{ path: '', severity: 'warning', message: `${what} is also at ${where(others[0])}, with the same content: keep one` }];
    return [
      {
        path: '',
        message: `${what} is also at ${where(different)}, with other content: applied together, one overwrites the other; rename one or give it its own namespace`,
      },
    ];
  },
};
