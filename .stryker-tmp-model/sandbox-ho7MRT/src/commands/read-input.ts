// @ts-nocheck
import { InputError, UsageError, type Io } from './command';
import { readStandardInput, readTextFile, UnreadableFileError } from '../io/read-text-file';

/** What a command read: the text and where it came from, for messages. */
export interface Input {
  readonly text: string;
  readonly source: string;
}

/**
 * The text of `FILE`, or of standard input for `-`, or when no file is named and standard input is not a
 * terminal (a pipe: `kubectl get cm ... -o yaml | agent-play status`). Either is read with a size limit.
 * @throws UsageError when nothing is named and standard input is a terminal
 * @throws InputError when the file cannot be read, is not a regular file, or is too large
 */
export function readInput(file: string | undefined, io: Io, what: string): Input {
  if (file === '-' || (file === undefined && (io.stdin !== undefined || !process.stdin.isTTY))) {
    try {
      return { text: io.stdin ? io.stdin() : readStandardInput(), source: 'standard input' };
    } catch (error) {
      if (error instanceof UnreadableFileError) throw new InputError([`standard input: ${error.message}`]);
      throw error;
    }
  }
  if (file === undefined) throw new UsageError(`give ${what} as FILE, or - (or a pipe) for standard input`);
  try {
    return { text: readTextFile(file), source: file };
  } catch (error) {
    if (error instanceof UnreadableFileError) throw new InputError([`${file}: cannot read (${error.reason})`]);
    throw error;
  }
}
