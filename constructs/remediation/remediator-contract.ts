/**
 * What the remediation Sensors and the remediator WorkflowTemplate agree on: the template's name, its
 * parameters, where a Sensor writes each one, and the kinds of work it does. The Sensors, the remediator,
 * the simulator and the graph take them from here.
 *
 * Pure: no cdk8s, no I/O.
 */

/** The remediator WorkflowTemplate. */
export const REMEDIATOR_TEMPLATE_NAME = 'play-remediator';

/** The Workflow label value that marks remediator runs (they are not plays). */
export const REMEDIATOR_WORKFLOW_TYPE = 'remediator';

/** What a remediator run was started for. */
export const RemediationKinds = {
  /** Changes were requested: end the round, start the next one at the implementation stage. */
  remediate: 'remediate',
  /** The implementation agent pushed: re-run the round's quality and testing work on the new commits. */
  staleWork: 'stale-work',
} as const;

/** One of `RemediationKinds`. */
export type RemediationKind = (typeof RemediationKinds)[keyof typeof RemediationKinds];

/**
 * The remediator's parameters, in the order it declares them. `event-id` identifies the event across
 * redeliveries (its GitHub delivery id, `X-GitHub-Delivery`, which GitHub keeps when it redelivers); `event-at` is when it happened
 * (a review's `submitted_at`; empty when the event has no such time); `base-branch` is the branch a pull
 * request merges into (empty for a push), which must be the repository's.
 */
export const REMEDIATOR_PARAMETERS = [
  'kind',
  'repository',
  'task-id',
  'base-branch',
  'pr-url',
  'sender',
  'reason',
  'event-id',
  'event-at',
] as const;

/** One of `REMEDIATOR_PARAMETERS`. */
export type RemediatorParameter = (typeof REMEDIATOR_PARAMETERS)[number];

/** The templates inside the remediator WorkflowTemplate (each step but `main` is a runtime step). */
export const RemediatorTemplates = {
  main: 'remediate',
  decide: 'decide',
  stopPlay: 'stop-play',
  replacePlay: 'replace-play',
  recordExhausted: 'record-exhausted',
} as const;

/** What the decide step concluded. */
export const RemediatorActions = {
  /** Nothing to do: no live play, a duplicate, an event of an earlier round, or a play not past the stage. */
  none: 'none',
  /** Stop the play and recreate it (next round, or the same round after a push). */
  replace: 'replace',
  /** The last round asked for changes: stop the play, record it failed with the reason. */
  exhaust: 'exhaust',
} as const;

/** The outputs of the decide step. */
export const RemediatorOutputs = {
  action: 'action',
  workflow: 'workflow',
  successor: 'successor',
  reason: 'reason',
  round: 'round',
} as const;

/** Where a Sensor trigger writes remediator parameter `name` (see `resumerParameterDest` for why an index). */
export function remediatorParameterDest(name: RemediatorParameter): string {
  return `spec.arguments.parameters.${REMEDIATOR_PARAMETERS.indexOf(name)}.value`;
}

/** The arguments of a remediator Workflow, in declared order: the given values, empty where none is given. */
export function remediatorArguments(
  values: Partial<Record<RemediatorParameter, string>>,
): Array<{ name: RemediatorParameter; value: string }> {
  return REMEDIATOR_PARAMETERS.map((name) => ({ name, value: values[name] ?? '' }));
}

/** The reason a play fails when its last round asked for changes. */
export function roundsExhaustedReason(round: number | string, maxRounds: number | string): string {
  return `remediation rounds exhausted: ${round} of ${maxRounds}`;
}
