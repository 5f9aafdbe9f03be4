/**
 * The play's templates that keep its state: `enter-stage` (every DAG task that enters a stage calls it) and
 * `record-exit` (the exit handler's first step). Both run runtime steps (`progress-steps.ts`) with the
 * values of the play.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { inputParameter, workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import { PlayParameters, PlayTemplates } from '../model/play-contract';
import { runtimeStepTemplate } from '../runtime/runtime-step-template';
import type { Template } from '../workflows/argo-types';
import { enterStageStep, recordExitStep } from './progress-steps';

/** The inputs of the enter-stage template, which each DAG task that enters a stage gives. */
export const ENTER_INPUTS = ['stage', 'previous-stage', 'agent', 'cli', 'status'] as const;

/** What the two templates take. */
export interface ProgressTemplatesProps {
  /** The play parameters stage conditions test (task-type and the declared ones), which the record keeps. */
  readonly parameters: readonly string[];
  readonly runtimeImage: string;
}

const RETRY = { limit: 2, backoffSeconds: 10 } as const;

/** The values both steps read of the play. */
function playValues(props: ProgressTemplatesProps) {
  return {
    namespace: WorkflowVariables.namespace,
    workflowName: WorkflowVariables.name,
    // The play's parameter, not the resolved name: the exit handler records a play whose repository could not
    // be resolved too (the record's key is case-insensitive).
    repository: workflowParameter(PlayParameters.repository),
    task: workflowParameter(PlayParameters.taskId),
    round: workflowParameter(PlayParameters.round),
    parameters: props.parameters.map((name) => ({ name, value: workflowParameter(name) })),
  };
}

/** Marks the play at the stage it enters (labels, history) and records it in the task's progress record. */
export function enterStageTemplate(props: ProgressTemplatesProps): Template {
  return runtimeStepTemplate({
    name: PlayTemplates.enterStage,
    step: enterStageStep,
    image: props.runtimeImage,
    inputs: { parameters: ENTER_INPUTS.map((name) => ({ name })) },
    env: {
      ...playValues(props),
      stage: inputParameter('stage'),
      previousStage: inputParameter('previous-stage'),
      agent: inputParameter('agent'),
      cli: inputParameter('cli'),
      status: inputParameter('status'),
    },
    retry: RETRY,
  });
}

/** Records how the play ended (the stage from the play's own label). */
export function recordExitTemplate(props: ProgressTemplatesProps): Template {
  return runtimeStepTemplate({
    name: PlayTemplates.recordExit,
    step: recordExitStep,
    image: props.runtimeImage,
    env: { ...playValues(props), workflowStatus: WorkflowVariables.status },
    retry: RETRY,
  });
}
