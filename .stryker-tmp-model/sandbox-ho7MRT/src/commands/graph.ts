// @ts-nocheck
import { StageMachine } from '../../constructs/model/stage-machine';
import { loadConfig } from '../config/load-config';
import { playDagGraph, synthesizedPlayTemplate } from '../graph/play-dag-graph';
import { stageGraph } from '../graph/stage-graph';
import { remediationPlan } from '../../constructs/remediation/remediation';
import { type Command, ExitCode, type Io, printUsage, UsageError } from './command';
import { CONFIG, formatOption, formatOptions, HELP, type OptionSpec, parseOptions } from './options';

const WHAT = ['stages', 'dag', 'both'] as const;

const OPTIONS: readonly OptionSpec[] = [
  CONFIG,
  { name: 'repository', value: 'OWNER/NAME', description: 'whose play DAG to draw (default: the first configured repository)' },
  { name: 'what', value: 'WHAT', choices: WHAT, default: 'both', description: 'stages, dag or both (default: both)' },
  formatOption(['mermaid', 'json']),
  HELP,
];

const USAGE = `Usage: agent-play graph [--config FILE] [--repository OWNER/NAME] [--what stages|dag|both] [--format mermaid|json]

Prints Mermaid flowcharts: the stage machine (stages in order, the agents of each, each gate with the
GitHub events that release it, conditional stages and the path around them) and the play DAG (the tasks
of the synthesized play WorkflowTemplate of one repository, with their dependencies), so the picture is
what Argo will run. Paste it into any Mermaid renderer (GitHub renders \`\`\`mermaid blocks). As JSON:
{ "repository", "stages": [...], "dag": { "template", "tasks": [{ "name", "template", "depends", "when" }] },
"mermaid": { "stages", "dag" } }, with the parts --what asks for.

${formatOptions(OPTIONS)}`;

function run(args: string[], io: Io): number {
  const options = parseOptions(OPTIONS, args, false);
  if (options.flag('help')) return printUsage(io, USAGE);
  const what = options.string('what') as (typeof WHAT)[number];
  const config = loadConfig({ file: options.string('config'), env: io.env });
  const wanted = options.string('repository');
  const repository = wanted === undefined ? config.repositories[0] : config.repositories.find((candidate) => candidate.name === wanted);
  if (!repository)
    throw new UsageError(
      `--repository ${wanted} is not configured; repositories: ${config.repositories.map((candidate) => candidate.name).join(', ')}`,
    );
  const json: Record<string, unknown> = { repository: repository.name };
  const mermaid: Record<string, string> = {};
  if (what !== 'dag') {
    const machine = StageMachine.fromConfig(config);
    json.stages = machine.stages;
    mermaid.stages = stageGraph(machine, remediationPlan(machine.stages, config.agents, config.remediation));
  }
  if (what !== 'stages') {
    const template = synthesizedPlayTemplate(config, repository.name) ?? {};
    json.dag = playDag(template);
    mermaid.dag = playDagGraph(template);
  }
  io.out(options.string('format') === 'json' ? `${JSON.stringify({ ...json, mermaid }, null, 2)}\n` : Object.values(mermaid).join('\n'));
  return ExitCode.ok;
}

/** The tasks of the play template's main DAG, as data. */
function playDag(template: Record<string, any>): { template: string; tasks: Record<string, unknown>[] } {
  const main = (template.spec?.templates ?? []).find((candidate: Record<string, any>) => candidate.name === template.spec?.entrypoint);
  const tasks: Record<string, any>[] = main?.dag?.tasks ?? [];
  return {
    template: template.metadata?.name ?? '',
    tasks: tasks.map((task) => ({ name: task.name, template: task.template, depends: task.depends, when: task.when })),
  };
}

export const graphCommand: Command = {
  name: 'graph',
  summary: 'print the stage machine and the play DAG as Mermaid (or JSON)',
  usage: USAGE,
  options: OPTIONS,
  run,
};
