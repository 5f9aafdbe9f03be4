// @ts-nocheck
import { runCli, type Io } from '../../src/cli';

/** One run of the command line, with what it printed. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** What a run takes besides its arguments. */
type RunOptions = { env?: Record<string, string>; stdin?: string; now?: Date; synthesize?: Io['synthesize'] };

/**
 * Runs `agent-play ARGV...` in-process with captured output, the given environment and, optionally, stdin.
 * For the commands that answer at once; `runCapturingAsync` for one that waits (`simulate`).
 */
export function runCapturing(argv: readonly string[], options: RunOptions = {}): CliRun {
  const { io, output } = capturingIo(options);
  const code = runCli(argv, io);
  if (typeof code !== 'number') throw new Error(`agent-play ${argv[0]} answers later: use runCapturingAsync`);
  return { code, ...output() };
}

/** `runCapturing` for a command that waits. */
export async function runCapturingAsync(argv: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  const { io, output } = capturingIo(options);
  const code = await runCli(argv, io);
  return { code, ...output() };
}

function capturingIo(options: RunOptions): { io: Io; output: () => { out: string; err: string } } {
  let out = '';
  let err = '';
  const io: Io = {
    out: (text) => (out += text),
    err: (text) => (err += text),
    env: options.env ?? {},
    ...(options.stdin !== undefined ? { stdin: () => options.stdin as string } : {}),
    ...(options.now !== undefined ? { now: () => options.now as Date } : {}),
    ...(options.synthesize !== undefined ? { synthesize: options.synthesize } : {}),
  };
  return { io, output: () => ({ out, err }) };
}
