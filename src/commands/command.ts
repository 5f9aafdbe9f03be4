/**
 * What every `agent-play` command shares: its I/O, its exit codes and the errors that become a usage line.
 * One command per file in this folder; `src/cli.ts` only dispatches.
 */
import type { PlatformConfig } from '../../constructs/model/config-schema';
import type { ManifestFiles } from '../synth/generated-files';

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
}

/** Thrown for a command line that cannot be run as written; reported as one line, exit 2. */
export class UsageError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export { InputError } from '../io/input-error';

/** One `agent-play` command. */
export interface Command {
  /** The word after `agent-play`. */
  readonly name: string;
  /** One line for the command list of `agent-play --help`. */
  readonly summary: string;
  /** The whole `--help` text. */
  readonly usage: string;
  /**
   * Runs the command with the arguments after its name and returns the exit code; a command that waits (the
   * simulator runs the runtime steps, which are asynchronous) returns it as a promise.
   */
  readonly run: (args: string[], io: Io) => number | Promise<number>;
}

/** The `-h, --help` option every command and subcommand takes. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/** Prints a usage text; what `--help` does everywhere. */
export function printUsage(io: Io, usage: string): number {
  io.out(usage);
  return ExitCode.ok;
}
