import { runCli, type Io } from '../../src/cli';

/** One run of the command line, with what it printed. */
export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `agent-play ARGV...` in-process with captured output, the given environment and, optionally, stdin. */
export function runCapturing(
  argv: readonly string[],
  options: { env?: Record<string, string>; stdin?: string; now?: Date; synthesize?: Io['synthesize'] } = {},
): CliRun {
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
  const code = runCli(argv, io);
  return { code, out, err };
}
