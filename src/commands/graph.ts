import { parseArgs } from 'node:util';
import { StageMachine } from '../../constructs/model/stage-machine';
import { loadConfig } from '../config/load-config';
import { playDagGraph, synthesizedPlayTemplate } from '../graph/play-dag-graph';
import { stageGraph } from '../graph/stage-graph';
import { remediationPlan } from '../../constructs/remediation/remediation';
import { type Command, ExitCode, HELP_OPTION, type Io, printUsage, UsageError } from './command';

const WHAT = ['stages', 'dag', 'both'] as const;

const USAGE = `Usage: agent-play graph [--config FILE] [--repository OWNER/NAME] [--what stages|dag|both]

Prints Mermaid flowcharts: the stage machine (stages in order, the agents of each, each gate with the
GitHub events that release it, conditional stages and the path around them) and the play DAG (the tasks
of the synthesized play WorkflowTemplate of one repository, with their dependencies), so the picture is
what Argo will run. Paste it into any Mermaid renderer (GitHub renders \`\`\`mermaid blocks).

Options:
  --config FILE            the configuration (default: agent-play.yaml when it exists, else the embedded default)
  --repository OWNER/NAME  whose play DAG to draw (default: the first configured repository)
  --what WHAT              stages, dag or both (default: both)
  -h, --help               show this help
`;

function run(args: string[], io: Io): number {
  const { values } = parseArgs({
    args,
    options: { config: { type: 'string' }, repository: { type: 'string' }, what: { type: 'string', default: 'both' }, ...HELP_OPTION },
    strict: true,
  });
  if (values.help) return printUsage(io, USAGE);
  const what = values.what as (typeof WHAT)[number];
  if (!WHAT.includes(what)) throw new UsageError(`--what: expected one of ${WHAT.join(', ')}, got "${values.what}"`);
  const config = loadConfig({ file: values.config, env: io.env });
  const repository =
    values.repository === undefined
      ? config.repositories[0]
      : config.repositories.find((candidate) => candidate.name === values.repository);
  if (!repository)
    throw new UsageError(
      `--repository ${values.repository} is not configured; repositories: ${config.repositories.map((candidate) => candidate.name).join(', ')}`,
    );
  const sections: string[] = [];
  if (what !== 'dag') {
    const machine = StageMachine.fromConfig(config);
    sections.push(stageGraph(machine, remediationPlan(machine.stages, config.agents, config.remediation)));
  }
  if (what !== 'stages') {
    sections.push(playDagGraph(synthesizedPlayTemplate(config, repository.name) ?? {}));
  }
  io.out(sections.join('\n'));
  return ExitCode.ok;
}

export const graphCommand: Command = { name: 'graph', summary: 'print the stage machine and the play DAG as Mermaid', usage: USAGE, run };
