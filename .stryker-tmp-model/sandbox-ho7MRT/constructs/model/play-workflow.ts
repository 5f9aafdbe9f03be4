/**
 * The play Workflow and its labels, built once. The play WorkflowTemplate labels the Workflows it starts
 * with them, a project's task templates and `agent-play resume` create plays with them, the resumer and
 * the simulator select plays by them: a label added, renamed or re-encoded here reaches all of them.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { workflowParameterExpression } from './argo-expressions';
import { PlayAnnotations, PlayLabels, WorkflowTypes } from './labels';
import { repositoryLabelValue } from './naming';
import { FIRST_ROUND, PlayParameters, playWorkflowName } from './play-contract';
import { ARGO_API_VERSION } from './argo-api';

/** What identifies one play: its task, its repository (`owner/name`) and the stage it is in. */
export interface PlayIdentity {
  /** The task id, or an Argo reference that gives it. */
  readonly task: string;
  /** The repository as GitHub spells it (`owner/name`). */
  readonly repository: string;
  /** The stage the play is in (or starts at), or an Argo reference that gives it. */
  readonly stage: string;
  /** The remediation round (digits), or an Argo reference that gives it. @default FIRST_ROUND */
  readonly round?: string;
}

/**
 * The labels that find a task's live play (the resumer's selector): task, repository and type, not the
 * stage, which changes while the play runs. `repositoryLabel` is the label value, already encoded.
 */
export function playSelectorLabels(task: string, repositoryLabel: string): Record<string, string> {
  return {
    [PlayLabels.taskId]: task,
    [PlayLabels.repository]: repositoryLabel,
    [PlayLabels.workflowType]: WorkflowTypes.play,
  };
}

/** The labels of a play Workflow. */
export function playLabels(play: PlayIdentity): Record<string, string> {
  return {
    ...playSelectorLabels(play.task, repositoryLabelValue(play.repository)),
    [PlayLabels.currentStage]: play.stage,
    [PlayLabels.round]: play.round ?? FIRST_ROUND,
  };
}

/**
 * The labels a play WorkflowTemplate gives the Workflows it starts: the fixed ones as values, the ones that
 * come from the play's parameters (task, start stage and round) as `labelsFrom` expressions. The repository's
 * label value is not an expression Argo can compute (it is cut and hashed when long): the play's first step
 * puts it on the play (`resolve-repository`), and a play created by a tool carries it from the start.
 */
export function playTemplateLabels(): {
  labels: Record<string, string>;
  labelsFrom: Record<string, { expression: string }>;
} {
  return {
    labels: { [PlayLabels.workflowType]: WorkflowTypes.play },
    labelsFrom: {
      [PlayLabels.taskId]: { expression: workflowParameterExpression(PlayParameters.taskId) },
      [PlayLabels.currentStage]: { expression: workflowParameterExpression(PlayParameters.startStage) },
      [PlayLabels.round]: { expression: workflowParameterExpression(PlayParameters.round) },
    },
  };
}

/** A play Workflow created outside its template: by a project's task step, or by `agent-play resume`. */
export interface PlayWorkflowProps extends PlayIdentity {
  /** The repository's service, which names the play. */
  readonly service: string;
  /** The play WorkflowTemplate the repository runs (its registry entry says which). */
  readonly template: string;
  readonly namespace: string;
  /** Play parameters besides task id and start stage, in the order they are passed. */
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  /** Labels besides the play's own (e.g. the project that started it). */
  readonly extraLabels?: Readonly<Record<string, string>>;
  /** Annotations besides the repository's. */
  readonly extraAnnotations?: Readonly<Record<string, string>>;
}

/**
 * The play Workflow: named by `playWorkflowName` (the workflow-name resume strategy relies on it), labelled
 * by `playLabels`, started from the repository's play WorkflowTemplate at `stage`, for its repository.
 */
export function playWorkflow(props: PlayWorkflowProps): Record<string, unknown> {
  return {
    apiVersion: ARGO_API_VERSION,
    kind: 'Workflow',
    metadata: {
      name: playWorkflowName(props.service, props.task),
      namespace: props.namespace,
      labels: { ...playLabels(props), ...props.extraLabels },
      annotations: { [PlayAnnotations.repository]: props.repository, ...props.extraAnnotations },
    },
    spec: {
      workflowTemplateRef: { name: props.template },
      arguments: {
        parameters: [
          { name: PlayParameters.repository, value: props.repository },
          { name: PlayParameters.taskId, value: props.task },
          { name: PlayParameters.startStage, value: props.stage },
          ...(props.round === undefined ? [] : [{ name: PlayParameters.round, value: props.round }]),
          ...props.parameters.map(({ name, value }) => ({ name, value })),
        ],
      },
    },
  };
}
