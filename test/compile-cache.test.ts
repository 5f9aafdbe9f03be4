/**
 * The compiled-code cache of the command line (src/compile-cache.ts): a second process compiles from it what
 * the first compiled, a changed source is compiled again, and a new build's file replaces an older one's.
 */
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompileCache, fileIdentity, markOneOffWork } from '../src/compile-cache';
import { useScratchDirs } from './support/scratch-dir';

const folder = useScratchDirs('agent-play-code-')();

const SOURCE = '(function () { return [1, 2, 3].map((n) => n * 2).join(","); })';

describe('CompileCache', () => {
  it('compiles from the cache what a previous run compiled, and again what changed', () => {
    const file = path.join(folder, 'cli-a-synth.v8');
    const first = CompileCache.open(file);
    expect(first.compile('/x/lib.js', SOURCE, 'k1').runInThisContext()()).toBe('2,4,6');
    expect(first.fromCache('/x/lib.js')).toBe(false);
    first.save();
    expect(existsSync(file)).toBe(true);

    const second = CompileCache.open(file);
    expect(second.compile('/x/lib.js', SOURCE, 'k1').runInThisContext()()).toBe('2,4,6');
    expect(second.fromCache('/x/lib.js')).toBe(true);

    const changed = CompileCache.open(file);
    expect(changed.compile('/x/lib.js', `${SOURCE} `, 'k2').runInThisContext()()).toBe('2,4,6');
    expect(changed.fromCache('/x/lib.js')).toBe(false);
    changed.save(); // not left to the exit of the test process
  });

  it('compiles without a cache written by a run that did one-off work, and keeps the one the next run writes', () => {
    const file = path.join(folder, 'cli-b-synth.v8');
    const options = { freshAfterOneOffWork: true };
    const oneOffFlag = Symbol.for('agent-play.compile-cache.one-off-work');
    const first = CompileCache.open(file, options);
    first.compile('/x/lib.js', SOURCE, 'k1').runInThisContext();
    markOneOffWork();
    try {
      first.save();
    } finally {
      delete (globalThis as Record<symbol, unknown>)[oneOffFlag];
    }
    // The provisional file is there, and unused.
    expect(existsSync(file)).toBe(true);
    const second = CompileCache.open(file, options);
    expect(second.compile('/x/lib.js', SOURCE, 'k1').runInThisContext()()).toBe('2,4,6');
    expect(second.fromCache('/x/lib.js')).toBe(false);
    second.save();
    const third = CompileCache.open(file, options);
    third.compile('/x/lib.js', SOURCE, 'k1');
    expect(third.fromCache('/x/lib.js')).toBe(true);
    // A cache that does not ask for it is kept after one-off work.
    const plain = path.join(folder, 'validators.v8');
    const kept = CompileCache.open(plain);
    kept.compile('/x/lib.js', SOURCE, 'k1');
    markOneOffWork();
    try {
      kept.save();
    } finally {
      delete (globalThis as Record<symbol, unknown>)[oneOffFlag];
    }
    const reread = CompileCache.open(plain);
    reread.compile('/x/lib.js', SOURCE, 'k1');
    expect(reread.fromCache('/x/lib.js')).toBe(true);
  });

  it('reads an unreadable file as an empty cache, and removes the files a new one replaces', () => {
    const old = path.join(folder, 'cli-0-validate.v8');
    writeFileSync(old, 'not a cache');
    writeFileSync(path.join(folder, 'cli-0-synth.v8'), 'another command');
    const cache = CompileCache.open(path.join(folder, 'cli-1-validate.v8'), { replaces: /^cli-\d+-validate\.v8$/ });
    expect(cache.compile('/x/lib.js', SOURCE, 'k1').runInThisContext()()).toBe('2,4,6');
    cache.save();
    expect(readdirSync(folder).sort()).toEqual([
      'cli-0-synth.v8',
      'cli-1-validate.v8',
      'cli-a-synth.v8',
      'cli-b-synth.v8',
      'validators.v8',
    ]);
  });

  it('knows a module file by its size, time and inode: an edit of the same length is a new identity', () => {
    const file = path.join(folder, 'module.js');
    writeFileSync(file, 'module.exports = 1;');
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    const before = fileIdentity(file);
    expect(before).toMatch(/^\d+:\d+:\d+$/);
    expect(fileIdentity(file)).toBe(before);
    writeFileSync(file, 'module.exports = 2;');
    expect(fileIdentity(file)).not.toBe(before);
    expect(fileIdentity(path.join(folder, 'missing.js'))).toBeUndefined();
  });
});
