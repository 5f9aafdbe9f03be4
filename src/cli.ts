import { parseArgs } from 'node:util';
import { ConfigError } from '../constructs/model/resolve-config';
import { loadConfig } from './config/load-config';
import { ScenarioError, loadScenario } from './simulate/scenario';
import { simulate } from './simulate/simulate';
import { formatTrace, reportJson } from './simulate/trace';
import { UnsupportedFeatureError } from './simulate/engine/unsupported';
import { SynthError, synthesizePlatform } from './synth/synthesize';
import { parseAllDocuments } from 'yaml';
import { OutputError, writeManifests } from './synth/write-manifests';

/** Exit codes: 0 done, 1 the command found errors, 2 the input was unusable. */
export const ExitCode = { ok: 0, failed: 1, badInput: 2 } as const;

/** Where a command writes: injectable so tests can capture it. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const PROCESS_IO: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
};

/** Thrown for a command line that cannot be run as written. */
class UsageError extends Error {}

const USAGE = `Usage: agent-play <command> [options]

Commands:
  synth       write the platform's manifests (default: the embedded platform) to a folder
  simulate    run GitHub deliveries through the platform's Sensors against a model of the plays

Run "agent-play <command> --help" for a command's options.
`;

const SYNTH_USAGE = `Usage: agent-play synth [--config FILE] [--out DIR]

Builds the platform from the configuration and writes one YAML file per concern.

Options:
  --config FILE   the configuration (default: agent-play.yaml when it exists, else the embedded default)
  --out DIR       the output folder, replaced as a whole (default: dist-manifests)
  -h, --help      show this help

Environment:
  AGENT_PLAY_CLI_<AGENT>   bind an agent to another CLI, e.g. AGENT_PLAY_CLI_REX=codex
`;

function synthCommand(args: string[], io: Io): number {
  const { values } = parseArgs({
    args,
    options: { config: { type: 'string' }, out: { type: 'string', default: 'dist-manifests' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
    strict: true,
  });
  if (values.help) {
    io.out(SYNTH_USAGE);
    return ExitCode.ok;
  }
  const config = loadConfig({ file: values.config, env: io.env });
  const files = synthesizePlatform(config);
  writeManifests(values.out, files);
  io.out(`wrote ${files.size} files to ${values.out}: ${[...files.keys()].join(', ')}\n`);
  return ExitCode.ok;
}

const SIMULATE_USAGE = `Usage: agent-play simulate SCENARIO.yaml [--config FILE] [--json]

Runs the scenario's GitHub deliveries through the Sensors this configuration synthesizes (their real
filters and trigger parameters) and shows which plays each one resumes or records a release for.

Scenario:
  plays:                                   # the plays that exist at the start
    - { repository: octo-org/payments, task: 5, stage: implementation }
  steps:
    - github: pull_request                 # the X-GitHub-Event header
      payload: payloads/pr-opened.json     # the webhook body, relative to the scenario
    - agentDone: { repository: octo-org/payments, task: 5 }

Options:
  --config FILE   the configuration (default: agent-play.yaml when it exists, else the embedded default)
  --json          print the report as JSON
  -h, --help      show this help
`;

function simulateCommand(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args,
    options: { config: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.out(SIMULATE_USAGE);
    return ExitCode.ok;
  }
  if (positionals.length !== 1) throw new UsageError('expected one scenario file: agent-play simulate SCENARIO.yaml');
  const config = loadConfig({ file: values.config, env: io.env });
  const scenario = loadScenario(positionals[0]);
  const files = synthesizePlatform(config);
  const objects = [...files.values()].flatMap((text) => parseAllDocuments(text).map((document) => document.toJS() as Record<string, any>));
  let report;
  try {
    report = simulate({ config, objects }, scenario);
  } catch (error) {
    if (error instanceof UnsupportedFeatureError) throw error;
    throw new ScenarioError([`${positionals[0]}: ${(error as Error).message}`]);
  }
  io.out(values.json ? reportJson(report) : formatTrace(report));
  return ExitCode.ok;
}

const COMMANDS: Readonly<Record<string, (args: string[], io: Io) => number>> = {
  synth: synthCommand,
  simulate: simulateCommand,
};

/**
 * Runs the command line and returns the exit code. Every expected failure becomes one line per problem on
 * stderr; nothing is written when anything fails.
 */
export function runCli(argv: readonly string[], io: Io = PROCESS_IO): number {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return command === undefined ? ExitCode.badInput : ExitCode.ok;
  }
  const run = COMMANDS[command];
  if (!run) {
    io.err(`agent-play: unknown command "${command}"; commands: ${Object.keys(COMMANDS).join(', ')}\n`);
    return ExitCode.badInput;
  }
  try {
    return run(args, io);
  } catch (error) {
    return report(error, command, io);
  }
}

function report(error: unknown, command: string, io: Io): number {
  if (error instanceof ConfigError || error instanceof SynthError || error instanceof ScenarioError) {
    for (const problem of error.problems) io.err(`${problem}\n`);
    return ExitCode.badInput;
  }
  if (error instanceof OutputError || error instanceof UsageError || isParseArgsError(error)) {
    io.err(`agent-play ${command}: ${(error as Error).message}\n`);
    return ExitCode.badInput;
  }
  if (error instanceof UnsupportedFeatureError) {
    io.err(`agent-play ${command}: cannot simulate: ${error.message}\n`);
    return ExitCode.failed;
  }
  io.err(`agent-play ${command}: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
  return ExitCode.failed;
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

if (require.main === module) {
  process.exitCode = runCli(process.argv.slice(2));
}
