/**
 * The progress protocol: where a task's record lives (the shard arithmetic, keys, the earlier layouts), how a
 * record is computed from the one before it, how it is read and written through the API (the task's own key
 * only, with the resourceVersion read, again on a conflict; a missing shard created, a race on that create
 * lost and redone; an earlier layout's record read and moved on the next write; an unreadable or lying record
 * replaced), and the two steps that keep it (`enter-stage`, `record-exit`).
 */
// @ts-nocheck

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlayAnnotations, PlayLabels, PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { MAX_TASK_ID, repositoryLabelValue } from '../../constructs/model/naming';
import {
  LEGACY_PROGRESS_SHARDS,
  legacyProgressConfigMapBase,
  legacyProgressKey,
  legacyProgressLocations,
  parseProgressKey,
  PROGRESS_SHARDS,
  progressConfigMapOf,
  progressKeyOf,
  progressShardName,
  progressShardNames,
  progressShardOf,
} from '../../constructs/progress/progress-layout';
import {
  emptyRecord,
  handledEvent,
  type ProgressRecord,
  recordEnter,
  recordExit,
  recordRelease,
  recordTime,
  releasedDuring,
  releasesBefore,
  type RemediationEntry,
  withoutReleases,
  withRemediation,
} from '../../constructs/progress/progress-record';
import { enterStageStep, recordExitStep } from '../../constructs/progress/progress-steps';
import { parseStoredRecord, readRecord, updateRecord } from '../../constructs/progress/progress-store';
import { ApiResources, configMapRef, workflowRef } from '../../constructs/runtime/kube-api';
import { StepFailure } from '../../constructs/runtime/runtime-step';
import {
  alreadyExists,
  change,
  conflict,
  createPlay,
  failure,
  forbidden,
  harness,
  NAMESPACE,
  putConfigMap,
  REPOSITORY,
  storedData,
  storedRecord,
  taskRecord as record,
} from '../support/runtime-harness';

const TASK = { repository: REPOSITORY, task: 7 };
const SHARD = progressConfigMapOf(REPOSITORY, 7);
const KEY = progressKeyOf(REPOSITORY, 7);

/** FNV-1a (32 bit) computed independently, on BigInts. */
function fnv1aReference(input: string): number {
  let hash = 0x811c9dc5n;
  for (const byte of Buffer.from(input, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x01000193n) & 0xffffffffn;
  }
  return Number(hash);
}

describe('progress layout', () => {
  it('hashes with FNV-1a: the reference gives the published vectors', () => {
    expect(fnv1aReference('')).toBe(0x811c9dc5);
    expect(fnv1aReference('a')).toBe(0xe40c292c);
    expect(fnv1aReference('foobar')).toBe(0xbf9cf968);
  });

  it('puts a task in the shard of FNV-1a of "{repository label}/{task}" modulo the shard count', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,10}$/),
        fc.stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,12}$/),
        fc.integer({ min: 0, max: MAX_TASK_ID }),
        (owner, name, task) => {
          const repository = `${owner}/${name}`;
          const shard = progressShardOf(repository, task);
          expect(Number.isInteger(shard)).toBe(true);
          expect(shard).toBeGreaterThanOrEqual(0);
          expect(shard).toBeLessThan(PROGRESS_SHARDS);
          expect(shard).toBe(fnv1aReference(`${repositoryLabelValue(repository)}/${task}`) % 128);
          expect(progressShardOf(repository.toUpperCase(), task)).toBe(shard);
          expect(progressShardOf(repository.toLowerCase(), task)).toBe(shard);
        },
      ),
    );
  });

  it('keeps the shards of existing records: the same numbers in every version', () => {
    expect(PROGRESS_SHARDS).toBe(128);
    expect(progressShardOf('Octo-Org/Payments', 7)).toBe(108);
    expect(progressShardOf('octo-org/PAYMENTS', 7)).toBe(108);
    expect(progressShardOf('Octo-Org/Payments', 8)).toBe(113);
    expect(progressShardOf('Octo-Org/Payments', 10)).toBe(66);
    expect(progressShardOf('Octo-Org/Payments', 0)).toBe(89);
    expect(progressShardOf('Octo-Org/Payments', MAX_TASK_ID)).toBe(75);
    expect(progressShardOf('a/b', 1)).toBe(120);
    expect(progressConfigMapOf('Octo-Org/Payments', 7)).toBe('play-progress-shard-108');
  });

  it('refuses a repository that is not owner/name', () => {
    expect(() => progressShardOf('payments', 7)).toThrow(/not a GitHub repository/);
    expect(() => progressKeyOf('a/b/c', 7)).toThrow(/not a GitHub repository/);
  });

  it('names every shard, shard 0 first', () => {
    const names = progressShardNames();
    expect(names).toHaveLength(128);
    expect(names[0]).toBe('play-progress-shard-0');
    expect(names[127]).toBe('play-progress-shard-127');
    expect(progressShardName(5)).toBe('play-progress-shard-5');
    expect(new Set(names).size).toBe(128);
  });

  it('keys a record by the repository label and the task', () => {
    expect(progressKeyOf('Octo-Org/Payments.API', 5)).toBe('octo-org.payments.api.task-5.json');
    expect(parseProgressKey('octo-org.payments.api.task-5.json')).toEqual({ repositoryLabel: 'octo-org.payments.api', task: '5' });
    expect(parseProgressKey('a.task-b.task-12.json')).toEqual({ repositoryLabel: 'a.task-b', task: '12' });
    for (const key of [
      'octo.web.task-5.yaml',
      '.task-5.json',
      'octo.web.task-.json',
      'octo.web.task-x.json',
      'octo.web.task-5x.json',
      'octo.web.task-x5.json',
      'octo.web-5.json',
      'summary',
    ])
      expect(parseProgressKey(key), key).toBeUndefined();
  });

  it('round-trips every key through parseProgressKey', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,8}$/),
        fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,8}$/),
        fc.nat(MAX_TASK_ID),
        (o, n, task) => {
          const parsed = parseProgressKey(progressKeyOf(`${o}/${n}`, task));
          expect(parsed?.task).toBe(String(task));
        },
      ),
    );
  });

  it('reads the earlier layouts: the repository shard (task modulo 64), then the single ConfigMap', () => {
    expect(LEGACY_PROGRESS_SHARDS).toBe(64);
    expect(legacyProgressConfigMapBase('Octo-Org/Payments')).toBe('play-progress-octo-org-payments');
    expect(legacyProgressLocations('Octo-Org/Payments', 70)).toEqual([
      { configMap: 'play-progress-octo-org-payments-6', key: 'task-70.json' },
      { configMap: 'play-progress-octo-org-payments', key: 'task-70.json' },
    ]);
    expect(legacyProgressLocations('Octo-Org/Payments', 10)[0].configMap).toBe('play-progress-octo-org-payments-10');
    expect(legacyProgressKey('12')).toBe('task-12.json');
    expect(() => legacyProgressConfigMapBase('nope')).toThrow(/not a GitHub repository/);
  });
});

describe('progress record updates', () => {
  const now = new Date('2026-11-20T10:00:05.678Z');
  const enter = {
    workflowName: 'play-payments-task-7',
    stage: 'quality',
    previousStage: 'implementation',
    agent: 'cleo',
    cli: 'claude',
    status: 'in-progress' as const,
    round: 2,
    parameters: { 'task-type': 'backend' },
    now,
  };

  it('writes times to the second, UTC', () => {
    expect(recordTime(now)).toBe('2026-11-20T10:00:05Z');
    expect(recordTime(new Date('2026-11-20T10:00:05Z'))).toBe('2026-11-20T10:00:05Z');
  });

  it('enters a stage: identity kept, stage, status, round, parameters, the previous stage succeeded, the CLI used', () => {
    const after = recordEnter(emptyRecord(TASK), enter);
    expect(after).toEqual({
      repository: REPOSITORY,
      task: '7',
      workflowName: 'play-payments-task-7',
      startedAt: '2026-11-20T10:00:05Z',
      lastUpdated: '2026-11-20T10:00:05Z',
      parameters: { 'task-type': 'backend' },
      round: 2,
      stage: 'quality',
      status: 'in-progress',
      stageResults: { implementation: { result: 'succeeded', finishedAt: '2026-11-20T10:00:05Z' } },
      lastAgent: 'cleo',
      cliHistory: [{ stage: 'quality', agent: 'cleo', cli: 'claude', at: '2026-11-20T10:00:05Z' }],
    });
  });

  it('keeps what the record knew: its start, a result recorded already, the CLI history, other fields; drops a failure reason', () => {
    const before = record({
      startedAt: '2026-11-01T00:00:00Z',
      reason: 'remediation rounds exhausted: 3 of 3',
      stageResults: { implementation: { result: 'failed', finishedAt: '2026-11-02T00:00:00Z' } },
      cliHistory: [{ stage: 'implementation', agent: 'rex', cli: 'codex', at: '2026-11-01T00:00:00Z' }],
      lastAgent: 'rex',
      releases: { review: { prUrl: 'u', prNumber: '1', releasedAt: '2026-11-01T00:00:00Z' } },
    });
    const after = recordEnter(before, enter);
    expect(after.startedAt).toBe('2026-11-01T00:00:00Z');
    expect(after.reason).toBeUndefined();
    expect('reason' in after).toBe(false);
    expect(after.stageResults?.implementation.result).toBe('failed');
    expect(after.cliHistory?.map((use) => use.agent)).toEqual(['rex', 'cleo']);
    expect(after.releases).toEqual(before.releases);
    expect(before.cliHistory).toHaveLength(1);
  });

  it('at a gate (no agent) and at the first stage (no previous): no CLI use, no result', () => {
    const before = record({ lastAgent: 'rex', cliHistory: [{ stage: 'implementation', agent: 'rex', cli: 'codex', at: 'x' }] });
    const atGate = recordEnter(before, { ...enter, stage: 'review', previousStage: '', agent: '', cli: '', status: 'suspended' });
    expect(atGate.lastAgent).toBe('rex');
    expect(atGate.cliHistory).toHaveLength(1);
    expect(atGate.stageResults).toEqual({});
    expect(atGate.status).toBe('suspended');
  });

  it('records how a play ended: success keeps the status its last stage wrote, else completed', () => {
    const exit = { workflowName: 'w', stage: 'label-stage', workflowStatus: 'Succeeded', round: 1, parameters: { a: 'b' }, now };
    expect(recordExit(record({ stage: 'done', status: 'suspended' }), exit)).toMatchObject({ stage: 'done', status: 'suspended' });
    const fresh = recordExit(record({ parameters: { old: 'x' } }), exit);
    expect(fresh).toMatchObject({ stage: 'label-stage', status: 'completed', startedAt: '2026-11-20T10:00:05Z', workflowName: 'w' });
    expect(fresh.parameters).toEqual({ a: 'b' });
    expect(fresh.stageResults).toBeUndefined();
  });

  it('records a failed or errored play as failed, with the result of its stage in lower case', () => {
    const before = record({
      stage: 'quality',
      status: 'in-progress',
      startedAt: 's',
      reason: 'r',
      stageResults: { a: { result: 'succeeded', finishedAt: 'x' } },
    });
    const exit = { workflowName: 'w', stage: 'ignored', workflowStatus: 'Failed', round: 2, parameters: {}, now };
    expect(recordExit(before, exit)).toEqual({
      ...before,
      workflowName: 'w',
      lastUpdated: '2026-11-20T10:00:05Z',
      parameters: {},
      round: 2,
      status: 'failed',
      stageResults: { a: { result: 'succeeded', finishedAt: 'x' }, quality: { result: 'failed', finishedAt: '2026-11-20T10:00:05Z' } },
    });
    expect(recordExit(before, { ...exit, workflowStatus: 'Error' }).stageResults?.quality.result).toBe('error');
  });

  it('records a release with its time, beside the others', () => {
    const before = record({ releases: { review: { prUrl: 'a', prNumber: '1', releasedAt: 'x' } } });
    expect(recordRelease(before, 'merge', { prUrl: 'b', prNumber: '2' }, now).releases).toEqual({
      review: { prUrl: 'a', prNumber: '1', releasedAt: 'x' },
      merge: { prUrl: 'b', prNumber: '2', releasedAt: '2026-11-20T10:00:05Z' },
    });
    expect(recordRelease(record(), 'merge', { prUrl: '', prNumber: '' }, now).releases?.merge.releasedAt).toBe('2026-11-20T10:00:05Z');
  });

  it('keeps the time of a release recorded already with the same pull request (a redelivered event)', () => {
    const first = { prUrl: 'https://x/pull/3', prNumber: '3', releasedAt: '2026-11-20T09:00:00Z' };
    const before = record({ releases: { review: first } });
    expect(recordRelease(before, 'review', { prUrl: 'https://x/pull/3', prNumber: '3' }, now).releases?.review).toEqual(first);
    const bare = record({ releases: { review: { prUrl: '', prNumber: '', releasedAt: '2026-11-20T09:00:00Z' } } });
    expect(recordRelease(bare, 'review', { prUrl: '', prNumber: '' }, now).releases?.review.releasedAt).toBe('2026-11-20T09:00:00Z');
  });

  it('records a new time for another pull request, another number, or a recorded release without a time', () => {
    const at = (release: Record<string, unknown>) => record({ releases: { review: release as never } });
    const first = { prUrl: 'https://x/pull/3', prNumber: '3', releasedAt: '2026-11-20T09:00:00Z' };
    const again = (before: ProgressRecord) =>
      recordRelease(before, 'review', { prUrl: 'https://x/pull/3', prNumber: '3' }, now).releases?.review;
    expect(again(at({ ...first, prUrl: 'https://x/pull/4' }))).toEqual({
      prUrl: 'https://x/pull/3',
      prNumber: '3',
      releasedAt: '2026-11-20T10:00:05Z',
    });
    expect(again(at({ ...first, prNumber: '4' }))?.releasedAt).toBe('2026-11-20T10:00:05Z');
    expect(again(at({ ...first, releasedAt: '' }))?.releasedAt).toBe('2026-11-20T10:00:05Z');
    expect(again(at({ ...first, releasedAt: 12 }))?.releasedAt).toBe('2026-11-20T10:00:05Z');
    expect(again(at({ prUrl: 'https://x/pull/3', prNumber: '3' }))?.releasedAt).toBe('2026-11-20T10:00:05Z');
  });

  it('counts a release for the runs created at or before it, to the second', () => {
    const at = (releasedAt: unknown) => ({ prUrl: '', prNumber: '', releasedAt }) as never;
    expect(releasedDuring(at('2026-11-20T10:00:00Z'), '2026-11-20T10:00:00Z')).toBe(true);
    expect(releasedDuring(at('2026-11-20T10:00:01Z'), '2026-11-20T10:00:00Z')).toBe(true);
    expect(releasedDuring(at('2026-11-20T09:59:59Z'), '2026-11-20T10:00:00Z')).toBe(false);
    expect(releasedDuring(at('2026-11-20T10:00:00.999Z'), '2026-11-20T10:00:00Z')).toBe(true);
    expect(releasedDuring(at('2026-11-20T10:00:00Z'), '2026-11-20T10:00:00.999Z')).toBe(true);
    expect(releasedDuring(at(''), '')).toBe(false);
    expect(releasedDuring(at(12), '')).toBe(false);
    expect(releasedDuring(undefined, '')).toBe(false);
  });

  it('finds and removes the releases of an earlier run', () => {
    const before = record({
      releases: {
        merge: { prUrl: '', prNumber: '', releasedAt: '2026-11-19T00:00:00Z' },
        review: { prUrl: '', prNumber: '', releasedAt: '' },
        qa: { prUrl: '', prNumber: '', releasedAt: '2026-11-21T00:00:00Z' },
      },
    });
    expect(releasesBefore(before, '2026-11-20T00:00:00Z')).toEqual(['merge', 'review']);
    expect(releasesBefore(record(), '2026-11-20T00:00:00Z')).toEqual([]);
    expect(Object.keys(withoutReleases(before, ['merge', 'review']).releases ?? {})).toEqual(['qa']);
    expect(withoutReleases(record(), ['merge']).releases).toEqual({});
  });

  it('keeps each remediation event once; an empty event id is never taken as one seen', () => {
    const entry = (eventId: string): RemediationEntry => ({
      round: 2,
      kind: 'remediate',
      reason: 'r',
      reviewer: 'x',
      url: 'u',
      eventId,
      startStage: 'implementation',
      at: 't',
    });
    const once = withRemediation(record(), entry('review-1'));
    expect(once.remediations).toHaveLength(1);
    expect(withRemediation(once, entry('review-1'))).toBe(once);
    expect(withRemediation(once, entry('review-2')).remediations).toHaveLength(2);
    expect(handledEvent(once, 'review-1')).toBe(true);
    expect(handledEvent(once, 'review-2')).toBe(false);
    expect(handledEvent(record(), 'review-1')).toBe(false);
    const blank = withRemediation(withRemediation(record(), entry('')), entry(''));
    expect(blank.remediations).toHaveLength(2);
    expect(handledEvent(blank, '')).toBe(false);
  });
});

describe('parseStoredRecord', () => {
  it('takes a record of the task, the repository in any case', () => {
    expect(parseStoredRecord(JSON.stringify(record({ repository: 'octo-org/PAYMENTS' })), TASK)).toEqual({
      record: { repository: 'octo-org/PAYMENTS', task: '7' },
    });
  });

  it.each([
    ['{', 'the stored record is not JSON'],
    ['[]', 'the stored record is not a JSON object'],
    ['null', 'the stored record is not a JSON object'],
    ['"text"', 'the stored record is not a JSON object'],
    ['{"task":"7"}', `the stored record names repository undefined, not ${REPOSITORY}`],
    ['{"repository":7,"task":"7"}', `the stored record names repository 7, not ${REPOSITORY}`],
    ['{"repository":"octo-org/web","task":"7"}', `the stored record names repository "octo-org/web", not ${REPOSITORY}`],
    [`{"repository":"${REPOSITORY}","task":"8"}`, 'the stored record names task "8", not 7'],
    [`{"repository":"${REPOSITORY}","task":7}`, 'the stored record names task 7, not 7'],
    [`{"repository":"${REPOSITORY}","task":"007"}`, 'the stored record names task "007", not 7'],
  ])('refuses %s', (text, problem) => {
    expect(parseStoredRecord(text, TASK)).toEqual({ problem });
  });
});

describe('readRecord', () => {
  it('finds nothing when no layout holds the task', async () => {
    const h = harness();
    expect(await readRecord(h.context, NAMESPACE, TASK)).toEqual({});
    expect(h.api.calls('get').map((call) => call.name)).toEqual([
      SHARD,
      'play-progress-octo-org-payments-7',
      'play-progress-octo-org-payments',
    ]);
  });

  it('reads the task key of its shard, beside other tasks', async () => {
    const h = harness();
    putConfigMap(h, SHARD, { [KEY]: JSON.stringify(record({ stage: 'a' })), 'other.task-1.json': '{}' });
    expect(await readRecord(h.context, NAMESPACE, TASK)).toEqual({ record: record({ stage: 'a' }), configMap: SHARD });
    expect(h.api.calls('get')).toHaveLength(1);
  });

  it('prefers the shard to the earlier layouts, and the repository shard to the single ConfigMap', async () => {
    const h = harness();
    putConfigMap(h, 'play-progress-octo-org-payments', { 'task-7.json': JSON.stringify(record({ stage: 'single' })) });
    expect(await readRecord(h.context, NAMESPACE, TASK)).toEqual({
      record: record({ stage: 'single' }),
      configMap: 'play-progress-octo-org-payments',
      legacy: true,
    });
    putConfigMap(h, 'play-progress-octo-org-payments-7', { 'task-7.json': JSON.stringify(record({ stage: 'sharded' })) });
    expect((await readRecord(h.context, NAMESPACE, TASK)).record?.stage).toBe('sharded');
    putConfigMap(h, SHARD, { [KEY]: JSON.stringify(record({ stage: 'current' })) });
    expect(await readRecord(h.context, NAMESPACE, TASK)).toEqual({ record: record({ stage: 'current' }), configMap: SHARD });
  });

  it('skips a ConfigMap without the key or without data', async () => {
    const h = harness();
    h.server.put(ApiResources.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: SHARD, namespace: NAMESPACE } });
    putConfigMap(h, 'play-progress-octo-org-payments-7', { 'task-8.json': '{}' });
    putConfigMap(h, 'play-progress-octo-org-payments', { 'task-7.json': JSON.stringify(record()) });
    expect((await readRecord(h.context, NAMESPACE, TASK)).configMap).toBe('play-progress-octo-org-payments');
    h.server.put(ApiResources.configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: SHARD, namespace: NAMESPACE },
      data: null,
    });
    expect((await readRecord(h.context, NAMESPACE, TASK)).configMap).toBe('play-progress-octo-org-payments');
  });

  it('says why a stored value is not the task record: not text, not JSON, another task under the key', async () => {
    const h = harness();
    putConfigMap(h, SHARD, { [KEY]: 12 });
    expect(await readRecord(h.context, NAMESPACE, TASK)).toEqual({ configMap: SHARD, problem: 'the stored record is not text' });
    putConfigMap(h, SHARD, { [KEY]: JSON.stringify({ repository: 'octo-org/web', task: '7' }) });
    expect((await readRecord(h.context, NAMESPACE, TASK)).problem).toMatch(/names repository "octo-org\/web"/);
    putConfigMap(h, 'play-progress-octo-org-payments', { 'task-7.json': 'not json' });
    h.server.remove(configMapRef(NAMESPACE, SHARD));
    expect(await readRecord(h.context, NAMESPACE, TASK)).toEqual({
      configMap: 'play-progress-octo-org-payments',
      legacy: true,
      problem: 'the stored record is not JSON',
    });
  });

  it('fails on an API error other than not found, naming the ConfigMap and the missing grant', async () => {
    const h = harness();
    h.api.fail({ verb: 'get', name: 'play-progress-octo-org-payments-7' }, forbidden);
    const error = await failure(readRecord(h.context, NAMESPACE, TASK));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toMatch(
      /^reading ConfigMap play-progress-octo-org-payments-7: forbidden \(403\): the step's service account lacks this grant/,
    );
  });
});

describe('updateRecord', () => {
  const setStage = (stage: string) => (before: ProgressRecord) => ({ ...before, stage });

  it('creates the missing shard, labelled for status, with the one record', async () => {
    const h = harness();
    const written = await updateRecord(h.context, NAMESPACE, TASK, setStage('a'));
    expect(written).toEqual(record({ stage: 'a' }));
    const shard = h.server.peek(configMapRef(NAMESPACE, SHARD));
    expect(shard?.metadata.labels).toEqual({ [PROGRESS_TRACKING_LABEL]: 'true' });
    expect(h.api.calls('create')[0].body).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: SHARD, namespace: NAMESPACE },
    });
    expect(shard?.data).toEqual({ [KEY]: JSON.stringify(record({ stage: 'a' })) });
    expect(h.api.calls('patch')).toEqual([]);
  });

  it('patches only its own key, with the resourceVersion it read, keeping the other tasks', async () => {
    const h = harness();
    const stored = putConfigMap(h, SHARD, { 'octo-org.web.task-3.json': 'web', [KEY]: JSON.stringify(record({ stage: 'a' })) });
    await updateRecord(h.context, NAMESPACE, TASK, setStage('b'));
    expect(h.api.calls('patch')[0].body).toEqual({
      metadata: { resourceVersion: stored.metadata.resourceVersion },
      data: { [KEY]: JSON.stringify(record({ stage: 'b' })) },
    });
    expect(storedData(h, SHARD)).toEqual({ 'octo-org.web.task-3.json': 'web', [KEY]: JSON.stringify(record({ stage: 'b' })) });
  });

  it('writes nothing when the update says so, and returns the record as it was', async () => {
    const h = harness();
    putConfigMap(h, SHARD, { [KEY]: JSON.stringify(record({ stage: 'a' })) });
    expect(await updateRecord(h.context, NAMESPACE, TASK, () => undefined)).toEqual(record({ stage: 'a' }));
    expect(await updateRecord(harness().context, NAMESPACE, TASK, () => undefined)).toEqual(record());
    expect(h.api.calls('patch')).toEqual([]);
    expect(h.api.calls('create')).toEqual([]);
  });

  it('moves a record of an earlier layout to its shard on the next write, leaving the old one as it was', async () => {
    const h = harness();
    const legacy = JSON.stringify(record({ stage: 'old', round: 2 }));
    putConfigMap(h, 'play-progress-octo-org-payments-7', { 'task-7.json': legacy });
    const written = await updateRecord(h.context, NAMESPACE, TASK, setStage('new'));
    expect(written).toEqual(record({ stage: 'new', round: 2 }));
    expect(storedRecord(h)).toEqual(record({ stage: 'new', round: 2 }));
    expect(storedData(h, 'play-progress-octo-org-payments-7')).toEqual({ 'task-7.json': legacy });
  });

  it('moves an earlier record also into a shard that exists with other tasks', async () => {
    const h = harness();
    putConfigMap(h, SHARD, { 'x.task-1.json': 'x' });
    putConfigMap(h, 'play-progress-octo-org-payments', { 'task-7.json': JSON.stringify(record({ round: 3 })) });
    await updateRecord(h.context, NAMESPACE, TASK, setStage('b'));
    expect(storedRecord(h)).toEqual(record({ round: 3, stage: 'b' }));
    expect(storedData(h, SHARD)?.['x.task-1.json']).toBe('x');
  });

  it('replaces a record that lies about its task, and says so', async () => {
    const h = harness();
    putConfigMap(h, SHARD, { [KEY]: JSON.stringify({ repository: 'octo-org/web', task: '7', stage: 'theirs' }) });
    expect(await updateRecord(h.context, NAMESPACE, TASK, setStage('mine'))).toEqual(record({ stage: 'mine' }));
    expect(storedRecord(h)).toEqual(record({ stage: 'mine' }));
    expect(h.logs).toEqual([
      `${SHARD}/${KEY}: the stored record names repository "octo-org/web", not ${REPOSITORY}; writing a new record over it`,
    ]);
  });

  it('replaces an unreadable record of an earlier layout, naming where it was', async () => {
    const h = harness();
    putConfigMap(h, 'play-progress-octo-org-payments', { 'task-7.json': '{' });
    await updateRecord(h.context, NAMESPACE, TASK, setStage('a'));
    expect(storedRecord(h)).toEqual(record({ stage: 'a' }));
    expect(h.logs).toEqual([`play-progress-octo-org-payments/${KEY}: the stored record is not JSON; writing a new record over it`]);
  });

  it('redoes the update on what another writer wrote between its read and its write', async () => {
    const h = harness();
    putConfigMap(h, SHARD, { [KEY]: JSON.stringify(record({ round: 1 })) });
    h.api.before({ verb: 'patch', resource: ApiResources.configMaps }, () => {
      change(h, configMapRef(NAMESPACE, SHARD), (object) => {
        object.data = { ...(object.data as object), [KEY]: JSON.stringify(record({ round: 2 })), 'x.task-1.json': 'x' };
      });
    });
    let updates = 0;
    await updateRecord(h.context, NAMESPACE, TASK, (before) => {
      updates += 1;
      return { ...before, stage: `s${before.round}` };
    });
    expect(updates).toBe(2);
    expect(storedRecord(h)).toEqual(record({ round: 2, stage: 's2' }));
    expect(storedData(h, SHARD)?.['x.task-1.json']).toBe('x');
    expect(h.sleeps).toEqual([1000]);
    expect(h.logs).toEqual([`writing ${KEY} in ConfigMap ${SHARD}: the object changed meanwhile (409 Conflict); reading it again`]);
  });

  it('loses the race to create the shard to another task, then writes beside it', async () => {
    const h = harness();
    h.api.before({ verb: 'create', resource: ApiResources.configMaps }, () => {
      putConfigMap(h, SHARD, { 'octo-org.web.task-9.json': 'theirs' });
    });
    expect(await updateRecord(h.context, NAMESPACE, TASK, setStage('a'))).toEqual(record({ stage: 'a' }));
    expect(storedData(h, SHARD)).toEqual({ 'octo-org.web.task-9.json': 'theirs', [KEY]: JSON.stringify(record({ stage: 'a' })) });
    expect(h.api.calls('create')).toHaveLength(1);
    expect(h.sleeps).toEqual([1000]);
    expect(h.logs[0]).toMatch(/changed meanwhile \(409 Conflict\)/);
  });

  it('gives up when the shard keeps being created under it', async () => {
    const h = harness();
    h.api.fail({ verb: 'create' }, alreadyExists, 5);
    const error = await failure(updateRecord(h.context, NAMESPACE, TASK, setStage('a')));
    expect(error.message).toBe(
      `writing ${KEY} in ConfigMap ${SHARD}: the object changed under every one of 5 attempts (409 Conflict); giving up`,
    );
    expect(h.sleeps).toEqual([1000, 2000, 4000, 8000]);
  });

  it('retries a 409 on the patch up to five times', async () => {
    const h = harness();
    putConfigMap(h, SHARD, {});
    h.api.fail({ verb: 'patch' }, conflict, 4);
    await updateRecord(h.context, NAMESPACE, TASK, setStage('a'));
    expect(storedRecord(h)).toEqual(record({ stage: 'a' }));
    expect(h.api.calls('patch')).toHaveLength(5);
  });

  it('reports a 403 on the write as a missing grant, at once', async () => {
    const h = harness();
    putConfigMap(h, SHARD, {});
    h.api.fail({ verb: 'patch' }, forbidden, 5);
    const error = await failure(updateRecord(h.context, NAMESPACE, TASK, setStage('a')));
    expect(error.message).toMatch(
      new RegExp(
        `^writing ${KEY.replace(/\./g, '\\.')} in ConfigMap ${SHARD}: forbidden \\(403\\): the step's service account lacks this grant`,
      ),
    );
    expect(error.message).not.toMatch(/changed/);
    expect(h.api.calls('patch')).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });

  it('reports a 403 on creating the shard as a missing grant, naming the create', async () => {
    const h = harness();
    h.api.fail({ verb: 'create' }, forbidden);
    const error = await failure(updateRecord(h.context, NAMESPACE, TASK, setStage('a')));
    expect(error.message).toMatch(new RegExp(`^creating ConfigMap ${SHARD}: forbidden \\(403\\)`));
  });

  it('keeps every other task of every repository when tasks write at random (property)', async () => {
    const repositories = ['Octo-Org/Payments', 'octo-org/payments', 'octo-org/web', 'other/payments'];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ repository: fc.constantFrom(...repositories), task: fc.integer({ min: 0, max: 300 }), value: fc.nat(99) }), {
          minLength: 1,
          maxLength: 25,
        }),
        async (writes) => {
          const h = harness();
          const expected = new Map<string, number>();
          for (const write of writes) {
            const identity = { repository: write.repository, task: write.task };
            await updateRecord(h.context, NAMESPACE, identity, (before) => ({ ...before, round: write.value }));
            expected.set(
              `${progressConfigMapOf(write.repository, write.task)}/${progressKeyOf(write.repository, write.task)}`,
              write.value,
            );
          }
          for (const [where, round] of expected) {
            const [name, key] = where.split('/');
            expect((JSON.parse(storedData(h, name)?.[key] ?? '{}') as ProgressRecord).round).toBe(round);
          }
          const keys = h.server.all(ApiResources.configMaps, NAMESPACE).flatMap((object) => Object.keys(object.data as object));
          expect(keys).toHaveLength(expected.size);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('enter-stage', () => {
  const environment = (overrides: Record<string, string> = {}) => ({
    NAMESPACE,
    WORKFLOW_NAME: 'play-payments-task-7',
    REPOSITORY,
    TASK_ID: '7',
    ROUND: '1',
    PARAMETER_NAMES: 'task-type',
    PARAMETER_1: 'backend',
    STAGE: 'quality',
    PREVIOUS_STAGE: 'implementation',
    AGENT: 'cleo',
    CLI: 'claude',
    STATUS: 'in-progress',
    ...overrides,
  });

  it('labels the play, appends the stage to its history, then writes the record', async () => {
    const h = harness();
    const play = await createPlay(h);
    h.advance(61_000);
    expect(await h.run(enterStageStep, environment())).toEqual({});
    const stored = h.server.peek(workflowRef(NAMESPACE, 'play-payments-task-7'));
    expect(stored?.metadata.labels?.[PlayLabels.currentStage]).toBe('quality');
    expect(stored?.metadata.labels?.[PlayLabels.previousStage]).toBe('implementation');
    expect(stored?.metadata.annotations?.[PlayAnnotations.currentAgent]).toBe('cleo');
    expect(stored?.metadata.annotations?.[PlayAnnotations.stageEnteredAt]).toBe('2026-11-20T10:01:01Z');
    expect(JSON.parse(stored?.metadata.annotations?.[PlayAnnotations.stageHistory] ?? '')).toEqual([
      { stage: 'quality', agent: 'cleo', enteredAt: '2026-11-20T10:01:01Z' },
    ]);
    expect(
      (h.api.calls('patch', ApiResources.workflows)[0].body as { metadata: { resourceVersion: string } }).metadata.resourceVersion,
    ).toBe(play.metadata.resourceVersion);
    expect(storedRecord(h)).toMatchObject({
      workflowName: 'play-payments-task-7',
      stage: 'quality',
      status: 'in-progress',
      round: 1,
      parameters: { 'task-type': 'backend' },
      lastAgent: 'cleo',
    });
    expect(h.logs).toEqual([`task 7 of ${REPOSITORY}: entered quality (status: in-progress)`]);
    expect(h.api.seen.map((call) => `${call.verb} ${call.resource}`)).toEqual([
      'get workflows',
      'patch workflows',
      'get configmaps',
      'get configmaps',
      'get configmaps',
      'get configmaps',
      'create configmaps',
    ]);
  });

  it('adds a stage entered again later, but not a retried step twice (it keeps the first time)', async () => {
    const h = harness();
    await createPlay(h);
    await h.run(enterStageStep, environment({ STAGE: 'implementation', PREVIOUS_STAGE: '', AGENT: 'rex' }));
    h.advance(5000);
    await h.run(enterStageStep, environment({ STAGE: 'implementation', PREVIOUS_STAGE: '', AGENT: 'rex' }));
    const history = () =>
      JSON.parse(h.server.peek(workflowRef(NAMESPACE, 'play-payments-task-7'))?.metadata.annotations?.[PlayAnnotations.stageHistory] ?? '');
    expect(history()).toEqual([{ stage: 'implementation', agent: 'rex', enteredAt: '2026-11-20T10:00:00Z' }]);
    expect(h.server.peek(workflowRef(NAMESPACE, 'play-payments-task-7'))?.metadata.annotations?.[PlayAnnotations.stageEnteredAt]).toBe(
      '2026-11-20T10:00:00Z',
    );
    await h.run(enterStageStep, environment({ STAGE: 'review', PREVIOUS_STAGE: 'implementation', AGENT: '', STATUS: 'suspended' }));
    h.advance(5000);
    await h.run(enterStageStep, environment({ STAGE: 'implementation', PREVIOUS_STAGE: 'review', AGENT: 'rex' }));
    expect(history().map((entry: { stage: string }) => entry.stage)).toEqual(['implementation', 'review', 'implementation']);
    expect(history()[2].enteredAt).toBe('2026-11-20T10:00:10Z');
  });

  it('appends when the label already says the stage but the history does not (the start stage)', async () => {
    const h = harness();
    await createPlay(h, { stage: 'quality' });
    change(h, workflowRef(NAMESPACE, 'play-payments-task-7'), (play) => {
      play.metadata.annotations = {
        ...play.metadata.annotations,
        [PlayAnnotations.stageHistory]: JSON.stringify([{ stage: 'x', agent: '', enteredAt: 'e' }]),
      };
    });
    await h.run(enterStageStep, environment());
    const annotations = h.server.peek(workflowRef(NAMESPACE, 'play-payments-task-7'))?.metadata.annotations ?? {};
    expect(JSON.parse(annotations[PlayAnnotations.stageHistory]).map((entry: { stage: string }) => entry.stage)).toEqual(['x', 'quality']);
  });

  it('marks a play that has no labels or annotations yet', async () => {
    const h = harness();
    await createPlay(h);
    change(h, workflowRef(NAMESPACE, 'play-payments-task-7'), (play) => {
      delete play.metadata.labels;
      delete play.metadata.annotations;
    });
    await h.run(enterStageStep, environment());
    const stored = h.server.peek(workflowRef(NAMESPACE, 'play-payments-task-7'));
    expect(stored?.metadata.labels).toEqual({ 'current-stage': 'quality', 'previous-stage': 'implementation' });
    expect(JSON.parse(stored?.metadata.annotations?.[PlayAnnotations.stageHistory] ?? '')).toHaveLength(1);
  });

  it('appends a stage its history ends with when the play is labelled at another stage', async () => {
    const h = harness();
    await createPlay(h, { stage: 'review' });
    change(h, workflowRef(NAMESPACE, 'play-payments-task-7'), (play) => {
      play.metadata.annotations = {
        ...play.metadata.annotations,
        [PlayAnnotations.stageHistory]: JSON.stringify([{ stage: 'quality', agent: 'cleo', enteredAt: 'e' }]),
      };
    });
    await h.run(enterStageStep, environment());
    const annotations = h.server.peek(workflowRef(NAMESPACE, 'play-payments-task-7'))?.metadata.annotations ?? {};
    expect(JSON.parse(annotations[PlayAnnotations.stageHistory]).map((entry: { enteredAt: string }) => entry.enteredAt)).toEqual([
      'e',
      '2026-11-20T10:00:00Z',
    ]);
    expect(annotations[PlayAnnotations.stageEnteredAt]).toBe('2026-11-20T10:00:00Z');
  });

  it.each([
    ['not JSON', '{'],
    ['not a list', '{"stage":"quality"}'],
  ])('starts a new history over one that is %s', async (_what, text) => {
    const h = harness();
    await createPlay(h);
    change(h, workflowRef(NAMESPACE, 'play-payments-task-7'), (play) => {
      play.metadata.annotations = { ...play.metadata.annotations, [PlayAnnotations.stageHistory]: text };
    });
    await h.run(enterStageStep, environment());
    const annotations = h.server.peek(workflowRef(NAMESPACE, 'play-payments-task-7'))?.metadata.annotations ?? {};
    expect(JSON.parse(annotations[PlayAnnotations.stageHistory])).toEqual([
      { stage: 'quality', agent: 'cleo', enteredAt: '2026-11-20T10:00:00Z' },
    ]);
  });

  it('reads the play again when the controller wrote it meanwhile, keeping what the controller wrote', async () => {
    const h = harness();
    await createPlay(h);
    h.api.before({ verb: 'patch', resource: ApiResources.workflows }, () => {
      change(h, workflowRef(NAMESPACE, 'play-payments-task-7'), (play) => {
        play.status = { phase: 'Running' };
      });
    });
    await h.run(enterStageStep, environment());
    const stored = h.server.peek(workflowRef(NAMESPACE, 'play-payments-task-7'));
    expect(stored?.status).toEqual({ phase: 'Running' });
    expect(stored?.metadata.labels?.[PlayLabels.currentStage]).toBe('quality');
    expect(h.api.calls('patch', ApiResources.workflows).map((call) => call.faulted)).toEqual([undefined, undefined]);
    expect(h.logs[0]).toBe(
      'marking play play-payments-task-7 at stage quality: the object changed meanwhile (409 Conflict); reading it again',
    );
  });

  it('fails with the missing grant when it may not patch the play, before writing any record', async () => {
    const h = harness();
    await createPlay(h);
    h.api.fail({ verb: 'patch', resource: ApiResources.workflows }, forbidden);
    const error = await failure(h.run(enterStageStep, environment()));
    expect(error.message).toMatch(
      /^marking play play-payments-task-7 at stage quality: forbidden \(403\): the step's service account lacks this grant/,
    );
    expect(h.api.calls('get', ApiResources.configMaps)).toEqual([]);
  });

  it('fails when the play is gone', async () => {
    const h = harness();
    const error = await failure(h.run(enterStageStep, environment()));
    expect(error.message).toMatch(/^marking play play-payments-task-7 at stage quality: 404 NotFound/);
  });

  it('refuses a status that is not one, naming the variable', () => {
    expect(() => enterStageStep.env.read(environment({ STATUS: 'done' }))).toThrow(
      'STATUS: expected one of in-progress, suspended, completed, failed, got "done"',
    );
    expect(() => enterStageStep.env.read(environment({ TASK_ID: '010' }))).toThrow(/^TASK_ID: expected a task id/);
  });
});

describe('record-exit', () => {
  const environment = (overrides: Record<string, string> = {}) => ({
    NAMESPACE,
    WORKFLOW_NAME: 'play-payments-task-7',
    REPOSITORY,
    TASK_ID: '7',
    ROUND: '2',
    PARAMETER_NAMES: '',
    WORKFLOW_STATUS: 'Failed',
    ...overrides,
  });

  it('reads the stage the play ended at from its own label, not a template variable', async () => {
    const h = harness();
    await createPlay(h, { stage: 'quality' });
    h.advance(3000);
    await h.run(recordExitStep, environment());
    expect(storedRecord(h)).toEqual({
      repository: REPOSITORY,
      task: '7',
      workflowName: 'play-payments-task-7',
      startedAt: '2026-11-20T10:00:03Z',
      lastUpdated: '2026-11-20T10:00:03Z',
      parameters: {},
      round: 2,
      stage: 'quality',
      status: 'failed',
      stageResults: { quality: { result: 'failed', finishedAt: '2026-11-20T10:00:03Z' } },
    });
    expect(h.logs).toEqual([`task 7 of ${REPOSITORY}: the play ended Failed at quality (failed)`]);
  });

  it('keeps the stage of the record, and the status of a play that succeeded', async () => {
    const h = harness();
    await createPlay(h, { stage: 'quality' });
    putConfigMap(h, SHARD, { [KEY]: JSON.stringify(record({ stage: 'done', status: 'completed' })) });
    await h.run(recordExitStep, environment({ WORKFLOW_STATUS: 'Succeeded' }));
    expect(storedRecord(h)).toMatchObject({ stage: 'done', status: 'completed' });
    expect(h.logs).toEqual([`task 7 of ${REPOSITORY}: the play ended Succeeded at done (completed)`]);
  });

  it('reads an unlabelled play as at no stage', async () => {
    const h = harness();
    await createPlay(h);
    change(h, workflowRef(NAMESPACE, 'play-payments-task-7'), (play) => {
      delete play.metadata.labels;
    });
    await h.run(recordExitStep, environment({ WORKFLOW_STATUS: 'Error' }));
    expect(storedRecord(h)?.stageResults).toEqual({ '': { result: 'error', finishedAt: '2026-11-20T10:00:00Z' } });
  });

  it('fails, writing nothing, when the play cannot be read', async () => {
    const h = harness();
    const error = await failure(h.run(recordExitStep, environment()));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toMatch(/^reading play play-payments-task-7: 404 NotFound/);
    h.api.fail({ verb: 'get', resource: ApiResources.workflows }, forbidden);
    expect((await failure(h.run(recordExitStep, environment()))).message).toMatch(/^reading play play-payments-task-7: forbidden \(403\)/);
    expect(h.server.all(ApiResources.configMaps)).toEqual([]);
  });
});
