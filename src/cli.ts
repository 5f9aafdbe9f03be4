import { ProblemsError } from '../constructs/model/problems-error';
import { ExitCode, UsageError, type Io } from './commands/command';
import { COMMANDS } from './commands';
import { UnsupportedFeatureError } from './simulate/engine/unsupported';
import { OutputError } from './synth/write-manifests';
import { z } from 'zod';

// A command parses each zod schema once or a few times: compiling zod's fast path (`new Function`) costs
// more than it saves there, so the command line reads its input with zod's interpreter.
z.config({ jitless: true });

export { ExitCode, type Io } from './commands/command';
export { endQuietlyOnClosedPipe } from './commands/closed-pipe';
export { exitWhenWritten } from './commands/exit-when-written';

const PROCESS_IO: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
};

function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length)) + 2;
  const lines = COMMANDS.map((command) => `  ${command.name.padEnd(width)}${command.summary}`);
  return `Usage: agent-play <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "agent-play <command> --help" for a command's options.\n`;
}

/**
 * Runs the command line and returns the exit code (as a promise for a command that waits, such as `simulate`).
 * Every expected failure becomes one line per problem on stderr; nothing is written when anything fails.
 */
export function runCli(argv: readonly string[], io: Io = PROCESS_IO): number | Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name === undefined ? ExitCode.badInput : ExitCode.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.err(`agent-play: unknown command "${name}"; commands: ${COMMANDS.map((candidate) => candidate.name).join(', ')}\n`);
    return ExitCode.badInput;
  }
  try {
    const code = command.run(args, io);
    return typeof code === 'number' ? code : code.catch((error: unknown) => report(error, name, io));
  } catch (error) {
    return report(error, name, io);
  }
}

function report(error: unknown, command: string, io: Io): number {
  // Configuration, scenario, input, synthesis and resume problems: each one line, the input was unusable.
  if (error instanceof ProblemsError) {
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
