/**
 * What a remediator Workflow does with its arguments, in the model: the decide step (`DECIDE_SCRIPT`), then
 * the stop (`STOP_PLAY_SCRIPT`), then the replacement (`REPLACE_PLAY_SCRIPT`) or the record of exhausted
 * rounds (`RECORD_EXHAUSTED_SCRIPT`), in `constructs/workflows/remediation-scripts.ts`. Each rule below is a
 * rule of those scripts; `test/remediation.test.ts` runs both on the same cases.
 */
import { playSelectorLabels } from '../../constructs/model/play-workflow';
import { type RemediationPlan, roundsExhaustedReason } from '../../constructs/model/remediation';
import {
  REMEDIATOR_PARAMETERS,
  REMEDIATOR_TEMPLATE_NAME,
  RemediationKinds,
  type RemediatorParameter,
} from '../../constructs/model/remediator-contract';
import type { Play, PlayModel, Stopped } from './play-model';

/** When step 0 happens in the simulator's clock; step N is N minutes later, the plays a scenario starts with a minute before. */
export const SIMULATION_EPOCH = Date.UTC(2026, 0, 1);

/** The simulated time of a step, as RFC 3339 (what a payload's `submitted_at` compares with). */
export function simulatedTime(step: number): string {
  return new Date(SIMULATION_EPOCH + step * 60_000).toISOString().replace('.000Z', 'Z');
}

/** What one remediator did, for the report. */
export interface RemediationReport {
  readonly repository: string;
  readonly task: number;
  /** `remediate` or `stale-work`. */
  readonly kind: string;
  /**
   * `next-round`, `re-run` (stale work, same round), `exhausted`, or `refused`: the play was stopped but its
   * successor names a stage the play does not have (a remediator out of step with the plays).
   */
  readonly outcome: 'next-round' | 're-run' | 'exhausted' | 'refused';
  /** The round the play was in. */
  readonly fromRound: number;
  /** The round of its successor (the same round when exhausted or re-run). */
  readonly round: number;
  /** Where the successor starts; the stage the play failed at when exhausted. */
  readonly stage: string;
  readonly reason: string;
  /** The CodeRuns the stop cancelled (then deleted with the play), as `agent/stage`. */
  readonly cancelled: string[];
  /** The direct agent pods the stop ended (no CodeRun to cancel), as `agent/stage`; absent when none. */
  readonly stoppedPods?: string[];
}

/** What the remediator runs by, as its synthesized WorkflowTemplate says it (the env of its steps). */
export type RemediatorSettings = Pick<
  RemediationPlan,
  'maxRounds' | 'implementationStage' | 'staleRestartStage' | 'remediableStages' | 'staleStages' | 'roundGates'
>;

/**
 * The settings of the synthesized `play-remediator` (its decide and replace steps' environment), so the
 * simulator runs what was generated, a drift included; undefined when the platform has no remediator.
 */
export function remediatorSettings(objects: readonly Record<string, any>[]): RemediatorSettings | undefined {
  const template = objects.find((object) => object.kind === 'WorkflowTemplate' && object.metadata?.name === REMEDIATOR_TEMPLATE_NAME);
  if (!template) return undefined;
  const env = new Map<string, string>();
  for (const step of template.spec.templates ?? [])
    for (const variable of step.script?.env ?? []) if (typeof variable.value === 'string') env.set(variable.name, variable.value);
  const list = (name: string): string[] => (env.get(name) ?? '').split(' ').filter((item) => item !== '');
  const stale = env.get('STALE_RESTART_STAGE') ?? '';
  return {
    maxRounds: Number(env.get('MAX_ROUNDS')),
    implementationStage: env.get('IMPLEMENTATION_STAGE') ?? '',
    ...(stale === '' ? {} : { staleRestartStage: stale }),
    remediableStages: list('REMEDIABLE_STAGES'),
    staleStages: list('STALE_STAGES'),
    roundGates: list('ROUND_GATES'),
  };
}

function argumentsOf(workflow: Record<string, any>): Record<RemediatorParameter, string> {
  const given = new Map<string, string>(
    (workflow.spec.arguments?.parameters ?? []).map((parameter: any) => [parameter.name, String(parameter.value ?? '')]),
  );
  return Object.fromEntries(REMEDIATOR_PARAMETERS.map((name) => [name, given.get(name) ?? ''])) as Record<RemediatorParameter, string>;
}

function livePlays(model: PlayModel, args: Record<RemediatorParameter, string>): Play[] {
  if (args.play !== '') return [model.byName(args.play)].filter((play): play is Play => play !== undefined);
  return model.selectByLabels(playSelectorLabels(args['task-id'], args['repository-label']));
}

/**
 * Runs the remediator a Sensor created (`workflow`), writing what it saw to `notes`.
 *
 * @returns what it did, or undefined when it did nothing
 */
export function runRemediator(
  model: PlayModel,
  plan: RemediatorSettings,
  workflow: Record<string, any>,
  notes: string[],
): RemediationReport | undefined {
  const args = argumentsOf(workflow);
  const kind = args.kind;
  const say = (text: string): undefined => {
    notes.push(`remediator (${kind}): ${text}`);
    return undefined;
  };
  if (!/^[0-9]+$/.test(args['task-id'])) return say('the event names no task');
  const plays = livePlays(model, args);
  if (plays.length !== 1) return say(`${plays.length} live plays for task ${args['task-id']}: nothing to do`);
  const [play] = plays;
  const remediate = kind === RemediationKinds.remediate;
  const eligible = remediate ? plan.remediableStages : plan.staleStages;
  if (!eligible.includes(play.stage))
    return say(
      `the play of task ${play.task} is at ${play.stage} (round ${play.round}); a ${kind} event counts only at ${eligible.join(', ')}`,
    );
  const eventAt = args['event-at'].slice(0, 19);
  const created = simulatedTime(play.createdAt).slice(0, 19);
  if (/^[0-9]{4}-/.test(eventAt) && eventAt < created)
    return say(
      `the event (${args['event-at']}) is older than the play of round ${play.round} (${created}): it belongs to an earlier round`,
    );
  const record = model.progressOf(play.repository, play.task);
  if (args['event-id'] !== '' && record?.remediations.some((entry) => entry.eventId === args['event-id']))
    return say(`event ${args['event-id']} was handled already (a duplicate delivery)`);
  const entryOf = (round: number, reason: string, startStage: string) => ({
    round,
    kind,
    reason,
    reviewer: args.sender,
    url: args['pr-url'],
    eventId: args['event-id'],
    startStage,
  });
  if (remediate && play.round >= plan.maxRounds) {
    const reason = roundsExhaustedReason(play.round, plan.maxRounds);
    const stage = play.stage;
    const cancelled = model.stop(play, reason);
    model.recordRemediation(play.repository, play.task, entryOf(play.round, reason, ''), { status: 'failed', reason, round: play.round });
    say(`task ${play.task}: ${reason}; the play was stopped and failed`);
    return report(play, kind, 'exhausted', play.round, stage, reason, cancelled);
  }
  const round = remediate ? play.round + 1 : play.round;
  const start = remediate ? plan.implementationStage : (plan.staleRestartStage as string);
  const suffix = args['pr-url'] === '' ? '' : ` (${args['pr-url']})`;
  const reason = remediate
    ? `round ${round}: ${args.reason} by ${args.sender}${suffix}`
    : `round ${round}: ${args.reason} by ${args.sender}; re-running from ${start}${suffix}`;
  const cancelled = model.stop(play);
  model.recordRemediation(play.repository, play.task, entryOf(round, reason, start), { round, stage: start });
  model.forgetReleases(args['release-configmap'], plan.roundGates);
  if (!model.stages.has(start)) {
    // The lint rule remediator-stages catches this before it ships: Argo refuses the successor's start-stage.
    say(
      `stopped the play of task ${play.task}, but its successor is refused: start-stage "${start}" is not a stage of the play (${model.stages.names.join(', ')}); the task stays failed`,
    );
    return report(play, kind, 'refused', round, start, reason, cancelled);
  }
  const successor = model.replace(play, start, round);
  say(
    `stopped the play of task ${play.task} (round ${play.round}, at ${play.stage})${endedWork(cancelled)}; ${reason}; the new play is at ${successor.stage}`,
  );
  return report(play, kind, remediate ? 'next-round' : 're-run', round, start, reason, cancelled);
}

/** What a stop ended, in words: CodeRuns cancelled, direct agent pods ended with their CLI. */
function endedWork(stopped: Stopped): string {
  const codeRuns = stopped.codeRuns.map((run) => `${run.agent}/${run.stage}`);
  const pods = stopped.pods.map((pod) => `${pod.agent}/${pod.stage}`);
  return `${codeRuns.length > 0 ? `, cancelled and deleted ${codeRuns.join(', ')}` : ''}${pods.length > 0 ? `, ended the agent pod of ${pods.join(', ')} (direct: no CodeRun to cancel)` : ''}`;
}

function report(
  play: Play,
  kind: string,
  outcome: RemediationReport['outcome'],
  round: number,
  stage: string,
  reason: string,
  stopped: Stopped,
): RemediationReport {
  return {
    repository: play.repository,
    task: play.task,
    kind,
    outcome,
    fromRound: play.round,
    round,
    stage,
    reason,
    cancelled: stopped.codeRuns.map((run) => `${run.agent}/${run.stage}`),
    ...(stopped.pods.length > 0 ? { stoppedPods: stopped.pods.map((pod) => `${pod.agent}/${pod.stage}`) } : {}),
  };
}
