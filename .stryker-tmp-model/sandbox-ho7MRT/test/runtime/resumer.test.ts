/**
 * The resumer: a gate's release is recorded first (so that no event is lost), then the task's one live play
 * is released when it waits at that gate now. Two live plays: none is touched. A play elsewhere, not
 * suspended yet, or released already: the step ends successfully and says why. And how the live plays of a
 * task are found (by name, or by the task's labels, never a completed one).
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { PlayAnnotations } from '../../constructs/model/labels';
import { gateCheckStep } from '../../constructs/gate/gate-check-step';
import { resumeGateStep } from '../../constructs/resumer/resume-gate-step';
import { ApiResources, workflowRef } from '../../constructs/runtime/kube-api';
import { isCompleted, livePlays } from '../../constructs/runtime/live-plays';
import {
  atGate,
  complete,
  createPlay,
  failure,
  forbidden,
  type Harness,
  harness,
  NAMESPACE,
  REPOSITORY,
  register,
  registeredHarness,
  registryEntryOf,
  storedRecord,
  storeRecord,
  taskRecord,
} from '../support/runtime-harness';

const PLAY = 'play-payments-task-7';

const environment = (overrides: Record<string, string> = {}) => ({
  NAMESPACE,
  GATE: 'review',
  REPOSITORY,
  TASK_ID: '7',
  PR_URL: 'https://github.com/octo-org/payments/pull/3',
  PR_NUMBER: '3',
  BASE_BRANCH: 'main',
  STRATEGY: 'label-selector',
  ...overrides,
});

function node(h: Harness, name = PLAY, id = `${name}-1234`): Record<string, unknown> | undefined {
  const status = h.server.peek(workflowRef(NAMESPACE, name))?.status as { nodes?: Record<string, Record<string, unknown>> } | undefined;
  return status?.nodes?.[id];
}

describe('livePlays', () => {
  const task = { namespace: NAMESPACE, repository: REPOSITORY, task: 7, playName: '' };

  it('finds the plays of the task by its labels, in name order, leaving completed ones and other tasks out', async () => {
    const h = harness();
    await createPlay(h, { name: 'zeta' });
    await createPlay(h, { name: 'alpha' });
    await createPlay(h, { name: 'done' });
    complete(h, 'done');
    await createPlay(h, { name: 'other-task', task: 8 });
    await createPlay(h, { name: 'other-repo', repository: 'octo-org/web' });
    expect((await livePlays(h.context, task)).map((play) => play.metadata.name)).toEqual(['alpha', 'zeta']);
    expect(h.api.calls('list')[0].body).toBe('repository=octo-org.payments,task-id=7,workflow-type=play');
  });

  it('puts the plays in name order whatever order the server lists them in', async () => {
    const h = harness();
    const named = (name: string) => ({ metadata: { name } });
    h.api.answer({ verb: 'list' }, () => [named('zeta'), named('alpha'), named('mid'), { metadata: {} }, named('beta')]);
    expect((await livePlays(h.context, task)).map((play) => play.metadata.name)).toEqual([undefined, 'alpha', 'beta', 'mid', 'zeta']);
  });

  it('finds the same plays whatever the case of the repository', async () => {
    const h = harness();
    await createPlay(h, { repository: 'octo-org/payments' });
    expect(await livePlays(h.context, { ...task, repository: 'OCTO-ORG/Payments' })).toHaveLength(1);
  });

  it('takes the named play under the workflow-name strategy: none when missing or completed', async () => {
    const h = harness();
    const named = { ...task, playName: 'mine' };
    expect(await livePlays(h.context, named)).toEqual([]);
    await createPlay(h, { name: 'mine', task: 99 });
    expect((await livePlays(h.context, named)).map((play) => play.metadata.name)).toEqual(['mine']);
    complete(h, 'mine');
    expect(await livePlays(h.context, named)).toEqual([]);
    expect(h.api.calls('list')).toEqual([]);
  });

  it('fails with the missing grant when it may not read or list plays', async () => {
    const h = harness();
    h.api.fail({ verb: 'get' }, forbidden);
    expect((await failure(livePlays(h.context, { ...task, playName: 'mine' }))).message).toMatch(/^reading play mine: forbidden \(403\)/);
    h.api.fail({ verb: 'list' }, forbidden);
    expect((await failure(livePlays(h.context, task))).message).toMatch(
      /^listing the plays of repository=octo-org\.payments,task-id=7,workflow-type=play: forbidden \(403\)/,
    );
  });

  it('takes only the completed label "true" as completed', () => {
    expect(isCompleted({ metadata: { labels: { 'workflows.argoproj.io/completed': 'true' } } })).toBe(true);
    expect(isCompleted({ metadata: { labels: { 'workflows.argoproj.io/completed': 'false' } } })).toBe(false);
    expect(isCompleted({ metadata: {} })).toBe(false);
  });
});

describe('resume-gate', () => {
  it('ignores an event that names no task, recording nothing', async () => {
    const h = registeredHarness();
    for (const id of ['', '007', 'abc'])
      expect(await h.run(resumeGateStep, environment({ TASK_ID: id }))).toEqual({ play: '', recorded: 'false' });
    expect(h.api.seen).toEqual([]);
    expect(h.logs[0]).toBe(
      'the event names no task (no task-N label, no feature/task-N branch in canonical form): not a play pull request',
    );
  });

  it('ignores an event of a repository the registry does not hold, or into another branch, recording nothing', async () => {
    const h = harness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'false' });
    register(h);
    expect(await h.run(resumeGateStep, environment({ BASE_BRANCH: 'release' }))).toEqual({ play: '', recorded: 'false' });
    expect(h.logs).toEqual([
      `repository ${REPOSITORY} is not one of the platform's: nothing to do`,
      `the pull request merges into release, not into main (the branch of ${REPOSITORY}): nothing to do`,
    ]);
    expect(storedRecord(h)).toBeUndefined();
    expect(h.api.calls('list')).toEqual([]);
    expect(node(h)).toMatchObject({ phase: 'Running' });
  });

  it('records the release when there is no live play yet: it waits in the record', async () => {
    const h = registeredHarness();
    h.advance(2000);
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'true' });
    expect(storedRecord(h)).toEqual(
      taskRecord({
        releases: { review: { prUrl: 'https://github.com/octo-org/payments/pull/3', prNumber: '3', releasedAt: '2026-11-20T10:00:02Z' } },
      }),
    );
    expect(h.logs).toEqual([
      `recorded the release of review for task 7 of ${REPOSITORY} (https://github.com/octo-org/payments/pull/3)`,
      `no live play for task 7 of ${REPOSITORY}: the release waits in its progress record`,
    ]);
  });

  it('releases the one live play waiting at the gate, after recording, with the pull request on the play', async () => {
    const h = registeredHarness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: PLAY, recorded: 'true' });
    expect(node(h)).toMatchObject({ phase: 'Succeeded', message: 'released by the resumer: https://github.com/octo-org/payments/pull/3' });
    const annotations = h.server.peek(workflowRef(NAMESPACE, PLAY))?.metadata.annotations ?? {};
    expect(annotations[PlayAnnotations.prUrl]).toBe('https://github.com/octo-org/payments/pull/3');
    expect(annotations[PlayAnnotations.prNumber]).toBe('3');
    expect(h.logs.at(-1)).toBe(`play ${PLAY} waited at review: released`);
    const order = h.api.seen.map((call) => `${call.verb} ${call.resource}`);
    expect(order.indexOf('create configmaps')).toBeLessThan(order.indexOf('list workflows'));
  });

  it('says what released the gate when the event names no pull request', async () => {
    const h = registeredHarness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    await h.run(resumeGateStep, environment({ PR_URL: '', PR_NUMBER: '' }));
    expect(node(h)).toMatchObject({ message: 'released by the resumer: a GitHub event' });
    expect(h.logs[0]).toBe(`recorded the release of review for task 7 of ${REPOSITORY} (no pull request)`);
  });

  it('resumes none of two live plays, and says to delete the stale one', async () => {
    const h = registeredHarness();
    await createPlay(h, { name: 'play-a' });
    await createPlay(h, { name: 'play-b' });
    atGate(h, 'play-a', 'review');
    atGate(h, 'play-b', 'review');
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'true' });
    expect(node(h, 'play-a')).toMatchObject({ phase: 'Running' });
    expect(node(h, 'play-b')).toMatchObject({ phase: 'Running' });
    expect(h.api.calls('patch', ApiResources.workflows)).toEqual([]);
    expect(h.logs.at(-1)).toBe(`2 live plays for task 7 of ${REPOSITORY} (play-a, play-b): resuming none; delete the stale ones`);
    expect(storedRecord(h)?.releases?.review).toBeDefined();
  });

  it('resumes the live one beside a completed play of the task', async () => {
    const h = registeredHarness();
    await createPlay(h, { name: 'play-a' });
    complete(h, 'play-a');
    await createPlay(h, { name: 'play-b' });
    atGate(h, 'play-b', 'review');
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: 'play-b', recorded: 'true' });
  });

  it('leaves a play at another stage: it passes the gate on arrival', async () => {
    const h = registeredHarness();
    await createPlay(h, { stage: 'implementation' });
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'true' });
    expect(h.logs.at(-1)).toBe(`play ${PLAY} is at stage "implementation", not at review: it passes review on arrival if it gets there`);
    expect(h.api.calls('patch', ApiResources.workflows)).toEqual([]);
  });

  it('leaves a play the server lists without name or labels', async () => {
    const h = registeredHarness();
    h.api.answer({ verb: 'list' }, () => [{ metadata: {} }]);
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'true' });
    expect(h.logs.at(-1)).toBe('play  is at stage "", not at review: it passes review on arrival if it gets there');
  });

  it('leaves a play without a stage label', async () => {
    const h = registeredHarness();
    const play = await createPlay(h);
    h.server.put(ApiResources.workflows, {
      ...play,
      metadata: { ...play.metadata, labels: { ...play.metadata.labels, 'current-stage': '' } },
    });
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'true' });
    expect(h.logs.at(-1)).toMatch(/is at stage "", not at review/);
  });

  it('leaves a play at the gate that has not suspended yet: its gate check reads the record', async () => {
    const h = registeredHarness();
    await createPlay(h, { stage: 'review' });
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'true' });
    expect(h.logs.at(-1)).toBe(`play ${PLAY} has not suspended at review yet: its gate check reads the release`);
    expect(h.api.calls('patch', ApiResources.workflows)).toEqual([]);
  });

  it('does nothing to a gate released already (a repeated delivery), but records the release again', async () => {
    const h = registeredHarness();
    await createPlay(h);
    atGate(h, PLAY, 'review', 'Succeeded');
    storeRecord(h, taskRecord({ releases: { review: { prUrl: 'old', prNumber: '1', releasedAt: '2026-11-19T00:00:00Z' } } }));
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'true' });
    expect(h.logs.at(-1)).toBe(`gate review of play ${PLAY} was released already: nothing to do`);
    expect(h.api.calls('patch', ApiResources.workflows)).toEqual([]);
    expect(storedRecord(h)?.releases?.review.releasedAt).toBe('2026-11-20T10:00:00Z');
  });

  it('keeps the first release time when the same event is delivered again', async () => {
    const h = registeredHarness();
    await h.run(resumeGateStep, environment());
    h.advance(3_600_000);
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'true' });
    expect(storedRecord(h)?.releases?.review).toEqual({
      prUrl: 'https://github.com/octo-org/payments/pull/3',
      prNumber: '3',
      releasedAt: '2026-11-20T10:00:00Z',
    });
  });

  it('a redelivered event of an earlier run never releases the gate of a run started after it', async () => {
    const h = registeredHarness();
    await h.run(resumeGateStep, environment());
    h.advance(3_600_000);
    await createPlay(h);
    h.advance(5000);
    await h.run(resumeGateStep, environment());
    atGate(h, PLAY, 'review');
    const check = { NAMESPACE, WORKFLOW_NAME: PLAY, GATE: 'review', REPOSITORY, TASK_ID: '7', SERVICE: 'payments' };
    expect(await h.run(gateCheckStep, check)).toEqual({ released: 'false' });
    expect(node(h)).toMatchObject({ phase: 'Running' });
    expect(storedRecord(h)?.releases).toEqual({});
  });

  it('succeeds without releasing when the play released its own gate meanwhile', async () => {
    const h = registeredHarness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    h.api.before({ verb: 'patch', resource: ApiResources.workflows }, () => {
      atGate(h, PLAY, 'review', 'Succeeded');
    });
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: '', recorded: 'true' });
    expect(h.logs.at(-1)).toBe(`gate review of play ${PLAY} was released meanwhile (by its own gate check): nothing to do`);
    expect(node(h)).toMatchObject({ phase: 'Succeeded' });
    expect(node(h)?.message).toBeUndefined();
  });

  it("resumes the play named after the registry's service under the workflow-name strategy", async () => {
    const h = registeredHarness();
    register(h, registryEntryOf({ service: 'billing' }));
    await createPlay(h, { name: 'play-billing-task-7', task: 99 });
    atGate(h, 'play-billing-task-7', 'review');
    expect(await h.run(resumeGateStep, environment({ STRATEGY: 'workflow-name' }))).toEqual({
      play: 'play-billing-task-7',
      recorded: 'true',
    });
    expect(h.api.calls('list')).toEqual([]);
  });

  it('fails with the missing grant when it may not record the release, before touching any play', async () => {
    const h = registeredHarness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    h.api.fail({ verb: 'create', resource: ApiResources.configMaps }, forbidden);
    const error = await failure(h.run(resumeGateStep, environment()));
    expect(error.message).toMatch(
      /^creating ConfigMap play-progress-shard-108: forbidden \(403\): the step's service account lacks this grant/,
    );
    expect(error.message).not.toMatch(/changed/);
    expect(h.api.calls('list')).toEqual([]);
    expect(node(h)).toMatchObject({ phase: 'Running' });
  });

  it('fails with the missing grant when it may not annotate the play, without releasing', async () => {
    const h = registeredHarness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    h.api.fail({ verb: 'patch', resource: ApiResources.workflows }, forbidden);
    const error = await failure(h.run(resumeGateStep, environment()));
    expect(error.message).toMatch(new RegExp(`^recording the pull request on play ${PLAY}: forbidden \\(403\\)`));
    expect(node(h)).toMatchObject({ phase: 'Running' });
  });

  it('keeps releasing through conflicts on the play', async () => {
    const h = registeredHarness();
    await createPlay(h);
    atGate(h, PLAY, 'review');
    h.api.beforeNth({ verb: 'patch', resource: ApiResources.workflows }, 2, () => {
      atGate(h, PLAY, 'merge', 'Running', 'other');
    });
    expect(await h.run(resumeGateStep, environment())).toEqual({ play: PLAY, recorded: 'true' });
    expect(node(h)).toMatchObject({ phase: 'Succeeded' });
    expect(node(h, PLAY, 'other')).toMatchObject({ phase: 'Running' });
    expect(h.sleeps).toEqual([1000]);
  });
});
