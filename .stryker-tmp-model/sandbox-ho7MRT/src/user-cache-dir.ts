/**
 * The user's cache folder for agent-play (`$AGENT_PLAY_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-play`, else
 * `~/.cache/agent-play`), never the working folder: compiled validators, large YAML read into JSON and the
 * compiled command line live there. Its own module so that the command line's loader (src/start-cli.ts)
 * finds it without loading anything else.
 */
// @ts-nocheck

import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { makeFolder } from './io/make-folder';
import { homedir } from 'node:os';
import * as path from 'node:path';

/**
 * The user's cache folder for agent-play. A relative `AGENT_PLAY_CACHE_DIR` or `XDG_CACHE_HOME` is ignored, as
 * the XDG Base Directory specification says of its variables: resolved, it would put a cache in whatever folder
 * the command runs in.
 */
export function userCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const absolute = (value: string | undefined): string | undefined => (value && path.isAbsolute(value) ? path.normalize(value) : undefined);
  const own = absolute(env.AGENT_PLAY_CACHE_DIR);
  if (own !== undefined) return own;
  return path.join(absolute(env.XDG_CACHE_HOME) ?? path.join(homedir(), '.cache'), 'agent-play');
}

/**
 * The bytes of a cache file, or `undefined` when it is missing, unreadable or not a regular file: opened
 * without waiting (a FIFO or a device put in its place would block a read forever, or never end), and read
 * only when the opened file is a regular one.
 */
export function readCacheFile(file: string): Buffer | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    return fstatSync(descriptor).isFile() ? readFileSync(descriptor) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/** A cache file read as UTF-8 JSON (see `readCacheFile`), or `undefined` when it cannot be. */
export function readCacheJson(file: string): unknown {
  const bytes = readCacheFile(file);
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Writes a cache file whole (a temporary file renamed into place), or not at all: a cache that cannot be written only costs time. */
export function writeCacheFile(file: string, data: string | Buffer): void {
  try {
    makeFolder(path.dirname(file));
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch {
    // Nothing to do: the next run compiles again.
  }
}
