import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * What the tests build at a price (the packed tarball, a type-checked consumer project), kept between runs
 * under the hash of everything it is made from: a run whose inputs did not change takes the product, and any
 * change to an input makes it again. Beside tsc's build info in node_modules/.cache/agent-play (scripts/test.mjs),
 * so that `npm ci` starts it empty and no two checkouts share it; `AGENT_PLAY_TEST_CACHE_DIR` puts it elsewhere
 * (the cache's own tests).
 */
export function testCacheDir(): string {
  return process.env.AGENT_PLAY_TEST_CACHE_DIR ?? path.resolve(__dirname, '../../node_modules/.cache/agent-play/tests');
}

/** How many products of one kind are kept (the most recently used): enough for switching between branches. */
const KEPT_PER_KIND = 4;

/** The SHA-256 of some parts, each delimited so that no two lists of parts hash alike. */
export function hashOf(...parts: readonly (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${Buffer.byteLength(part)}:`).update(part);
  return hash.digest('hex');
}

/** The hash of every file under `paths` (files or folders, from `root`): each file's path and bytes. */
export function hashTree(root: string, paths: readonly string[]): string {
  const files = paths.flatMap((entry) => {
    const full = path.join(root, entry);
    if (!statSync(full).isDirectory()) return [entry];
    return readdirSync(full, { recursive: true, encoding: 'utf8' })
      .map((name) => path.join(entry, name))
      .filter((file) => statSync(path.join(root, file)).isFile());
  });
  return hashOf(...files.sort().flatMap((file) => [file, readFileSync(path.join(root, file))]));
}

/**
 * What the installed packages are: npm's record of the tree it installed (names, versions, integrity), so that
 * a product made with other packages is never taken.
 */
export function installedPackagesHash(root: string): string {
  return hashOf(readFileSync(path.join(root, 'node_modules/.package-lock.json')));
}

/** The folder of a kind of product, made when missing. */
function kindFolder(kind: string): string {
  const folder = path.join(testCacheDir(), kind);
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** Marks an entry as used now, and removes the kind's entries beyond the most recently used few. */
function keep(kind: string, entry: string): void {
  const now = new Date();
  utimesSync(entry, now, now);
  const folder = kindFolder(kind);
  const entries = readdirSync(folder)
    .filter((name) => !name.endsWith('.tmp'))
    .map((name) => ({ file: path.join(folder, name), used: statSync(path.join(folder, name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const { file } of entries.slice(KEPT_PER_KIND)) rmSync(file, { recursive: true, force: true });
}

/**
 * The product of `kind` made from inputs that hash to `key`, a file: the kept one, or one `make` writes now
 * (to the path it is given, moved into place whole once made). Returns its path.
 */
export function cachedProduct(kind: string, key: string, extension: string, make: (file: string) => void): string {
  const entry = path.join(kindFolder(kind), `${key}${extension}`);
  if (!existsSync(entry)) {
    const temporary = `${entry}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    make(temporary);
    renameSync(temporary, entry);
  }
  keep(kind, entry);
  return entry;
}

/** A product kept as JSON: the value stored under `key`, or `undefined`. */
export function readCachedJson(kind: string, key: string): unknown {
  const entry = path.join(kindFolder(kind), `${key}.json`);
  if (!existsSync(entry)) return undefined;
  try {
    const value = JSON.parse(readFileSync(entry, 'utf8'));
    keep(kind, entry);
    return value;
  } catch {
    return undefined;
  }
}

/** Stores a product as JSON under `key`, in place of any stored there before (whole or not at all). */
export function writeCachedJson(kind: string, key: string, value: unknown): void {
  const entry = path.join(kindFolder(kind), `${key}.json`);
  const temporary = `${entry}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(value));
  renameSync(temporary, entry);
  keep(kind, entry);
}
