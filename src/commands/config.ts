import { existsSync, lstatSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { StageMachine } from '../../constructs/model/stage-machine';
import { resolveConfig } from '../../constructs/model/resolve-config';
import { checkPlatform } from '../config/check-platform';
import { configJsonSchema } from '../config/config-json-schema';
import { configTemplate } from '../config/config-template';
import { configFileName, DEFAULT_CONFIG_FILE, readConfigFile } from '../config/load-config';
import { configSources } from '../config/provenance';
import { showConfigJson, showConfigYaml } from '../config/show-config';
import { formatFinding } from '../validate/finding';
import { type Command, ExitCode, HELP_OPTION, InputError, type Io, printUsage, UsageError } from './command';

interface Subcommand {
  readonly summary: string;
  readonly usage: string;
  readonly run: (args: string[], io: Io) => number;
}

const CONFIG_OPTION = `  --config FILE   the configuration (default: ${DEFAULT_CONFIG_FILE} when it exists, else the embedded default)`;

/**
 * Where `--out` really writes: a symlink is followed (the file it points to is replaced, the link stays), and
 * anything but a regular file or a new name is refused.
 * @throws InputError naming the file
 */
function writeTarget(file: string): string {
  let target = file;
  try {
    if (lstatSync(file).isSymbolicLink()) target = realpathSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT')
      throw new InputError([`${file}: cannot write it (${code ?? 'error'}); pass --out a file in a folder you can write`]);
    if (existsSync(path.dirname(file)) && lstatExists(file))
      throw new InputError([`${file}: is a symlink to nothing; create what it points to, or pass --out another file`]);
    return file;
  }
  const stats = statSync(target);
  if (stats.isDirectory()) throw new InputError([`${file}: cannot write it (EISDIR): it is a folder; pass --out a file`]);
  if (!stats.isFile()) throw new InputError([`${file}: is not a regular file (a device, FIFO or socket); pass --out a file`]);
  return target;
}

const lstatExists = (file: string): boolean => {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
};

/**
 * Writes the file atomically: a temporary file beside it, then a rename, so a reader never sees half a file.
 * @throws InputError naming the file when it cannot be written (no temporary file is left behind)
 */
function writeAtomically(file: string, text: string): void {
  const target = writeTarget(file);
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new InputError([
      `${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? 'error'}); pass --out a file in a folder you can write`,
    ]);
  }
}

const init: Subcommand = {
  summary: 'write a commented agent-play.yaml with every section and its defaults',
  usage: `Usage: agent-play config init [--out FILE|-] [--force]

Writes a commented ${DEFAULT_CONFIG_FILE}: every section, what it is for, and its default values; it
resolves to exactly the embedded default configuration. Edit what you want to change.

Options:
  --out FILE   where to write it; - prints it (default: ${DEFAULT_CONFIG_FILE})
  --force      overwrite an existing file
  -h, --help   show this help
`,
  run: (args, io) => {
    const { values } = parseArgs({
      args,
      options: { out: { type: 'string', default: DEFAULT_CONFIG_FILE }, force: { type: 'boolean' }, ...HELP_OPTION },
      strict: true,
    });
    if (values.help) return help(io, init);
    const out = values.out;
    if (out === '') throw new UsageError('--out "": expected a file, or - to print it');
    const text = configTemplate();
    if (out === '-') {
      io.out(text);
      return ExitCode.ok;
    }
    if (lstatExists(out) && !values.force) throw new InputError([`${out} exists; pass --force to overwrite it, or --out another file`]);
    writeAtomically(out, text);
    io.out(`wrote ${out}\n`);
    return ExitCode.ok;
  },
};

const show: Subcommand = {
  summary: 'print the effective configuration and where each value came from',
  usage: `Usage: agent-play config show [--config FILE] [--format yaml|json]

Prints the effective configuration: defaults, then the file, then the environment
(AGENT_PLAY_CLI_<AGENT>). In YAML, every value that is not a default ends with a comment saying where it
came from (# file agent-play.yaml, # environment AGENT_PLAY_CLI_REX). In JSON:
{ "config": {...}, "sources": { "agents.rex.cli": "environment:AGENT_PLAY_CLI_REX", ... } }, with a source
(default, file:NAME or environment:VARIABLE) for every value.

Options:
${CONFIG_OPTION}
  --format FORMAT yaml (default) or json
  -h, --help      show this help
`,
  run: (args, io) => {
    const { values } = parseArgs({
      args,
      options: { config: { type: 'string' }, format: { type: 'string', default: 'yaml' }, ...HELP_OPTION },
      strict: true,
    });
    if (values.help) return help(io, show);
    if (values.format !== 'yaml' && values.format !== 'json')
      throw new UsageError(`--format: expected yaml or json, got "${values.format}"`);
    const fileName = configFileName(values.config);
    const file = fileName === undefined ? undefined : readConfigFile(fileName);
    const config = resolveConfig({ file: file ?? undefined, fileName, env: io.env });
    const sources = configSources({ config, file, fileName, env: io.env });
    io.out(values.format === 'json' ? showConfigJson(config, sources) : showConfigYaml(config, sources));
    return ExitCode.ok;
  },
};

const validate: Subcommand = {
  summary: 'check the configuration: schema, references, environment',
  usage: `Usage: agent-play config validate [--config FILE]

Checks the configuration exactly as synth does (the schema, every reference between its parts, the
names it derives, the environment's overrides, then the platform built from it, validated) and prints
"ok" with what it holds, or every problem at once, one line each (exit 2; exit 1 when the built manifests
have errors). What it accepts, synth accepts.

Options:
${CONFIG_OPTION}
  -h, --help      show this help
`,
  run: (args, io) => {
    const { values } = parseArgs({ args, options: { config: { type: 'string' }, ...HELP_OPTION }, strict: true });
    if (values.help) return help(io, validate);
    const fileName = configFileName(values.config);
    const { config, report } = checkPlatform({ file: values.config, env: io.env }, 'dist-manifests');
    for (const finding of report.findings) io.err(`${finding.severity}: ${formatFinding(finding)}\n`);
    const what = fileName ?? 'the embedded default configuration';
    if (report.errors > 0) {
      io.err(`${what}: the platform it builds has ${report.errors} error(s), so synth would write nothing; fix the configuration\n`);
      return ExitCode.failed;
    }
    const machine = StageMachine.fromConfig(config);
    io.out(
      `ok: ${what} is valid (${config.repositories.length} repositories, ${machine.stages.length} stages, ${machine.gates.length} gates, ${Object.keys(config.agents).length} agents, ${config.projects.length} projects)\n`,
    );
    return ExitCode.ok;
  },
};

const schema: Subcommand = {
  summary: 'print the JSON Schema of agent-play.yaml, for editor completion',
  usage: `Usage: agent-play config schema

Prints the JSON Schema of ${DEFAULT_CONFIG_FILE}. Save it beside the file and point your editor at it,
e.g. with the modeline that config init writes (yaml-language-server):
  # yaml-language-server: $schema=./agent-play.schema.json

Options:
  -h, --help   show this help
`,
  run: (args, io) => {
    const { values } = parseArgs({ args, options: { ...HELP_OPTION }, strict: true });
    if (values.help) return help(io, schema);
    io.out(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
    return ExitCode.ok;
  },
};

export const CONFIG_SUBCOMMANDS: Readonly<Record<string, Subcommand>> = { init, show, validate, schema };

const help = (io: Io, subcommand: Subcommand): number => printUsage(io, subcommand.usage);

const USAGE = `Usage: agent-play config <subcommand> [options]

Subcommands:
${Object.entries(CONFIG_SUBCOMMANDS)
  .map(([name, subcommand]) => `  ${name.padEnd(10)}${subcommand.summary}`)
  .join('\n')}

Run "agent-play config <subcommand> --help" for its options.
`;

function run(args: string[], io: Io): number {
  const [name, ...rest] = args;
  if (name === undefined) {
    io.err(USAGE);
    return ExitCode.badInput;
  }
  if (name === '--help' || name === '-h') return printUsage(io, USAGE);
  const subcommand = CONFIG_SUBCOMMANDS[name];
  if (!subcommand) throw new UsageError(`unknown subcommand "${name}"; subcommands: ${Object.keys(CONFIG_SUBCOMMANDS).join(', ')}`);
  return subcommand.run(rest, io);
}

export const configCommand: Command = { name: 'config', summary: 'write, show, check and describe agent-play.yaml', usage: USAGE, run };
