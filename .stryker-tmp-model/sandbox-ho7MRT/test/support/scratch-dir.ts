// @ts-nocheck
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll } from 'vitest';
import { saveAtExit } from '../../src/save-at-exit';

/**
 * Scratch folders for the calling test file (or describe block): each call of the returned function makes a
 * new folder in the OS temp folder, named `prefix` and a random tail; every one is removed after the file's
 * tests. Call it where the file is collected (not inside a test), so that the removal is registered for
 * that file: test files share their worker's modules (isolate: false), so state kept in this module would
 * outlive the file that made it. The only place the tests make temp folders (test/temp-folders.test.ts).
 */
export function useScratchDirs(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const folder of made.splice(0)) removeNowAndAtExit(folder);
  });
  return () => {
    const folder = mkdtempSync(path.join(tmpdir(), prefix));
    made.push(folder);
    return folder;
  };
}

/**
 * Removes a folder now and again at exit. The product's caches write at exit (compile-cache.ts,
 * stored-map.ts): one opened on this folder during the tests would make it again then. The second removal
 * runs under the product's one exit listener, after those writes; a listener per folder passed Node's limit
 * of ten in a worker that runs many files (MaxListenersExceededWarning).
 */
export function removeNowAndAtExit(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  saveAtExit(() => rmSync(folder, { recursive: true, force: true }));
}
