/**
 * The direct run of one agent in a play stage: an Argo script step in the CLI's own image that runs the CLI
 * on the task's workspace (direct execution; no CodeRun, no controller). The stage machine, its gates,
 * Sensors and exit handler are the play's, shared with the CodeRun path; only the agent's work differs.
 */
// @ts-nocheck

import { WorkflowVariables, workflowParameter } from '../model/argo-expressions';
import type { AgentConfig, CliConfig } from '../model/config-shapes';
import {
  agentHomeFolder,
  API_KEY_SECRET_KEY,
  cliApiKeySecretName,
  directRefusal,
  ExecutionSchema,
  GITHUB_API_URL,
  GITHUB_SERVER_URL,
  GithubEndpointsSchema,
  type GithubEndpoints,
  ResourcesSchema,
  resourcesProblem,
  type AgentResources,
  type ExecutionMode,
  taskStateFolder,
} from '../model/direct-execution';
import { isDnsSubdomain } from '../model/naming';
import { checkProp, schemaProblem } from '../model/prop-checks';
import { apiKeyVariableOf, EXECUTOR_TABLE, executorOfCli, type DirectInvocation } from '../model/executors';
import { CodeRunLabels, PlayLabels } from '../model/labels';
import { githubAppSecretName, systemPromptKey } from '../model/naming';
import { PlayParameters } from '../model/play-contract';
import type { EnvVar, PodSecurityContext, SecurityContext, Template, Volume, VolumeMount } from './argo-types';
import { DIRECT_AGENT_SCRIPT, DirectAgentEnv } from './direct-agent-script';
import { EXECUTOR_POD_SPEC_PATCH, HARDENED_CONTAINER } from './hardened-pod';
import { boundedRetry, IMAGE_PULL_ALLOWANCE_SECONDS } from './retry-policy';

/** Where a direct agent's pod mounts its workspace claim. */
export const DIRECT_WORKSPACE_PATH = '/workspace';
/** Where the agent's system prompt file is mounted (one file, `system-prompt.md`). */
export const DIRECT_PROMPT_PATH = '/etc/agent-play/prompt';
/** Where the GitHub App Secret's keys are mounted read-only, one file per key. */
export const DIRECT_GITHUB_APP_PATH = '/var/run/secrets/agent-play/github-app';
/**
 * The agent's writable /tmp. Larger than the helpers' scratch volume: builds and test runs the agent starts
 * write there, and a pod past its emptyDir's sizeLimit is evicted.
 */
export const DIRECT_TMP_SIZE = '4Gi';
export { GITHUB_API_URL, GITHUB_SERVER_URL } from '../model/direct-execution';
/** The name of the system prompt file under `DIRECT_PROMPT_PATH`. */
const PROMPT_FILE = 'system-prompt.md';

/**
 * The user the CLI runs as: the CodeRun controller's agent pods run as 1000 (seed-origin section 4.2), the
 * owner most CLI images give their home and tools.
 */
export const AGENT_USER_ID = 1000;

/** The wait before an agent's next attempt, as on the CodeRun path. */
const AGENT_BACKOFF_SECONDS = 60;

/** What `directAgentTemplates` takes. */
export interface DirectAgentRunProps {
  /** The name of the run's template, which the play's DAG task names (`agentRunTemplateName`). */
  readonly name: string;
  /** The stage the run belongs to. */
  readonly stage: string;
  /** The agent's key in the registry. */
  readonly agentName: string;
  /** The agent. */
  readonly agent: AgentConfig;
  /** The CLI the agent runs with in this repository (its key), and its registry entry. */
  readonly cliName: string;
  /** The CLI's registry entry (its pinned image, provider and executor). */
  readonly cli: CliConfig;
  /**
   * What the play knows of its repository when the step runs: literal values, or the Argo references the
   * play's `resolve-repository` step fills (`repositoryReferences`).
   */
  readonly repository: RepositoryValues;
  /** How long one attempt may work, in seconds (the pod's deadline, plus the image pull allowance). */
  readonly timeoutSeconds: number;
  /** How many times a failed attempt is retried (`0`: never). */
  readonly retries: number;
  /** The container's CPU and memory requests and limits. */
  readonly resources: AgentResources;
  /** The agents ConfigMap that holds the system prompts (`AgentsConfigMap`). */
  readonly agentsConfigMap: string;
  /**
   * Where the agent reaches GitHub: the REST API its App's installation tokens come from, and the git server
   * it clones from. @default github.com (`GITHUB_API_URL`, `GITHUB_SERVER_URL`)
   */
  readonly github?: GithubEndpoints;
  /**
   * The service account of Argo's executor containers (`init`, `wait`) in the agent's pod: they report the
   * step's results with it. The pod mounts no token of its own, so the CLI holds no Kubernetes credentials; the
   * account needs a token Secret (`ServiceAccountTokenSecret`), which Argo mounts in the executor containers only.
   */
  readonly executorServiceAccountName: string;
}

/** The values of a play's repository a direct run reads: literal, or Argo references. */
export interface RepositoryValues {
  /** `owner/name`. */
  readonly name: string;
  /** The branch pull requests merge into. */
  readonly branch: string;
  /** The folder the agent works in, inside the checkout. */
  readonly workingDirectory: string;
  /** The workspace claim of this agent in this repository (its mutex too). */
  readonly claim: string;
}

/** The direct-execution props of a play (`PlayWorkflowTemplateProps`), as its constructor checks them. */
export interface DirectPlayProps {
  /** The play's execution mode. @default coderun */
  readonly execution?: ExecutionMode;
  /** Direct agents' default resources. @default DEFAULT_DIRECT_RESOURCES */
  readonly directResources?: AgentResources;
  /** The agents ConfigMap's name. @default controller-agents */
  readonly agentsConfigMap?: string;
  /** Where direct agents reach GitHub (a GitHub Enterprise Server's URLs). @default github.com */
  readonly directGithub?: GithubEndpoints;
}

/**
 * Checks a play's direct-execution props: the mode is one of `EXECUTION_MODES`, the resources are Kubernetes
 * quantities with each request at most its limit, the ConfigMap name is a legal name, the GitHub URLs are https
 * URLs.
 *
 * @throws naming the owner, the prop and what to change
 */
export function checkDirectPlayProps(owner: string, props: DirectPlayProps): void {
  if (props.execution !== undefined) checkProp(owner, 'execution', props.execution, schemaProblem(ExecutionSchema, props.execution));
  if (props.directResources !== undefined) {
    checkProp(owner, 'directResources', undefined, schemaProblem(ResourcesSchema, props.directResources));
    checkProp(owner, 'directResources', undefined, resourcesProblem(ResourcesSchema.parse(props.directResources)));
  }
  if (props.agentsConfigMap !== undefined)
    checkProp(
      owner,
      'agentsConfigMap',
      props.agentsConfigMap,
      isDnsSubdomain(props.agentsConfigMap) ? undefined : 'is not a ConfigMap name: use lower-case letters, digits, "-" and "."',
    );
  if (props.directGithub !== undefined)
    checkProp(owner, 'directGithub', undefined, schemaProblem(GithubEndpointsSchema, props.directGithub));
}

/** The invocation of the agent's CLI. @throws when direct execution refuses the CLI, naming the agent and the fix */
function invocationOf(props: DirectAgentRunProps): DirectInvocation {
  const refusal = directRefusal(props.cliName, props.cli);
  const executor = executorOfCli(props.cliName, props.cli);
  const direct = executor === undefined ? undefined : EXECUTOR_TABLE[executor].direct;
  if (refusal !== undefined || direct === undefined)
    throw new Error(`agent "${props.agentName}" runs direct, but ${refusal}; set agents.${props.agentName}.execution: coderun`);
  return direct;
}

/** The environment of the direct script: every value the script reads, and the CLI's API key. */
function directEnvironment(props: DirectAgentRunProps, invocation: DirectInvocation): EnvVar[] {
  const E = DirectAgentEnv;
  const home = `${DIRECT_WORKSPACE_PATH}/${agentHomeFolder(props.agentName)}`;
  return [
    { name: 'HOME', value: home },
    { name: E.cli, value: props.cliName },
    { name: E.agent, value: props.agentName },
    { name: E.binary, value: invocation.binary },
    { name: E.spawnArgs, value: JSON.stringify(invocation.spawn) },
    { name: E.resumeArgs, value: JSON.stringify(invocation.resume) },
    { name: E.sessionIdSource, value: invocation.sessionId },
    { name: E.sessionIdFilter, value: invocation.sessionIdFilter ?? '' },
    { name: E.resultFilter, value: invocation.resultFilter },
    { name: E.systemPromptFlag, value: String(invocation.systemPromptFlag) },
    { name: E.systemPromptFile, value: `${DIRECT_PROMPT_PATH}/${PROMPT_FILE}` },
    { name: E.model, value: props.agent.model },
    { name: E.taskId, value: workflowParameter(PlayParameters.taskId) },
    { name: E.repository, value: props.repository.name },
    { name: E.baseBranch, value: props.repository.branch },
    { name: E.round, value: workflowParameter(PlayParameters.round) },
    { name: E.stage, value: props.stage },
    { name: E.workflowName, value: WorkflowVariables.name },
    { name: E.workspace, value: DIRECT_WORKSPACE_PATH },
    { name: E.checkout, value: props.repository.workingDirectory },
    { name: E.stateFolder, value: taskStateFolder(workflowParameter(PlayParameters.taskId)) },
    { name: E.githubAppCredentials, value: DIRECT_GITHUB_APP_PATH },
    { name: E.githubApp, value: props.agent.githubApp },
    { name: E.githubApi, value: props.github?.apiUrl ?? GITHUB_API_URL },
    { name: E.gitServer, value: props.github?.serverUrl ?? GITHUB_SERVER_URL },
    {
      name: apiKeyVariableOf(invocation, props.cli.provider),
      valueFrom: { secretKeyRef: { name: cliApiKeySecretName(props.cliName), key: API_KEY_SECRET_KEY } },
    },
  ];
}

/** The volumes of the run's pod: the workspace claim, the agent's prompt, its GitHub App. */
function directVolumes(props: DirectAgentRunProps): { volumes: Volume[]; mounts: VolumeMount[] } {
  const claimName = props.repository.claim;
  return {
    volumes: [
      { name: 'workspace', persistentVolumeClaim: { claimName } },
      {
        name: 'agent-prompt',
        configMap: { name: props.agentsConfigMap, items: [{ key: systemPromptKey(props.agent.githubApp), path: PROMPT_FILE }] },
      },
      { name: 'github-app', secret: { secretName: githubAppSecretName(props.agent.githubApp), defaultMode: 0o440 } },
      { name: 'agent-tmp', emptyDir: { sizeLimit: DIRECT_TMP_SIZE } },
    ],
    mounts: [
      { name: 'workspace', mountPath: DIRECT_WORKSPACE_PATH },
      { name: 'agent-prompt', mountPath: DIRECT_PROMPT_PATH, readOnly: true },
      { name: 'github-app', mountPath: DIRECT_GITHUB_APP_PATH, readOnly: true },
      { name: 'agent-tmp', mountPath: '/tmp' },
    ],
  };
}

/** The agent's pod: restricted Pod Security as the user the CLI images expect; the workspace group-writable. */
const AGENT_POD: PodSecurityContext = {
  runAsNonRoot: true,
  runAsUser: AGENT_USER_ID,
  runAsGroup: AGENT_USER_ID,
  fsGroup: AGENT_USER_ID,
  seccompProfile: { type: 'RuntimeDefault' },
};

/** The agent's container: no root, no escalation, no capabilities; the root file system read-only. */
const AGENT_CONTAINER: SecurityContext = { ...HARDENED_CONTAINER, runAsUser: AGENT_USER_ID, runAsGroup: AGENT_USER_ID };

/** The name of the script template of a direct run named `run`. */
export function directAttemptTemplateName(run: string): string {
  return `${run}-agent`;
}

/**
 * The templates of one direct agent run:
 *
 * 1. `{name}` (steps): holds the mutex of the agent's workspace claim for the whole run, retries included:
 *    claims are ReadWriteOnce, so two plays of the repository take turns in a workspace (as on the CodeRun
 *    path);
 * 2. `{name}-agent` (script): the CLI's image runs the direct script (direct-agent-script.ts) with the
 *    workspace, the system prompt from the agents ConfigMap, the GitHub App Secret (read-only files) and the
 *    CLI's API key Secret; hardened (restricted Pod Security, read-only root with HOME on the workspace and a
 *    `DIRECT_TMP_SIZE` /tmp); `activeDeadlineSeconds` is the stage timeout plus the pull allowance, and a failed
 *    attempt (non-zero exit) is retried with `boundedRetry`: every retry resumes the same CLI session. The
 *    pod mounts no service-account token (`automountServiceAccountToken: false`): a prompt-injected CLI
 *    cannot reach the Kubernetes API, let alone rewrite its play; Argo's executor containers get the
 *    executor's token (`executor.serviceAccountName`: argo-workflows `workflow/controller/workflowpod.go`,
 *    `setupServiceAccount`), mounted in them alone.
 *
 * @throws when direct execution refuses the agent's CLI (executors.ts), naming the agent and the fix
 */
export function directAgentTemplates(props: DirectAgentRunProps): Template[] {
  const invocation = invocationOf(props);
  const attemptSeconds = props.timeoutSeconds + IMAGE_PULL_ALLOWANCE_SECONDS;
  const { volumes, mounts } = directVolumes(props);
  const attempt = directAttemptTemplateName(props.name);
  const run: Template = {
    name: props.name,
    synchronization: { mutexes: [{ name: props.repository.claim }] },
    steps: [[{ name: 'agent', template: attempt }]],
  };
  const script: Template = {
    name: attempt,
    metadata: {
      labels: {
        [PlayLabels.taskId]: workflowParameter(PlayParameters.taskId),
        [PlayLabels.round]: workflowParameter(PlayParameters.round),
        [CodeRunLabels.stage]: props.stage,
        [CodeRunLabels.githubApp]: props.agent.githubApp,
      },
    },
    retryStrategy: boundedRetry({ limit: props.retries, attemptSeconds, backoffSeconds: AGENT_BACKOFF_SECONDS }),
    activeDeadlineSeconds: attemptSeconds,
    automountServiceAccountToken: false,
    executor: { serviceAccountName: props.executorServiceAccountName },
    securityContext: AGENT_POD,
    podSpecPatch: EXECUTOR_POD_SPEC_PATCH,
    volumes,
    script: {
      image: props.cli.image,
      command: ['bash'],
      source: DIRECT_AGENT_SCRIPT,
      workingDir: DIRECT_WORKSPACE_PATH,
      env: directEnvironment(props, invocation),
      securityContext: AGENT_CONTAINER,
      resources: { requests: { ...props.resources.requests }, limits: { ...props.resources.limits } },
      volumeMounts: mounts,
    },
  };
  return [run, script];
}
