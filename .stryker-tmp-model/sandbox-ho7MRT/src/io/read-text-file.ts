/**
 * Reads an input file the way every command does: only a regular file (a FIFO, a device such as /dev/zero
 * or a socket would hang the command or never end), no larger than a limit far above any real manifest or
 * configuration (a 50 MB file used to take half a minute and 2 GB), checked with fstat on the opened file
 * before reading and enforced again while reading, since a file can grow in between.
 */
// @ts-nocheck

import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** The largest input read: 8 MiB, eight times the most a ConfigMap or Secret may hold. */
export const MAX_INPUT_BYTES = 8 * 1024 * 1024;

/** Why a file cannot be read, in words, without its path (the caller names it). */
export class UnreadableFileError extends Error {
  public constructor(
    message: string,
    /** The fs error code (ENOENT, ELOOP...) when the system refused; absent when we refused. */
    public readonly code?: string,
  ) {
    super(message);
    this.name = 'UnreadableFileError';
  }

  /** Short, for messages that put the reason in parentheses: the code, else the whole reason. */
  public get reason(): string {
    return this.code ?? this.message;
  }
}

const fsFailure = (error: unknown): UnreadableFileError =>
  new UnreadableFileError(describeFsError(error), (error as NodeJS.ErrnoException).code);

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** An fs error code in words. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'a symlink loop (the link leads back to itself)';
  if (code === 'EISDIR') return 'a folder, not a file';
  return `cannot be read (${code ?? (error as Error).message})`;
}

/** Reads from an open descriptor until its end, refusing more than `maxBytes`. */
export function readCapped(fd: number, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.alloc(64 * 1024);
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, chunk, 0, chunk.length, null);
    } catch (error) {
      // A non-blocking pipe with nothing in it yet: wait a moment and read again.
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      throw error;
    }
    if (read === 0) break;
    total += read;
    if (total > maxBytes) throw new UnreadableFileError(`more than the ${mib(maxBytes)} an input may hold; is it the right file?`);
    chunks.push(Buffer.from(chunk.subarray(0, read)));
  }
  return Buffer.concat(chunks);
}

/**
 * The text of a regular file of at most `maxBytes`.
 * @throws UnreadableFileError saying what the file is or why it cannot be read
 */
export function readTextFile(file: string, maxBytes: number = MAX_INPUT_BYTES): string {
  let fd: number;
  try {
    // Non-blocking, so that opening a FIFO nobody writes to returns at once instead of waiting forever.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fsFailure(error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new UnreadableFileError(`${kindOf(stats)}, not a file: name a regular file`);
    if (stats.size > maxBytes)
      throw new UnreadableFileError(`${mib(stats.size)}, more than the ${mib(maxBytes)} an input may hold; is it the right file?`);
    return readCapped(fd, maxBytes).toString('utf8');
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    throw fsFailure(error);
  } finally {
    closeSync(fd);
  }
}

/** Standard input as text, refusing more than `maxBytes` (`< /dev/zero` ends with an error, not a hang). */
export function readStandardInput(maxBytes: number = MAX_INPUT_BYTES): string {
  return readCapped(0, maxBytes).toString('utf8');
}
