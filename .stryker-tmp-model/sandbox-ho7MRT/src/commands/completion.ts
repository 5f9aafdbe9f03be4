/**
 * `agent-play completion bash|zsh|fish`: prints the shell's completion script, written from the same
 * command table as the help (every command, subcommand and option, and the values an option takes).
 */
// @ts-nocheck

import { bashCompletion } from './completion-scripts/bash-completion';
import { completionTable } from './completion-scripts/completion-table';
import { fishCompletion } from './completion-scripts/fish-completion';
import { zshCompletion } from './completion-scripts/zsh-completion';
import { type Command, ExitCode, type Io, printUsage, UsageError } from './command';
import { formatOptions, HELP, type OptionSpec, parseOptions } from './options';

const SHELLS = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion } as const;

const OPTIONS: readonly OptionSpec[] = [HELP];

const USAGE = `Usage: agent-play completion bash|zsh|fish

Prints the shell completion script of agent-play for the shell: commands, subcommands, options and the
values they take. Load it:
  bash:  source <(agent-play completion bash)
  zsh:   source <(agent-play completion zsh)
  fish:  agent-play completion fish | source

${formatOptions(OPTIONS)}`;

/** The words completed after `agent-play` itself: the commands, help, and the options of agent-play. */
export const TOP_LEVEL_OPTIONS = ['--help', '-h', '--version', '-V'] as const;

/** @param commands every command, this one included (read when it runs) */
export function completionCommand(commands: () => readonly Command[]): Command {
  const run = (args: string[], io: Io): number => {
    const options = parseOptions(OPTIONS, args);
    if (options.flag('help')) return printUsage(io, USAGE);
    const [shell, ...rest] = options.positionals;
    if (shell === undefined || rest.length > 0 || !Object.hasOwn(SHELLS, shell))
      throw new UsageError(
        `expected one shell: ${Object.keys(SHELLS).join(', ')}${shell === undefined ? '' : `; got ${JSON.stringify(options.positionals.join(' '))}`}`,
      );
    const all = commands();
    const top = [...all.map((command) => command.name), 'help', ...TOP_LEVEL_OPTIONS];
    io.out(SHELLS[shell as keyof typeof SHELLS](completionTable(all), top));
    return ExitCode.ok;
  };
  return { name: 'completion', summary: 'print the shell completion script for bash, zsh or fish', usage: USAGE, options: OPTIONS, run };
}
