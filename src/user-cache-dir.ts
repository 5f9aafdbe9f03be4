/**
 * The user's cache folder for agent-play (`$AGENT_PLAY_CACHE_DIR`, else `$XDG_CACHE_HOME/agent-play`, else
 * `~/.cache/agent-play`), never the working folder: compiled validators, large YAML read into JSON and the
 * compiled command line live there. Its own module so that the command line's loader (src/start-cli.ts)
 * finds it without loading anything else.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

/** The user's cache folder for agent-play. */
export function userCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.AGENT_PLAY_CACHE_DIR) return path.resolve(env.AGENT_PLAY_CACHE_DIR);
  const base = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(homedir(), '.cache');
  return path.join(base, 'agent-play');
}

/** Writes a cache file whole (a temporary file renamed into place), or not at all: a cache that cannot be written only costs time. */
export function writeCacheFile(file: string, data: string | Buffer): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch {
    // Nothing to do: the next run compiles again.
  }
}
