/**
 * The remediator's later steps, each safe to retry:
 *
 * - `remediation-stop`: stop the play (`spec.shutdown: Stop`, what `argo stop` patches: argo-workflows
 *   `workflow/util/util.go`, `patchShutdownStrategy`), which lets its exit handler run (it records the end
 *   and cancels the play's CodeRuns), and wait until Argo has completed it. A reason (rounds exhausted) is put
 *   on the play first: `argo stop --message` reaches only a node, and the controller writes its own message.
 * - `remediation-replace`: record the round in the progress record (its history keeps each event once, and
 *   the releases that do not hold in a new round go), delete the play unless it already is the successor,
 *   wait until the play and every pod of it are gone, and create the successor under the same name. Node ids
 *   and pod names depend only on the workflow and node names, and the controller adopts a pod that exists
 *   under the name it would create (argo-workflows `workflow/controller/workflowpod.go`), so a successor that
 *   met its predecessor's pods could take the old round's results.
 * - `remediation-exhausted`: record that the rounds are exhausted: status failed, with the reason.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { ARGO_COMPLETED_LABEL } from '../model/argo-api';
import { PlayAnnotations, PlayLabels } from '../model/labels';
import { recordTime, withoutReleases, withRemediation, type RemediationEntry } from '../progress/progress-record';
import { updateRecord } from '../progress/progress-store';
import { explainApiError } from '../runtime/conflict-retry';
import { ApiResources, isAlreadyExists, isNotFound, selectorOf, workflowRef, type KubeObject } from '../runtime/kube-api';
import { count, optionalText, StepEnv, taskId, text, words } from '../runtime/step-env';
import { runtimeStep, StepFailure, type StepContext } from '../runtime/runtime-step';
import { ProgressStatuses } from '../model/play-contract';
import { remediationEventFields } from './decide-step';

/** Seconds between two looks at a play being stopped or deleted. */
const POLL_SECONDS = 5;

/** The label Argo puts on every pod of a Workflow (argo-workflows `workflow/common/common.go`, `LabelKeyWorkflow`). */
export const ARGO_WORKFLOW_LABEL = 'workflows.argoproj.io/workflow';

async function playOrNone(context: StepContext, namespace: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await context.api.get(workflowRef(namespace, name));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw explainApiError(error, `reading play ${name}`);
  }
}

async function patchPlay(context: StepContext, namespace: string, name: string, patch: Record<string, unknown>, what: string) {
  try {
    await context.api.mergePatch(workflowRef(namespace, name), patch);
  } catch (error) {
    throw explainApiError(error, what);
  }
}

const stopEnv = new StepEnv({
  namespace: text('NAMESPACE'),
  playName: text('PLAY'),
  /** Put on the play before it is stopped; empty for none. */
  reason: optionalText('REASON'),
  timeoutSeconds: count('STOP_TIMEOUT', 1),
});

export const stopStep = runtimeStep({
  name: 'remediation-stop',
  description: 'stop a play so that its exit handler runs, and wait until Argo has completed it',
  env: stopEnv,
  outputs: [],
  async run(context, values) {
    const play = await playOrNone(context, values.namespace, values.playName);
    if (play === undefined) {
      context.log(`play ${values.playName} is gone already`);
      return {};
    }
    if (values.reason !== '')
      await patchPlay(
        context,
        values.namespace,
        values.playName,
        { metadata: { annotations: { [PlayAnnotations.roundReason]: values.reason } } },
        `putting the reason on play ${values.playName}`,
      );
    if (play.metadata.labels?.[ARGO_COMPLETED_LABEL] !== 'true') {
      await patchPlay(context, values.namespace, values.playName, { spec: { shutdown: 'Stop' } }, `stopping play ${values.playName}`);
      context.log(`stopped play ${values.playName}: its exit handler runs`);
    }
    for (let waited = 0; ; waited += POLL_SECONDS) {
      const now = await playOrNone(context, values.namespace, values.playName);
      if (now === undefined || now.metadata.labels?.[ARGO_COMPLETED_LABEL] === 'true') {
        context.log(`play ${values.playName} has finished`);
        return {};
      }
      if (waited >= values.timeoutSeconds)
        throw new StepFailure(`play ${values.playName} has not finished ${values.timeoutSeconds} seconds after its stop`);
      await context.sleep(POLL_SECONDS * 1000);
    }
  },
});

/** The remediation entry of this event, as the record's history keeps it. */
function entryOf(
  values: { kind: string; sender: string; prUrl: string; eventId: string },
  round: number,
  reason: string,
  startStage: string,
  now: Date,
): RemediationEntry {
  return {
    round,
    kind: values.kind,
    reason,
    reviewer: values.sender,
    url: values.prUrl,
    eventId: values.eventId,
    startStage,
    at: recordTime(now),
  };
}

const replaceEnv = new StepEnv({
  ...remediationEventFields,
  task: taskId('TASK_ID'),
  playName: text('PLAY'),
  reason: text('REASON'),
  nextRound: count('NEXT_ROUND', 1),
  /** The successor's manifest, from the decide step. */
  successor: text('SUCCESSOR'),
  /** The gates whose releases do not hold in a new round. */
  roundGates: words('ROUND_GATES'),
  /** How long to wait for the play and its pods to be gone. */
  timeoutSeconds: count('DELETE_TIMEOUT', 1),
});

function parseSuccessor(text: string, playName: string): KubeObject {
  let successor: KubeObject;
  try {
    successor = JSON.parse(text) as KubeObject;
  } catch {
    throw new StepFailure('SUCCESSOR: not JSON');
  }
  if (successor?.metadata?.name !== playName) throw new StepFailure(`SUCCESSOR: expected a Workflow named ${playName}`);
  return successor;
}

/** Waits until the play and every pod of it are gone. */
async function waitUntilGone(context: StepContext, namespace: string, name: string, timeoutSeconds: number): Promise<void> {
  const selector = selectorOf({ [ARGO_WORKFLOW_LABEL]: name });
  for (let waited = 0; ; waited += POLL_SECONDS) {
    const play = await playOrNone(context, namespace, name);
    let pods: KubeObject[];
    try {
      pods = await context.api.list(ApiResources.pods, namespace, selector);
    } catch (error) {
      throw explainApiError(error, `listing the pods of play ${name}`);
    }
    if (play === undefined && pods.length === 0) return;
    if (waited >= timeoutSeconds) {
      const left = play === undefined ? `${pods.length} pods of play ${name} are` : `play ${name} and ${pods.length} of its pods are`;
      throw new StepFailure(`${left} still there ${timeoutSeconds} s after its deletion`);
    }
    await context.sleep(POLL_SECONDS * 1000);
  }
}

export const replaceStep = runtimeStep({
  name: 'remediation-replace',
  description: 'record the round, delete the stopped play and its pods, and create its successor under the same name',
  env: replaceEnv,
  outputs: [],
  async run(context, values) {
    const successor = parseSuccessor(values.successor, values.playName);
    const startStage = successor.metadata.labels?.[PlayLabels.currentStage] ?? '';
    const entry = entryOf(values, values.nextRound, values.reason, startStage, context.now());
    await updateRecord(context, values.namespace, { repository: values.repository, task: values.task }, (record) =>
      withoutReleases({ ...withRemediation(record, entry), round: values.nextRound, stage: startStage }, values.roundGates),
    );
    context.log(`recorded round ${values.nextRound}; removed the releases that do not hold in it: ${values.roundGates.join(' ')}`);
    const play = await playOrNone(context, values.namespace, values.playName);
    if (play !== undefined && values.eventId !== '' && play.metadata.annotations?.[PlayAnnotations.remediationEvent] === values.eventId) {
      context.log(`play ${values.playName} is the successor already (a retried step)`);
      return {};
    }
    if (play !== undefined) {
      try {
        await context.api.delete(workflowRef(values.namespace, values.playName), 'Foreground');
      } catch (error) {
        if (!isNotFound(error)) throw explainApiError(error, `deleting play ${values.playName}`);
      }
    }
    await waitUntilGone(context, values.namespace, values.playName, values.timeoutSeconds);
    context.log(`deleted play ${values.playName}; nothing it owned is left`);
    try {
      await context.api.create(ApiResources.workflows, values.namespace, successor);
    } catch (error) {
      if (!isAlreadyExists(error)) throw explainApiError(error, `creating the successor of play ${values.playName}`);
      const existing = await playOrNone(context, values.namespace, values.playName);
      if (existing?.metadata.annotations?.[PlayAnnotations.remediationEvent] !== values.eventId)
        throw new StepFailure(`a play named ${values.playName} was created meanwhile by someone else: not replacing it`);
    }
    context.log(`created play ${values.playName}: ${values.reason}`);
    return {};
  },
});

const exhaustedEnv = new StepEnv({
  ...remediationEventFields,
  task: taskId('TASK_ID'),
  reason: text('REASON'),
  round: count('ROUND', 1),
});

export const exhaustedStep = runtimeStep({
  name: 'remediation-exhausted',
  description: "record in the task's progress record that its remediation rounds are exhausted",
  env: exhaustedEnv,
  outputs: [],
  async run(context, values) {
    const now = context.now();
    const entry = entryOf(values, values.round, values.reason, '', now);
    await updateRecord(context, values.namespace, { repository: values.repository, task: values.task }, (record) => ({
      ...withRemediation(record, entry),
      status: ProgressStatuses.failed,
      reason: values.reason,
      lastUpdated: recordTime(now),
      round: values.round,
    }));
    context.log(`task ${values.task}: ${values.reason}`);
    return {};
  },
});
