// @ts-nocheck
import { afterAll, beforeAll } from 'vitest';
import { saveAllNow } from '../../src/save-at-exit';
import { useScratchDirs } from './scratch-dir';

/**
 * A fresh user cache folder for the calling test file: `AGENT_PLAY_CACHE_DIR` points at it while the file's
 * tests run and is restored after them, when the folder is removed (what the caches have left to write at exit is
 * written first). Returns the folder.
 */
export function useScratchCacheDir(prefix: string): string {
  const folder = useScratchDirs(prefix)();
  const previous = process.env.AGENT_PLAY_CACHE_DIR;
  beforeAll(() => {
    process.env.AGENT_PLAY_CACHE_DIR = folder;
  });
  afterAll(() => {
    // What the file's tests left to write at exit goes into the folder now, before it is removed: at exit it
    // would make the folder again.
    saveAllNow();
    if (previous === undefined) delete process.env.AGENT_PLAY_CACHE_DIR;
    else process.env.AGENT_PLAY_CACHE_DIR = previous;
  });
  return folder;
}
