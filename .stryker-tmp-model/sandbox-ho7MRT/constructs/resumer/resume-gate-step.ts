/**
 * The resumer's one step, started by a gate's Sensor with the event's values: record the release in the
 * task's progress record (with the time, which binds it to the runs that started before it), find the task's
 * one live play, and release its gate when it waits there now. Anything else ends successfully with a line
 * that says why: no task named, no live play (the record waits for it), several live plays (none is
 * resumed: a person must delete the stale ones), a play at another stage (it passes the gate on arrival), a
 * play not suspended yet (its gate check reads the record), a gate released already (a duplicate delivery,
 * or the play's own check came first).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { PlayAnnotations, PlayLabels } from '../model/labels';
import { recordRelease } from '../progress/progress-record';
import { updateRecord } from '../progress/progress-store';
import { explainApiError } from '../runtime/conflict-retry';
import { workflowRef, type KubeObject } from '../runtime/kube-api';
import { livePlays, PLAY_STRATEGIES } from '../runtime/live-plays';
import { eventRepository } from '../registry/event-repository';
import { oneOf, optionalText, StepEnv, taskIdOrNone, text } from '../runtime/step-env';
import { runtimeStep, type StepContext } from '../runtime/runtime-step';
import { gateState, releaseGate } from '../gate/gate-nodes';

const env = new StepEnv({
  namespace: text('NAMESPACE'),
  gate: text('GATE'),
  repository: text('REPOSITORY'),
  /** The task the event names; anything but a canonical task id means none. */
  task: taskIdOrNone('TASK_ID'),
  prUrl: optionalText('PR_URL'),
  prNumber: optionalText('PR_NUMBER'),
  /** The branch the pull request merges into: the repository's, or the event is not a play's. */
  baseBranch: optionalText('BASE_BRANCH'),
  /** How the task's play is found: by its labels, or by its name. */
  strategy: oneOf('STRATEGY', PLAY_STRATEGIES),
});

export const resumeGateStep = runtimeStep({
  name: 'resume-gate',
  description: "a gate Sensor's resumer: record the release, then release the gate of the task's play when it waits there",
  env,
  // `play`: the play whose gate this step released, if any; `recorded`: whether the release was recorded.
  outputs: ['play', 'recorded'],
  async run(context, values) {
    if (values.task === undefined) {
      context.log('the event names no task (no task-N label, no feature/task-N branch in canonical form): not a play pull request');
      return { play: '', recorded: 'false' };
    }
    const task = values.task;
    const known = await eventRepository(context, { ...values, task });
    if ('ignored' in known) {
      context.log(known.ignored);
      return { play: '', recorded: 'false' };
    }
    await updateRecord(context, values.namespace, { repository: values.repository, task }, (record) =>
      recordRelease(record, values.gate, { prUrl: values.prUrl, prNumber: values.prNumber }, context.now()),
    );
    context.log(`recorded the release of ${values.gate} for task ${task} of ${values.repository} (${values.prUrl || 'no pull request'})`);
    const plays = await livePlays(context, { namespace: values.namespace, repository: values.repository, task, playName: known.playName });
    if (plays.length === 0) {
      context.log(`no live play for task ${task} of ${values.repository}: the release waits in its progress record`);
      return { play: '', recorded: 'true' };
    }
    if (plays.length > 1) {
      const names = plays.map((play) => play.metadata.name).join(', ');
      context.log(`${plays.length} live plays for task ${task} of ${values.repository} (${names}): resuming none; delete the stale ones`);
      return { play: '', recorded: 'true' };
    }
    const [play] = plays;
    const released = await resumeIfWaiting(context, play, values.gate, values.prUrl, values.prNumber);
    return { play: released ? (play.metadata.name ?? '') : '', recorded: 'true' };
  },
});

/** Releases the gate of `play` when the play waits there now; true when this step released it. */
async function resumeIfWaiting(context: StepContext, play: KubeObject, gate: string, prUrl: string, prNumber: string): Promise<boolean> {
  const name = play.metadata.name ?? '';
  const stage = play.metadata.labels?.[PlayLabels.currentStage] ?? '';
  if (stage !== gate) {
    context.log(`play ${name} is at stage "${stage}", not at ${gate}: it passes ${gate} on arrival if it gets there`);
    return false;
  }
  const state = gateState(play, gate);
  if (state === 'absent') {
    context.log(`play ${name} has not suspended at ${gate} yet: its gate check reads the release`);
    return false;
  }
  if (state === 'released') {
    context.log(`gate ${gate} of play ${name} was released already: nothing to do`);
    return false;
  }
  const ref = workflowRef(play.metadata.namespace ?? '', name);
  try {
    await context.api.mergePatch(ref, {
      metadata: { annotations: { [PlayAnnotations.prUrl]: prUrl, [PlayAnnotations.prNumber]: prNumber } },
    });
  } catch (error) {
    throw explainApiError(error, `recording the pull request on play ${name}`);
  }
  const result = await releaseGate(context, ref, gate, `released by the resumer: ${prUrl || 'a GitHub event'}`);
  if (result === 'waiting') {
    context.log(`play ${name} waited at ${gate}: released`);
    return true;
  }
  context.log(`gate ${gate} of play ${name} was released meanwhile (by its own gate check): nothing to do`);
  return false;
}
