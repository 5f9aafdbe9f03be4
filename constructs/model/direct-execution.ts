/**
 * Direct execution (`execution: direct`): agent stages run the agent's CLI in an Argo step instead of creating
 * a CodeRun for a controller. Here: the mode and resource schemas, their defaults (defined once), the names of
 * the Secrets a direct agent reads, the workspace paths of its sessions, and the rule that refuses a CLI whose
 * non-interactive session could not be confirmed (see executors.ts).
 *
 * Pure: no cdk8s, no I/O.
 */
import { z } from 'zod';
import { EXECUTOR_TABLE, EXECUTORS, executorOfCli, type Executor, type ExecutorName } from './executors';

/** How agent stages run: `coderun` creates a CodeRun for the controller; `direct` runs the agent's CLI in the play. */
export const EXECUTION_MODES = ['coderun', 'direct'] as const;

/** One of `EXECUTION_MODES`. */
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

/** How agent stages run unless the config says otherwise. */
export const DEFAULT_EXECUTION: ExecutionMode = 'coderun';

/**
 * The `execution` field of the platform and of an agent.
 * @internal zod's types stay out of the public declarations.
 */
export const ExecutionSchema = z.enum(EXECUTION_MODES);

/** CPU as Kubernetes writes it: millicores (`500m`) or cores (`2`, `1.5`). */
const CPU = /^([1-9][0-9]*m|[0-9]+(\.[0-9]{1,3})?)$/;
/** Memory in binary units (`512Mi`, `4Gi`). */
const MEMORY = /^[1-9][0-9]*(Ki|Mi|Gi|Ti)$/;

const cpu = z.string().regex(CPU, { message: 'expected CPU such as 500m or 2' });
const memory = z.string().regex(MEMORY, { message: 'expected memory such as 512Mi or 4Gi' });

/** The requests and limits of a direct agent's container unless the config says otherwise. */
export const DEFAULT_DIRECT_RESOURCES = {
  requests: { cpu: '500m', memory: '1Gi' },
  limits: { cpu: '2', memory: '4Gi' },
} as const;

/** CPU and memory, each optional (an agent overrides only what it names). */
const QuantitiesSchema = z.strictObject({
  cpu: cpu.optional().describe("CPU, e.g. 500m or 2. @default the platform's"),
  memory: memory.optional().describe("Memory, e.g. 512Mi or 4Gi. @default the platform's"),
});

/**
 * An agent's override of the direct resources (`agents.X.resources`): only what it names changes.
 * @internal zod's types stay out of the public declarations: `AgentResourcesOverride` is its type.
 */
export const AgentResourcesSchema = z.strictObject({
  requests: QuantitiesSchema.optional().describe("The container's requests. @default the platform's"),
  limits: QuantitiesSchema.optional().describe("The container's limits. @default the platform's"),
});

/**
 * The resources of a direct agent's container: requests and limits of CPU and memory.
 * @internal zod's types stay out of the public declarations: `AgentResources` is its type.
 */
export const ResourcesSchema = z.strictObject({
  requests: z
    .strictObject({
      cpu: cpu.default(DEFAULT_DIRECT_RESOURCES.requests.cpu).describe('The CPU requested, e.g. 500m or 2.'),
      memory: memory.default(DEFAULT_DIRECT_RESOURCES.requests.memory).describe('The memory requested, e.g. 512Mi or 4Gi.'),
    })
    .prefault({})
    .describe("The container's requests."),
  limits: z
    .strictObject({
      cpu: cpu.default(DEFAULT_DIRECT_RESOURCES.limits.cpu).describe('The most CPU the container may use.'),
      memory: memory.default(DEFAULT_DIRECT_RESOURCES.limits.memory).describe('The most memory the container may use.'),
    })
    .prefault({})
    .describe("The container's limits."),
});

/** GitHub's REST API, where a direct agent's App gets its installation tokens, unless the config says otherwise. */
export const GITHUB_API_URL = 'https://api.github.com';
/** GitHub's git server, where a direct agent clones `{server}/{owner}/{name}.git`, unless the config says otherwise. */
export const GITHUB_SERVER_URL = 'https://github.com';

/**
 * An https URL without user, query, fragment or trailing slash (the script appends `/app/...` and
 * `/{owner}/{name}.git`), and without `{`: it reaches the pod through an Argo template, where `{{` would be
 * an expression.
 */
const HTTPS_URL =
  /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]{1,5})?(?:\/[A-Za-z0-9._~-]+)*$/;
const httpsUrl = (example: string) =>
  z.string().regex(HTTPS_URL, { message: `expected an https URL without a trailing slash, such as ${example}` });

/**
 * Where direct agents reach GitHub: github.com, or a GitHub Enterprise Server (`apiUrl`
 * `https://{host}/api/v3`, `serverUrl` `https://{host}`).
 * @internal zod's types stay out of the public declarations: `GithubEndpoints` is its type.
 */
export const GithubEndpointsSchema = z.strictObject({
  apiUrl: httpsUrl('https://github.example.com/api/v3')
    .default(GITHUB_API_URL)
    .describe("GitHub's REST API, where a direct agent's App gets its installation tokens."),
  serverUrl: httpsUrl('https://github.example.com')
    .default(GITHUB_SERVER_URL)
    .describe("GitHub's git server, where a direct agent clones its repository."),
});

/**
 * The platform's settings of direct execution (`direct`): the default resources of every direct agent, and
 * the GitHub its agents work with.
 * @internal zod's types stay out of the public declarations: `DirectConfig` is its type.
 */
export const DirectSchema = z.strictObject({
  resources: ResourcesSchema.prefault({}).describe("The default resources of every direct agent's container."),
  github: GithubEndpointsSchema.prefault({}).describe('The GitHub direct agents work with: github.com or a GitHub Enterprise Server.'),
});

// Their types: plain interfaces generated from these schemas (scripts/generate-config-types.ts).
import type { AgentResources, AgentResourcesOverride } from './config-types.generated';
export type { AgentResources, AgentResourcesOverride, DirectConfig, GithubEndpoints } from './config-types.generated';

/** The resources of an agent: the platform's, with the agent's overrides on top. */
export function resourcesOf(platform: AgentResources, override: AgentResourcesOverride | undefined): AgentResources {
  return {
    requests: { ...platform.requests, ...override?.requests },
    limits: { ...platform.limits, ...override?.limits },
  };
}

const MEMORY_FACTOR: Readonly<Record<string, number>> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };

function cpuMillis(text: string): number {
  return text.endsWith('m') ? Number(text.slice(0, -1)) : Number(text) * 1000;
}

function memoryBytes(text: string): number {
  return Number(text.slice(0, -2)) * MEMORY_FACTOR[text.slice(-2)];
}

/** Why these resources cannot be scheduled as written (a request above its limit), or `undefined`. */
export function resourcesProblem(resources: AgentResources): string | undefined {
  if (cpuMillis(resources.requests.cpu) > cpuMillis(resources.limits.cpu))
    return `the CPU request ${resources.requests.cpu} is above the limit ${resources.limits.cpu}; lower the request or raise the limit`;
  if (memoryBytes(resources.requests.memory) > memoryBytes(resources.limits.memory))
    return `the memory request ${resources.requests.memory} is above the limit ${resources.limits.memory}; lower the request or raise the limit`;
  return undefined;
}

/** The execution mode of an agent: its own, else the platform's. */
export function executionOf(agent: { readonly execution?: ExecutionMode }, platform: ExecutionMode | undefined): ExecutionMode {
  return agent.execution ?? platform ?? DEFAULT_EXECUTION;
}

/** How one agent works for one repository: its execution mode and the CLI it runs. */
export interface AgentExecution {
  /** `direct` (the CLI runs in the play's pod) or `coderun` (a CodeRun for the controller). */
  readonly mode: ExecutionMode;
  /** The CLI: the repository's `agentClis` binding, else the agent's own `cli`. */
  readonly cli: string;
}

/** The CLI an agent runs for a repository: the repository's `agentClis` binding wins over the agent's own. */
export function agentCliOf(
  agentName: string,
  agent: { readonly cli: string },
  repository: { readonly agentClis?: Readonly<Record<string, string>> },
): string {
  return repository.agentClis?.[agentName] ?? agent.cli;
}

/**
 * How an agent works for a repository (its mode and CLI), resolved from the config the one way the play
 * templates resolve it.
 *
 * @throws Error when the agent is not configured
 */
export function agentExecution(
  config: {
    readonly execution?: ExecutionMode;
    readonly agents: Readonly<Record<string, { readonly cli: string; readonly execution?: ExecutionMode }>>;
  },
  repository: { readonly agentClis?: Readonly<Record<string, string>> },
  agentName: string,
): AgentExecution {
  const agent = config.agents[agentName];
  if (agent === undefined) throw new Error(`agent "${agentName}" is not configured; configured: ${Object.keys(config.agents).join(', ')}`);
  return { mode: executionOf(agent, config.execution), cli: agentCliOf(agentName, agent, repository) };
}

/**
 * Why an agent bound to CLI `cliName` cannot run direct, as the end of a sentence, or `undefined` when it can.
 * The caller names the agent's path and suggests `execution: coderun`.
 */
export function directRefusal(cliName: string, cli: { readonly executor?: ExecutorName }): string | undefined {
  const executor = executorOfCli(cliName, cli);
  if (executor === undefined)
    return `CLI "${cliName}" names no executor, so its non-interactive invocation is unknown (set clis.${cliName}.executor to one of: ${EXECUTORS.join(', ')})`;
  const entry: Executor = EXECUTOR_TABLE[executor];
  return entry.refusal === undefined ? undefined : `CLI "${cliName}" (executor ${executor}) cannot run direct: ${entry.refusal}`;
}

/**
 * The largest system prompt of a direct agent, in bytes (UTF-8). The CLI gets it as one argument (claude's
 * `--append-system-prompt`) or at the head of its first prompt, beside at most 48 KiB of context; Linux
 * refuses a single argument over 128 KiB (MAX_ARG_STRLEN), which would fail every attempt.
 */
export const MAX_DIRECT_SYSTEM_PROMPT_BYTES = 64 * 1024;

/** The folder, relative to the workspace root, where a task's sessions and its context file live. */
export function taskStateFolder(taskId: string): string {
  return `.agent-play/sessions/task-${taskId}`;
}

/** The home folder of an agent on its workspace: the CLI keeps its own session store there, across pods. */
export function agentHomeFolder(agent: string): string {
  return `.agent-play/home/${agent}`;
}

/** The key of the API-key Secret a direct agent's CLI reads. */
export const API_KEY_SECRET_KEY = 'api-key';

/** The Secret that holds a CLI's API key for direct agents: `claude` reads `claude-api-key`. */
export function cliApiKeySecretName(cli: string): string {
  return `${cli}-api-key`;
}

/** The keys of a GitHub App Secret a direct agent mounts (`githubAppSecretName`), each a file. */
export const GITHUB_APP_SECRET_KEYS = ['app-id', 'private-key', 'installation-id'] as const;

interface Problem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** The parts of a platform config the direct rules read. */
export interface DirectConfigView {
  readonly execution: ExecutionMode;
  readonly direct: { readonly resources: AgentResources };
  readonly agents: Readonly<
    Record<
      string,
      {
        readonly cli: string;
        readonly systemPrompt: string;
        readonly execution?: ExecutionMode;
        readonly resources?: AgentResourcesOverride;
      }
    >
  >;
  readonly clis: Readonly<Record<string, { readonly executor?: ExecutorName }>>;
  readonly repositories: readonly { readonly agentClis: Readonly<Record<string, string>> }[];
}

/**
 * Every direct agent's CLI (its binding and each repository's) must be one direct execution can run, and
 * every direct agent's resources must be schedulable; each problem at the path to change.
 */
export function directExecutionProblems(config: DirectConfigView): Problem[] {
  const problems: Problem[] = [];
  const platformProblem = resourcesProblem(config.direct.resources);
  if (platformProblem !== undefined) problems.push({ path: ['direct', 'resources'], message: platformProblem });
  for (const [name, agent] of Object.entries(config.agents)) {
    if (executionOf(agent, config.execution) !== 'direct') continue;
    const clis = new Set([agent.cli, ...config.repositories.flatMap((repository) => repository.agentClis[name] ?? [])]);
    for (const cliName of clis) {
      const cli = config.clis[cliName];
      const refusal = cli === undefined ? undefined : directRefusal(cliName, cli);
      if (refusal !== undefined)
        problems.push({
          path: ['agents', name, 'execution'],
          message: `runs direct, but ${refusal}; set agents.${name}.execution: coderun`,
        });
    }
    const promptBytes = new TextEncoder().encode(agent.systemPrompt).length;
    if (promptBytes > MAX_DIRECT_SYSTEM_PROMPT_BYTES)
      problems.push({
        path: ['agents', name, 'systemPrompt'],
        message: `is ${promptBytes} bytes; a direct agent's CLI gets it as one argument, at most ${MAX_DIRECT_SYSTEM_PROMPT_BYTES} bytes: shorten it, or set agents.${name}.execution: coderun`,
      });
    if (agent.resources !== undefined) {
      const problem = resourcesProblem(resourcesOf(config.direct.resources, agent.resources));
      if (problem !== undefined) problems.push({ path: ['agents', name, 'resources'], message: problem });
    }
  }
  return problems;
}
