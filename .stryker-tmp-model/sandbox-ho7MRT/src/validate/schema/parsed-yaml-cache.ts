/**
 * A cache of large YAML files read into JSON (a CRD is kept in compact form), in the user's cache folder
 * (`yaml/` under the folder of validator-cache.ts, never the working folder), keyed by a hash of the text:
 * a Workflows CRD is megabytes of YAML that takes the `yaml` package about 0.6 s to read, and its compact
 * JSON a few milliseconds. A file read before is found by its path, size, modification time and inode
 * (`yaml/files.json`), without reading or hashing its megabytes again, as make and git tell a changed file.
 * Any failure to read or write the cache falls back to parsing, never to an error.
 */
// @ts-nocheck

import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { makeFolder } from '../../io/make-folder';
import * as path from 'node:path';
import { readCacheJson } from '../../user-cache-dir';
import { userCacheDir } from './validator-cache';

/** Files smaller than this parse fast enough. */
const WORTH_CACHING_BYTES = 256 * 1024;
/** Bump when the reading rules change, so older entries are not used. */
const FORMAT = 'v2-compact-crd';

/** Where the documents of `text` are cached, or `undefined` when it is not worth it. */
export function cacheFileFor(text: string): string | undefined {
  if (text.length < WORTH_CACHING_BYTES) return undefined;
  return cacheFileOf(createHash('sha256').update(FORMAT).update(text).digest('hex'));
}

const cacheFileOf = (hash: string): string => path.join(userCacheDir(), 'yaml', `${hash}.json`);
/** Entries of the index past which the oldest are dropped. */
const INDEXED_FILES = 200;

/** The documents of the YAML file `file`, from the cache by the file's identity when it knows it, else as `cachedDocuments`. */
export function cachedFileDocuments(file: string, parse: (text: string) => unknown[]): unknown[] {
  const stat = statSync(file);
  const identity = `${FORMAT}|${path.resolve(file)}|${stat.size}|${stat.mtimeMs}|${stat.ino}`;
  const indexFile = path.join(userCacheDir(), 'yaml', 'files.json');
  const index = readIndex(indexFile);
  const known = index[identity];
  if (known) {
    // Dropped from the cache, or not what was stored: read the file below.
    const documents = readCacheJson(cacheFileOf(known));
    if (Array.isArray(documents)) return documents;
  }
  const text = readFileSync(file, 'utf8');
  const documents = cachedDocuments(text, parse);
  const cached = cacheFileFor(text);
  if (cached) {
    const entries = Object.entries(index).filter(([key]) => key !== identity);
    entries.push([identity, path.basename(cached, '.json')]);
    store(indexFile, Object.fromEntries(entries.slice(-INDEXED_FILES)));
  }
  return documents;
}

function readIndex(file: string): Record<string, string> {
  const index = readCacheJson(file);
  return index !== null && typeof index === 'object' && !Array.isArray(index) ? (index as Record<string, string>) : {};
}

/** The documents of `text`, from the cache when it has them, else from `parse` (and then stored). */
export function cachedDocuments(text: string, parse: (text: string) => unknown[]): unknown[] {
  const file = cacheFileFor(text);
  if (file) {
    // Not cached yet, unreadable, or not what was stored: parse below.
    const documents = readCacheJson(file);
    if (Array.isArray(documents)) return documents;
  }
  const documents = parse(text);
  if (file) store(file, documents);
  return documents;
}

function store(file: string, documents: unknown): void {
  try {
    makeFolder(path.dirname(file));
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(documents));
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written only costs time.
  }
}
