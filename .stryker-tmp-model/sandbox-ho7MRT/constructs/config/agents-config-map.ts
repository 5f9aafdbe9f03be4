// @ts-nocheck
import * as kplus from 'cdk8s-plus-28';
import type { Construct } from 'constructs';
import { AgentSchema, CliSchema, type AgentConfig, type CliConfig } from '../model/config-shapes';
import { COMMON_LABELS } from '../model/labels';
import { toYamlText } from '../model/yaml-text';
import { isDnsSubdomain, systemPromptKey } from '../model/naming';
import { checkProp, schemaProblem } from '../model/prop-checks';

/** The name of the agents ConfigMap unless its props say otherwise: the name the CodeRun controller mounts. */
export const DEFAULT_AGENTS_CONFIGMAP = 'controller-agents';

/** What `new AgentsConfigMap(scope, id, props)` takes. */
export interface AgentsConfigMapProps {
  /** The agent registry; every agent's CLI must be in `clis`. */
  readonly agents: Readonly<Record<string, AgentConfig>>;
  /** The CLI registry (images, pinned, and settings the controller picks per CLI). */
  readonly clis: Readonly<Record<string, CliConfig>>;
  /** `metadata.name`, the name the CodeRun controller mounts. @default controller-agents */
  readonly name?: string;
}

/** Every agent and CLI fits the config's rules (a CLI's image is pinned), and every agent's CLI exists. */
function checkRegistry(owner: string, props: AgentsConfigMapProps): void {
  for (const [name, cli] of Object.entries(props.clis)) checkProp(owner, `clis.${name}`, undefined, schemaProblem(CliSchema, cli));
  for (const [name, agent] of Object.entries(props.agents)) {
    checkProp(owner, `agents.${name}`, undefined, schemaProblem(AgentSchema, agent));
    const known = Object.keys(props.clis);
    checkProp(
      owner,
      `agents.${name}.cli`,
      agent.cli,
      known.includes(agent.cli) ? undefined : `is not in the CLI registry (clis): add it, or bind one of: ${known.join(', ')}`,
    );
  }
}

/**
 * The agents ConfigMap the CodeRun jobs mount: `agents.yaml` (every agent with its GitHub App, role, CLI
 * binding and model, and every CLI with its image) and one `{githubApp}_system-prompt.md` per agent.
 */
export class AgentsConfigMap extends kplus.ConfigMap {
  /**
   * @throws when the name is not a ConfigMap name, an agent or CLI breaks a rule of the config (such as an image
   * that is not pinned), or an agent's CLI is not in the registry, naming the entry and what to change
   */
  public constructor(scope: Construct, id: string, props: AgentsConfigMapProps) {
    const name = props.name ?? DEFAULT_AGENTS_CONFIGMAP;
    const owner = `AgentsConfigMap ${name}`;
    checkProp(
      owner,
      'name',
      name,
      isDnsSubdomain(name) ? undefined : 'is not a ConfigMap name: use lower-case letters, digits, "-" and "."',
    );
    checkRegistry(owner, props);
    super(scope, id, {
      metadata: { name, labels: { ...COMMON_LABELS } },
      data: agentsConfigData(props.agents, props.clis),
    });
  }
}

function agentsConfigData(
  agents: Readonly<Record<string, AgentConfig>>,
  clis: Readonly<Record<string, CliConfig>>,
): Record<string, string> {
  const names = Object.keys(agents).sort();
  const registry = Object.fromEntries(
    names.map((name) => {
      const { systemPrompt: _prompt, ...agent } = agents[name];
      return [name, { name, ...agent }];
    }),
  );
  const cliRegistry = Object.fromEntries(
    Object.keys(clis)
      .sort()
      .map((name) => [name, clis[name]]),
  );
  const data: Record<string, string> = { 'agents.yaml': toYamlText({ agents: registry, clis: cliRegistry }) };
  for (const name of names) {
    const agent = agents[name];
    data[systemPromptKey(agent.githubApp)] = systemPromptDocument(name, agent);
  }
  return data;
}

function systemPromptDocument(name: string, agent: AgentConfig): string {
  const frontMatter = toYamlText({ name, description: agent.description ?? agent.role });
  return `---\n${frontMatter}---\n\n${agent.systemPrompt.trim()}\n`;
}
