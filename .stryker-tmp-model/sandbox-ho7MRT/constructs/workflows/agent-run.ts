/**
 * The run of one agent of a play stage: a CodeRun per attempt for the CodeRun controller (`codeRunTemplates`),
 * or the agent's CLI in a step of the play (`directAgentTemplates`), as the agent's execution mode says. What
 * belongs to the play's repository (its service, folders, the agent's workspace claim and CLI there) comes
 * from the play's `resolve-repository` step, as global output parameters: one template serves every
 * repository.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { workflowOutput, workflowOutputExpression, workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import type { AgentConfig, CliConfig } from '../model/config-shapes';
import { durationSeconds } from '../model/duration';
import { executionOf, resourcesOf, type AgentResources, type ExecutionMode, type GithubEndpoints } from '../model/direct-execution';
import { agentRunTemplateName, PlayParameters, PlayTemplates } from '../model/play-contract';
import type { AgentStage } from '../model/stage-machine';
import { AgentOutputs, RepositoryOutputs } from '../registry/registry-layout';
import type { Template } from './argo-types';
import { ArgoValue, codeRunTemplates } from './coderun-manifest';
import { directAgentTemplates, type RepositoryValues } from './direct-agent-run';

/** What every agent run of a play shares. */
export interface AgentRunContext {
  readonly agents: Readonly<Record<string, AgentConfig>>;
  readonly clis: Readonly<Record<string, CliConfig>>;
  /** The platform's execution mode; an agent's own wins. */
  readonly execution?: ExecutionMode;
  /** The CLI each direct agent runs with in the repositories of this play template. */
  readonly directClis: Readonly<Record<string, string>>;
  /** Direct agents' resources unless an agent sets its own. */
  readonly directResources: AgentResources;
  readonly agentsConfigMap: string;
  readonly directGithub?: GithubEndpoints;
  /** The service account of the play's executor containers (direct agents' pods give the CLI no token). */
  readonly serviceAccountName: string;
}

/** The repository's values of a direct run of `agent`: references to the play's resolved settings. */
export function repositoryReferences(agent: string): RepositoryValues {
  return {
    name: workflowOutput(RepositoryOutputs.name),
    branch: workflowOutput(RepositoryOutputs.branch),
    workingDirectory: workflowOutput(RepositoryOutputs.workingDirectory),
    claim: workflowOutput(AgentOutputs.claim(agent)),
  };
}

/** The CLI a direct agent runs with in this template's repositories, else the agent's registry CLI. */
export function directCliOf(agent: string, context: AgentRunContext): string {
  return context.directClis[agent] ?? context.agents[agent].cli;
}

/** Whether any agent of the stages runs on the CodeRun path (a play of direct agents only creates none). */
export function createsCodeRuns(agentStages: readonly AgentStage[], context: AgentRunContext): boolean {
  return agentStages.some((stage) => stage.agents.some((name) => executionOf(context.agents[name], context.execution) === 'coderun'));
}

/**
 * The templates of one agent's run in a stage; `parallelAgent` is set in a parallel stage. It holds a mutex
 * named after the agent's workspace claim while it runs (retries included): claims are ReadWriteOnce, so two
 * plays of the repository (parallel tasks) never work in one workspace at once; they take turns.
 */
export function agentRunTemplates(stage: AgentStage, parallelAgent: string | undefined, context: AgentRunContext): Template[] {
  const agentName = parallelAgent ?? stage.agents[0];
  const agent = context.agents[agentName];
  if (executionOf(agent, context.execution) === 'direct') {
    const cliName = directCliOf(agentName, context);
    return directAgentTemplates({
      name: agentRunTemplateName(stage.name, parallelAgent),
      stage: stage.name,
      agentName,
      agent,
      cliName,
      cli: context.clis[cliName],
      repository: repositoryReferences(agentName),
      timeoutSeconds: durationSeconds(stage.timeout),
      retries: stage.retries,
      resources: resourcesOf(context.directResources, agent.resources),
      agentsConfigMap: context.agentsConfigMap,
      github: context.directGithub,
      executorServiceAccountName: context.serviceAccountName,
    });
  }
  const output = (name: string) => workflowOutput(name);
  return codeRunTemplates({
    name: agentRunTemplateName(stage.name, parallelAgent),
    // An expression's text goes into the manifest unquoted (argo-workflows `util/template/expression_template.go`
    // trims the quotes of a JSON string result), so the name is encoded with toJson like every other value.
    generateName: ArgoValue.expression(
      `toJson(${workflowOutputExpression(RepositoryOutputs.service)} + '-${[stage.name, parallelAgent].filter(Boolean).join('-').slice(0, 40)}-')`,
    ),
    stage: stage.name,
    round: workflowParameter(PlayParameters.round),
    timeoutSeconds: durationSeconds(stage.timeout),
    retries: stage.retries,
    synchronization: { mutexes: [{ name: output(AgentOutputs.claim(agentName)) }] },
    cancelTemplate: PlayTemplates.cancelCodeRuns,
    spec: {
      taskId: ArgoValue.int(workflowParameter(PlayParameters.taskId)),
      service: output(RepositoryOutputs.service),
      repositoryUrl: output(RepositoryOutputs.name),
      docsRepositoryUrl: output(RepositoryOutputs.docsRepository),
      docsProjectDirectory: output(RepositoryOutputs.docsProjectDirectory),
      docsBranch: output(RepositoryOutputs.docsBranch),
      workingDirectory: output(RepositoryOutputs.workingDirectory),
      model: agent.model,
      githubApp: agent.githubApp,
      continueSession: true,
      overwriteMemory: false,
      contextVersion: 1,
      taskRequirements: workflowParameter(PlayParameters.taskRequirements),
      env: {
        WORKFLOW_STAGE: stage.name,
        WORKFLOW_NAME: WorkflowVariables.name,
        TASK_ID: workflowParameter(PlayParameters.taskId),
        ROUND: workflowParameter(PlayParameters.round),
      },
      cliConfig: {
        cliType: output(AgentOutputs.cli(agentName)),
        model: agent.model,
        maxTokens: agent.maxTokens,
        temperature: agent.temperature,
        settings: ArgoValue.expression(`fromJSON(${workflowOutputExpression(AgentOutputs.settings(agentName))})`),
      },
    },
  });
}
