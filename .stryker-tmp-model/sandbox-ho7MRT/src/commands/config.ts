// @ts-nocheck
import { existsSync, lstatSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { StageMachine } from '../../constructs/model/stage-machine';
import { resolveConfig } from '../../constructs/model/resolve-config';
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { type CheckedPlatform, checkPlatform } from '../config/check-platform';
import { configJsonSchema } from '../config/config-json-schema';
import { configTemplate } from '../config/config-template';
import { configFileName, DEFAULT_CONFIG_FILE, readConfigFile } from '../config/load-config';
import { configSources } from '../config/provenance';
import { showConfigJson, showConfigYaml } from '../config/show-config';
import { formatFinding } from '../validate/finding';
import { type Command, ExitCode, InputError, type Io, printUsage, UsageError } from './command';
import { CONFIG, formatOption, formatOptions, HELP, type OptionSpec, parseOptions } from './options';
import { count } from './plural';

interface Subcommand {
  readonly summary: string;
  readonly usage: string;
  readonly options: readonly OptionSpec[];
  readonly run: (args: string[], io: Io) => number;
}

/** The file the modeline of config init names, written beside the configuration. */
const SCHEMA_FILE = 'agent-play.schema.json';

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

const INIT_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'out',
    value: 'FILE',
    default: DEFAULT_CONFIG_FILE,
    complete: 'file',
    description: `where to write it; - prints it (default: ${DEFAULT_CONFIG_FILE})`,
  },
  { name: 'force', description: 'overwrite an existing file (and its schema)' },
  HELP,
];

const init: Subcommand = {
  summary: 'write a commented agent-play.yaml with every section and its defaults',
  usage: `Usage: agent-play config init [--out FILE|-] [--force]

Writes a commented ${DEFAULT_CONFIG_FILE}: every section, what it is for, and its default values; it
resolves to exactly the embedded default configuration. Edit what you want to change. Beside it, it
writes ${SCHEMA_FILE} (agent-play config schema), which the file's first line points editors to.

${formatOptions(INIT_OPTIONS)}`,
  options: INIT_OPTIONS,
  run: (args, io) => {
    const options = parseOptions(INIT_OPTIONS, args, false);
    if (options.flag('help')) return help(io, init);
    const out = options.string('out') as string;
    if (out === '') throw new UsageError('--out "": expected a file, or - to print it');
    const text = configTemplate();
    if (out === '-') {
      io.out(text);
      return ExitCode.ok;
    }
    if (lstatExists(out) && !options.flag('force'))
      throw new InputError([`${out} exists; pass --force to overwrite it, or --out another file`]);
    writeAtomically(out, text);
    // The file the modeline names: written unless one is there already (kept, unless --force).
    const schemaFile = path.join(path.dirname(out), SCHEMA_FILE);
    const keep = lstatExists(schemaFile) && !options.flag('force');
    if (!keep) writeAtomically(schemaFile, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
    io.out(`wrote ${out}${keep ? `; kept the existing ${schemaFile}` : ` and ${schemaFile}`}\n`);
    return ExitCode.ok;
  },
};

const SHOW_OPTIONS: readonly OptionSpec[] = [CONFIG, formatOption(['yaml', 'json']), HELP];

const show: Subcommand = {
  summary: 'print the effective configuration and where each value came from',
  usage: `Usage: agent-play config show [--config FILE] [--format yaml|json]

Prints the effective configuration: defaults, then the file, then the environment
(AGENT_PLAY_CLI_<AGENT>). In YAML, every value that is not a default ends with a comment saying where it
came from (# file agent-play.yaml, # environment AGENT_PLAY_CLI_REX). In JSON:
{ "config": {...}, "sources": { "agents.rex.cli": "environment:AGENT_PLAY_CLI_REX", ... } }, with a source
(default, file:NAME or environment:VARIABLE) for every value.

${formatOptions(SHOW_OPTIONS)}`,
  options: SHOW_OPTIONS,
  run: (args, io) => {
    const options = parseOptions(SHOW_OPTIONS, args, false);
    if (options.flag('help')) return help(io, show);
    const fileName = configFileName(options.string('config'));
    const file = fileName === undefined ? undefined : readConfigFile(fileName);
    const config = resolveConfig({ file: file ?? undefined, fileName, env: io.env });
    const sources = configSources({ config, file, fileName, env: io.env });
    io.out(options.string('format') === 'json' ? showConfigJson(config, sources) : showConfigYaml(config, sources));
    return ExitCode.ok;
  },
};

const VALIDATE_OPTIONS: readonly OptionSpec[] = [CONFIG, formatOption(), HELP];

const validate: Subcommand = {
  summary: 'check the configuration: schema, references, environment',
  usage: `Usage: agent-play config validate [--config FILE]

Checks the configuration exactly as synth does (the schema, every reference between its parts, the
names it derives, the environment's overrides, then the platform built from it, validated) and prints
"ok" with what it holds, or every problem at once, one line each (exit 2; exit 1 when the built manifests
have errors). What it accepts, synth accepts. As JSON: { "valid", "config", "counts", "findings" }.

${formatOptions(VALIDATE_OPTIONS)}`,
  options: VALIDATE_OPTIONS,
  run: (args, io) => {
    const options = parseOptions(VALIDATE_OPTIONS, args, false);
    if (options.flag('help')) return help(io, validate);
    const fileName = configFileName(options.string('config'));
    const { config, report } = checkPlatform({ file: options.string('config'), env: io.env }, 'dist-manifests');
    const what = fileName ?? 'the embedded default configuration';
    if (options.string('format') === 'json') return validateJson(io, what, config, report);
    for (const finding of report.findings) io.err(`${finding.severity}: ${formatFinding(finding)}\n`);
    if (report.errors > 0) {
      io.err(`${what}: the platform it builds has ${count(report.errors, 'error')}, so synth would write nothing; fix the configuration\n`);
      return ExitCode.failed;
    }
    const counts = configCounts(config);
    io.out(
      `ok: ${what} is valid (${Object.entries(counts)
        .map(([noun, n]) => count(n, SINGULAR[noun] ?? noun, noun))
        .join(', ')})\n`,
    );
    return ExitCode.ok;
  },
};

const SINGULAR: Readonly<Record<string, string>> = {
  repositories: 'repository',
  stages: 'stage',
  gates: 'gate',
  agents: 'agent',
  projects: 'project',
};

/** How many of each part the configuration holds, named in the plural. */
function configCounts(config: PlatformConfig): Record<string, number> {
  const machine = StageMachine.fromConfig(config);
  return {
    repositories: config.repositories.length,
    stages: machine.stages.length,
    gates: machine.gates.length,
    agents: Object.keys(config.agents).length,
    projects: config.projects.length,
  };
}

function validateJson(io: Io, what: string, config: PlatformConfig, report: CheckedPlatform['report']): number {
  const valid = report.errors === 0;
  const findings = report.findings.map((finding) => ({ severity: finding.severity, message: formatFinding(finding) }));
  io.out(`${JSON.stringify({ valid, config: what, counts: valid ? configCounts(config) : undefined, findings }, null, 2)}\n`);
  return valid ? ExitCode.ok : ExitCode.failed;
}

const SCHEMA_OPTIONS: readonly OptionSpec[] = [HELP];

const schema: Subcommand = {
  summary: 'print the JSON Schema of agent-play.yaml, for editor completion',
  usage: `Usage: agent-play config schema

Prints the JSON Schema of ${DEFAULT_CONFIG_FILE}. Save it beside the file and point your editor at it,
e.g. with the modeline that config init writes (yaml-language-server):
  # yaml-language-server: $schema=./${SCHEMA_FILE}
(config init writes it there for you.)

${formatOptions(SCHEMA_OPTIONS)}`,
  options: SCHEMA_OPTIONS,
  run: (args, io) => {
    const options = parseOptions(SCHEMA_OPTIONS, args, false);
    if (options.flag('help')) return help(io, schema);
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

export const configCommand: Command = {
  name: 'config',
  summary: 'write, show, check and describe agent-play.yaml',
  usage: USAGE,
  options: [HELP],
  subcommands: CONFIG_SUBCOMMANDS,
  run,
};
