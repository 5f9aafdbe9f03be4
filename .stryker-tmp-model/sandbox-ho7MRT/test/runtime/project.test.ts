/**
 * The project protocol: where a task's play starts (from its record; a record that cannot be read fails the
 * task rather than restart it), creating the play unless the task has one (never overwriting a later round),
 * and waiting for the task by its record, through the remediator's stop, delete and re-create.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { gateCheckStep } from '../../constructs/gate/gate-check-step';
import { ARGO_COMPLETED_LABEL } from '../../constructs/model/argo-api';
import { RESUMED_FROM_ANNOTATION } from '../../constructs/model/play-contract';
import { betweenPlays, findStartStep, startPlayStep, TaskActions, waitPlayStep } from '../../constructs/project/project-steps';
import { ApiResources, type KubeObject, workflowRef } from '../../constructs/runtime/kube-api';
import { StepFailure } from '../../constructs/runtime/runtime-step';
import {
  atGate,
  change,
  complete,
  createPlay,
  failure,
  forbidden,
  harness,
  NAMESPACE,
  REPOSITORY,
  storeRecord,
  taskRecord,
} from '../support/runtime-harness';

const PLAY = 'play-payments-task-7';
const task = { NAMESPACE, REPOSITORY, TASK_ID: '7' };

describe('project-find-start', () => {
  const environment = { ...task, STAGES: 'implementation quality review' };

  it('starts a task without a record at the first stage', async () => {
    const h = harness();
    expect(await h.run(findStartStep, environment)).toEqual({ 'start-stage': 'implementation', action: TaskActions.start });
    expect(h.logs).toEqual(['task 7: no progress yet; start at implementation']);
    storeRecord(h, taskRecord({ status: 'failed' }));
    expect(await h.run(findStartStep, environment)).toEqual({ 'start-stage': 'implementation', action: 'start' });
  });

  it('restarts a task at its stored stage, whatever its status but completed', async () => {
    const h = harness();
    storeRecord(h, taskRecord({ stage: 'quality', status: 'failed' }));
    expect(await h.run(findStartStep, environment)).toEqual({ 'start-stage': 'quality', action: 'start' });
    expect(h.logs).toEqual(['task 7: start at quality (failed)']);
    storeRecord(h, taskRecord({ stage: 'review' }));
    expect(await h.run(findStartStep, environment)).toEqual({ 'start-stage': 'review', action: 'start' });
    expect(h.logs.at(-1)).toBe('task 7: start at review (no status)');
  });

  it('skips a completed task', async () => {
    const h = harness();
    storeRecord(h, taskRecord({ stage: 'review', status: 'completed' }));
    expect(await h.run(findStartStep, environment)).toEqual({ 'start-stage': 'review', action: TaskActions.skip });
    expect(h.logs).toEqual(['task 7: completed already; skipped']);
  });

  it('fails for a record at a stage the play does not have', async () => {
    const h = harness();
    storeRecord(h, taskRecord({ stage: 'deploy', status: 'in-progress' }));
    const error = await failure(h.run(findStartStep, environment));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe(
      'the progress record of task 7 is at stage "deploy", which the play does not have (implementation quality review)',
    );
  });

  it('fails rather than restart from the first stage when the record cannot be read', async () => {
    const h = harness();
    storeRecord(h, '{"repository":"octo-org/web","task":"7","stage":"review"}');
    expect((await failure(h.run(findStartStep, environment))).message).toBe(
      `the progress record of task 7 in play-progress-shard-108 cannot be read (the stored record names repository "octo-org/web", not ${REPOSITORY}): not restarting the task from its first stage`,
    );
  });

  it('fails for a play without stages', async () => {
    const h = harness();
    expect((await failure(h.run(findStartStep, { ...environment, STAGES: ' ' }))).message).toBe('STAGES: the play has no stage');
  });
});

describe('project-start-play', () => {
  const environment = {
    ...task,
    SERVICE: 'payments',
    PLAY_TEMPLATE: 'play',
    PROJECT: 'launch',
    START_STAGE: 'quality',
    PARAMETER_NAMES: 'task-type',
    PARAMETER_1: 'frontend',
  };

  it("creates the task's play at its start stage, labelled with the project", async () => {
    const h = harness();
    expect(await h.run(startPlayStep, environment)).toEqual({});
    const play = h.server.peek(workflowRef(NAMESPACE, PLAY)) as KubeObject;
    expect(play.metadata.labels).toEqual({
      'task-id': '7',
      repository: 'octo-org.payments',
      'workflow-type': 'play',
      'current-stage': 'quality',
      round: '1',
      project: 'launch',
    });
    expect((play.spec as { workflowTemplateRef: unknown }).workflowTemplateRef).toEqual({ name: 'play' });
    expect((play.spec as { arguments: unknown }).arguments).toEqual({
      parameters: [
        { name: 'repository', value: REPOSITORY },
        { name: 'task-id', value: '7' },
        { name: 'start-stage', value: 'quality' },
        { name: 'task-type', value: 'frontend' },
      ],
    });
    expect(h.logs).toEqual([`task 7: created play ${PLAY} at quality`]);
  });

  it("starts the play from the WorkflowTemplate its repository runs (a direct agent's variant)", async () => {
    const h = harness();
    await h.run(startPlayStep, { ...environment, PLAY_TEMPLATE: 'play-x1y2z3' });
    const play = h.server.peek(workflowRef(NAMESPACE, PLAY)) as KubeObject;
    expect((play.spec as { workflowTemplateRef: unknown }).workflowTemplateRef).toEqual({ name: 'play-x1y2z3' });
  });

  it('starts a task without a stage in its record as a fresh run', async () => {
    const h = harness();
    storeRecord(h, taskRecord({ releases: { review: { prUrl: '', prNumber: '', releasedAt: '2026-11-20T09:00:00Z' } } }));
    await h.run(startPlayStep, environment);
    const play = h.server.peek(workflowRef(NAMESPACE, PLAY)) as KubeObject;
    expect(play.metadata.annotations?.[RESUMED_FROM_ANNOTATION]).toBeUndefined();
    expect(play.metadata.labels?.round).toBe('1');
  });

  it("restarts a task from its record as a resume: the record's round, annotated resumed-from", async () => {
    const h = harness();
    storeRecord(h, taskRecord({ stage: 'quality', status: 'failed', round: 2 }));
    await h.run(startPlayStep, environment);
    const play = h.server.peek(workflowRef(NAMESPACE, PLAY)) as KubeObject;
    expect(play.metadata.annotations?.[RESUMED_FROM_ANNOTATION]).toBe(
      'play-progress-shard-108/octo-org.payments.task-7.json: stage quality, status failed, round 2',
    );
    expect(play.metadata.labels?.round).toBe('2');
    expect((play.spec as { arguments: { parameters: unknown[] } }).arguments.parameters).toContainEqual({ name: 'round', value: '2' });
    storeRecord(h, taskRecord({ stage: 'quality' }));
    h.server.remove(workflowRef(NAMESPACE, PLAY));
    await h.run(startPlayStep, environment);
    expect(h.server.peek(workflowRef(NAMESPACE, PLAY))?.metadata.annotations?.[RESUMED_FROM_ANNOTATION]).toBe(
      'play-progress-shard-108/octo-org.payments.task-7.json: stage quality, status none, round 1',
    );
  });

  it('a play restarted at a gate takes the release recorded while no play ran', async () => {
    const h = harness();
    storeRecord(
      h,
      taskRecord({
        stage: 'review',
        status: 'suspended',
        releases: { review: { prUrl: 'u', prNumber: '3', releasedAt: '2026-11-20T09:00:00Z' } },
      }),
    );
    await h.run(startPlayStep, { ...environment, START_STAGE: 'review' });
    atGate(h, PLAY, 'review');
    expect(
      await h.run(gateCheckStep, { NAMESPACE, WORKFLOW_NAME: PLAY, GATE: 'review', REPOSITORY, TASK_ID: '7', SERVICE: 'payments' }),
    ).toEqual({
      released: 'true',
    });
  });

  it('fails, creating nothing, when the record cannot be read', async () => {
    const h = harness();
    storeRecord(h, 'not json');
    expect((await failure(h.run(startPlayStep, environment))).message).toMatch(/cannot be read \(the stored record is not JSON\)/);
    expect(h.server.all(ApiResources.workflows)).toEqual([]);
  });

  it('never overwrites a play the task has (a re-run, or a later round)', async () => {
    const h = harness();
    const existing = await createPlay(h, { round: '3', stage: 'implementation' });
    expect(await h.run(startPlayStep, environment)).toEqual({});
    expect(h.server.peek(workflowRef(NAMESPACE, PLAY))).toEqual(existing);
    expect(h.logs).toEqual([`task 7: play ${PLAY} exists already (a re-run, or a later round); waiting for the task`]);
  });

  it('fails with the missing grant when it may not create plays', async () => {
    const h = harness();
    h.api.fail({ verb: 'create' }, forbidden);
    expect((await failure(h.run(startPlayStep, environment))).message).toMatch(new RegExp(`^creating play ${PLAY}: forbidden \\(403\\)`));
  });
});

describe('betweenPlays', () => {
  const play = (labels: Record<string, string>, spec: Record<string, unknown> = {}): KubeObject => ({ metadata: { labels }, spec });
  const done = { [ARGO_COMPLETED_LABEL]: 'true' };
  const failed = taskRecord({ status: 'failed', round: 2 });

  it('waits while there is no play, or it runs', () => {
    expect(betweenPlays(undefined, failed, 'p')).toBe('no play p (being replaced)');
    expect(betweenPlays({ metadata: {} }, failed, 'p')).toBe('play p is running');
    expect(betweenPlays(play({ round: '2' }), failed, 'p')).toBe('play p is running');
    expect(betweenPlays(play({ [ARGO_COMPLETED_LABEL]: 'false', round: '2' }), failed, 'p')).toBe('play p is running');
  });

  it('ends on a reason once the play has completed', () => {
    expect(betweenPlays(play({ ...done, round: '1' }, { shutdown: 'Stop' }), { ...failed, reason: 'exhausted' }, 'p')).toBeUndefined();
  });

  it('waits for a play of another round than the record', () => {
    expect(betweenPlays(play({ ...done, round: '1' }), failed, 'p')).toBe('play p is of round 1, the record of round 2');
    expect(betweenPlays(play(done), failed, 'p')).toBe('play p is of round 1, the record of round 2');
    expect(betweenPlays(play({ ...done, round: '2' }), taskRecord({ status: 'failed' }), 'p')).toBe(
      'play p is of round 2, the record of round 1',
    );
    expect(betweenPlays(play(done), taskRecord({ status: 'failed' }), 'p')).toBeUndefined();
  });

  it('waits for a stopped play, ends for one that failed on its own', () => {
    expect(betweenPlays(play({ ...done, round: '2' }, { shutdown: 'Stop' }), failed, 'p')).toBe('play p was stopped');
    expect(betweenPlays(play({ ...done, round: '2' }, { shutdown: 'Terminate' }), failed, 'p')).toBe('play p was stopped');
    expect(betweenPlays(play({ ...done, round: '2' }, { shutdown: '' }), failed, 'p')).toBeUndefined();
    expect(betweenPlays(play({ ...done, round: '2' }, { shutdown: 1 }), failed, 'p')).toBeUndefined();
    expect(betweenPlays({ metadata: { labels: { ...done, round: '2' } } }, { ...failed, reason: '' }, 'p')).toBeUndefined();
  });
});

describe('project-wait-play', () => {
  const environment = { ...task, PLAY, POLL_SECONDS: '30' };

  it('ends when the task completes, logging each new state once', async () => {
    const h = harness();
    h.onSleep((sleeps) => {
      if (sleeps === 2) storeRecord(h, taskRecord({ status: 'in-progress', stage: 'implementation' }));
      if (sleeps === 4) storeRecord(h, taskRecord({ status: 'completed', stage: 'done', round: 2 }));
    });
    expect(await h.run(waitPlayStep, environment)).toEqual({});
    expect(h.sleeps).toEqual([30_000, 30_000, 30_000, 30_000]);
    expect(h.logs).toEqual(['task 7: no record yet', 'task 7: in-progress at implementation, round 1', 'task 7 completed (round 2)']);
  });

  it('fails for good when the play completed in the round of the failed record', async () => {
    const h = harness();
    await createPlay(h);
    complete(h, PLAY);
    storeRecord(h, taskRecord({ status: 'failed', stage: 'quality', round: 1 }));
    const error = await failure(h.run(waitPlayStep, environment));
    expect(error.message).toBe('task 7 failed at quality in round 1');
    expect(h.sleeps).toEqual([]);
  });

  it('fails with the reason of rounds exhausted', async () => {
    const h = harness();
    await createPlay(h, { round: '3' });
    change(h, workflowRef(NAMESPACE, PLAY), (play) => {
      play.metadata.labels = { ...play.metadata.labels, [ARGO_COMPLETED_LABEL]: 'true' };
      play.spec = { ...(play.spec as object), shutdown: 'Stop' };
    });
    storeRecord(h, taskRecord({ status: 'failed', stage: 'review', round: 3, reason: 'remediation rounds exhausted: 3 of 3' }));
    expect((await failure(h.run(waitPlayStep, environment))).message).toBe(
      'task 7 failed at review in round 3: remediation rounds exhausted: 3 of 3',
    );
  });

  it('keeps waiting through a remediation: stopped, deleted, re-created in the next round, completed', async () => {
    const h = harness();
    await createPlay(h);
    change(h, workflowRef(NAMESPACE, PLAY), (play) => {
      play.metadata.labels = { ...play.metadata.labels, [ARGO_COMPLETED_LABEL]: 'true' };
      play.spec = { ...(play.spec as object), shutdown: 'Stop' };
    });
    storeRecord(h, taskRecord({ status: 'failed', stage: 'review', round: 1 }));
    h.onSleep(async (sleeps) => {
      if (sleeps === 1) h.server.remove(workflowRef(NAMESPACE, PLAY));
      if (sleeps === 2) storeRecord(h, taskRecord({ status: 'failed', stage: 'review', round: 2 }));
      if (sleeps === 3) await createPlay(h, { round: '2' });
      if (sleeps === 4) storeRecord(h, taskRecord({ status: 'completed', stage: 'done', round: 2 }));
    });
    expect(await h.run(waitPlayStep, environment)).toEqual({});
    expect(h.logs).toEqual([
      `task 7: failed at review, round 1; play ${PLAY} was stopped`,
      `task 7: failed at review, round 1; no play ${PLAY} (being replaced)`,
      `task 7: failed at review, round 2; no play ${PLAY} (being replaced)`,
      `task 7: failed at review, round 2; play ${PLAY} is running`,
      'task 7 completed (round 2)',
    ]);
  });

  it('fails when the record cannot be read, or the play cannot', async () => {
    const h = harness();
    storeRecord(h, '[]');
    expect((await failure(h.run(waitPlayStep, environment))).message).toMatch(/cannot be read \(the stored record is not a JSON object\)/);
    storeRecord(h, taskRecord({ status: 'failed', stage: 'review' }));
    h.api.fail({ verb: 'get', resource: ApiResources.workflows }, forbidden);
    expect((await failure(h.run(waitPlayStep, environment))).message).toMatch(new RegExp(`^reading play ${PLAY}: forbidden \\(403\\)`));
  });

  it('refuses a poll interval of zero', () => {
    expect(() => waitPlayStep.env.read({ ...environment, POLL_SECONDS: '0' })).toThrow(
      'POLL_SECONDS: expected a whole number of at least 1, got "0"',
    );
  });
});
