/**
 * The repository filter of the Sensors (constructs/events/repository-filter.ts): it names the repositories
 * while they fit in its budget, then their owners, then nothing, so that a Sensor stays small at any number
 * of repositories; it may let through more than the platform's repositories, never fewer (the event
 * helpers check the registry). Checked on the filter, and on Sensors run by the simulator's Argo Events
 * engine.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { anchoredAlternation, REPOSITORY_FILTER_BUDGET, repositoryFilter } from '../constructs/events/repository-filter';
import { githubEventData, runSensor } from '../src/simulate/sensor-runner';
import { pullRequestEvent } from './support/github-payloads';
import { synth } from './support/synth';

/** The filter's regexp as JavaScript reads it (the ones we emit use RE2 syntax that JavaScript shares). */
function matches(pattern: string, value: string): boolean {
  const caseInsensitive = pattern.startsWith('(?i)');
  return new RegExp(caseInsensitive ? pattern.slice(4) : pattern, caseInsensitive ? 'i' : '').test(value);
}

describe('repositoryFilter', () => {
  it('names the repositories, any case, anchored, each once, metacharacters literal', () => {
    const { scope, filter } = repositoryFilter(['acme/web', 'acme/web', 'acme/api.v2']);
    expect(scope).toBe('repositories');
    expect(filter).toEqual({ path: 'body.repository.full_name', type: 'string', value: ['(?i)^(acme/web|acme/api\\.v2)$'] });
    const [pattern] = filter?.value ?? [];
    expect(matches(pattern, 'ACME/Web')).toBe(true);
    expect(matches(pattern, 'acme/api.v2')).toBe(true);
    expect(matches(pattern, 'acme/apixv2')).toBe(false);
    expect(matches(pattern, 'acme/web-fork')).toBe(false);
    expect(matches(pattern, 'evil/acme/web')).toBe(false);
  });

  it('names the owners when the names pass the budget, and lets any repository of theirs through', () => {
    const names = Array.from({ length: 50 }, (_, index) => `${index % 2 ? 'Acme' : 'globex'}/service-${index}`);
    const { scope, filter } = repositoryFilter(names, 200);
    expect(scope).toBe('owners');
    const [pattern] = filter?.value ?? [];
    expect(pattern).toBe('(?i)^(globex|acme)/[^/]+$');
    expect(matches(pattern, 'acme/not-configured')).toBe(true);
    expect(matches(pattern, 'initech/service-1')).toBe(false);
    expect(matches(pattern, 'acme-corp/service-1')).toBe(false);
    expect(pattern.length).toBeLessThanOrEqual(200);
  });

  it('filters nothing when even the owners pass the budget (the registry decides)', () => {
    const names = Array.from({ length: 100 }, (_, index) => `owner-${index}/repository`);
    expect(repositoryFilter(names, 300)).toEqual({ scope: 'none' });
  });

  it('stays within its budget at 5,000 repositories', () => {
    const names = Array.from({ length: 5000 }, (_, index) => `octo-org-${index % 40}/service-${index}`);
    const { scope, filter } = repositoryFilter(names);
    expect(scope).toBe('owners');
    expect(filter?.value[0].length).toBeLessThanOrEqual(REPOSITORY_FILTER_BUDGET);
  });

  it('anchors any alternation and escapes every RE2 metacharacter', () => {
    expect(anchoredAlternation(['a.b', 'c|d', '(e)', '[f]', 'g+h?', 'i*', '^j$', '{k}', 'l\\m'])).toBe(
      '^(a\\.b|c\\|d|\\(e\\)|\\[f\\]|g\\+h\\?|i\\*|\\^j\\$|\\{k\\}|l\\\\m)$',
    );
  });
});

describe('the Sensors of a platform of 5,000 repositories', () => {
  const repositories = Array.from({ length: 5000 }, (_, index) => ({
    name: `octo-org-${index % 8}/service-${String(index).padStart(4, '0')}`,
    service: `service-${String(index).padStart(4, '0')}`,
  }));
  const platform = synth({ file: { repositories }, env: {} });
  const sensor = platform.one('Sensor', 'gate-waiting-pr-created');
  const fire = (repository: string) =>
    runSensor(sensor, githubEventData('pull_request', pullRequestEvent('opened', { repository, labels: ['task-3'] }), 'd'), {
      name: 'github',
      eventName: 'play',
    }).fired;

  it('keep every Sensor under 128 KiB', () => {
    for (const object of platform.byKind('Sensor')) expect(JSON.stringify(object).length, object.metadata.name).toBeLessThan(128 * 1024);
  });

  it("let through the events of the platform's owners, and no other", () => {
    expect(fire('octo-org-3/service-0003')).toHaveLength(1);
    expect(fire('OCTO-ORG-3/unknown')).toHaveLength(1);
    expect(fire('someone-else/service-0003')).toHaveLength(0);
  });
});
