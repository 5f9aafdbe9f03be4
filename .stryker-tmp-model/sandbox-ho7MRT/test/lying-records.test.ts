/**
 * Records that lie (issue 23 item 6): a progress record is believed only where the runtime reads it, with the
 * values a play could have written. A record filed under another repository's ConfigMap or another shard, a
 * stale copy of a task the runtime reads elsewhere, a last update in the future, play parameters that
 * `--parameter` would refuse, a round no config allows: each is flagged by `status` and refused by `resume`
 * with the field it is about.
 */
// @ts-nocheck

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  legacyProgressLocations,
  progressConfigMapOf,
  progressKeyOf,
  progressShardName,
  PROGRESS_SHARDS,
} from '../constructs/progress/progress-layout';
import { runCapturing } from './support/run-cli';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const RUNS = Number(process.env.FC_RUNS ?? 100);
const NOW = new Date('2026-11-23T08:00:00Z');
const REPOSITORY = '5dlabs/cto-play-test';

const recordOf = (fields: Record<string, unknown> = {}) => ({
  repository: REPOSITORY,
  task: '7',
  workflowName: 'play-play-test-task-7',
  startedAt: '2026-11-23T07:00:00Z',
  lastUpdated: '2026-11-23T07:30:00Z',
  stage: 'implementation',
  status: 'in-progress',
  parameters: { 'task-type': '' },
  ...fields,
});

const configMap = (name: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'agents', labels: { 'play-tracking': 'true' } },
  data,
});
const list = (...items: object[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
const inShard = (record: object, shard = progressConfigMapOf(REPOSITORY, 7)) =>
  configMap(shard, { [progressKeyOf(REPOSITORY, 7)]: JSON.stringify(record) });

const status = (stdin: string) => {
  const run = runCapturing(['status', '--format', 'json', '-'], { stdin, now: NOW, env: {} });
  return JSON.parse(run.out).tasks as Array<{ task: string; stage: string; flag?: string; status: string }>;
};
const resume = (stdin: string) => runCapturing(['resume', '--repository', REPOSITORY, '--task', '7', '-'], { stdin, now: NOW, env: {} });

describe('a record is believed only where the runtime reads it', () => {
  it('a record in the right shard is read and resumed (the positive control)', () => {
    const stdin = list(inShard(recordOf()));
    expect(status(stdin)).toEqual([expect.objectContaining({ task: '7', stage: 'implementation' })]);
    expect(status(stdin)[0].flag).toBeUndefined();
    expect(resume(stdin).code).toBe(0);
  });

  it('a record in any other shard is flagged and refused, whatever the shard', () => {
    const right = progressConfigMapOf(REPOSITORY, 7);
    const others = Array.from({ length: PROGRESS_SHARDS }, (_unused, shard) => progressShardName(shard)).filter((name) => name !== right);
    fc.assert(
      fc.property(fc.constantFrom(...others), (shard) => {
        const stdin = list(inShard(recordOf(), shard));
        const [task] = status(stdin);
        expect(task.status).toBe('unreadable');
        expect(task.flag).toContain(`which the runtime keeps in ConfigMap ${right}, not in ${shard}`);
        const run = resume(stdin);
        expect(run.code).toBe(2);
        expect(run.err).toContain('is not read by any play');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("a record of the earlier layout in another repository's ConfigMap is flagged and refused", () => {
    // No `repository` key to compare with: the ConfigMap's name is what says whose it is.
    const stdin = list(configMap('play-progress-5dlabs-other-7', { 'task-7.json': JSON.stringify(recordOf()) }));
    const [task] = status(stdin);
    expect(task.flag).toBe(
      `unreadable record task-7.json: the record says task 7 of ${REPOSITORY}, which the runtime keeps in ConfigMap ${legacyProgressLocations(REPOSITORY, 7)[0].configMap}, not in play-progress-5dlabs-other-7: it is not read by any play; delete it or move it there`,
    );
    expect(resume(stdin).code).toBe(2);
  });

  it("a record of the original flat format in another repository's ConfigMap is flagged", () => {
    const flat = {
      repository: REPOSITORY,
      'current-task-id': '7',
      'workflow-name': 'play-play-test-task-7',
      status: 'in-progress',
      stage: 'implementation',
      'started-at': '2026-11-23T07:00:00Z',
      'last-updated': '2026-11-23T07:30:00Z',
    };
    expect(status(list(configMap('play-progress-5dlabs-cto-play-test', flat)))[0].flag).toBeUndefined();
    expect(status(list(configMap('play-progress-octo-org-web', flat)))[0].flag).toContain('not in play-progress-octo-org-web');
  });

  it('a stale copy of an earlier layout beside the shard is flagged once; resume takes the record the runtime reads', () => {
    const legacy = configMap(legacyProgressLocations(REPOSITORY, 7)[0].configMap, {
      'task-7.json': JSON.stringify(recordOf({ stage: 'testing', lastUpdated: '2026-11-23T07:59:00Z' })),
    });
    const stdin = list(legacy, inShard(recordOf()));
    const tasks = status(stdin);
    expect(tasks.filter((task) => task.flag === undefined)).toEqual([expect.objectContaining({ stage: 'implementation' })]);
    expect(tasks.find((task) => task.stage === 'testing')?.flag).toBe(
      `stale copy in ConfigMap ${legacy.metadata.name} (stage testing): the runtime reads ${progressConfigMapOf(REPOSITORY, 7)} ${progressKeyOf(REPOSITORY, 7)} (stage implementation); delete the key task-7.json`,
    );
    const run = resume(stdin);
    expect(run.code).toBe(0);
    expect(run.out).toContain('value: implementation');
  });
});

describe('a record says only what a play could have written', () => {
  it('a last update in the future is flagged (it could never be found stuck); within clock skew it is not', () => {
    expect(status(list(inShard(recordOf({ lastUpdated: '2026-11-23T08:04:00Z' }))))[0].flag).toBeUndefined();
    expect(status(list(inShard(recordOf({ lastUpdated: '2099-01-01T00:00:00Z' }))))[0].flag).toBe(
      'lastUpdated 2099-01-01T00:00:00Z is 26336d16h in the future: a clock far off, or a record written by hand; it can never be found stuck',
    );
  });

  it('play parameters are checked as --parameter checks them: no braces, quotes, backslashes or line breaks', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }),
        fc.constantFrom('{{workflow.name}}', '"', "'", '\\', '\n', '\r', '}'),
        fc.string({ maxLength: 10 }),
        (before, bad, after) => {
          const stdin = list(inShard(recordOf({ parameters: { 'task-type': `${before}${bad}${after}` } })));
          expect(status(stdin)[0].flag).toContain(
            'parameters.task-type: expected a value without quotes, backslashes, braces or line breaks',
          );
          const run = resume(stdin);
          expect(run.code).toBe(2);
          expect(run.out).toBe('');
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    expect(status(list(inShard(recordOf({ parameters: { 'bad name!': 'x' } }))))[0].flag).toContain('parameters.bad name!: the name:');
  });

  it('a round no configuration allows is refused; one above the configured rounds is not resumed', () => {
    expect(status(list(inShard(recordOf({ round: 1e9 }))))[0].flag).toContain('round: ');
    expect(
      status(list(inShard(recordOf({ remediations: [{ round: 1e9, kind: 'remediate', reason: 'x', at: '2026-11-23T07:00:00Z' }] }))))[0]
        .flag,
    ).toContain('remediations.0.round');
    const run = resume(list(inShard(recordOf({ round: 4 }))));
    expect(run.code).toBe(2);
    expect(run.err).toContain('is in round 4, more than the 3 rounds the configuration allows (remediation.maxRounds)');
    expect(resume(list(inShard(recordOf({ round: 3 })))).code).toBe(0);
  });
});
