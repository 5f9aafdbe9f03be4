/**
 * What the outside world relies on in a play: the names of its WorkflowTemplate, parameters and gate
 * templates, and how a resume addresses a gate. Sensors, resumers, the simulator and the `resume` command
 * all take these from here, so a rename cannot leave one of them behind.
 *
 * Pure: no cdk8s, no I/O.
 */
import { dnsName } from './naming';

/** The play's workflow parameters. */
export const PlayParameters = {
  /** The task id (digits). Required at submission. */
  taskId: 'task-id',
  /** The stage to start at; a play recreated from its progress record starts where it stopped. */
  startStage: 'start-stage',
  /** Base64 requirements of the task, passed to every CodeRun. */
  taskRequirements: 'task-requirements',
} as const;

/** Template names inside a play WorkflowTemplate. */
export const PlayTemplates = {
  main: 'play',
  enterStage: 'enter-stage',
  setStageLabels: 'set-stage-labels',
  recordProgress: 'record-progress',
  gate: 'gate',
  exit: 'record-exit',
} as const;

/** The input parameter of the gate template that names the gate: a resume targets exactly one gate by it. */
export const GATE_STAGE_INPUT = 'stage';

/** The node field selector that resumes the gate of `stage` and no other node. */
export function gateNodeSelector(stage: string): string {
  return `inputs.parameters.${GATE_STAGE_INPUT}.value=${stage}`;
}

/** The DAG task that enters a stage (patches labels, records progress). */
export function enterTaskName(stage: string): string {
  return `enter-${stage}`;
}

/** The DAG task that does a stage's work: the agent run, or the gate's suspension. */
export function stageTaskName(stage: string): string {
  return stage;
}

/** The template that runs the agent of an agent stage. */
export function agentRunTemplateName(stage: string): string {
  return `run-${stage}`;
}

/** The play WorkflowTemplate of a repository's service. */
export function playTemplateName(service: string): string {
  return dnsName(['play', service]);
}

/** The single-run CodeRun WorkflowTemplate. */
export const CODERUN_TEMPLATE_NAME = 'coderun';
