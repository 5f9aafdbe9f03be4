/**
 * The first step of every play: what belongs to the play's repository, from the registry. It puts the
 * play's labels (`playLabels`: type, task, repository, stage and round) and the repository's annotation on
 * the play, and gives every later step of the play the repository's service, branch, folders, and each
 * agent's CLI, workspace claim and CLI settings, as global output parameters.
 *
 * The resumer and the remediator find plays by those labels. The template's `workflowMetadata` gives all
 * but the repository's too, but the workflow controller applies it only to a Workflow it first sees with no
 * phase (upstream `workflow/controller/operator.go`, `setExecWorkflow`). A Workflow it postponed first (its
 * parallelism limits, or the throttler not yet told of a new Workflow: `processNextItem` in
 * `workflow/controller/controller.go`) is Pending by then and never gets them; so the step writes them all.
 *
 * Pure: no cdk8s, no I/O.
 */
import { PlayAnnotations } from '../model/labels';
import { repositoryLabelValue } from '../model/naming';
import { playLabels } from '../model/play-workflow';
import { explainApiError } from '../runtime/conflict-retry';
import { workflowRef } from '../runtime/kube-api';
import { count, StepEnv, taskId, text, words } from '../runtime/step-env';
import { runtimeStep, StepFailure } from '../runtime/runtime-step';
import { readRegistryEntry } from './registry-reader';
import { AgentOutputs, RepositoryOutputs, registryConfigMapOf } from './registry-layout';

const env = new StepEnv({
  namespace: text('NAMESPACE'),
  workflowName: text('WORKFLOW_NAME'),
  /** The play's `repository` parameter, `owner/name` in any letter case. */
  repository: text('REPOSITORY'),
  /** The play's `task-id`, `start-stage` and `round` parameters, for its labels. */
  task: taskId('TASK_ID'),
  startStage: text('START_STAGE'),
  round: count('ROUND', 1),
  /** The WorkflowTemplate the play runs: the registry must name it for the repository. */
  playTemplate: text('PLAY_TEMPLATE'),
  /** The agents of the play's stage machine. */
  agents: words('AGENTS'),
});

export const resolveRepositoryStep = runtimeStep({
  name: 'resolve-repository',
  description: "a play's first step: its repository's settings from the registry, for the later steps",
  env,
  outputs: Object.values(RepositoryOutputs),
  async run(context, values) {
    let label: string;
    try {
      label = repositoryLabelValue(values.repository);
    } catch (error) {
      throw new StepFailure(`REPOSITORY: ${(error as Error).message}`);
    }
    const entry = await readRegistryEntry(context, values.namespace, values.repository);
    if (entry === undefined)
      throw new StepFailure(
        `repository ${values.repository} is not in the platform's registry (${registryConfigMapOf(values.repository)}): add it to the configuration's repositories and sync the platform`,
      );
    if (entry.playTemplate !== values.playTemplate)
      throw new StepFailure(
        `repository ${entry.name} runs WorkflowTemplate ${entry.playTemplate}, not ${values.playTemplate}: submit it from that one`,
      );
    const agents: Record<string, string> = {};
    for (const agent of values.agents) {
      const settings = entry.agents[agent];
      if (settings === undefined) throw new StepFailure(`the registry entry of ${entry.name} has no agent ${agent}: sync the platform`);
      agents[AgentOutputs.cli(agent)] = settings.cli;
      agents[AgentOutputs.claim(agent)] = settings.claim;
      agents[AgentOutputs.settings(agent)] = settings.settings;
    }
    try {
      await context.api.mergePatch(workflowRef(values.namespace, values.workflowName), {
        metadata: {
          labels: playLabels({
            task: String(values.task),
            repository: values.repository,
            stage: values.startStage,
            round: String(values.round),
          }),
          annotations: { [PlayAnnotations.repository]: entry.name },
        },
      });
    } catch (error) {
      throw explainApiError(error, `labelling play ${values.workflowName}`);
    }
    context.log(`play ${values.workflowName} runs ${entry.name} (service ${entry.service}, branch ${entry.branch})`);
    return {
      [RepositoryOutputs.name]: entry.name,
      [RepositoryOutputs.label]: label,
      [RepositoryOutputs.service]: entry.service,
      [RepositoryOutputs.branch]: entry.branch,
      [RepositoryOutputs.workingDirectory]: entry.workingDirectory,
      [RepositoryOutputs.docsRepository]: entry.docsRepository,
      [RepositoryOutputs.docsProjectDirectory]: entry.docsProjectDirectory,
      [RepositoryOutputs.docsBranch]: entry.docsBranch,
      ...agents,
    };
  },
});
