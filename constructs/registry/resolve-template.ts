/**
 * The play's `resolve-repository` template: its runtime step, with every output made a global output of
 * the Workflow, so that every later template of the play reads the repository's settings as
 * `{{workflow.outputs.parameters.NAME}}`.
 *
 * Pure: no cdk8s, no I/O.
 */
import { workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import { PlayParameters } from '../model/play-contract';
import { outputPath } from '../runtime/runtime-layout';
import { runtimeStepTemplate } from '../runtime/runtime-step-template';
import type { Template } from '../workflows/argo-types';
import { AgentOutputs, RepositoryOutputs } from './registry-layout';
import { resolveRepositoryStep } from './resolve-repository-step';

/** The template's name in a play. */
export const RESOLVE_TEMPLATE = 'resolve-repository';

/** The outputs of the step for a stage machine's agents: the repository's, then each agent's. */
export function resolveOutputs(agents: readonly string[]): string[] {
  return [
    ...Object.values(RepositoryOutputs),
    ...agents.flatMap((agent) => [AgentOutputs.cli(agent), AgentOutputs.claim(agent), AgentOutputs.settings(agent)]),
  ];
}

/** The template that resolves the play's repository, for a play WorkflowTemplate named `playTemplate`. */
export function resolveRepositoryTemplate(props: { playTemplate: string; agents: readonly string[]; runtimeImage: string }): Template {
  const template = runtimeStepTemplate({
    name: RESOLVE_TEMPLATE,
    step: resolveRepositoryStep,
    image: props.runtimeImage,
    env: {
      namespace: WorkflowVariables.namespace,
      workflowName: WorkflowVariables.name,
      repository: workflowParameter(PlayParameters.repository),
      task: workflowParameter(PlayParameters.taskId),
      startStage: workflowParameter(PlayParameters.startStage),
      round: workflowParameter(PlayParameters.round),
      playTemplate: props.playTemplate,
      agents: props.agents.join(' '),
    },
    retry: { limit: 3, backoffSeconds: 5 },
    outputs: false,
  });
  return {
    ...template,
    outputs: {
      parameters: resolveOutputs(props.agents).map((name) => ({ name, globalName: name, valueFrom: { path: outputPath(name) } })),
    },
  };
}
