/**
 * The remediation protocol: decide what an event asks for (nothing for no task, two live plays, a stage where
 * it does not count, an old-round event or an event seen already; a successor play; or the end of the
 * rounds), stop the play and wait for Argo to complete it (or time out), record the round, delete the play
 * and wait until it and its pods are gone (or time out) before its successor is created under the same name,
 * and record that the rounds are exhausted.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { ARGO_COMPLETED_LABEL } from '../../constructs/model/argo-api';
import { PlayAnnotations, PlayLabels } from '../../constructs/model/labels';
import { RESUMED_FROM_ANNOTATION } from '../../constructs/model/play-contract';
import { registryConfigMapOf } from '../../constructs/registry/registry-layout';
import { decideStep } from '../../constructs/remediation/decide-step';
import { ARGO_WORKFLOW_LABEL, exhaustedStep, replaceStep, stopStep } from '../../constructs/remediation/replace-steps';
import { KEPT_ANNOTATIONS, successorOf } from '../../constructs/remediation/successor';
import { ApiResources, type KubeObject, workflowRef } from '../../constructs/runtime/kube-api';
import { StepFailure } from '../../constructs/runtime/runtime-step';
import {
  alreadyExists,
  change,
  complete,
  createPlay,
  failure,
  forbidden,
  type Harness,
  harness,
  NAMESPACE,
  notFound,
  REPOSITORY,
  register,
  registeredHarness,
  registryEntryOf,
  storedRecord,
  storeRecord,
  taskRecord,
} from '../support/runtime-harness';

const PLAY = 'play-payments-task-7';
const REF = workflowRef(NAMESPACE, PLAY);
const PR = 'https://github.com/octo-org/payments/pull/3';
const REGISTRY = registryConfigMapOf(REPOSITORY);

const event = {
  NAMESPACE,
  KIND: 'remediate',
  REPOSITORY,
  TASK_ID: '7',
  SENDER: 'alice',
  PR_URL: PR,
  EVENT_ID: 'review-41',
};

const decideEnvironment = (overrides: Record<string, string> = {}) => ({
  ...event,
  BASE_BRANCH: 'main',
  STRATEGY: 'label-selector',
  REASON: 'changes requested',
  EVENT_AT: '2026-11-20T11:00:00Z',
  MAX_ROUNDS: '3',
  REMEDIABLE_STAGES: 'review merge',
  STALE_STAGES: 'quality review',
  IMPLEMENTATION_STAGE: 'implementation',
  STALE_RESTART_STAGE: 'quality',
  ...overrides,
});

/** A record whose remediation history holds the event. */
const handled = (eventId: string) =>
  taskRecord({
    remediations: [{ round: 2, kind: 'remediate', reason: 'r', reviewer: 'a', url: '', eventId, startStage: 'implementation', at: 't' }],
  });

const NOTHING = { action: 'none', workflow: '', successor: '{}', reason: '', round: '' };

/** A play of task 7 in the given stage and round, carrying what the controller and the play add while it runs. */
async function runningPlay(h: Harness, stage = 'review', round = '1', name?: string): Promise<KubeObject> {
  await createPlay(h, { stage, round, name, annotations: { [PlayAnnotations.prUrl]: PR, [PlayAnnotations.prNumber]: '3' } });
  return change(h, workflowRef(NAMESPACE, name ?? PLAY), (play) => {
    play.metadata.labels = { ...play.metadata.labels, 'workflows.argoproj.io/phase': 'Running', [PlayLabels.previousStage]: 'quality' };
    play.metadata.annotations = {
      ...play.metadata.annotations,
      [PlayAnnotations.stageHistory]: '[]',
      [PlayAnnotations.currentAgent]: '',
    };
    play.status = { phase: 'Running' };
  });
}

describe('remediation-decide', () => {
  it('does nothing for an event that names no task', async () => {
    const h = registeredHarness();
    expect(await h.run(decideStep, decideEnvironment({ TASK_ID: 'feature' }))).toEqual(NOTHING);
    expect(await h.run(decideStep, decideEnvironment({ TASK_ID: '010' }))).toEqual(NOTHING);
    expect(h.logs).toEqual([
      'the event names no task: not a play pull request or branch',
      'the event names no task: not a play pull request or branch',
    ]);
    expect(h.api.seen).toEqual([]);
  });

  it('does nothing for an event of a repository the registry does not hold, or into another branch, reading no play', async () => {
    const h = harness();
    await runningPlay(h);
    expect(await h.run(decideStep, decideEnvironment())).toEqual(NOTHING);
    register(h);
    expect(await h.run(decideStep, decideEnvironment({ BASE_BRANCH: 'release' }))).toEqual(NOTHING);
    expect(h.logs).toEqual([
      `repository ${REPOSITORY} is not one of the platform's: nothing to do`,
      `the pull request merges into release, not into main (the branch of ${REPOSITORY}): nothing to do`,
    ]);
    expect(h.api.calls('list')).toEqual([]);
    expect(h.api.calls('get').map((call) => call.name)).toEqual([REGISTRY, REGISTRY]);
  });

  it('does nothing without a live play, or with two', async () => {
    const h = registeredHarness();
    expect(await h.run(decideStep, decideEnvironment())).toEqual(NOTHING);
    expect(h.logs.at(-1)).toBe(`0 live plays for task 7 of ${REPOSITORY}: nothing to remediate`);
    await runningPlay(h, 'review', '1', 'play-a');
    await runningPlay(h, 'review', '1', 'play-b');
    expect(await h.run(decideStep, decideEnvironment({ KIND: 'stale-work' }))).toEqual(NOTHING);
    expect(h.logs.at(-1)).toBe(`2 live plays for task 7 of ${REPOSITORY}: nothing to stale-work`);
    expect(h.api.calls('get').map((call) => call.name)).toEqual([REGISTRY, REGISTRY]);
  });

  it('does nothing for a play at a stage where the event does not count (a second review of a round sent back)', async () => {
    const h = registeredHarness();
    await runningPlay(h, 'implementation', '2');
    expect(await h.run(decideStep, decideEnvironment())).toEqual(NOTHING);
    expect(h.logs).toEqual([`play ${PLAY} is at implementation (round 2): a remediate event counts only at: review merge`]);
    expect(await h.run(decideStep, decideEnvironment({ KIND: 'stale-work' }))).toEqual(NOTHING);
    expect(h.logs.at(-1)).toBe(`play ${PLAY} is at implementation (round 2): a stale-work event counts only at: quality review`);
    change(h, REF, (play) => {
      play.metadata.labels = { ...play.metadata.labels, [PlayLabels.currentStage]: '' };
    });
    expect(await h.run(decideStep, decideEnvironment())).toEqual(NOTHING);
    expect(h.logs.at(-1)).toBe(`play ${PLAY} is at no stage (round 2): a remediate event counts only at: review merge`);
  });

  it('sends a play back to its implementation stage in the next round, with the successor', async () => {
    const h = registeredHarness();
    await runningPlay(h, 'review', '1');
    const outputs = await h.run(decideStep, decideEnvironment());
    const reason = `round 2: changes requested by alice (${PR})`;
    expect({ ...outputs, successor: undefined }).toEqual({ action: 'replace', workflow: PLAY, successor: undefined, reason, round: '2' });
    const successor = JSON.parse(outputs.successor) as KubeObject;
    expect(successor.metadata).toEqual({
      name: PLAY,
      namespace: NAMESPACE,
      labels: {
        'task-id': '7',
        repository: 'octo-org.payments',
        'workflow-type': 'play',
        'current-stage': 'implementation',
        round: '2',
      },
      annotations: {
        [PlayAnnotations.repository]: REPOSITORY,
        [PlayAnnotations.prUrl]: PR,
        [PlayAnnotations.prNumber]: '3',
        [RESUMED_FROM_ANNOTATION]: 'play-progress-shard-108/octo-org.payments.task-7.json: remediate of round 1 at stage review',
        [PlayAnnotations.roundReason]: reason,
        [PlayAnnotations.remediationEvent]: 'review-41',
      },
    });
    expect(successor.spec).toEqual({
      workflowTemplateRef: { name: 'play' },
      arguments: {
        parameters: [
          { name: 'repository', value: REPOSITORY },
          { name: 'task-id', value: '7' },
          { name: 'start-stage', value: 'implementation' },
          { name: 'round', value: '2' },
          { name: 'task-type', value: 'backend' },
        ],
      },
    });
    expect([successor.apiVersion, successor.kind]).toEqual(['argoproj.io/v1alpha1', 'Workflow']);
    expect(h.logs).toEqual([`play ${PLAY} (round 1, at review): ${reason}`]);
  });

  it('re-runs the round from the stale restart stage after a push, in the same round, even in the last', async () => {
    const h = registeredHarness();
    await runningPlay(h, 'quality', '3');
    const outputs = await h.run(decideStep, decideEnvironment({ KIND: 'stale-work', SENDER: 'rex', REASON: 'pushed', PR_URL: '' }));
    expect(outputs.action).toBe('replace');
    expect(outputs.round).toBe('3');
    expect(outputs.reason).toBe('round 3: pushed by rex; re-running from quality');
    const successor = JSON.parse(outputs.successor) as KubeObject;
    expect(successor.metadata.labels?.[PlayLabels.currentStage]).toBe('quality');
    expect(successor.metadata.labels?.[PlayLabels.round]).toBe('3');
    expect(successor.metadata.annotations?.[RESUMED_FROM_ANNOTATION]).toMatch(/: stale-work of round 3 at stage quality$/);
  });

  it('ends the rounds when the last round asks for changes', async () => {
    const h = registeredHarness();
    await runningPlay(h, 'review', '3');
    expect(await h.run(decideStep, decideEnvironment())).toEqual({
      action: 'exhaust',
      workflow: PLAY,
      successor: '{}',
      reason: 'remediation rounds exhausted: 3 of 3',
      round: '3',
    });
    expect(h.logs).toEqual([`play ${PLAY}: remediation rounds exhausted: 3 of 3`]);
    await runningPlay(h, 'review', '4', 'x');
    change(h, REF, (play) => {
      play.metadata.labels = { ...play.metadata.labels, [ARGO_COMPLETED_LABEL]: 'true' };
    });
    expect((await h.run(decideStep, decideEnvironment())).round).toBe('4');
  });

  it('replaces in the round before the last', async () => {
    const h = registeredHarness();
    await runningPlay(h, 'review', '2');
    expect(await h.run(decideStep, decideEnvironment())).toMatchObject({ action: 'replace', round: '3' });
    expect((await h.run(decideStep, decideEnvironment({ MAX_ROUNDS: '2' }))).action).toBe('exhaust');
    expect((await h.run(decideStep, decideEnvironment({ MAX_ROUNDS: '1' }))).action).toBe('exhaust');
  });

  it.each(['', '0', '01', 'x', '1234567890'])('reads a round label %j that is not a round as round 1', async (round) => {
    const h = registeredHarness();
    await runningPlay(h, 'review', round);
    expect(await h.run(decideStep, decideEnvironment())).toMatchObject({ action: 'replace', round: '2' });
  });

  it('reads a large round label as it is', async () => {
    const h = registeredHarness();
    await runningPlay(h, 'review', '123456789');
    expect(await h.run(decideStep, decideEnvironment({ MAX_ROUNDS: '999999999' }))).toMatchObject({
      action: 'replace',
      round: '123456790',
    });
  });

  it('does nothing for an event older than the play (an earlier round), to the second', async () => {
    const h = registeredHarness();
    h.advance(3_600_000);
    await runningPlay(h);
    expect(await h.run(decideStep, decideEnvironment({ EVENT_AT: '2026-11-20T10:59:59Z' }))).toEqual(NOTHING);
    expect(h.logs).toEqual([
      `the event (2026-11-20T10:59:59Z) is older than play ${PLAY} (2026-11-20T11:00:00): it belongs to an earlier round`,
    ]);
    expect((await h.run(decideStep, decideEnvironment({ EVENT_AT: '2026-11-20T11:00:00.500Z' }))).action).toBe('replace');
    expect((await h.run(decideStep, decideEnvironment({ EVENT_AT: '2026-11-20T11:00:00Z' }))).action).toBe('replace');
  });

  it('takes an event without a time (or with one it cannot read) as of this round', async () => {
    const h = registeredHarness();
    h.advance(3_600_000);
    await runningPlay(h);
    for (const at of [
      '',
      'yesterday',
      '2026-11-20',
      '2026-11-20 10:00:00',
      'at 2026-11-20T10:00:00Z',
      ' 2026-11-20T10:00:00Z',
      '2026-11-20T10:00:0',
    ])
      expect((await h.run(decideStep, decideEnvironment({ EVENT_AT: at }))).action).toBe('replace');
  });

  it('does nothing for an event handled already (a repeated delivery)', async () => {
    const h = registeredHarness();
    await runningPlay(h);
    storeRecord(h, handled('review-41'));
    expect(await h.run(decideStep, decideEnvironment())).toEqual(NOTHING);
    expect(h.logs).toEqual(['event review-41 was handled already (a duplicate delivery): nothing to do']);
    expect((await h.run(decideStep, decideEnvironment({ EVENT_ID: 'review-42' }))).action).toBe('replace');
  });

  it('never takes an empty event id as handled', async () => {
    const h = registeredHarness();
    await runningPlay(h);
    storeRecord(h, handled(''));
    expect((await h.run(decideStep, decideEnvironment({ EVENT_ID: '' }))).action).toBe('replace');
  });

  it('reads a play without name, labels or creation time as at no stage, in round 1, of this round', async () => {
    const h = registeredHarness();
    h.api.answer({ verb: 'list' }, () => [{ metadata: {} }]);
    expect(await h.run(decideStep, decideEnvironment())).toEqual(NOTHING);
    expect(h.logs).toEqual(['play  is at no stage (round 1): a remediate event counts only at: review merge']);
    h.api.answer({ verb: 'list' }, () => [{ metadata: { name: PLAY, labels: { [PlayLabels.currentStage]: 'review' } } }]);
    expect(await h.run(decideStep, decideEnvironment())).toMatchObject({ action: 'replace', round: '2' });
  });

  it("decides on the play named after the registry's service under the workflow-name strategy", async () => {
    const h = registeredHarness();
    register(h, registryEntryOf({ service: 'billing' }));
    await runningPlay(h, 'review', '1', 'play-billing-task-7');
    change(h, workflowRef(NAMESPACE, 'play-billing-task-7'), (play) => {
      play.metadata.labels = { ...play.metadata.labels, [PlayLabels.taskId]: '99' };
    });
    expect(await h.run(decideStep, decideEnvironment({ STRATEGY: 'workflow-name' }))).toMatchObject({
      action: 'replace',
      workflow: 'play-billing-task-7',
    });
    expect(h.api.calls('list')).toEqual([]);
  });

  it('decides despite an unreadable record (nothing in it can say the event was seen)', async () => {
    const h = registeredHarness();
    await runningPlay(h);
    storeRecord(h, 'not json');
    expect((await h.run(decideStep, decideEnvironment())).action).toBe('replace');
  });

  it('fails with the missing grant when it may not list the plays', async () => {
    const h = registeredHarness();
    h.api.fail({ verb: 'list' }, forbidden);
    expect((await failure(h.run(decideStep, decideEnvironment()))).message).toMatch(/^listing the plays of .*: forbidden \(403\)/);
  });

  it('refuses an unknown kind, naming KIND', () => {
    expect(() => decideStep.env.read(decideEnvironment({ KIND: 'other' }))).toThrow(
      'KIND: expected one of remediate, stale-work, got "other"',
    );
    expect(() => decideStep.env.read(decideEnvironment({ MAX_ROUNDS: '0' }))).toThrow(/^MAX_ROUNDS: /);
  });
});

describe('successorOf', () => {
  const props = { startStage: 'implementation', round: 2, resumedFrom: 'r', reason: 'why', eventId: 'e' };

  it('keeps only the annotations a successor needs', () => {
    expect(KEPT_ANNOTATIONS).toEqual([PlayAnnotations.repository, PlayAnnotations.prUrl, PlayAnnotations.prNumber]);
    const successor = successorOf({ metadata: { name: 'p', annotations: { other: 'x', [PlayAnnotations.prUrl]: 'u' } } }, props);
    expect(successor.metadata.annotations).toEqual({
      [PlayAnnotations.prUrl]: 'u',
      [RESUMED_FROM_ANNOTATION]: 'r',
      [PlayAnnotations.roundReason]: 'why',
      [PlayAnnotations.remediationEvent]: 'e',
    });
  });

  it('works from a play without labels, annotations or spec', () => {
    expect(successorOf({ metadata: { name: 'p' } }, props)).toEqual({
      apiVersion: undefined,
      kind: undefined,
      metadata: {
        name: 'p',
        namespace: undefined,
        labels: { 'current-stage': 'implementation', round: '2' },
        annotations: { [RESUMED_FROM_ANNOTATION]: 'r', [PlayAnnotations.roundReason]: 'why', [PlayAnnotations.remediationEvent]: 'e' },
      },
      spec: { workflowTemplateRef: undefined, arguments: { parameters: [{ name: 'round', value: '2' }] } },
    });
  });

  it('sets the round argument where it is, or puts it after the start stage, leaving other arguments', () => {
    const parameters = (list: Array<{ name: string; value?: string }>) =>
      (successorOf({ metadata: {}, spec: { arguments: { parameters: list } } }, props).spec as { arguments: { parameters: unknown } })
        .arguments.parameters;
    expect(
      parameters([
        { name: 'round', value: '1' },
        { name: 'a', value: 'x' },
        { name: 'start-stage', value: 'review' },
      ]),
    ).toEqual([
      { name: 'round', value: '2' },
      { name: 'a', value: 'x' },
      { name: 'start-stage', value: 'implementation' },
    ]);
    expect(parameters([{ name: 'a' }, { name: 'start-stage', value: 'review' }, { name: 'b', value: 'y' }])).toEqual([
      { name: 'a' },
      { name: 'start-stage', value: 'implementation' },
      { name: 'round', value: '2' },
      { name: 'b', value: 'y' },
    ]);
  });

  it('leaves behind the labels of the controller and the previous stage', () => {
    const labels = successorOf(
      {
        metadata: {
          labels: { 'workflows.argoproj.io/completed': 'true', 'previous-stage': 'q', keep: 'k', 'x.workflows.argoproj.io/y': 'z' },
        },
      },
      props,
    ).metadata.labels;
    expect(labels).toEqual({ keep: 'k', 'x.workflows.argoproj.io/y': 'z', 'current-stage': 'implementation', round: '2' });
  });
});

describe('remediation-stop', () => {
  const environment = (overrides: Record<string, string> = {}) => ({ NAMESPACE, PLAY, REASON: '', STOP_TIMEOUT: '60', ...overrides });

  it('does nothing for a play gone already', async () => {
    const h = harness();
    expect(await h.run(stopStep, environment({ REASON: 'r' }))).toEqual({});
    expect(h.logs).toEqual([`play ${PLAY} is gone already`]);
    expect(h.api.calls('patch')).toEqual([]);
  });

  it('puts the reason on the play, stops it, and waits until Argo has completed it', async () => {
    const h = harness();
    await runningPlay(h);
    h.onSleep((sleeps) => {
      if (sleeps === 2) complete(h, PLAY);
    });
    expect(await h.run(stopStep, environment({ REASON: 'remediation rounds exhausted: 3 of 3' }))).toEqual({});
    expect(h.api.calls('patch').map((call) => call.body)).toEqual([
      { metadata: { annotations: { [PlayAnnotations.roundReason]: 'remediation rounds exhausted: 3 of 3' } } },
      { spec: { shutdown: 'Stop' } },
    ]);
    expect(h.sleeps).toEqual([5000, 5000]);
    expect(h.logs).toEqual([`stopped play ${PLAY}: its exit handler runs`, `play ${PLAY} has finished`]);
    expect(h.server.peek(REF)?.spec).toMatchObject({ shutdown: 'Stop' });
  });

  it('does not stop a play that has completed, and puts no reason when none is given', async () => {
    const h = harness();
    await runningPlay(h);
    complete(h, PLAY);
    expect(await h.run(stopStep, environment())).toEqual({});
    expect(h.api.calls('patch')).toEqual([]);
    expect(h.sleeps).toEqual([]);
    expect(h.logs).toEqual([`play ${PLAY} has finished`]);
  });

  it('stops a play that has no labels, and waits for it', async () => {
    const h = harness();
    await h.server.client().create(ApiResources.workflows, NAMESPACE, { metadata: { name: PLAY } });
    h.onSleep(() => {
      complete(h, PLAY);
    });
    expect(await h.run(stopStep, environment())).toEqual({});
    expect(h.api.calls('patch').map((call) => call.body)).toEqual([{ spec: { shutdown: 'Stop' } }]);
    expect(h.sleeps).toEqual([5000]);
  });

  it('counts a play deleted while it waits as finished', async () => {
    const h = harness();
    await runningPlay(h);
    h.onSleep(() => h.server.remove(REF));
    expect(await h.run(stopStep, environment())).toEqual({});
    expect(h.sleeps).toEqual([5000]);
  });

  it('fails when the play has not finished within the time limit', async () => {
    const h = harness();
    await runningPlay(h);
    const error = await failure(h.run(stopStep, environment({ STOP_TIMEOUT: '12' })));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe(`play ${PLAY} has not finished 12 seconds after its stop`);
    expect(h.sleeps).toEqual([5000, 5000, 5000]);
    const exact = registeredHarness();
    await runningPlay(exact);
    await failure(exact.run(stopStep, environment({ STOP_TIMEOUT: '10' })));
    expect(exact.sleeps).toEqual([5000, 5000]);
  });

  it('fails with the missing grant when it may not stop the play', async () => {
    const h = harness();
    await runningPlay(h);
    h.api.fail({ verb: 'patch' }, forbidden);
    expect((await failure(h.run(stopStep, environment()))).message).toMatch(new RegExp(`^stopping play ${PLAY}: forbidden \\(403\\)`));
    h.api.fail({ verb: 'patch' }, forbidden);
    expect((await failure(h.run(stopStep, environment({ REASON: 'r' })))).message).toMatch(
      new RegExp(`^putting the reason on play ${PLAY}: forbidden \\(403\\)`),
    );
    h.api.fail({ verb: 'get' }, forbidden);
    expect((await failure(h.run(stopStep, environment()))).message).toMatch(new RegExp(`^reading play ${PLAY}: forbidden \\(403\\)`));
  });
});

describe('remediation-replace', () => {
  async function decided(h: Harness, overrides: Record<string, string> = {}): Promise<Record<string, string>> {
    await runningPlay(h);
    const outputs = await h.run(decideStep, decideEnvironment(overrides));
    h.logs.length = 0;
    h.api.seen.length = 0;
    return outputs;
  }

  const environment = (outputs: Record<string, string>, overrides: Record<string, string> = {}) => ({
    ...event,
    PLAY,
    REASON: outputs.reason,
    NEXT_ROUND: outputs.round,
    SUCCESSOR: outputs.successor,
    ROUND_GATES: 'review merge',
    DELETE_TIMEOUT: '60',
    ...overrides,
  });

  function pod(h: Harness, name: string, owner?: KubeObject): void {
    h.server.put(ApiResources.pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: NAMESPACE,
        labels: { [ARGO_WORKFLOW_LABEL]: PLAY },
        ...(owner ? { uid: `pod-${name}`, ownerReferences: [{ uid: owner.metadata.uid }] } : {}),
      },
    });
  }

  it('records the round, deletes the play and its pods, then creates the successor under the same name', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    const original = h.server.peek(REF) as KubeObject;
    pod(h, `${PLAY}-implementation-1`, original);
    storeRecord(
      h,
      taskRecord({
        stage: 'review',
        round: 1,
        releases: {
          review: { prUrl: '', prNumber: '', releasedAt: 't' },
          qa: { prUrl: '', prNumber: '', releasedAt: 't' },
        },
      }),
    );
    h.advance(2000);
    expect(await h.run(replaceStep, environment(outputs))).toEqual({});
    expect(storedRecord(h)).toEqual(
      taskRecord({
        stage: 'implementation',
        round: 2,
        releases: { qa: { prUrl: '', prNumber: '', releasedAt: 't' } },
        remediations: [
          {
            round: 2,
            kind: 'remediate',
            reason: outputs.reason,
            reviewer: 'alice',
            url: PR,
            eventId: 'review-41',
            startStage: 'implementation',
            at: '2026-11-20T10:00:02Z',
          },
        ],
      }),
    );
    expect(h.api.calls('delete')).toEqual([{ verb: 'delete', resource: 'workflows', name: PLAY, body: 'Foreground' }]);
    expect(h.api.calls('list', ApiResources.pods)[0].body).toBe(`${ARGO_WORKFLOW_LABEL}=${PLAY}`);
    const created = h.server.peek(REF) as KubeObject;
    expect(created.metadata.uid).not.toBe(original.metadata.uid);
    expect(created.metadata.labels).toMatchObject({ 'current-stage': 'implementation', round: '2' });
    expect(created.metadata.annotations?.[PlayAnnotations.remediationEvent]).toBe('review-41');
    expect(h.server.all(ApiResources.pods)).toEqual([]);
    expect(h.logs).toEqual([
      'recorded round 2; removed the releases that do not hold in it: review merge',
      `deleted play ${PLAY}; nothing it owned is left`,
      `created play ${PLAY}: ${outputs.reason}`,
    ]);
    const order = h.api.seen.map((call) => `${call.verb} ${call.resource}`);
    expect(order.lastIndexOf('list pods')).toBeLessThan(order.indexOf('create workflows'));
  });

  it('waits until the pods of the play are gone before creating the successor', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    pod(h, 'lingering');
    h.onSleep((sleeps) => {
      if (sleeps === 2) h.server.remove({ resource: ApiResources.pods, namespace: NAMESPACE, name: 'lingering' });
    });
    let createdAfter = -1;
    h.api.before({ verb: 'create', resource: ApiResources.workflows }, () => {
      createdAfter = h.sleeps.length;
    });
    await h.run(replaceStep, environment(outputs));
    expect(h.sleeps).toEqual([5000, 5000]);
    expect(createdAfter).toBe(2);
  });

  it('fails, creating nothing, when pods of the play linger past the time limit', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    pod(h, 'a');
    pod(h, 'b');
    const error = await failure(h.run(replaceStep, environment(outputs, { DELETE_TIMEOUT: '7' })));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe(`2 pods of play ${PLAY} are still there 7 s after its deletion`);
    expect(h.sleeps).toEqual([5000, 5000]);
    expect(h.server.peek(REF)).toBeUndefined();
    expect(h.api.calls('create', ApiResources.workflows)).toEqual([]);
    const exact = registeredHarness();
    const decidedExact = await decided(exact);
    pod(exact, 'a');
    await failure(exact.run(replaceStep, environment(decidedExact, { DELETE_TIMEOUT: '10' })));
    expect(exact.sleeps).toEqual([5000, 5000]);
  });

  it('fails when the play itself is not gone in time (its finalizers)', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    h.api.answer({ verb: 'delete' }, () => undefined);
    const error = await failure(h.run(replaceStep, environment(outputs, { DELETE_TIMEOUT: '1' })));
    expect(error.message).toBe(`play ${PLAY} and 0 of its pods are still there 1 s after its deletion`);
    expect(h.sleeps).toEqual([5000]);
  });

  it('does nothing more when the play is the successor already (a retried step)', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    await h.run(replaceStep, environment(outputs));
    const successor = h.server.peek(REF);
    h.api.seen.length = 0;
    h.logs.length = 0;
    expect(await h.run(replaceStep, environment(outputs))).toEqual({});
    expect(h.logs.at(-1)).toBe(`play ${PLAY} is the successor already (a retried step)`);
    expect(h.api.calls('delete')).toEqual([]);
    expect(h.api.calls('create', ApiResources.workflows)).toEqual([]);
    expect(h.server.peek(REF)).toEqual(successor);
    expect(storedRecord(h)?.remediations).toHaveLength(1);
  });

  it('replaces a stopped play also for an event without an id', async () => {
    const h = registeredHarness();
    const outputs = await decided(h, { EVENT_ID: '' });
    const original = h.server.peek(REF) as KubeObject;
    expect(await h.run(replaceStep, environment(outputs, { EVENT_ID: '' }))).toEqual({});
    expect(h.api.calls('delete')).toHaveLength(1);
    expect(h.server.peek(REF)?.metadata.uid).not.toBe(original.metadata.uid);
  });

  it('creates the successor of a play that is gone already', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    h.server.remove(REF);
    await h.run(replaceStep, environment(outputs));
    expect(h.api.calls('delete')).toEqual([]);
    expect(h.server.peek(REF)?.metadata.labels?.round).toBe('2');
  });

  it('takes a play deleted by someone else meanwhile (404 on the delete) as deleted', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    h.api.fail({ verb: 'delete' }, notFound);
    h.api.before({ verb: 'list', resource: ApiResources.pods }, () => h.server.remove(REF));
    expect(await h.run(replaceStep, environment(outputs))).toEqual({});
    expect(h.server.peek(REF)?.metadata.labels?.round).toBe('2');
  });

  it('accepts its own successor created by an earlier try (AlreadyExists of the same event)', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    h.api.before({ verb: 'create', resource: ApiResources.workflows }, () => {
      h.server.put(ApiResources.workflows, JSON.parse(outputs.successor) as KubeObject);
    });
    expect(await h.run(replaceStep, environment(outputs))).toEqual({});
    expect(h.logs.at(-1)).toBe(`created play ${PLAY}: ${outputs.reason}`);
  });

  it('replaces a successor made for an event without an id when another such event comes', async () => {
    const h = registeredHarness();
    const first = await decided(h, { EVENT_ID: '' });
    await h.run(replaceStep, environment(first, { EVENT_ID: '' }));
    const successor = h.server.peek(REF) as KubeObject;
    expect(successor.metadata.annotations?.[PlayAnnotations.remediationEvent]).toBe('');
    h.api.seen.length = 0;
    await h.run(replaceStep, environment(first, { EVENT_ID: '' }));
    expect(h.api.calls('delete')).toHaveLength(1);
    expect(h.server.peek(REF)?.metadata.uid).not.toBe(successor.metadata.uid);
  });

  it('replaces a play that has no annotations', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    change(h, REF, (play) => {
      delete play.metadata.annotations;
    });
    await h.run(replaceStep, environment(outputs));
    expect(h.api.calls('delete')).toHaveLength(1);
    expect(h.server.peek(REF)?.metadata.annotations?.[PlayAnnotations.remediationEvent]).toBe('review-41');
  });

  it('refuses a play without annotations that someone else created under the name meanwhile', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    h.api.before({ verb: 'create', resource: ApiResources.workflows }, () => {
      h.server.put(ApiResources.workflows, { metadata: { name: PLAY, namespace: NAMESPACE } });
    });
    expect((await failure(h.run(replaceStep, environment(outputs)))).message).toBe(
      `a play named ${PLAY} was created meanwhile by someone else: not replacing it`,
    );
  });

  it('refuses to take a play someone else created under the name meanwhile', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    h.api.before({ verb: 'create', resource: ApiResources.workflows }, async () => {
      await createPlay(h, { annotations: { [PlayAnnotations.remediationEvent]: 'another' } });
    });
    const error = await failure(h.run(replaceStep, environment(outputs)));
    expect(error.message).toBe(`a play named ${PLAY} was created meanwhile by someone else: not replacing it`);
    h.api.fail({ verb: 'create', resource: ApiResources.workflows }, alreadyExists);
    h.server.remove(REF);
    expect((await failure(h.run(replaceStep, environment(outputs)))).message).toMatch(/created meanwhile by someone else/);
  });

  it('fails with the missing grant when it may not delete the play, list its pods or create the successor', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    h.api.fail({ verb: 'delete' }, forbidden);
    expect((await failure(h.run(replaceStep, environment(outputs)))).message).toMatch(
      new RegExp(`^deleting play ${PLAY}: forbidden \\(403\\)`),
    );
    h.api.fail({ verb: 'list' }, forbidden);
    expect((await failure(h.run(replaceStep, environment(outputs)))).message).toMatch(
      new RegExp(`^listing the pods of play ${PLAY}: forbidden \\(403\\)`),
    );
    h.api.fail({ verb: 'create', resource: ApiResources.workflows }, forbidden);
    expect((await failure(h.run(replaceStep, environment(outputs)))).message).toMatch(
      new RegExp(`^creating the successor of play ${PLAY}: forbidden \\(403\\)`),
    );
  });

  it('refuses a successor that is not JSON or not the play, before writing anything', async () => {
    const h = registeredHarness();
    const outputs = await decided(h);
    expect((await failure(h.run(replaceStep, environment(outputs, { SUCCESSOR: '{' })))).message).toBe('SUCCESSOR: not JSON');
    for (const successor of ['null', '{}', '{"metadata":{"name":"other"}}'])
      expect((await failure(h.run(replaceStep, environment(outputs, { SUCCESSOR: successor })))).message).toBe(
        `SUCCESSOR: expected a Workflow named ${PLAY}`,
      );
    expect(h.api.seen).toEqual([]);
  });

  it('starts a successor without a stage label at no stage in the record', async () => {
    const h = registeredHarness();
    await runningPlay(h);
    await h.run(replaceStep, environment({ reason: 'r', round: '2', successor: JSON.stringify({ metadata: { name: PLAY } }) }));
    expect(storedRecord(h)?.stage).toBe('');
    expect(storedRecord(h)?.remediations?.[0].startStage).toBe('');
  });
});

describe('remediation-exhausted', () => {
  it('records the task failed with the reason and the round, once per event', async () => {
    const h = harness();
    storeRecord(h, taskRecord({ status: 'suspended', stage: 'review', round: 2 }));
    h.advance(1000);
    const environment = { ...event, REASON: 'remediation rounds exhausted: 3 of 3', ROUND: '3' };
    expect(await h.run(exhaustedStep, environment)).toEqual({});
    await h.run(exhaustedStep, environment);
    expect(storedRecord(h)).toEqual(
      taskRecord({
        status: 'failed',
        stage: 'review',
        round: 3,
        reason: 'remediation rounds exhausted: 3 of 3',
        lastUpdated: '2026-11-20T10:00:01Z',
        remediations: [
          {
            round: 3,
            kind: 'remediate',
            reason: 'remediation rounds exhausted: 3 of 3',
            reviewer: 'alice',
            url: PR,
            eventId: 'review-41',
            startStage: '',
            at: '2026-11-20T10:00:01Z',
          },
        ],
      }),
    );
    expect(h.logs).toEqual(['task 7: remediation rounds exhausted: 3 of 3', 'task 7: remediation rounds exhausted: 3 of 3']);
  });

  it('fails with the missing grant when it may not write the record', async () => {
    const h = harness();
    h.api.fail({ verb: 'create' }, forbidden);
    const error = await failure(h.run(exhaustedStep, { ...event, REASON: 'r', ROUND: '3' }));
    expect(error.message).toMatch(/forbidden \(403\): the step's service account lacks this grant/);
  });
});

describe('a whole round', () => {
  it('decide, stop (the controller completes the play), replace: the successor runs the next round', async () => {
    const h = registeredHarness();
    await runningPlay(h);
    const decidedOutputs = await h.run(decideStep, decideEnvironment());
    h.onSleep(() => {
      complete(h, PLAY);
    });
    await h.run(stopStep, { NAMESPACE, PLAY: decidedOutputs.workflow, REASON: '', STOP_TIMEOUT: '60' });
    await h.run(replaceStep, {
      ...event,
      PLAY: decidedOutputs.workflow,
      REASON: decidedOutputs.reason,
      NEXT_ROUND: decidedOutputs.round,
      SUCCESSOR: decidedOutputs.successor,
      ROUND_GATES: 'review',
      DELETE_TIMEOUT: '60',
    });
    const successor = h.server.peek(REF) as KubeObject;
    expect(successor.metadata.labels?.[ARGO_COMPLETED_LABEL]).toBeUndefined();
    expect(successor.metadata.labels?.round).toBe('2');
    expect(await h.run(decideStep, decideEnvironment())).toEqual(NOTHING);
    expect(h.logs.at(-1)).toBe(`play ${PLAY} is at implementation (round 2): a remediate event counts only at: review merge`);
  });
});
