/**
 * A string-keyed map of JSON values kept in one file of the user's cache folder, for the results of pure,
 * slow functions of a pinned library (a CEL parse, a Go regexp check, the CEL verdicts on an object): read
 * whole on first use, written whole at exit when a run added to it. A missing, unreadable or unwritable file
 * costs time, never an error.
 */
// @ts-nocheck

import * as path from 'node:path';
import { saveAtExit } from './save-at-exit';
import { readCacheJson, userCacheDir, writeCacheFile } from './user-cache-dir';

export class StoredMap {
  private entries: Map<string, unknown> | undefined;
  private unsaved = false;
  private readonly saveOnExit = (): void => this.save();

  /**
   * @param file where it is kept; name the version of whatever computes its values in it
   * @param limit the most entries kept: adding one more drops the oldest added, so that a map keyed by
   * content that changes (an object being edited) does not grow without end @default no limit
   */
  public constructor(
    private readonly file: string,
    private readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  /** The value stored under `key`, or `undefined`. */
  public get(key: string): unknown {
    return this.read().get(key);
  }

  /** Stores `value` (JSON) under `key`; the file is written at exit. */
  public set(key: string, value: unknown): void {
    const entries = this.read();
    entries.delete(key);
    entries.set(key, value);
    for (const oldest of entries.keys()) {
      if (entries.size <= this.limit) break;
      entries.delete(oldest);
    }
    saveAtExit(this.saveOnExit);
    this.unsaved = true;
  }

  /** Writes the file now when something was added since it was read or last written. */
  public save(): void {
    if (!this.unsaved) return;
    this.unsaved = false;
    writeCacheFile(this.file, JSON.stringify(Object.fromEntries(this.read())));
  }

  private read(): Map<string, unknown> {
    if (!this.entries) {
      try {
        const stored = readCacheJson(this.file);
        this.entries = new Map(stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? Object.entries(stored) : []);
      } catch {
        this.entries = new Map();
      }
    }
    return this.entries;
  }
}

const inCacheFolder = new Map<string, StoredMap>();

/**
 * The map kept in `file` (a path inside the user's cache folder) of the cache folder as it is now, one per
 * file for the process. A process whose cache folder changes (a test's scratch folder) keeps each map's
 * entries in their own folder, instead of writing a map read from one folder into it after it is gone.
 */
export function storedMapInCache(file: string, limit?: number): StoredMap {
  const where = path.join(userCacheDir(), file);
  let map = inCacheFolder.get(where);
  if (!map) {
    map = new StoredMap(where, limit);
    inCacheFolder.set(where, map);
  }
  return map;
}
