/**
 * The steps that run one task of a project as a child play (docs/projects.md):
 *
 * - `project-find-start`: where the task's play starts, from its progress record (every run is a resume): no
 *   record starts it at the first stage, a completed task is skipped, any other record restarts it at its
 *   stored stage. A record that cannot be read fails the task rather than restart it from the beginning.
 * - `project-start-play`: creates the task's play unless one exists. A play of that name is the task's, in
 *   whatever round: a re-run of the project finds the plays of the last run, and the remediator's successor
 *   of the original, which must never be overwritten with the original (round 1). A play restarted from the
 *   task's record continues its run, as one `agent-play resume` recreates does: in the record's round, and
 *   annotated `resumed-from`, so that its gate check keeps the releases recorded while no play ran.
 * - `project-wait-play`: waits for the task, by its progress record, not for one Workflow: the remediator
 *   replaces a play by stopping, deleting and re-creating it under the same name.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { ARGO_COMPLETED_LABEL } from '../model/argo-api';
import { PlayLabels, ProjectLabels } from '../model/labels';
import { ProgressStatuses, RESUMED_FROM_ANNOTATION } from '../model/play-contract';
import { playWorkflow } from '../model/play-workflow';
import { progressConfigMapOf, progressKeyOf } from '../progress/progress-layout';
import { readRecord } from '../progress/progress-store';
import type { ProgressRecord } from '../progress/progress-record';
import { explainApiError } from '../runtime/conflict-retry';
import { ApiResources, isAlreadyExists, isNotFound, workflowRef, type KubeObject } from '../runtime/kube-api';
import { count, namedValues, StepEnv, taskId, text, words } from '../runtime/step-env';
import { runtimeStep, StepFailure, type StepContext } from '../runtime/runtime-step';

/** What `project-find-start` decides for a task. */
export const TaskActions = { start: 'start', skip: 'skip' } as const;

const taskFields = {
  namespace: text('NAMESPACE'),
  repository: text('REPOSITORY'),
  task: taskId('TASK_ID'),
};

const findEnv = new StepEnv({
  ...taskFields,
  /** The stages of the play, in order: a task without a record starts at the first. */
  stages: words('STAGES'),
});

async function recordOf(
  context: StepContext,
  values: { namespace: string; repository: string; task: number },
): Promise<ProgressRecord | undefined> {
  const stored = await readRecord(context, values.namespace, { repository: values.repository, task: values.task });
  if (stored.problem !== undefined)
    throw new StepFailure(
      `the progress record of task ${values.task} in ${stored.configMap} cannot be read (${stored.problem}): not restarting the task from its first stage`,
    );
  return stored.record;
}

export const findStartStep = runtimeStep({
  name: 'project-find-start',
  description: "where a project task's play starts, from its progress record",
  env: findEnv,
  outputs: ['start-stage', 'action'],
  async run(context, values) {
    const record = await recordOf(context, values);
    const first = values.stages[0];
    if (first === undefined) throw new StepFailure('STAGES: the play has no stage');
    if (record?.stage === undefined) {
      context.log(`task ${values.task}: no progress yet; start at ${first}`);
      return { 'start-stage': first, action: TaskActions.start };
    }
    if (!values.stages.includes(record.stage))
      throw new StepFailure(
        `the progress record of task ${values.task} is at stage "${record.stage}", which the play does not have (${values.stages.join(' ')})`,
      );
    if (record.status === ProgressStatuses.completed) {
      context.log(`task ${values.task}: completed already; skipped`);
      return { 'start-stage': record.stage, action: TaskActions.skip };
    }
    context.log(`task ${values.task}: start at ${record.stage} (${record.status ?? 'no status'})`);
    return { 'start-stage': record.stage, action: TaskActions.start };
  },
});

const startEnv = new StepEnv({
  ...taskFields,
  /** The repository's service: it names the play. */
  service: text('SERVICE'),
  /** The play WorkflowTemplate the repository runs. */
  playTemplate: text('PLAY_TEMPLATE'),
  project: text('PROJECT'),
  startStage: text('START_STAGE'),
  parameters: namedValues('PARAMETER_'),
});

export const startPlayStep = runtimeStep({
  name: 'project-start-play',
  description: "create a project task's play unless the task has one",
  env: startEnv,
  outputs: [],
  async run(context, values) {
    const record = await recordOf(context, values);
    const play = playWorkflow({
      service: values.service,
      template: values.playTemplate,
      namespace: values.namespace,
      task: String(values.task),
      repository: values.repository,
      stage: values.startStage,
      parameters: Object.entries(values.parameters).map(([name, value]) => ({ name, value })),
      extraLabels: { [ProjectLabels.project]: values.project },
      ...(record?.stage === undefined ? {} : resumedFromRecord(record, values)),
    }) as unknown as KubeObject;
    try {
      await context.api.create(ApiResources.workflows, values.namespace, play);
      context.log(`task ${values.task}: created play ${play.metadata.name} at ${values.startStage}`);
    } catch (error) {
      if (!isAlreadyExists(error)) throw explainApiError(error, `creating play ${play.metadata.name}`);
      context.log(`task ${values.task}: play ${play.metadata.name} exists already (a re-run, or a later round); waiting for the task`);
    }
    return {};
  },
});

/**
 * What a play restarted from the task's record carries: the record's round, and where it was resumed from.
 * Without them its gate check would take it for a fresh run and drop the releases recorded while no play ran
 * (`gate-check-step.ts`), and the wait would compare a round-1 play with a later round's record.
 */
function resumedFromRecord(record: ProgressRecord, values: { repository: string; task: number }) {
  const round = String(record.round ?? 1);
  const where = `${progressConfigMapOf(values.repository, values.task)}/${progressKeyOf(values.repository, values.task)}`;
  return {
    round,
    extraAnnotations: { [RESUMED_FROM_ANNOTATION]: `${where}: stage ${record.stage}, status ${record.status ?? 'none'}, round ${round}` },
  };
}

const waitEnv = new StepEnv({
  ...taskFields,
  playName: text('PLAY'),
  pollSeconds: count('POLL_SECONDS', 1),
});

/**
 * Why a `failed` record does not end the wait yet, or `undefined` when it does. It is final only when the
 * play exists and has completed, and either the record has a reason (the remediator's "remediation rounds
 * exhausted") or the play ended on its own in the record's round. Otherwise the task is between plays: no
 * play (the remediator deleted it and is about to create the successor), a play still running (a record of
 * an earlier play not yet overwritten by this one), a play of an earlier round than the record (the
 * remediator recorded the next round), or a stopped play (the remediator stops a play before it replaces it
 * or records why it gave up; a play stopped by hand is waited on until the deadline). The controller labels a
 * Workflow completed only once its exit handler, which writes the record's end, has run, and never clears
 * `spec.shutdown` (argo-workflows `workflow/controller/operator.go`).
 */
export function betweenPlays(play: KubeObject | undefined, record: ProgressRecord, playName: string): string | undefined {
  if (play === undefined) return `no play ${playName} (being replaced)`;
  if (play.metadata.labels?.[ARGO_COMPLETED_LABEL] !== 'true') return `play ${playName} is running`;
  if ((record.reason ?? '') !== '') return undefined;
  const played = play.metadata.labels?.[PlayLabels.round] ?? '1';
  const recorded = String(record.round ?? 1);
  if (played !== recorded) return `play ${playName} is of round ${played}, the record of round ${recorded}`;
  const shutdown = (play.spec as { shutdown?: unknown } | undefined)?.shutdown;
  return typeof shutdown === 'string' && shutdown !== '' ? `play ${playName} was stopped` : undefined;
}

async function playOrNone(context: StepContext, namespace: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await context.api.get(workflowRef(namespace, name));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw explainApiError(error, `reading play ${name}`);
  }
}

export const waitPlayStep = runtimeStep({
  name: 'project-wait-play',
  description: 'wait for a project task, by its progress record, until it is completed or has failed for good',
  env: waitEnv,
  outputs: [],
  async run(context, values) {
    let last = '';
    for (;;) {
      const record = await recordOf(context, values);
      const round = record?.round ?? 1;
      if (record?.status === ProgressStatuses.completed) {
        context.log(`task ${values.task} completed (round ${round})`);
        return {};
      }
      let note = record?.status === undefined ? 'no record yet' : `${record.status} at ${record.stage}, round ${round}`;
      if (record?.status === ProgressStatuses.failed) {
        const waiting = betweenPlays(await playOrNone(context, values.namespace, values.playName), record, values.playName);
        if (waiting === undefined)
          throw new StepFailure(
            `task ${values.task} failed at ${record.stage} in round ${round}${record.reason ? `: ${record.reason}` : ''}`,
          );
        note = `${note}; ${waiting}`;
      }
      if (note !== last) context.log(`task ${values.task}: ${note}`);
      last = note;
      await context.sleep(values.pollSeconds * 1000);
    }
  },
});
