/**
 * What the outside world relies on in a play: the names of its WorkflowTemplate, parameters and gate
 * templates, and how a resume addresses a gate. Sensors, resumers, the simulator and the `resume` command
 * all take these from here, so a rename cannot leave one of them behind.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { dnsName, MAX_TASK_ID } from './naming';

/** The play's workflow parameters. */
export const PlayParameters = {
  /** The repository (`owner/name`) whose task the play runs. Required at submission. */
  repository: 'repository',
  /** The task id (digits). Required at submission. */
  taskId: 'task-id',
  /** The stage to start at; a play recreated from its progress record starts where it stopped. */
  startStage: 'start-stage',
  /** Base64 requirements of the task, passed to every CodeRun. */
  taskRequirements: 'task-requirements',
  /** The kind of task (e.g. `backend`, `frontend`); conditional stages (`when`) test it. Empty by default. */
  taskType: 'task-type',
  /**
   * The remediation round, from 1. A task whose review asks for changes goes back to its implementation
   * stage in a play recreated with the next round.
   */
  round: 'round',
} as const;

/** The round a play starts in unless it was recreated for remediation. */
export const FIRST_ROUND = '1';

/** Every parameter a play always has; declared extra parameters must not reuse these names. */
export const BUILT_IN_PARAMETERS: readonly string[] = Object.values(PlayParameters);

/** The built-in parameters a stage condition may test. */
export const CONDITION_PARAMETERS: readonly string[] = [PlayParameters.taskType];

/**
 * The `status` of a task's progress record (the progress script writes it; `agent-play status` and `resume`
 * read it): in an agent stage, waiting at a gate, at the end stage, or failed (written by the exit handler).
 */
export const ProgressStatuses = {
  inProgress: 'in-progress',
  suspended: 'suspended',
  completed: 'completed',
  failed: 'failed',
} as const;

/** One of `ProgressStatuses`. */
export type ProgressStatus = (typeof ProgressStatuses)[keyof typeof ProgressStatuses];

/** Template names inside a play WorkflowTemplate. */
export const PlayTemplates = {
  main: 'play',
  /** Marks the play at a stage (labels, history) and records it in the task's progress record. */
  enterStage: 'enter-stage',
  /** A gate: look for a release recorded before the play arrived, else wait for one. */
  gate: 'gate',
  /** Beside the suspend node: the check, which releases the play's own gate when a release is recorded. */
  checkRelease: 'check-release',
  /** The suspend node a resume targets. */
  awaitRelease: 'await-release',
  /** The exit handler: record the end, then cancel the CodeRuns of a play that did not succeed. */
  exit: 'exit-handler',
  recordExit: 'record-exit',
  /** Cancels the unfinished CodeRuns of a label selector: each attempt's first step, and the exit handler's last. */
  cancelCodeRuns: 'cancel-coderuns',
} as const;

/**
 * The input parameter, on the gate's suspend template, that names the gate: a resume targets exactly one
 * gate by it (see `gateNodeSelector`).
 */
export const GATE_STAGE_INPUT = 'stage';

/** The node field selector that resumes the gate of `stage` and no other node. */
export function gateNodeSelector(stage: string): string {
  return `inputs.parameters.${GATE_STAGE_INPUT}.value=${stage}`;
}

/** The DAG task that enters a stage (patches labels, records progress). */
export function enterTaskName(stage: string): string {
  return `enter-${stage}`;
}

/**
 * The DAG task that does a stage's work: the agent run, or the gate's suspension. A parallel stage has one
 * task per agent, named `{stage}-{agent}`.
 */
export function stageTaskName(stage: string, parallelAgent?: string): string {
  return parallelAgent === undefined ? stage : `${stage}-${parallelAgent}`;
}

/** The template that runs the agent of an agent stage; in a parallel stage, one per agent. */
export function agentRunTemplateName(stage: string, parallelAgent?: string): string {
  return `run-${stageTaskName(stage, parallelAgent)}`;
}

/** The input of an agent run's create step that carries Argo's 0-based `{{retries}}`. */
export const CODERUN_ATTEMPT_INPUT = 'attempt';
/** The output (of the create step and the attempt) and the wait step's input: the CodeRun's name. */
export const CODERUN_NAME_OUTPUT = 'coderun-name';

/**
 * The templates of one attempt of an agent run, after it cancels the stage's stale CodeRuns
 * (`PlayTemplates.cancelCodeRuns`): create this attempt's, wait for it. `run` is the agent run's template
 * (`agentRunTemplateName`), which carries the retries.
 */
export function agentAttemptTemplateNames(run: string): { readonly create: string; readonly wait: string } {
  return { create: `${run}-create`, wait: `${run}-wait` };
}

/** The play WorkflowTemplate most repositories run (those whose direct agents use the platform's CLIs). */
export const PLAY_TEMPLATE_NAME = 'play';

/**
 * The play WorkflowTemplate of a group of repositories whose direct agents run other CLIs than the platform's
 * (a direct agent's CLI decides its step's image): `play-{hash}` of the bindings.
 */
export function playTemplateVariantName(bindingsHash: string): string {
  return `${PLAY_TEMPLATE_NAME}-${bindingsHash}`;
}

/**
 * The name of a task's play: `play-{service}-task-{id}`, so that the resumer can name the play from the event
 * and the registry (the `workflow-name` strategy) and a project finds its task's play again. At most 61
 * characters (services have at most 40).
 *
 * @throws when the service has no letter or digit, or the task id is none (see taskIdText)
 */
export function playWorkflowName(service: string, taskId: number | string): string {
  return `${dnsName(['play', service])}-task-${taskIdText(taskId, 'playWorkflowName')}`;
}

/**
 * A task id as a name carries it: a whole number from 0 to MAX_TASK_ID, its digits without a leading zero, or
 * an Argo expression that gives one at run time (`{{inputs.parameters.task-id}}`). Anything else (NaN, 1.5,
 * `007`) would name an object no play looks for, so it is refused, naming the function and the value.
 * @throws TypeError naming `caller`
 */
function taskIdText(taskId: number | string, caller: string): string {
  const text = typeof taskId === 'number' ? String(taskId) : taskId;
  const canonical = typeof text === 'string' && /^(0|[1-9][0-9]{0,9})$/.test(text) && Number(text) <= MAX_TASK_ID;
  if (canonical || (typeof taskId === 'string' && /^\{\{[^{}]+\}\}$/.test(taskId))) return text;
  throw new TypeError(
    `${caller}: taskId ${typeof taskId === 'string' ? JSON.stringify(taskId) : String(taskId)}: expected a task id, a whole number from 0 to ${MAX_TASK_ID} (or an Argo expression that gives one)`,
  );
}

/**
 * The ConfigMap where an earlier layout recorded a task's gate releases, one key per gate. Releases now live
 * in the task's progress record; a play recreated from that layout's state still reads these (read only).
 * @throws TypeError when the task id is none (see taskIdText)
 */
export function legacyReleaseConfigMapName(service: string, taskId: number | string): string {
  return `${dnsName(['play-release', service])}-task-${taskIdText(taskId, 'legacyReleaseConfigMapName')}`;
}

/** The resumer WorkflowTemplate's name; its whole contract is in `resumer-contract.ts`. */
export { RESUMER_TEMPLATE_NAME } from '../resumer/resumer-contract';

/**
 * The Sensor of a gate.
 *
 * @throws when the stage name has no letter or digit
 */
export function gateSensorName(stage: string): string {
  return dnsName(['gate', stage]);
}

/** The single-run CodeRun WorkflowTemplate. */
export const CODERUN_TEMPLATE_NAME = 'coderun';

/**
 * The annotation on a play recreated from its progress record (`agent-play resume`). Such a play continues
 * a run, so it keeps that run's releases; a play without it is a new run and ignores older ones.
 */
export const RESUMED_FROM_ANNOTATION = 'agents.platform/resumed-from';
