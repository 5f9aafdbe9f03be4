/**
 * The compiled-code cache of the command line (src/compile-cache.ts): a second process compiles from it what
 * the first compiled, a changed source is compiled again, and a new build's file replaces an older one's.
 */
// @ts-nocheck

import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompileCache, fileIdentity } from '../src/compile-cache';
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

  it('reads an unreadable file as an empty cache, and removes the files a new one replaces', () => {
    const old = path.join(folder, 'cli-0-validate.v8');
    writeFileSync(old, 'not a cache');
    writeFileSync(path.join(folder, 'cli-0-synth.v8'), 'another command');
    const cache = CompileCache.open(path.join(folder, 'cli-1-validate.v8'), /^cli-\d+-validate\.v8$/);
    expect(cache.compile('/x/lib.js', SOURCE, 'k1').runInThisContext()()).toBe('2,4,6');
    cache.save();
    expect(readdirSync(folder).sort()).toEqual(['cli-0-synth.v8', 'cli-1-validate.v8', 'cli-a-synth.v8']);
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
