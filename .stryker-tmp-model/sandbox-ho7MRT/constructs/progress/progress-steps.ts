/**
 * The two steps that keep a play's state: `enter-stage`, run as a play enters each stage, and
 * `record-exit`, run by the play's exit handler.
 *
 * `enter-stage` patches the play Workflow itself (its `current-stage` and `previous-stage` labels, the
 * current agent, the stage history and the time the stage was entered: timestamps go in annotations, never
 * in labels), in one write with the resourceVersion it read, then writes the task's progress record. A step
 * retried after its Workflow write does not add the stage to the history twice.
 *
 * `record-exit` reads the stage the play ended in from the play's own `current-stage` label: a label that
 * `workflowMetadata.labelsFrom` sets is not a workflow variable (argo-workflows
 * `workflow/controller/operator.go`, `setGlobalParameters`), so `{{workflow.labels.current-stage}}` would be
 * left as that text.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { PlayAnnotations, PlayLabels } from '../model/labels';
import { ProgressStatuses, type ProgressStatus } from '../model/play-contract';
import { explainApiError, retryOnConflict } from '../runtime/conflict-retry';
import { workflowRef, type KubeObject } from '../runtime/kube-api';
import { count, namedValues, oneOf, optionalText, StepEnv, taskId, text } from '../runtime/step-env';
import { runtimeStep, type StepContext } from '../runtime/runtime-step';
import { recordEnter, recordExit, recordTime } from './progress-record';
import { updateRecord } from './progress-store';

/** What both steps read: the play, its task, its round and its parameters. */
const playFields = {
  namespace: text('NAMESPACE'),
  workflowName: text('WORKFLOW_NAME'),
  repository: text('REPOSITORY'),
  task: taskId('TASK_ID'),
  round: count('ROUND', 1),
  /** The play parameters stage conditions test, kept so that a recreated play takes the same stages. */
  parameters: namedValues('PARAMETER_'),
};

const enterEnv = new StepEnv({
  ...playFields,
  stage: text('STAGE'),
  previousStage: optionalText('PREVIOUS_STAGE'),
  agent: optionalText('AGENT'),
  cli: optionalText('CLI'),
  status: oneOf<ProgressStatus>('STATUS', Object.values(ProgressStatuses)),
});

/** One entry of the play's stage history annotation. */
interface HistoryEntry {
  readonly stage: string;
  readonly agent: string;
  readonly enteredAt: string;
}

function historyOf(play: KubeObject): HistoryEntry[] {
  const text = play.metadata.annotations?.[PlayAnnotations.stageHistory];
  if (text === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as HistoryEntry[]) : [];
  } catch {
    return [];
  }
}

/** The play's labels and annotations for the stage it enters, unless a retried step already wrote them. */
async function markStage(
  context: StepContext,
  values: { namespace: string; workflowName: string; stage: string; previousStage: string; agent: string },
  now: string,
): Promise<void> {
  const ref = workflowRef(values.namespace, values.workflowName);
  await retryOnConflict(context, `marking play ${values.workflowName} at stage ${values.stage}`, async () => {
    const play = await context.api.get(ref);
    const history = historyOf(play);
    const last = history[history.length - 1];
    const written = play.metadata.labels?.[PlayLabels.currentStage] === values.stage && last?.stage === values.stage;
    const entered = written ? history : [...history, { stage: values.stage, agent: values.agent, enteredAt: now }];
    await context.api.mergePatch(ref, {
      metadata: {
        resourceVersion: play.metadata.resourceVersion,
        labels: { [PlayLabels.currentStage]: values.stage, [PlayLabels.previousStage]: values.previousStage },
        annotations: {
          [PlayAnnotations.currentAgent]: values.agent,
          [PlayAnnotations.stageHistory]: JSON.stringify(entered),
          [PlayAnnotations.stageEnteredAt]: written ? (last?.enteredAt ?? now) : now,
        },
      },
    });
  });
}

export const enterStageStep = runtimeStep({
  name: 'enter-stage',
  description: "a play enters a stage: its labels and history on the Workflow, then the task's progress record",
  env: enterEnv,
  outputs: [],
  async run(context, values) {
    const now = context.now();
    await markStage(context, values, recordTime(now));
    await updateRecord(context, values.namespace, { repository: values.repository, task: values.task }, (record) =>
      recordEnter(record, {
        workflowName: values.workflowName,
        stage: values.stage,
        previousStage: values.previousStage,
        agent: values.agent,
        cli: values.cli,
        status: values.status,
        round: values.round,
        parameters: values.parameters,
        now,
      }),
    );
    context.log(`task ${values.task} of ${values.repository}: entered ${values.stage} (status: ${values.status})`);
    return {};
  },
});

const exitEnv = new StepEnv({
  ...playFields,
  /** Argo's `{{workflow.status}}`: Succeeded, Failed or Error. */
  workflowStatus: text('WORKFLOW_STATUS'),
});

export const recordExitStep = runtimeStep({
  name: 'record-exit',
  description: "a play's exit handler: record how the play ended in the task's progress record",
  env: exitEnv,
  outputs: [],
  async run(context, values) {
    let play: KubeObject;
    try {
      play = await context.api.get(workflowRef(values.namespace, values.workflowName));
    } catch (error) {
      throw explainApiError(error, `reading play ${values.workflowName}`);
    }
    const stage = play.metadata.labels?.[PlayLabels.currentStage] ?? '';
    const written = await updateRecord(context, values.namespace, { repository: values.repository, task: values.task }, (record) =>
      recordExit(record, {
        workflowName: values.workflowName,
        stage,
        workflowStatus: values.workflowStatus,
        round: values.round,
        parameters: values.parameters,
        now: context.now(),
      }),
    );
    context.log(
      `task ${values.task} of ${values.repository}: the play ended ${values.workflowStatus} at ${written.stage} (${written.status})`,
    );
    return {};
  },
});
