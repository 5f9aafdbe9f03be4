import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { stringify } from 'yaml';
import type { AgentConfig, CliConfig } from '../model/config-schema';
import { COMMON_LABELS } from '../model/labels';
import { systemPromptKey } from '../model/naming';

export interface AgentsConfigMapProps {
  /** The agent registry. */
  readonly agents: Readonly<Record<string, AgentConfig>>;
  /** The CLI registry (images and settings the controller picks per CLI). */
  readonly clis: Readonly<Record<string, CliConfig>>;
  /** @default controller-agents */
  readonly name?: string;
}

/**
 * The agents ConfigMap the CodeRun jobs mount: `agents.yaml` (every agent with its GitHub App, role, CLI
 * binding and model, and every CLI with its image) and one `{githubApp}_system-prompt.md` per agent.
 */
export class AgentsConfigMap extends kplus.ConfigMap {
  public constructor(scope: Construct, id: string, props: AgentsConfigMapProps) {
    super(scope, id, {
      metadata: { name: props.name ?? 'controller-agents', labels: { ...COMMON_LABELS } },
      data: agentsConfigData(props.agents, props.clis),
    });
  }
}

function agentsConfigData(agents: Readonly<Record<string, AgentConfig>>, clis: Readonly<Record<string, CliConfig>>): Record<string, string> {
  const names = Object.keys(agents).sort();
  const registry = Object.fromEntries(
    names.map((name) => {
      const { systemPrompt: _prompt, ...agent } = agents[name];
      return [name, { name, ...agent }];
    }),
  );
  const cliRegistry = Object.fromEntries(Object.keys(clis).sort().map((name) => [name, clis[name]]));
  const data: Record<string, string> = { 'agents.yaml': stringify({ agents: registry, clis: cliRegistry }, { lineWidth: 0 }) };
  for (const name of names) {
    const agent = agents[name];
    data[systemPromptKey(agent.githubApp)] = systemPromptDocument(name, agent);
  }
  return data;
}

function systemPromptDocument(name: string, agent: AgentConfig): string {
  const frontMatter = stringify({ name, description: agent.description ?? agent.role }, { lineWidth: 0 });
  return `---\n${frontMatter}---\n\n${agent.systemPrompt.trim()}\n`;
}
