/**
 * What every `agent-play` command shares: its I/O, its exit codes and the errors that become a usage line.
 * One command per file in this folder; `src/cli.ts` only dispatches.
 */
// @ts-nocheck

import type { PlatformConfig } from '../../constructs/model/config-schema';
import type { ManifestFiles } from '../synth/generated-files';
import type { OptionSpec } from './options';

/** Exit codes: 0 done, 1 the command found errors, 2 the input was unusable. */
export const ExitCode = { ok: 0, failed: 1, badInput: 2 } as const;

/** Where a command writes and reads: injectable so tests can capture it. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Standard input as text, for commands that read `-`. @default reads the process's stdin */
  readonly stdin?: () => string;
  /** The current time, for commands that judge ages. @default the system clock */
  readonly now?: () => Date;
  /**
   * Builds the platform's manifests from its configuration, for the commands that synthesize (a test gives
   * manifests the constructs would refuse to build). @default the platform's synthesis (synthesizePlatform)
   */
  readonly synthesize?: (config: PlatformConfig) => ManifestFiles;
  /** Whether a person is at the terminal to answer a question. @default standard input is a TTY */
  readonly interactive?: boolean;
  /** Asks a yes/no question and resolves to the answer line. @default reads a line from the terminal */
  readonly ask?: (question: string) => Promise<string>;
  /** Ends what a command follows (status --watch). @default Ctrl-C (SIGINT) */
  readonly signal?: AbortSignal;
}

export { UsageError } from './usage-error';

export { InputError } from '../io/input-error';

/** One `agent-play` command. */
export interface Command {
  /** The word after `agent-play`. */
  readonly name: string;
  /** One line for the command list of `agent-play --help`. */
  readonly summary: string;
  /** The whole `--help` text. */
  readonly usage: string;
  /** Its options: what it parses, what its help lists and what shell completion offers. */
  readonly options: readonly OptionSpec[];
  /** Its subcommands (`config init`...), each with its options, for completion. */
  readonly subcommands?: Readonly<Record<string, { readonly summary: string; readonly options: readonly OptionSpec[] }>>;
  /**
   * Runs the command with the arguments after its name and returns the exit code; a command that waits (the
   * simulator runs the runtime steps, which are asynchronous) returns it as a promise.
   */
  readonly run: (args: string[], io: Io) => number | Promise<number>;
}

/** Prints a usage text; what `--help` does everywhere. */
export function printUsage(io: Io, usage: string): number {
  io.out(usage);
  return ExitCode.ok;
}
