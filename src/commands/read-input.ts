import { readFileSync } from 'node:fs';
import { InputError, UsageError, type Io } from './command';

/** What a command read: the text and where it came from, for messages. */
export interface Input {
  readonly text: string;
  readonly source: string;
}

/**
 * The text of `FILE`, or of standard input for `-`, or when no file is named and standard input is not a
 * terminal (a pipe: `kubectl get cm ... -o yaml | agent-play status`).
 * @throws UsageError when nothing is named and standard input is a terminal
 * @throws InputError when the file cannot be read
 */
export function readInput(file: string | undefined, io: Io, what: string): Input {
  if (file === '-' || (file === undefined && (io.stdin !== undefined || !process.stdin.isTTY))) {
    return { text: io.stdin ? io.stdin() : readFileSync(0, 'utf8'), source: 'standard input' };
  }
  if (file === undefined) throw new UsageError(`give ${what} as FILE, or - (or a pipe) for standard input`);
  try {
    return { text: readFileSync(file, 'utf8'), source: file };
  } catch (error) {
    throw new InputError([`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
}
