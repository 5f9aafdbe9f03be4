/**
 * The options of every command, as data: one table that parses the command line, writes the "Options:"
 * section of each `--help`, and generates the shell completion scripts (completion.ts), so the three
 * cannot disagree. Parsing wraps `node:util` parseArgs and turns its messages into one line naming the
 * option and what it expects.
 */
// @ts-nocheck

import { parseArgs } from 'node:util';
import { UsageError } from './usage-error';

/** One option of a command. */
export interface OptionSpec {
  /** The long name, without the dashes. */
  readonly name: string;
  /** A one-letter alias, without the dash. */
  readonly short?: string;
  /** What the value is called in the help (FILE, DIR, N); absent for a flag. */
  readonly value?: string;
  /** The values it accepts, when they are a fixed list (checked here, offered by completion). */
  readonly choices?: readonly string[];
  /** The value when the option is not given. */
  readonly default?: string;
  /** Whether it can be given more than once. */
  readonly multiple?: boolean;
  /** What completion offers for its value: file names, folder names (default: nothing, or the choices). */
  readonly complete?: 'file' | 'directory';
  /** One line (or a few) for the help. */
  readonly description: string;
}

/** The values of a parsed command line, read by option name. */
export interface ParsedOptions {
  readonly positionals: readonly string[];
  /** A string option's value (its default when not given). */
  string(name: string): string | undefined;
  /** Every value of a repeatable option. */
  list(name: string): string[];
  /** Whether a flag was given. */
  flag(name: string): boolean;
}

/** `-h, --help`, which every command and subcommand takes. */
export const HELP: OptionSpec = { name: 'help', short: 'h', description: 'show this help' };

/** `--format`: every command that prints a report prints it as text (or YAML) or as JSON. */
export function formatOption(choices: readonly string[] = ['text', 'json']): OptionSpec {
  return { name: 'format', value: 'FORMAT', choices, default: choices[0], description: `${choices.join(' or ')} (default: ${choices[0]})` };
}

/** `--config FILE`, the configuration the commands that build the platform read. */
export const CONFIG: OptionSpec = {
  name: 'config',
  value: 'FILE',
  complete: 'file',
  description: 'the configuration (default: agent-play.yaml when it exists, else the embedded default)',
};

/** Parses `args` by the table; every problem is one UsageError line naming the option. */
export function parseOptions(options: readonly OptionSpec[], args: readonly string[], positionals = true): ParsedOptions {
  const config = Object.fromEntries(
    options.map((option) => [
      option.name,
      {
        type: option.value === undefined ? ('boolean' as const) : ('string' as const),
        ...(option.short !== undefined ? { short: option.short } : {}),
        ...(option.multiple ? { multiple: true } : {}),
      },
    ]),
  );
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: joinDashedValues(options, args), options: config, allowPositionals: positionals, strict: true });
  } catch (error) {
    throw new UsageError(parserProblem(error, options));
  }
  for (const option of options) checkChoices(option, parsed.values[option.name]);
  const value = (name: string): unknown => {
    if (!options.some((option) => option.name === name)) throw new Error(`no option --${name} in this command's table`);
    return parsed.values[name];
  };
  return {
    positionals: parsed.positionals,
    string: (name) => {
      const given = value(name);
      return typeof given === 'string' ? given : options.find((option) => option.name === name)?.default;
    },
    list: (name) => {
      const given = value(name);
      return Array.isArray(given) ? (given as string[]) : typeof given === 'string' ? [given] : [];
    },
    flag: (name) => value(name) === true,
  };
}

function checkChoices(option: OptionSpec, given: unknown): void {
  if (option.choices === undefined) return;
  for (const one of Array.isArray(given) ? given : given === undefined ? [] : [given]) {
    if (!option.choices.includes(one as string))
      throw new UsageError(`--${option.name}: expected one of ${option.choices.join(', ')}, got ${JSON.stringify(one)}`);
  }
}

/**
 * `--task -1` as `--task=-1`: parseArgs would refuse the line as ambiguous without naming the value; joined,
 * the value reaches the command's own check, which names the problem. Only for options that take a value.
 */
function joinDashedValues(options: readonly OptionSpec[], args: readonly string[]): string[] {
  const valued = new Set(options.filter((option) => option.value !== undefined).map((option) => `--${option.name}`));
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const next = args[index + 1];
    if (valued.has(args[index]) && next !== undefined && /^-[^-]/.test(next)) {
      joined.push(`${args[index]}=${next}`);
      index += 1;
    } else joined.push(args[index]);
  }
  return joined;
}

/** parseArgs' message, as one line naming the option and what the command takes instead. */
function parserProblem(error: unknown, options: readonly OptionSpec[]): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const named = /'(-{1,2}[^' ]*)/.exec(message)?.[1] ?? '';
  const known = options.map((option) => `--${option.name}`).join(', ');
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${named}; options: ${known}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const option = options.find((candidate) => named === `--${candidate.name}` || named === `-${candidate.short}`);
      if (option?.value !== undefined) return `${named} needs a value (${option.choices?.join(' or ') ?? option.value})`;
      return `${named} takes no value`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `takes no argument ${JSON.stringify(/'([^']*)'/.exec(message)?.[1] ?? '')}; options: ${known}`;
    default:
      return message.split('\n')[0];
  }
}

/** The "Options:" lines of a help text. */
export function formatOptions(options: readonly OptionSpec[]): string {
  const heads = options.map((option) => {
    const names = option.short !== undefined ? `-${option.short}, --${option.name}` : `--${option.name}`;
    return `${names}${option.value !== undefined ? ` ${option.value}` : ''}`;
  });
  const width = Math.max(...heads.map((head) => head.length)) + 2;
  const lines = options.map((option, index) => {
    const [first, ...rest] = `${option.description}${option.multiple ? '; repeatable' : ''}`.split('\n');
    return [`  ${heads[index].padEnd(width)}${first}`, ...rest.map((line) => `  ${' '.repeat(width)}${line}`)].join('\n');
  });
  return `Options:\n${lines.join('\n')}\n`;
}
