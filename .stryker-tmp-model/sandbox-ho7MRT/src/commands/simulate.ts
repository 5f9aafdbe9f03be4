// @ts-nocheck
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../config/load-config';
import { UnsupportedFeatureError } from '../simulate/engine/unsupported';
import { ScenarioError, loadScenario } from '../simulate/scenario';
import { type SimulationReport, simulate } from '../simulate/simulate';
import { formatTrace, reportJson } from '../simulate/trace';
import { synthesizePlatform } from '../synth/synthesize';
import { type Command, ExitCode, type Io, printUsage, UsageError } from './command';
import { CONFIG, formatOption, formatOptions, HELP, type OptionSpec, parseOptions } from './options';

const OPTIONS: readonly OptionSpec[] = [CONFIG, formatOption(), { name: 'json', description: 'the same as --format json' }, HELP];

const USAGE = `Usage: agent-play simulate SCENARIO.yaml [--config FILE] [--format text|json]

Runs the scenario's GitHub deliveries through the Sensors this configuration synthesizes (their real
filters and trigger parameters) and shows which plays each one resumes or records a release for.

Scenario:
  plays:                                   # the plays that exist at the start
    - { repository: octo-org/payments, task: 5, stage: implementation }
  steps:
    - github: pull_request                 # the X-GitHub-Event header
      payload: payloads/pr-opened.json     # the webhook body, relative to the scenario
    - agentDone: { repository: octo-org/payments, task: 5 }

${formatOptions(OPTIONS)}`;

async function run(args: string[], io: Io): Promise<number> {
  const options = parseOptions(OPTIONS, args);
  const positionals = options.positionals;
  if (options.flag('help')) return printUsage(io, USAGE);
  if (positionals.length !== 1) throw new UsageError('expected one scenario file: agent-play simulate SCENARIO.yaml');
  const config = loadConfig({ file: options.string('config'), env: io.env });
  const scenario = loadScenario(positionals[0]);
  const files = synthesizePlatform(config);
  const objects = [...files.values()].flatMap((text) => parseAllDocuments(text).map((document) => document.toJS() as Record<string, any>));
  let report: SimulationReport;
  try {
    report = await simulate({ config, objects }, scenario);
  } catch (error) {
    if (error instanceof UnsupportedFeatureError) throw error;
    throw new ScenarioError([`${positionals[0]}: ${(error as Error).message}`]);
  }
  io.out(options.flag('json') || options.string('format') === 'json' ? reportJson(report) : formatTrace(report));
  return ExitCode.ok;
}

export const simulateCommand: Command = {
  name: 'simulate',
  summary: "run GitHub deliveries through the platform's Sensors against a model of the plays",
  usage: USAGE,
  options: OPTIONS,
  run,
};
