import { afterAll, beforeAll } from 'vitest';
import { useScratchDirs } from './scratch-dir';

/**
 * A fresh user cache folder for the calling test file: `AGENT_PLAY_CACHE_DIR` points at it while the file's
 * tests run and is restored after them, when the folder is removed. Returns the folder.
 */
export function useScratchCacheDir(prefix: string): string {
  const folder = useScratchDirs(prefix)();
  const previous = process.env.AGENT_PLAY_CACHE_DIR;
  beforeAll(() => {
    process.env.AGENT_PLAY_CACHE_DIR = folder;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.AGENT_PLAY_CACHE_DIR;
    else process.env.AGENT_PLAY_CACHE_DIR = previous;
  });
  return folder;
}
