/**
 * Which repositories' events a Sensor lets through. The Sensor's data filter is a first sieve that keeps
 * the platform from starting an event helper Workflow for every event of an organization; the event helper
 * (resumer, remediator) then checks the event against the repository registry, which is the authority
 * (constructs/registry/event-repository.ts). So the filter may let through more than the platform's
 * repositories, never less, and it must stay small whatever their number: a Sensor is one object, and
 * ArgoCD's client-side apply keeps it whole in an annotation (256 KiB).
 *
 * The filter names the repositories while that fits in a budget, else their owners (organizations), else
 * nothing (every repository the EventSource's webhook serves comes through, and the registry decides).
 *
 * Argo Events matches a string data filter's value as a Go regexp anywhere in the value
 * (argo-events `pkg/sensors/dependencies/filter.go`, `filterData`), so each alternation is anchored.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { DataFilter } from './argo-events-types';

/** The JSON path of the event's repository, `owner/name`. */
export const REPOSITORY_PATH = 'body.repository.full_name';

/**
 * The most characters a Sensor's repository filter may take. At 16 KiB a Sensor stays far under ArgoCD's
 * limit with its other filters, and Go compiles and runs the regexp in microseconds.
 */
export const REPOSITORY_FILTER_BUDGET = 16 * 1024;

/** Go (RE2) regexp metacharacters escaped, so a literal matches only itself. */
export function regexpLiteral(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** An anchored alternation of literals: the whole value must be one of them. */
export function anchoredAlternation(values: readonly string[], caseInsensitive = false): string {
  const alternatives = [...new Set(values)].map(regexpLiteral).join('|');
  return `${caseInsensitive ? '(?i)' : ''}^(${alternatives})$`;
}

/** How much of the repository list the filter keeps. */
export type RepositoryFilterScope = 'repositories' | 'owners' | 'none';

/** The repository filter of a Sensor, and how precise it is. */
export interface RepositoryFilter {
  readonly scope: RepositoryFilterScope;
  /** The data filter, absent when the scope is `none`. */
  readonly filter?: DataFilter;
}

/**
 * The data filter on the event's repository for `names` (`owner/name`, any case: GitHub names are
 * case-insensitive), within `budget` characters.
 */
export function repositoryFilter(names: readonly string[], budget = REPOSITORY_FILTER_BUDGET): RepositoryFilter {
  const byName = anchoredAlternation(names, true);
  if (byName.length <= budget) return { scope: 'repositories', filter: { path: REPOSITORY_PATH, type: 'string', value: [byName] } };
  const owners = [...new Set(names.map((name) => name.slice(0, name.indexOf('/')).toLowerCase()))];
  const byOwner = `(?i)^(${owners.map(regexpLiteral).join('|')})/[^/]+$`;
  if (byOwner.length <= budget) return { scope: 'owners', filter: { path: REPOSITORY_PATH, type: 'string', value: [byOwner] } };
  return { scope: 'none' };
}
