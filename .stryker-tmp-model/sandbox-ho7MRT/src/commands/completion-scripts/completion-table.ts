/**
 * What shell completion offers, read from the command table (src/commands/index.ts, each command's
 * options): the commands, each one's subcommands and options, and what each option's value is.
 */
// @ts-nocheck

import type { Command } from '../command';
import type { OptionSpec } from '../options';

/** One word to complete after the command (or after a subcommand), with its options. */
export interface CompletionEntry {
  /** `validate`, or `config init` for a subcommand. */
  readonly path: readonly string[];
  readonly summary: string;
  readonly options: readonly OptionSpec[];
  /** Whether it takes file arguments (PATH, FILE, SCENARIO) besides its options. */
  readonly files: boolean;
  /** Its subcommands' names, for a command that has them. */
  readonly subcommands: readonly string[];
}

/** Commands that take files as arguments: their usage line names one after the command. */
const takesFiles = (usage: string): boolean => /^Usage: agent-play [\w ]+?\[?(PATH|FILE|SCENARIO)/m.test(usage);

export function completionTable(commands: readonly Command[]): CompletionEntry[] {
  return commands.flatMap((command) => {
    const subcommands = Object.entries(command.subcommands ?? {});
    const entry: CompletionEntry = {
      path: [command.name],
      summary: command.summary,
      options: command.options,
      files: subcommands.length === 0 && takesFiles(command.usage),
      subcommands: subcommands.map(([name]) => name),
    };
    return [
      entry,
      ...subcommands.map(([name, subcommand]) => ({
        path: [command.name, name],
        summary: subcommand.summary,
        options: subcommand.options,
        files: false,
        subcommands: [],
      })),
    ];
  });
}

/** The option's spellings: `--name` and `-x`. */
export function spellings(option: OptionSpec): string[] {
  return option.short !== undefined ? [`--${option.name}`, `-${option.short}`] : [`--${option.name}`];
}
