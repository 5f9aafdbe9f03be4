// @ts-nocheck
import { ProblemsError } from '../constructs/model/problems-error';
import { type Command, ExitCode, UsageError, type Io } from './commands/command';
import { COMMANDS } from './commands';
import { completionCommand } from './commands/completion';
import packageJson from '../package.json';
import { UnsupportedFeatureError } from './simulate/engine/unsupported';
import { OutputError } from './synth/write-manifests';
import { visibleText } from './io/visible-text';
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

/** Every command: those of the registry, and completion, which reads them all. */
const ALL_COMMANDS: readonly Command[] = [...COMMANDS, completionCommand(() => ALL_COMMANDS)];

/** The package's version, which `agent-play --version` prints. */
export const VERSION: string = (packageJson as { version: string }).version;

function usage(): string {
  const width = Math.max(...ALL_COMMANDS.map((command) => command.name.length)) + 2;
  const lines = ALL_COMMANDS.map((command) => `  ${command.name.padEnd(width)}${command.summary}`);
  return `Usage: agent-play <command> [options]
       agent-play help <command>
       agent-play --version

Commands:
${lines.join('\n')}

Run "agent-play <command> --help" (or "agent-play help <command>") for a command's options.
`;
}

function findCommand(name: string, io: Io): Command | undefined {
  const command = ALL_COMMANDS.find((candidate) => candidate.name === name);
  if (!command)
    io.err(
      `agent-play: unknown command ${JSON.stringify(name)}; commands: ${ALL_COMMANDS.map((candidate) => candidate.name).join(', ')}\n`,
    );
  return command;
}

/**
 * Runs the command line and returns the exit code (as a promise for a command that waits, such as `simulate`).
 * Every expected failure becomes one line per problem on stderr; nothing is written when anything fails.
 */
/** `io` whose output and error streams receive only visible text (visible-text.ts). */
function visibleIo(io: Io): Io {
  return { ...io, out: (text) => io.out(visibleText(text)), err: (text) => io.err(visibleText(text)) };
}

export function runCli(argv: readonly string[], given: Io = PROCESS_IO): number | Promise<number> {
  // Values from configs, records and manifests are shown, never acted on by the terminal (visible-text.ts).
  const io = visibleIo(given);
  const [name, ...args] = argv;
  if (name === '--version' || name === '-V') {
    if (args.length > 0) return refuse(io, `${name} takes no argument`);
    io.out(`${VERSION}\n`);
    return ExitCode.ok;
  }
  if (name === 'help' && args.length > 0) {
    // `help config init` is `config init --help`.
    if (args.length > 2) return refuse(io, 'help takes a command, and a subcommand of config');
    const command = findCommand(args[0], io);
    return command ? command.run([...args.slice(1), '--help'], io) : ExitCode.badInput;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name === undefined ? ExitCode.badInput : ExitCode.ok;
  }
  if (name.startsWith('-')) return refuse(io, `unknown option ${name}; options: --help, --version`);
  const command = findCommand(name, io);
  if (!command) return ExitCode.badInput;
  try {
    const code = command.run(args, io);
    return typeof code === 'number' ? code : code.catch((error: unknown) => report(error, name, io));
  } catch (error) {
    return report(error, name, io);
  }
}

function refuse(io: Io, message: string): number {
  io.err(`agent-play: ${message}\n`);
  return ExitCode.badInput;
}

function report(error: unknown, command: string, io: Io): number {
  // Configuration, scenario, input, synthesis and resume problems: each one line, the input was unusable.
  if (error instanceof ProblemsError) {
    for (const problem of error.problems) io.err(`${problem}\n`);
    return ExitCode.badInput;
  }
  if (error instanceof OutputError || error instanceof UsageError) {
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
