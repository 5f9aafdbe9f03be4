/**
 * The gate protocol, the play's side: a gate's suspend nodes in a Workflow's status and their release (a
 * locked merge patch of those nodes only; a gate found released already counts as released), and the gate
 * check step: a release of this run recorded before the play reached the gate releases it (the suspend node
 * may be stored a moment later: it looks again, then fails); releases of an earlier run are removed by a
 * fresh run and kept by a resumed one (also from an earlier layout's release ConfigMap).
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { gateCheckStep } from '../../constructs/gate/gate-check-step';
import { gateNodes, gateState, releaseGate } from '../../constructs/gate/gate-nodes';
import { RESUMED_FROM_ANNOTATION } from '../../constructs/model/play-contract';
import type { Release } from '../../constructs/progress/progress-record';
import { ApiResources, type KubeObject, workflowRef } from '../../constructs/runtime/kube-api';
import { StepFailure } from '../../constructs/runtime/runtime-step';
import {
  atGate,
  change,
  conflict,
  createPlay,
  failure,
  forbidden,
  type Harness,
  harness,
  NAMESPACE,
  putConfigMap,
  REPOSITORY,
  storedData,
  storedRecord,
  storeRecord,
  suspendNode,
  taskRecord,
} from '../support/runtime-harness';

const PLAY = 'play-payments-task-7';
const REF = workflowRef(NAMESPACE, PLAY);

const environment = (overrides: Record<string, string> = {}) => ({
  NAMESPACE,
  WORKFLOW_NAME: PLAY,
  GATE: 'review',
  REPOSITORY,
  TASK_ID: '7',
  SERVICE: '',
  ...overrides,
});

const release = (releasedAt: string, prUrl = 'https://github.com/octo-org/payments/pull/3'): Release => ({
  prUrl,
  prNumber: '3',
  releasedAt,
});

const workflow = (nodes: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'w' },
  status: { ...status, nodes },
});

function nodeOf(h: Harness, id: string): Record<string, unknown> {
  const status = h.server.peek(REF)?.status as { nodes?: Record<string, Record<string, unknown>> } | undefined;
  return status?.nodes?.[id] ?? {};
}

describe('gate nodes', () => {
  it('finds the suspend nodes whose stage input is the gate, in id order, with whether each waits', () => {
    const play = workflow({
      b: suspendNode('review', 'Running'),
      a: suspendNode('review', 'Succeeded'),
      c: suspendNode('merge', 'Running'),
      d: { ...suspendNode('review', 'Running'), type: 'Pod' },
      e: { type: 'Suspend', phase: 'Running', inputs: { parameters: [{ name: 'other', value: 'review' }] } },
      f: { type: 'Suspend', phase: 'Running' },
    });
    expect(gateNodes(play, 'review')).toEqual([
      { id: 'a', active: false },
      { id: 'b', active: true },
    ]);
    const many = workflow(Object.fromEntries(['n3', 'n1', 'n4', 'n0', 'n2', 'n5'].map((id) => [id, suspendNode('review', 'Running')])));
    expect(gateNodes(many, 'review').map((node) => node.id)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
    expect(gateState(play, 'review')).toBe('waiting');
    expect(gateState(play, 'merge')).toBe('waiting');
    expect(gateState(workflow({ a: suspendNode('review', 'Succeeded') }), 'review')).toBe('released');
    expect(gateState(workflow({ a: suspendNode('review', 'Failed') }), 'review')).toBe('released');
    expect(gateState(workflow({ a: suspendNode('review', 'Pending') }), 'review')).toBe('released');
    expect(gateState(workflow({}), 'review')).toBe('absent');
    expect(gateState({ metadata: {} }, 'review')).toBe('absent');
    expect(gateState({ metadata: {}, status: {} }, 'review')).toBe('absent');
  });

  it.each([
    ['offloaded', { offloadNodeStatusVersion: 'abc' }],
    ['compressed', { compressedNodes: 'H4sI' }],
  ])('refuses a workflow whose node status is %s, saying how to resume it by hand', (_kind, status) => {
    expect(() => gateNodes(workflow({}, status), 'review')).toThrow(StepFailure);
    expect(() => gateNodes(workflow({}, status), 'review')).toThrow(
      'workflow w keeps its node status compressed or offloaded, which this step cannot read; resume it with `argo resume --node-field-selector inputs.parameters.stage.value=review`',
    );
  });

  it("releases only the gate's waiting nodes, with the resourceVersion it read, and returns waiting", async () => {
    const h = harness();
    await createPlay(h);
    atGate(h, PLAY, 'review', 'Running', 'n1');
    atGate(h, PLAY, 'review', 'Running', 'n2');
    atGate(h, PLAY, 'review', 'Succeeded', 'n0');
    const before = atGate(h, PLAY, 'merge', 'Running', 'm1');
    change(h, REF, (play) => {
      (play.status as { nodes: Record<string, Record<string, unknown>> }).nodes.n1.startedAt = '2026-11-20T09:00:00Z';
    });
    h.advance(1500);
    expect(await releaseGate(h.context, REF, 'review', 'why')).toBe('waiting');
    const [patch] = h.api.calls('patch');
    expect(patch.body).toEqual({
      metadata: { resourceVersion: String(Number(before.metadata.resourceVersion) + 1) },
      status: {
        nodes: {
          n1: { phase: 'Succeeded', finishedAt: '2026-11-20T10:00:01Z', message: 'why' },
          n2: { phase: 'Succeeded', finishedAt: '2026-11-20T10:00:01Z', message: 'why' },
        },
      },
    });
    expect(nodeOf(h, 'n1')).toMatchObject({ type: 'Suspend', phase: 'Succeeded', startedAt: '2026-11-20T09:00:00Z', message: 'why' });
    expect(nodeOf(h, 'm1')).toMatchObject({ phase: 'Running' });
    expect(nodeOf(h, 'n0')).toEqual(suspendNode('review', 'Succeeded'));
  });

  it('writes nothing for a gate released already or absent, and says which', async () => {
    const h = harness();
    await createPlay(h);
    expect(await releaseGate(h.context, REF, 'review', 'why')).toBe('absent');
    atGate(h, PLAY, 'review', 'Succeeded');
    expect(await releaseGate(h.context, REF, 'review', 'why')).toBe('released');
    expect(h.api.calls('patch')).toEqual([]);
  });

  it('counts a release by someone else between its read and its write as a release (a resumer came first)', async () => {
    const h = harness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    h.api.before({ verb: 'patch' }, () => {
      atGate(h, PLAY, 'review', 'Succeeded');
    });
    expect(await releaseGate(h.context, REF, 'review', 'why')).toBe('released');
    expect(h.api.calls('patch')).toHaveLength(1);
    expect(h.sleeps).toEqual([1000]);
  });

  it('fails after five conflicts, and at once on a 403', async () => {
    const h = harness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    h.api.fail({ verb: 'patch' }, conflict, 5);
    expect((await failure(releaseGate(h.context, REF, 'review', 'why'))).message).toBe(
      `releasing gate review of workflow ${PLAY}: the object changed under every one of 5 attempts (409 Conflict); giving up`,
    );
    h.api.fail({ verb: 'patch' }, forbidden);
    expect((await failure(releaseGate(h.context, REF, 'review', 'why'))).message).toMatch(
      new RegExp(`^releasing gate review of workflow ${PLAY}: forbidden \\(403\\): the step's service account lacks this grant`),
    );
  });
});

describe('gate-check', () => {
  it('waits when the task has no record', async () => {
    const h = harness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'false' });
    expect(nodeOf(h, `${PLAY}-1234`)).toMatchObject({ phase: 'Running' });
    expect(h.logs).toEqual(['gate review has no release of this run yet: waiting for one']);
    expect(h.api.calls('patch')).toEqual([]);
  });

  it('waits when the record holds releases of other gates only, or none', async () => {
    const h = harness();
    await createPlay(h);
    storeRecord(h, taskRecord({ releases: { merge: release('2026-11-20T10:00:00Z') } }));
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'false' });
    storeRecord(h, taskRecord({ stage: 'review' }));
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'false' });
  });

  it('takes a play without annotations for a fresh run', async () => {
    const h = harness();
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-20T09:00:00Z') } }));
    await createPlay(h);
    change(h, REF, (play) => {
      delete play.metadata.annotations;
    });
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'false' });
    expect(storedRecord(h)?.releases).toEqual({});
  });

  it('counts every release for a play whose creation time it cannot read', async () => {
    const h = harness();
    const play = await createPlay(h);
    atGate(h, PLAY, 'review');
    storeRecord(h, taskRecord({ releases: { review: release('2026-01-01T00:00:00Z') } }));
    h.api.answer({ verb: 'get', resource: ApiResources.workflows }, () => ({
      ...play,
      metadata: { ...play.metadata, creationTimestamp: undefined },
    }));
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'true' });
  });

  it('releases its own gate when a release of this run came before it reached the gate', async () => {
    const h = harness();
    await createPlay(h);
    h.advance(30_000);
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-20T10:00:30Z') } }));
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'true' });
    expect(nodeOf(h, `${PLAY}-1234`)).toMatchObject({
      phase: 'Succeeded',
      finishedAt: '2026-11-20T10:00:30Z',
      message: "released by the play's gate check: https://github.com/octo-org/payments/pull/3",
    });
    expect(h.logs).toEqual([
      'gate review was released before the play reached it (https://github.com/octo-org/payments/pull/3)',
      'released gate review',
    ]);
    expect(storedRecord(h)?.releases?.review).toEqual(release('2026-11-20T10:00:30Z'));
  });

  it('counts a release recorded in the second the play was created', async () => {
    const h = harness();
    await createPlay(h);
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-20T10:00:00Z', '') } }));
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'true' });
    expect(nodeOf(h, `${PLAY}-1234`)).toMatchObject({ message: "released by the play's gate check: a recorded release" });
    expect(h.logs[0]).toBe('gate review was released before the play reached it (no pull request named)');
  });

  it('succeeds when the resumer released the gate first (already released is success)', async () => {
    const h = harness();
    await createPlay(h);
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-20T10:00:00Z') } }));
    atGate(h, PLAY, 'review', 'Succeeded');
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'true' });
    expect(h.logs[1]).toBe('gate review was released already (a resumer came first): nothing to do');
    expect(h.api.calls('patch')).toEqual([]);
    expect(h.sleeps).toEqual([]);
  });

  it('looks again, backing off, when the suspend node is not stored yet, and releases it when it appears', async () => {
    const h = harness();
    await createPlay(h);
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-20T10:00:00Z') } }));
    h.onSleep((sleeps) => {
      if (sleeps === 3) atGate(h, PLAY, 'review');
    });
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'true' });
    expect(h.sleeps).toEqual([1000, 2000, 4000]);
    expect(nodeOf(h, `${PLAY}-1234`)).toMatchObject({ phase: 'Succeeded' });
  });

  it('fails after five looks without a suspend node', async () => {
    const h = harness();
    await createPlay(h);
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-20T10:00:00Z') } }));
    const error = await failure(h.run(gateCheckStep, environment()));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe(`gate review of play ${PLAY} has no suspend node after 5 looks: the play is not at the gate`);
    expect(h.sleeps).toEqual([1000, 2000, 4000, 8000]);
    expect(h.api.calls('get', ApiResources.workflows)).toHaveLength(6);
  });

  it('a fresh run removes the releases of an earlier run and waits', async () => {
    const h = harness();
    storeRecord(
      h,
      taskRecord({
        stage: 'review',
        releases: { review: release('2026-11-20T09:00:00Z'), merge: release('2026-11-20T09:30:00Z'), qa: release('2026-11-20T10:00:00Z') },
      }),
    );
    await createPlay(h);
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'false' });
    expect(storedRecord(h)).toEqual(taskRecord({ stage: 'review', releases: { qa: release('2026-11-20T10:00:00Z') } }));
    expect(h.logs).toEqual([
      'removed the releases of an earlier run of the task: merge, review',
      'gate review has no release of this run yet: waiting for one',
    ]);
    expect(nodeOf(h, `${PLAY}-1234`)).toMatchObject({ phase: 'Running' });
  });

  it('writes nothing when every release is of this run', async () => {
    const h = harness();
    await createPlay(h);
    storeRecord(h, taskRecord({ releases: { merge: release('2026-11-20T10:00:00Z') } }));
    await h.run(gateCheckStep, environment());
    expect(h.api.calls('patch')).toEqual([]);
    expect(h.api.calls('create')).toEqual([]);
    expect(h.api.calls('get').map((call) => call.name)).toEqual([PLAY, 'play-progress-shard-108']);
  });

  it('says nothing of removing when the earlier release went between its two reads', async () => {
    const h = harness();
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-20T09:00:00Z') } }));
    await createPlay(h);
    h.api.beforeNth({ verb: 'get', resource: ApiResources.configMaps }, 2, () => storeRecord(h, taskRecord({ releases: {} })));
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'false' });
    expect(h.logs).toEqual(['gate review has no release of this run yet: waiting for one']);
    expect(h.api.calls('patch')).toEqual([]);
  });

  it('a resumed play keeps the releases of its run, however old, and releases its gate', async () => {
    const h = harness();
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-01T00:00:00Z') } }));
    await createPlay(h, { annotations: { [RESUMED_FROM_ANNOTATION]: 'play-progress-shard-108/octo-org.payments.task-7.json' } });
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'true' });
    expect(storedRecord(h)?.releases?.review).toEqual(release('2026-11-01T00:00:00Z'));
  });

  it('a resumed play takes a release of the earlier layout when its record has none', async () => {
    const h = harness();
    putConfigMap(h, 'play-release-payments-task-7', {
      review: JSON.stringify({ prUrl: 'https://x/pull/9', prNumber: 9, releasedAt: '2026-10-01T00:00:00Z' }),
    });
    await createPlay(h, { annotations: { [RESUMED_FROM_ANNOTATION]: 'somewhere' } });
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment({ SERVICE: 'payments' }))).toEqual({
      released: 'true',
    });
    expect(nodeOf(h, `${PLAY}-1234`)).toMatchObject({ message: "released by the play's gate check: https://x/pull/9" });
    expect(h.logs[0]).toBe(
      'gate review: a release recorded in play-release-payments-task-7 before the upgrade counts for this resumed play',
    );
  });

  it("names the earlier layout's release ConfigMap after the service and the task, as that layout did", async () => {
    const h = harness();
    putConfigMap(h, 'play-release-payments-api-task-12', { review: '{"prUrl":"https://x/pull/4"}' });
    await createPlay(h, { task: 12, annotations: { [RESUMED_FROM_ANNOTATION]: 'somewhere' } });
    atGate(h, 'play-payments-task-12', 'review');
    const run = h.run(gateCheckStep, environment({ WORKFLOW_NAME: 'play-payments-task-12', TASK_ID: '12', SERVICE: 'Payments API' }));
    expect(await run).toEqual({ released: 'true' });
    expect(h.api.calls('get', ApiResources.configMaps).at(-1)?.name).toBe('play-release-payments-api-task-12');
  });

  it('reads an earlier layout release that is not JSON as a release without details', async () => {
    const h = harness();
    putConfigMap(h, 'play-release-payments-task-7', { review: 'merged' });
    await createPlay(h, { annotations: { [RESUMED_FROM_ANNOTATION]: 'somewhere' } });
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment({ SERVICE: 'payments' }))).toEqual({
      released: 'true',
    });
    expect(nodeOf(h, `${PLAY}-1234`)).toMatchObject({ message: "released by the play's gate check: a recorded release" });
  });

  it('reads empty fields of an earlier layout release as empty', async () => {
    const h = harness();
    putConfigMap(h, 'play-release-payments-task-7', { review: '{}' });
    await createPlay(h, { annotations: { [RESUMED_FROM_ANNOTATION]: 'somewhere' } });
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment({ SERVICE: 'payments' }))).toEqual({
      released: 'true',
    });
    expect(h.logs[1]).toBe('gate review was released before the play reached it (no pull request named)');
  });

  it('finds no earlier layout release for another gate, in a missing ConfigMap, or when none is named', async () => {
    const h = harness();
    putConfigMap(h, 'play-release-payments-task-7', { merge: '{}', review: 12 });
    await createPlay(h, { annotations: { [RESUMED_FROM_ANNOTATION]: 'somewhere' } });
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment({ SERVICE: 'payments' }))).toEqual({
      released: 'false',
    });
    expect(await h.run(gateCheckStep, environment({ SERVICE: 'gone' }))).toEqual({ released: 'false' });
    h.api.seen.length = 0;
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'false' });
    expect(h.api.calls('get').map((call) => call.name)).toEqual([
      PLAY,
      'play-progress-shard-108',
      'play-progress-octo-org-payments-7',
      'play-progress-octo-org-payments',
    ]);
    h.server.put(ApiResources.configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'play-release-no-data-task-7', namespace: NAMESPACE },
    });
    expect(await h.run(gateCheckStep, environment({ SERVICE: 'no-data' }))).toEqual({ released: 'false' });
  });

  it('a fresh play never reads the earlier layout releases', async () => {
    const h = harness();
    putConfigMap(h, 'play-release-payments-task-7', { review: '{}' });
    await createPlay(h);
    atGate(h, PLAY, 'review');
    expect(await h.run(gateCheckStep, environment({ SERVICE: 'payments' }))).toEqual({
      released: 'false',
    });
    expect(h.api.calls('get').filter((call) => call.name === 'play-release-payments-task-7')).toEqual([]);
  });

  it('fails with the missing grant when it may not read the earlier layout releases', async () => {
    const h = harness();
    await createPlay(h, { annotations: { [RESUMED_FROM_ANNOTATION]: 'somewhere' } });
    h.api.fail({ verb: 'get', name: 'play-release-payments-task-7' }, forbidden);
    const error = await failure(h.run(gateCheckStep, environment({ SERVICE: 'payments' })));
    expect(error.message).toMatch(/^reading ConfigMap play-release-payments-task-7: forbidden \(403\)/);
  });

  it('reads a record that lies about its task as holding no release', async () => {
    const h = harness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    storeRecord(h, { ...taskRecord({ releases: { review: release('2026-11-20T10:00:00Z') } }), task: '8' });
    expect(await h.run(gateCheckStep, environment())).toEqual({ released: 'false' });
    expect(h.logs[0]).toBe('play-progress-shard-108: the stored record names task "8", not 7: read as holding no release');
    expect(h.api.calls('patch')).toEqual([]);
  });

  it('fails when the play cannot be read, or its record cannot', async () => {
    const h = harness();
    expect((await failure(h.run(gateCheckStep, environment()))).message).toMatch(new RegExp(`^reading play ${PLAY}: 404 NotFound`));
    await createPlay(h);
    h.api.fail({ verb: 'get', resource: ApiResources.workflows }, forbidden);
    expect((await failure(h.run(gateCheckStep, environment()))).message).toMatch(new RegExp(`^reading play ${PLAY}: forbidden \\(403\\)`));
    h.api.fail({ verb: 'get', resource: ApiResources.configMaps }, forbidden);
    expect((await failure(h.run(gateCheckStep, environment()))).message).toMatch(
      /^reading ConfigMap play-progress-shard-108: forbidden \(403\)/,
    );
  });

  it('fails with the missing grant when removing an earlier run release is forbidden', async () => {
    const h = harness();
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-20T09:00:00Z') } }));
    await createPlay(h);
    h.api.fail({ verb: 'patch', resource: ApiResources.configMaps }, forbidden);
    const error = await failure(h.run(gateCheckStep, environment()));
    expect(error.message).toMatch(/^writing octo-org\.payments\.task-7\.json in ConfigMap play-progress-shard-108: forbidden \(403\)/);
    expect(error.message).not.toMatch(/changed/);
  });

  it('refuses an environment without a canonical task id', () => {
    expect(() => gateCheckStep.env.read(environment({ TASK_ID: '007' }))).toThrow(/^TASK_ID: /);
    expect(() => gateCheckStep.env.read(environment({ GATE: '' }))).toThrow('GATE: is empty');
  });

  it('keeps the records of the other tasks in its shard as they were', async () => {
    const h = harness();
    const neighbour = { repository: 'octo-org/web', task: '24', releases: { review: release('2026-11-20T09:00:00Z') } };
    storeRecord(h, taskRecord({ releases: { review: release('2026-11-20T09:00:00Z') } }));
    storeRecord(h, neighbour, 24, 'octo-org/web');
    await createPlay(h);
    await h.run(gateCheckStep, environment());
    expect(Object.keys(storedData(h, 'play-progress-shard-108') ?? {}).sort()).toEqual([
      'octo-org.payments.task-7.json',
      'octo-org.web.task-24.json',
    ]);
    expect(storedRecord(h, 24, 'octo-org/web')).toEqual(neighbour);
    expect(storedRecord(h)?.releases).toEqual({});
  });
});
