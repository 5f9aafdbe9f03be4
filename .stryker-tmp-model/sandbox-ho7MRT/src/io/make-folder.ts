/**
 * `mkdir -p`, one folder at a time. Node's own recursive mkdir (Node 20) never returns under /proc: each
 * mkdir there fails with ENOENT, which it takes for a missing parent and tries again, at full CPU, forever
 * (`--out /proc/1/x/y`, `AGENT_PLAY_CACHE_DIR=/proc/1`). Here the first folder that cannot be made ends it,
 * with its error.
 */
// @ts-nocheck

import { mkdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Makes `folder` and the folders above it that are missing.
 * @throws the file system's error (with its `code`) for the first folder that cannot be made, or ENOTDIR
 * when a part of the path is not a folder
 */
export function makeFolder(folder: string): void {
  const missing: string[] = [];
  let at = path.resolve(folder);
  for (;;) {
    const stats = statSync(at, { throwIfNoEntry: false });
    if (stats !== undefined) {
      if (!stats.isDirectory()) throw Object.assign(new Error(`${at}: not a folder`), { code: 'ENOTDIR' });
      break;
    }
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const part of missing.reverse()) {
    try {
      mkdirSync(part);
    } catch (error) {
      // Made meanwhile by another process: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(part).isDirectory()) throw error;
    }
  }
}
