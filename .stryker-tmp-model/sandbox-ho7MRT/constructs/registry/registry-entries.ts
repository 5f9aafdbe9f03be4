/**
 * The registry entries and play template groups of a platform configuration: what each repository's plays
 * read at run time, and which play WorkflowTemplate runs them. Repositories share one template unless their
 * direct agents run other CLIs than the platform binds them to (a direct agent's CLI decides its step's image
 * and invocation, which a template fixes); each other set of such bindings gets a template of its own.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { byCodeUnits } from '../model/code-unit-order';
import type { AgentConfig, CliConfig, RepositoryConfig } from '../model/config-shapes';
import { agentCliOf, executionOf, type ExecutionMode } from '../model/direct-execution';
import { shortHash, workspaceOfAgent } from '../model/naming';
import { PLAY_TEMPLATE_NAME, playTemplateVariantName } from '../model/play-contract';
import type { RegistryAgent, RegistryEntry } from './registry-layout';

/** What the registry is built from. */
export interface RegistrySource {
  readonly repositories: readonly RepositoryConfig[];
  readonly agents: Readonly<Record<string, AgentConfig>>;
  readonly clis: Readonly<Record<string, CliConfig>>;
  readonly execution?: ExecutionMode;
  /** The agents of the stage machine, in the order the stages name them. */
  readonly stageAgents: readonly string[];
}

/** A play WorkflowTemplate and the repositories it runs. */
export interface PlayGroup {
  readonly template: string;
  /** The CLI of each direct agent in these repositories; empty when no agent runs direct. */
  readonly directClis: Readonly<Record<string, string>>;
  readonly repositories: readonly RepositoryConfig[];
}

/** The CLI of each agent that runs direct, in a repository (sorted by agent). */
function directClisOf(source: RegistrySource, repository: RepositoryConfig): Record<string, string> {
  const direct = source.stageAgents.filter((agent) => executionOf(source.agents[agent], source.execution) === 'direct').sort(byCodeUnits);
  return Object.fromEntries(direct.map((agent) => [agent, agentCliOf(agent, source.agents[agent], repository)]));
}

/**
 * The play templates of the platform: `play` for the repositories whose direct agents use the registry's
 * CLIs (every repository when no agent runs direct), `play-{hash}` for each other set of bindings.
 */
export function playGroups(source: RegistrySource): PlayGroup[] {
  const platformBindings = JSON.stringify(
    Object.fromEntries(
      Object.keys(directClisOf(source, { agentClis: {} } as RepositoryConfig)).map((agent) => [agent, source.agents[agent].cli]),
    ),
  );
  const groups = new Map<string, { directClis: Record<string, string>; repositories: RepositoryConfig[] }>();
  for (const repository of source.repositories) {
    const directClis = directClisOf(source, repository);
    const key = JSON.stringify(directClis);
    const group = groups.get(key) ?? { directClis, repositories: [] };
    group.repositories.push(repository);
    groups.set(key, group);
  }
  return [...groups.entries()].map(([key, group]) => ({
    template: key === platformBindings ? PLAY_TEMPLATE_NAME : playTemplateVariantName(shortHash(key)),
    directClis: group.directClis,
    repositories: group.repositories,
  }));
}

/** The CLI settings a CodeRun of `agent` carries: its CLI's, with the agent's reasoning effort. */
function cliSettings(agent: AgentConfig, cli: CliConfig | undefined): Record<string, unknown> {
  return { ...(cli?.settings ?? {}), ...(agent.reasoningEffort ? { reasoningEffort: agent.reasoningEffort } : {}) };
}

/** The registry entry of a repository run by `template`. */
export function registryEntry(source: RegistrySource, repository: RepositoryConfig, template: string): RegistryEntry {
  const agents: Record<string, RegistryAgent> = {};
  for (const name of [...new Set(source.stageAgents)].sort(byCodeUnits)) {
    const agent = source.agents[name];
    const cli = agentCliOf(name, agent, repository);
    agents[name] = {
      cli,
      claim: workspaceOfAgent(repository.service, name, agent.role),
      settings: JSON.stringify(cliSettings(agent, source.clis[cli])),
    };
  }
  return {
    name: repository.name,
    service: repository.service,
    branch: repository.branch,
    workingDirectory: repository.workingDirectory ?? repository.service,
    docsRepository: repository.docsRepository ?? repository.name,
    docsProjectDirectory: repository.docsProjectDirectory,
    docsBranch: repository.docsBranch ?? repository.branch,
    playTemplate: template,
    agents,
  };
}

/** The play WorkflowTemplate that runs `repository` (a configured one). */
export function playTemplateOf(source: RegistrySource, repository: string): string {
  const group = playGroups(source).find((candidate) =>
    candidate.repositories.some((entry) => entry.name.toLowerCase() === repository.toLowerCase()),
  );
  if (group === undefined) throw new Error(`repository ${repository} is not configured`);
  return group.template;
}
