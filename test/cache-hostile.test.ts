/**
 * The user's cache is trusted only as far as it is checked (issue 23 item 7): an entry is verified before use
 * and rebuilt when wrong, only regular files are read (a FIFO in the cache used to block every later run), and
 * a relative `AGENT_PLAY_CACHE_DIR` or `XDG_CACHE_HOME` is ignored as the XDG Base Directory specification
 * says, instead of writing a cache into whatever folder the command runs in.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCacheFile, userCacheDir } from '../src/user-cache-dir';
import { customCrd } from './support/custom-crd';
import { useScratchDirs } from './support/scratch-dir';
import { runSourceCli } from './support/source-cli';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const scratch = useScratchDirs('agent-play-cache-hostile-');

describe('the cache folder', () => {
  it('ignores a relative AGENT_PLAY_CACHE_DIR or XDG_CACHE_HOME, whatever it says', () => {
    const relative = fc.string({ minLength: 1, maxLength: 20 }).filter((text) => !path.isAbsolute(text));
    fc.assert(
      fc.property(relative, relative, (own, xdg) => {
        expect(userCacheDir({ AGENT_PLAY_CACHE_DIR: own, XDG_CACHE_HOME: xdg })).toBe(path.join(homedir(), '.cache', 'agent-play'));
        expect(userCacheDir({ AGENT_PLAY_CACHE_DIR: own, XDG_CACHE_HOME: '/var/cache/u' })).toBe('/var/cache/u/agent-play');
        expect(userCacheDir({ AGENT_PLAY_CACHE_DIR: '/srv/c/', XDG_CACHE_HOME: xdg })).toBe('/srv/c/');
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('reads a regular file, and nothing else (a FIFO, a folder, a device, a missing file)', () => {
    const folder = scratch();
    const fifo = path.join(folder, 'fifo');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(path.join(folder, 'file'), 'bytes');
    expect(readCacheFile(path.join(folder, 'file'))?.toString()).toBe('bytes');
    expect(readCacheFile(fifo)).toBeUndefined();
    expect(readCacheFile(folder)).toBeUndefined();
    expect(readCacheFile('/dev/zero')).toBeUndefined();
    expect(readCacheFile(path.join(folder, 'missing'))).toBeUndefined();
  });
});

describe('validate --crds with a damaged cache', () => {
  /** `agent-play validate --crds` in a process of its own (a blocked read would block the test's), from the sources. */
  function validate(folder: string, cache: string, env: Record<string, string> = {}) {
    const run = runSourceCli(['validate', '--crds', 'crds', 'widget.yaml'], {
      cwd: folder,
      env: { AGENT_PLAY_CACHE_DIR: cache, ...env },
      timeout: 240_000,
    });
    return { code: run.status, signal: run.signal, out: run.stdout, err: run.stderr };
  }

  function project(): { folder: string; cache: string } {
    const folder = scratch();
    mkdirSync(path.join(folder, 'crds'));
    const crd = customCrd({
      kind: 'Widget',
      name: 'widgets.example.com',
      spec: { type: 'object', properties: { size: { type: 'integer', maximum: 3 } } },
    });
    writeFileSync(path.join(folder, 'crds', 'widget-crd.json'), JSON.stringify(crd));
    writeFileSync(path.join(folder, 'widget.yaml'), 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 9\n');
    return { folder, cache: path.join(folder, 'cache') };
  }

  const compiled = (cache: string): string[] =>
    readdirSync(path.join(cache, 'validators'))
      .filter((name) => name.endsWith('.cjs'))
      .map((name) => path.join(cache, 'validators', name));

  it('a compiled validator emptied or replaced by a FIFO is compiled again, and the run answers as before', () => {
    const { folder, cache } = project();
    const first = validate(folder, cache);
    expect(first.code, first.err).toBe(1);
    expect(first.out).toContain('spec.size');
    expect(compiled(cache).length).toBeGreaterThan(0);

    for (const file of compiled(cache)) writeFileSync(file, '');
    const afterEmpty = validate(folder, cache);
    expect(afterEmpty).toMatchObject({ code: 1, out: first.out });
    for (const file of compiled(cache)) expect(statSync(file).size).toBeGreaterThan(0);

    for (const file of compiled(cache)) {
      rmSync(file);
      execFileSync('mkfifo', [file]);
    }
    const afterFifo = validate(folder, cache);
    expect(afterFifo.signal, 'blocked on the FIFO').toBeNull();
    expect(afterFifo).toMatchObject({ code: 1, out: first.out });
    for (const file of compiled(cache)) expect(lstatSync(file).isFile()).toBe(true);
  }, 900_000);

  it('a relative AGENT_PLAY_CACHE_DIR writes nothing into the working folder', () => {
    const { folder } = project();
    const home = path.join(folder, 'home');
    const run = validate(folder, 'relative-cache', { HOME: home, XDG_CACHE_HOME: 'also-relative' });
    expect(run.code, run.err).toBe(1);
    expect(readdirSync(folder).sort()).toEqual(['crds', 'home', 'widget.yaml']);
    expect(readdirSync(path.join(home, '.cache', 'agent-play'))).toContain('validators');
  }, 300_000);
});
