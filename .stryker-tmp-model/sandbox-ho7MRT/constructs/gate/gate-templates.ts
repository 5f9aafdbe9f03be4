/**
 * A gate in a play: suspend, and beside the suspend node look for a release recorded before (an early
 * event); when there is one, the check releases the play's own gate (`gate-check-step.ts`). The suspend node
 * carries the gate's name in its `stage` input, so that a release targets exactly this gate.
 *
 * The two run side by side, suspend first: the controller starts the steps of one group in order in one pass
 * (argo-workflows `workflow/controller/steps.go`, `executeStepGroup`), so the suspend node exists before the
 * check's pod runs. A resumer records before it resumes, the check reads after the node exists: either the
 * check sees the record, or the resumer finds the active suspend node. No event is lost in between, which a
 * check followed by a suspend could not promise.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { inputParameter, workflowOutput, workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import { RepositoryOutputs } from '../registry/registry-layout';
import { GATE_STAGE_INPUT, PlayParameters, PlayTemplates } from '../model/play-contract';
import { runtimeStepTemplate } from '../runtime/runtime-step-template';
import type { Template } from '../workflows/argo-types';
import { gateCheckStep } from './gate-check-step';

/** What a play's gate templates take. */
export interface GateTemplatesProps {
  readonly runtimeImage: string;
}

/** The gate (steps), its check (a runtime step) and its suspend node, in that order. */
export function gateTemplates(props: GateTemplatesProps): Template[] {
  const stage = inputParameter(GATE_STAGE_INPUT);
  const stageArgument = { parameters: [{ name: GATE_STAGE_INPUT, value: stage }] };
  const inputs = { parameters: [{ name: GATE_STAGE_INPUT }] };
  const gate: Template = {
    name: PlayTemplates.gate,
    inputs,
    steps: [
      [
        { name: 'await', template: PlayTemplates.awaitRelease, arguments: stageArgument },
        { name: 'check', template: PlayTemplates.checkRelease, arguments: stageArgument },
      ],
    ],
  };
  const check = runtimeStepTemplate({
    name: PlayTemplates.checkRelease,
    step: gateCheckStep,
    image: props.runtimeImage,
    inputs,
    env: {
      namespace: WorkflowVariables.namespace,
      workflowName: WorkflowVariables.name,
      gate: stage,
      repository: workflowParameter(PlayParameters.repository),
      task: workflowParameter(PlayParameters.taskId),
      service: workflowOutput(RepositoryOutputs.service),
    },
    retry: { limit: 3, backoffSeconds: 5 },
  });
  const awaitRelease: Template = { name: PlayTemplates.awaitRelease, inputs, suspend: {} };
  return [gate, check, awaitRelease];
}
