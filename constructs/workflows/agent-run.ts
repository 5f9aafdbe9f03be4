/**
 * The run of one agent of a play stage: a CodeRun per attempt for the CodeRun controller (`codeRunTemplates`),
 * or the agent's CLI in a step of the play (`directAgentTemplates`), as the agent's execution mode says.
 *
 * Pure: no cdk8s, no I/O.
 */
import { workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import type { AgentConfig, CliConfig, RepositoryConfig } from '../model/config-shapes';
import { durationSeconds } from '../model/duration';
import {
  agentCliOf,
  executionOf,
  resourcesOf,
  type AgentResources,
  type ExecutionMode,
  type GithubEndpoints,
} from '../model/direct-execution';
import { workspaceOfAgent } from '../model/naming';
import { agentRunTemplateName, PlayParameters, PlayTemplates } from '../model/play-contract';
import type { AgentStage } from '../model/stage-machine';
import type { Template } from './argo-types';
import { ArgoValue, codeRunTemplates } from './coderun-manifest';
import { directAgentTemplates } from './direct-agent-run';

/** What every agent run of a play shares. */
export interface AgentRunContext {
  readonly repository: RepositoryConfig;
  readonly agents: Readonly<Record<string, AgentConfig>>;
  readonly clis: Readonly<Record<string, CliConfig>>;
  /** The platform's execution mode; an agent's own wins. */
  readonly execution?: ExecutionMode;
  /** Direct agents' resources unless an agent sets its own. */
  readonly directResources: AgentResources;
  readonly agentsConfigMap: string;
  readonly directGithub?: GithubEndpoints;
  /** The service account of the play's executor containers (direct agents' pods give the CLI no token). */
  readonly serviceAccountName: string;
}

/** The CLI an agent runs with in the play's repository: the repository's own binding, else the registry's. */
export function cliOf(agent: string, context: AgentRunContext): string {
  return agentCliOf(agent, context.agents[agent], context.repository);
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
  const cliName = cliOf(agentName, context);
  const cli = context.clis[cliName];
  const repository = context.repository;
  if (executionOf(agent, context.execution) === 'direct')
    return directAgentTemplates({
      name: agentRunTemplateName(stage.name, parallelAgent),
      stage: stage.name,
      agentName,
      agent,
      cliName,
      cli,
      repository,
      timeoutSeconds: durationSeconds(stage.timeout),
      retries: stage.retries,
      resources: resourcesOf(context.directResources, agent.resources),
      agentsConfigMap: context.agentsConfigMap,
      github: context.directGithub,
      executorServiceAccountName: context.serviceAccountName,
    });
  const settings = { ...cli.settings, ...(agent.reasoningEffort ? { reasoningEffort: agent.reasoningEffort } : {}) };
  return codeRunTemplates({
    name: agentRunTemplateName(stage.name, parallelAgent),
    generateName: `${[repository.service, stage.name, parallelAgent].filter(Boolean).join('-')}-`.slice(0, 50),
    stage: stage.name,
    round: workflowParameter(PlayParameters.round),
    timeoutSeconds: durationSeconds(stage.timeout),
    retries: stage.retries,
    synchronization: { mutexes: [{ name: workspaceOfAgent(repository.service, agentName, agent.role) }] },
    cancelTemplate: PlayTemplates.cancelCodeRuns,
    spec: {
      taskId: ArgoValue.int(workflowParameter(PlayParameters.taskId)),
      service: repository.service,
      repositoryUrl: repository.name,
      docsRepositoryUrl: repository.docsRepository ?? repository.name,
      docsProjectDirectory: repository.docsProjectDirectory,
      docsBranch: repository.docsBranch ?? repository.branch,
      workingDirectory: repository.workingDirectory ?? repository.service,
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
        cliType: cliName,
        model: agent.model,
        maxTokens: agent.maxTokens,
        temperature: agent.temperature,
        ...(Object.keys(settings).length > 0 ? { settings } : {}),
      },
    },
  });
}
