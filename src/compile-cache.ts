/**
 * V8's compiled form of the code the command line runs, kept in one file of the user's cache folder per
 * build of the command line and per command: the bundled command line itself and the CommonJS modules it
 * loads from `node_modules` (ajv's runtime, and ajv itself when a new schema is compiled). Each entry is
 * keyed by what identifies its source, because V8 itself checks only the source's length: a module by its
 * file's size, modification time and inode (what `npm ci` or an edit changes; hashing the sources cost more
 * than a tenth of a synthesis when cdk8s was loaded from there), the bundle by the caller's key. A file that
 * is missing, stale, rejected by V8 or unwritable costs time, never an error. The file is written when a run
 * compiled something the cache did not hold, at exit, so that the functions the command ran are in it too.
 *
 * A run that did one-off work (compiled validators with ajv: work kept for every later run) writes a
 * provisional cache when asked to (`freshAfterOneOffWork`): it would hold ajv and the compiler's paths, a
 * third more code than a usual run of the command reads back on every start. The next run compiles from the
 * sources again and writes the cache that stays. Functions read from a cache cannot be told from those a run
 * ran, so the next run cannot slim the provisional cache down: it compiles without it.
 */
import { isAscii } from 'node:buffer';
import { readdirSync, rmSync, statSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { Script } from 'node:vm';
import { saveAtExit } from './save-at-exit';
import { readCacheFile, writeCacheFile } from './user-cache-dir';
import { underStartFlags } from './young-generation';

interface Entry {
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

/** What a cache file starts with (after the header's length). */
interface Header {
  /** Written by a run that did one-off work: the next run compiles without it. */
  readonly provisional: boolean;
  readonly entries: Record<string, Entry>;
}

/** Set on the global object, so that the command line's loader sees what its bundle (another copy of this module) did. */
const ONE_OFF_WORK = Symbol.for('agent-play.compile-cache.one-off-work');

/** Says that this run does work that the runs after it will not do (validator-cache.ts, when it compiles). */
export function markOneOffWork(): void {
  (globalThis as Record<symbol, unknown>)[ONE_OFF_WORK] = true;
}

const didOneOffWork = (): boolean => (globalThis as Record<symbol, unknown>)[ONE_OFF_WORK] === true;

/** Options of `CompileCache.open`. */
export interface CompileCacheOptions {
  /**
   * The names of the files in its folder that a new `file` makes stale (older builds), deleted when it is
   * written @default none
   */
  readonly replaces?: RegExp;
  /** Whether a run that did one-off work writes a provisional cache (see the file's comment) @default false */
  readonly freshAfterOneOffWork?: boolean;
}

/** Node's CommonJS loader, as far as the cache replaces a module's compilation. */
interface CommonJsLoader {
  _compile(this: Module, content: string, filename: string): unknown;
}
interface CommonJsStatics {
  _resolveFilename(request: string, parent: Module, isMain: boolean, options?: { paths?: string[] }): string;
  _resolveLookupPaths(request: string, parent: Module): string[] | null;
  _extensions: NodeJS.RequireExtensions;
  _cache: NodeJS.Require['cache'];
}

/** The compiled code of a set of scripts, read from and written to one cache file. */
export class CompileCache {
  /** The cache in `file`; empty when it cannot be read, and when it is provisional. */
  public static open(file: string, options: CompileCacheOptions = {}): CompileCache {
    try {
      const data = readCacheFile(file);
      if (data === undefined) throw new Error('no cache file');
      const headerLength = data.readUInt32LE(0);
      const header = JSON.parse(data.subarray(4, 4 + headerLength).toString('utf8')) as Partial<Header>;
      if (header.provisional !== false || typeof header.entries !== 'object' || header.entries === null)
        throw new Error('a provisional cache, or one of another format');
      return new CompileCache(file, header.entries, data.subarray(4 + headerLength), options);
    } catch {
      return new CompileCache(file, {}, Buffer.alloc(0), options);
    }
  }

  private readonly scripts = new Map<string, { readonly key: string; readonly script: Script }>();
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly entries: Readonly<Record<string, Entry>>,
    private readonly data: Buffer,
    private readonly options: CompileCacheOptions,
  ) {
    saveAtExit(() => this.save());
  }

  /** Whether `filename` was compiled from the cache in this run. */
  public fromCache(filename: string): boolean {
    const compiled = this.scripts.get(filename);
    return compiled !== undefined && this.entries[filename]?.key === compiled.key && !compiled.script.cachedDataRejected;
  }

  /** `source` compiled as `filename`, from the cache when it holds the code of this very source (`key`). */
  public compile(filename: string, source: string, key: string): Script {
    const entry = this.entries[filename];
    const cachedData = entry?.key === key ? this.data.subarray(entry.start, entry.end) : undefined;
    const script = underStartFlags(() => new Script(source, { filename, cachedData }));
    if (!cachedData || script.cachedDataRejected) this.changed = true;
    this.scripts.set(filename, { key, script });
    return script;
  }

  /** From now on, every CommonJS module loaded from a `node_modules` folder is compiled through the cache. */
  public coverNodeModules(): void {
    const loader = Module.prototype as unknown as CommonJsLoader;
    const compileModule = loader._compile;
    const cache = this;
    loader._compile = function (this: Module, content: string, filename: string): unknown {
      // A file that starts with `#!` is a program, not a library: V8 reads that line only at a script's start.
      if (!filename.includes(`${path.sep}node_modules${path.sep}`) || content.startsWith('#!'))
        return compileModule.call(this, content, filename);
      const key = fileIdentity(filename);
      if (key === undefined) return compileModule.call(this, content, filename);
      const run = cache.compile(filename, Module.wrap(content), key).runInThisContext({ displayErrors: true });
      return (run as (...args: unknown[]) => unknown).call(
        this.exports,
        this.exports,
        requireOf(this),
        this,
        filename,
        path.dirname(filename),
      );
    };
  }

  /** Writes the cache when this run compiled something it did not hold (run at exit; again only after new compiles). */
  public save(): void {
    if (!this.changed) return;
    this.changed = false;
    const entries: Record<string, Entry> = {};
    const parts: Buffer[] = [];
    let offset = 0;
    for (const [filename, { key, script }] of this.scripts) {
      const data = underStartFlags(() => script.createCachedData());
      entries[filename] = { key, start: offset, end: offset + data.length };
      parts.push(data);
      offset += data.length;
    }
    const provisional = this.options.freshAfterOneOffWork === true && didOneOffWork();
    const header = Buffer.from(JSON.stringify({ provisional, entries } satisfies Header), 'utf8');
    const headerLength = Buffer.alloc(4);
    headerLength.writeUInt32LE(header.length);
    writeCacheFile(this.file, Buffer.concat([headerLength, header, ...parts]));
    this.removeStale();
  }

  /** A build's caches are megabytes: those of older builds go when a new one is written. */
  private removeStale(): void {
    const { replaces } = this.options;
    if (!replaces) return;
    const folder = path.dirname(this.file);
    try {
      for (const name of readdirSync(folder))
        if (replaces.test(name) && name !== path.basename(this.file)) rmSync(path.join(folder, name), { force: true });
    } catch {
      // Only space is lost.
    }
  }
}

/**
 * What changes when a file's content does, short of reading it: size, modification time (to the
 * nanosecond where the file system keeps it) and inode; `undefined` when the file cannot be looked at.
 */
export function fileIdentity(filename: string): string | undefined {
  try {
    const stats = statSync(filename, { bigint: true });
    return `${stats.size}:${stats.mtimeNs}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * The text of a generated script (the bundle, compiled validators). Generated code is ASCII (esbuild's
 * default charset, ajv's standalone code): read as Latin-1, V8 keeps a one-byte string, which decodes,
 * hashes and compiles several times faster than the two-byte string UTF-8 gives. Anything else is UTF-8.
 */
export function scriptSource(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/** The `require` a module's code gets, as Node's loader makes it. */
function requireOf(module: Module): NodeJS.Require {
  const statics = Module as unknown as CommonJsStatics;
  const moduleRequire = ((id: string) => module.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) =>
    statics._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => statics._resolveLookupPaths(request, module);
  moduleRequire.resolve = resolve;
  moduleRequire.main = require.main;
  moduleRequire.extensions = statics._extensions;
  moduleRequire.cache = statics._cache;
  return moduleRequire;
}
