/**
 * A cache of large YAML files read into JSON (a CRD is kept in compact form), in the user's cache folder
 * (`yaml/` under the folder of validator-cache.ts, never the working folder), keyed by a hash of the text:
 * a Workflows CRD is megabytes of YAML that takes the `yaml` package about 0.6 s to read, and its compact
 * JSON a few milliseconds. Any failure to read or write the cache falls back to parsing, never to an error.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { userCacheDir } from './validator-cache';

/** Files smaller than this parse fast enough. */
const WORTH_CACHING_BYTES = 256 * 1024;
/** Bump when the reading rules change, so older entries are not used. */
const FORMAT = 'v2-compact-crd';

/** Where the documents of `text` are cached, or `undefined` when it is not worth it. */
export function cacheFileFor(text: string): string | undefined {
  if (text.length < WORTH_CACHING_BYTES) return undefined;
  const hash = createHash('sha256').update(FORMAT).update(text).digest('hex');
  return path.join(userCacheDir(), 'yaml', `${hash}.json`);
}

/** The documents of `text`, from the cache when it has them, else from `parse` (and then stored). */
export function cachedDocuments(text: string, parse: (text: string) => unknown[]): unknown[] {
  const file = cacheFileFor(text);
  if (file) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as unknown[];
    } catch {
      // Not cached yet, or unreadable: parse below.
    }
  }
  const documents = parse(text);
  if (file) store(file, documents);
  return documents;
}

function store(file: string, documents: unknown[]): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(documents));
    renameSync(temporary, file);
  } catch {
    // A cache that cannot be written only costs time.
  }
}
