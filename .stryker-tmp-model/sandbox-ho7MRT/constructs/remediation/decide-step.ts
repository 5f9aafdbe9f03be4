/**
 * The remediator's first step: decide what a remediation event asks for. Nothing (`none`) for an event that
 * names no task, a task without exactly one live play, a play not in a stage where the event counts (a play
 * already sent back sits at its implementation stage: a second review of the same round changes nothing), an
 * event older than the play (it belongs to an earlier round), and an event already handled (its id is in the
 * record's remediation history). Otherwise `replace`, with the successor's manifest, or `exhaust` when a
 * request for changes comes in the last round.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { PlayLabels } from '../model/labels';
import { RemediationKinds, RemediatorActions, roundsExhaustedReason } from './remediator-contract';
import { handledEvent } from '../progress/progress-record';
import { progressConfigMapOf, progressKeyOf } from '../progress/progress-layout';
import { readRecord } from '../progress/progress-store';
import { livePlays, PLAY_STRATEGIES } from '../runtime/live-plays';
import { eventRepository } from '../registry/event-repository';
import { count, oneOf, optionalText, StepEnv, taskIdOrNone, text, words } from '../runtime/step-env';
import { runtimeStep, type StepContext, type StepOutputs } from '../runtime/runtime-step';
import { successorOf } from './successor';

/** What every remediator step reads of the event. */
export const remediationEventFields = {
  namespace: text('NAMESPACE'),
  kind: oneOf('KIND', Object.values(RemediationKinds)),
  repository: text('REPOSITORY'),
  task: taskIdOrNone('TASK_ID'),
  sender: optionalText('SENDER'),
  prUrl: optionalText('PR_URL'),
  /**
   * The GitHub delivery id (`X-GitHub-Delivery`), which the Sensor always passes: the same on a redelivery,
   * so an event already in the record's remediation history is not handled again.
   */
  eventId: optionalText('EVENT_ID'),
};

const env = new StepEnv({
  ...remediationEventFields,
  /** The branch a pull request merges into (empty for a push): the repository's, or the event is not a play's. */
  baseBranch: optionalText('BASE_BRANCH'),
  /** How the task's play is found: by its labels, or by its name. */
  strategy: oneOf('STRATEGY', PLAY_STRATEGIES),
  reason: optionalText('REASON'),
  /** When the event happened (a review's `submitted_at`); empty when it has no such time. */
  eventAt: optionalText('EVENT_AT'),
  maxRounds: count('MAX_ROUNDS', 1),
  remediableStages: words('REMEDIABLE_STAGES'),
  staleStages: words('STALE_STAGES'),
  implementationStage: text('IMPLEMENTATION_STAGE'),
  staleRestartStage: optionalText('STALE_RESTART_STAGE'),
});

type Outputs = StepOutputs<'action' | 'workflow' | 'successor' | 'reason' | 'round'>;

const NOTHING: Outputs = { action: RemediatorActions.none, workflow: '', successor: '{}', reason: '', round: '' };

/** An RFC 3339 time, cut to the second, or `undefined` for anything else. */
function timeOf(text: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(text) ? text.slice(0, 19) : undefined;
}

function nothing(context: StepContext, why: string): Outputs {
  context.log(why);
  return NOTHING;
}

export const decideStep = runtimeStep({
  name: 'remediation-decide',
  description: 'decide what a remediation event asks for: nothing, a successor play, or the end of the rounds',
  env,
  outputs: ['action', 'workflow', 'successor', 'reason', 'round'],
  async run(context, values) {
    const task = values.task;
    if (task === undefined) return nothing(context, 'the event names no task: not a play pull request or branch');
    const known = await eventRepository(context, { ...values, task });
    if ('ignored' in known) return nothing(context, known.ignored);
    const plays = await livePlays(context, { namespace: values.namespace, repository: values.repository, task, playName: known.playName });
    if (plays.length !== 1)
      return nothing(context, `${plays.length} live plays for task ${task} of ${values.repository}: nothing to ${values.kind}`);
    const [play] = plays;
    const name = play.metadata.name ?? '';
    const stage = play.metadata.labels?.[PlayLabels.currentStage] ?? '';
    const roundLabel = play.metadata.labels?.[PlayLabels.round] ?? '';
    const round = /^[1-9]\d{0,8}$/.test(roundLabel) ? Number(roundLabel) : 1;
    const remediate = values.kind === RemediationKinds.remediate;
    const eligible = remediate ? values.remediableStages : values.staleStages;
    if (!eligible.includes(stage))
      return nothing(
        context,
        `play ${name} is at ${stage || 'no stage'} (round ${round}): a ${values.kind} event counts only at: ${eligible.join(' ')}`,
      );
    const eventAt = timeOf(values.eventAt);
    const created = (play.metadata.creationTimestamp ?? '').slice(0, 19);
    if (eventAt !== undefined && eventAt < created)
      return nothing(context, `the event (${values.eventAt}) is older than play ${name} (${created}): it belongs to an earlier round`);
    const identity = { repository: values.repository, task };
    const stored = await readRecord(context, values.namespace, identity);
    if (stored.record !== undefined && handledEvent(stored.record, values.eventId))
      return nothing(context, `event ${values.eventId} was handled already (a duplicate delivery): nothing to do`);
    if (remediate && round >= values.maxRounds) {
      const reason = roundsExhaustedReason(round, values.maxRounds);
      context.log(`play ${name}: ${reason}`);
      return { action: RemediatorActions.exhaust, workflow: name, successor: '{}', reason, round: String(round) };
    }
    const next = remediate ? round + 1 : round;
    const start = remediate ? values.implementationStage : values.staleRestartStage;
    const told = remediate
      ? `round ${next}: ${values.reason} by ${values.sender}`
      : `round ${round}: ${values.reason} by ${values.sender}; re-running from ${start}`;
    const reason = values.prUrl === '' ? told : `${told} (${values.prUrl})`;
    const resumedFrom = `${progressConfigMapOf(values.repository, task)}/${progressKeyOf(values.repository, task)}: ${values.kind} of round ${round} at stage ${stage}`;
    const successor = successorOf(play, { startStage: start, round: next, resumedFrom, reason, eventId: values.eventId });
    context.log(`play ${name} (round ${round}, at ${stage}): ${reason}`);
    return { action: RemediatorActions.replace, workflow: name, successor: JSON.stringify(successor), reason, round: String(next) };
  },
});
