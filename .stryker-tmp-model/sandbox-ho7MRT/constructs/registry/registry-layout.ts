/**
 * The repository registry: what belongs to each repository (its service, branch, folders, workspace claims,
 * the CLI each agent runs with there), written by the platform into a few ConfigMaps and read at run time by
 * the first step of every play (`resolve-repository`) and by the event helpers. One play WorkflowTemplate
 * then serves every repository, and the platform's output grows with its stage machines, not with its
 * repositories.
 *
 * The entries are spread over `REGISTRY_SHARDS` ConfigMaps by a hash of the repository, one key per
 * repository (its label value), so that no object passes ArgoCD's limits at thousands of repositories.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { fnv1a, repositoryLabelValue } from '../model/naming';

/** How many ConfigMaps the registry is spread over (only those that hold an entry are written). */
export const REGISTRY_SHARDS = 64;

const SHARD_PREFIX = 'play-repositories';

/** The ConfigMap that holds a repository's entry. @throws when the repository is not `owner/name` */
export function registryConfigMapOf(repository: string): string {
  return `${SHARD_PREFIX}-${fnv1a(repositoryLabelValue(repository)) % REGISTRY_SHARDS}`;
}

/** The key of a repository's entry: its label value (GitHub names are case-insensitive). */
export function registryKeyOf(repository: string): string {
  return repositoryLabelValue(repository);
}

/** What one agent is in one repository. */
export interface RegistryAgent {
  /** The CLI the agent runs with in this repository. */
  readonly cli: string;
  /** The workspace claim the agent works in (its mutex too). */
  readonly claim: string;
  /** The CLI's settings, with the agent's own (JSON object text), for the CodeRun's `cliConfig.settings`. */
  readonly settings: string;
}

/** What the platform knows of one repository at run time. */
export interface RegistryEntry {
  /** `owner/name` as configured. */
  readonly name: string;
  readonly service: string;
  /** The branch pull requests merge into. */
  readonly branch: string;
  readonly workingDirectory: string;
  readonly docsRepository: string;
  readonly docsProjectDirectory: string;
  readonly docsBranch: string;
  /** The play WorkflowTemplate that runs this repository's tasks. */
  readonly playTemplate: string;
  /** Every agent of the stage machine, by name. */
  readonly agents: Readonly<Record<string, RegistryAgent>>;
}

/**
 * The registry entry stored as `text`, or why it is not one (a step refuses to run a play of a repository
 * whose entry it cannot read).
 */
export function parseRegistryEntry(text: string): { entry: RegistryEntry } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'the registry entry is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'the registry entry is not an object' };
  const entry = parsed as Record<string, unknown>;
  for (const field of [
    'name',
    'service',
    'branch',
    'workingDirectory',
    'docsRepository',
    'docsProjectDirectory',
    'docsBranch',
    'playTemplate',
  ]) {
    if (typeof entry[field] !== 'string') return { problem: `the registry entry has no text ${field}` };
  }
  if (typeof entry.agents !== 'object' || entry.agents === null) return { problem: 'the registry entry has no agents' };
  for (const [agent, value] of Object.entries(entry.agents as Record<string, unknown>)) {
    const fields = value as Record<string, unknown> | null;
    if (typeof fields?.cli !== 'string' || typeof fields.claim !== 'string' || typeof fields.settings !== 'string')
      return { problem: `the registry entry of agent ${agent} lacks its cli, claim or settings` };
  }
  return { entry: entry as unknown as RegistryEntry };
}

/** The outputs of the `resolve-repository` step that every agent has, by agent: `cli-rex`, `claim-rex`, ... */
export const AgentOutputs = {
  cli: (agent: string) => `cli-${agent}`,
  claim: (agent: string) => `claim-${agent}`,
  settings: (agent: string) => `cli-settings-${agent}`,
} as const;

/** The outputs of the `resolve-repository` step about the repository itself. */
export const RepositoryOutputs = {
  name: 'repository-name',
  label: 'repository-label',
  service: 'service',
  branch: 'branch',
  workingDirectory: 'working-directory',
  docsRepository: 'docs-repository',
  docsProjectDirectory: 'docs-project-directory',
  docsBranch: 'docs-branch',
} as const;
