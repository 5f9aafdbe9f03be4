import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A fresh user cache folder for the calling test file: `AGENT_PLAY_CACHE_DIR` points at it while the file's
 * tests run and is restored after them, when the folder is removed. Returns the folder.
 */
export function useScratchCacheDir(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  const previous = process.env.AGENT_PLAY_CACHE_DIR;
  beforeAll(() => {
    process.env.AGENT_PLAY_CACHE_DIR = folder;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.AGENT_PLAY_CACHE_DIR;
    else process.env.AGENT_PLAY_CACHE_DIR = previous;
    rmSync(folder, { recursive: true, force: true });
  });
  return folder;
}
