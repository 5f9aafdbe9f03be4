/**
 * npm test skips the type check and the lint while the files are as at their last pass (scripts/check-cache.mjs):
 * any change git can see, and any install, must run them again, or a broken file would pass unchecked.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useScratchDirs } from './support/scratch-dir';

interface CheckCache {
  passed(name: string): boolean;
  remember(name: string): void;
}
type CheckCacheModule = { checkCache(disabled: boolean, root?: string): CheckCache };

const load = async (): Promise<CheckCacheModule> =>
  (await import(pathToFileURL(resolve(__dirname, '..', 'scripts/check-cache.mjs')).href)) as CheckCacheModule;
const scratch = useScratchDirs('agent-play-check-cache-');

/** A git checkout with a tracked file, an ignored folder and an install record, whose tsc passed once. */
async function passedProject(): Promise<{ root: string; cache: (disabled?: boolean) => CheckCache }> {
  const { checkCache } = await load();
  const root = scratch();
  execFileSync('git', ['init', '--quiet'], { cwd: root });
  writeFileSync(join(root, '.gitignore'), 'node_modules/\nbuild/\n');
  writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
  execFileSync('git', ['add', '.'], { cwd: root });
  mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(root, 'node_modules/.package-lock.json'), '{"v":1}');
  const cache = (disabled = false) => checkCache(disabled, root);
  expect(cache().passed('tsc')).toBe(false);
  cache().remember('tsc');
  return { root, cache };
}

describe('the check cache', () => {
  it('knows a pass on the same files, for that check only', async () => {
    const { cache } = await passedProject();
    expect(cache().passed('tsc')).toBe(true);
    expect(cache().passed('biome')).toBe(false);
    expect(cache(true).passed('tsc')).toBe(false);
  });

  it('forgets it when a file changes, is added, is deleted, or another install is made', async () => {
    const changes: ((root: string) => void)[] = [
      (root) => writeFileSync(join(root, 'a.ts'), 'export const a = 2;\n'),
      (root) => writeFileSync(join(root, 'b.ts'), 'export const b: number = "not checked";\n'),
      (root) => rmSync(join(root, 'a.ts')),
      (root) => writeFileSync(join(root, 'node_modules/.package-lock.json'), '{"v":2}'),
    ];
    for (const change of changes) {
      const { root, cache } = await passedProject();
      change(root);
      expect(cache().passed('tsc')).toBe(false);
    }
  });

  it('ignores what git ignores', async () => {
    const { root, cache } = await passedProject();
    mkdirSync(join(root, 'build'));
    writeFileSync(join(root, 'build/out.cjs'), 'generated\n');
    expect(cache().passed('tsc')).toBe(true);
  });

  it('remembers nothing when a file changed while the check ran', async () => {
    const { checkCache } = await load();
    const { root } = await passedProject();
    const during = checkCache(false, root);
    writeFileSync(join(root, 'a.ts'), 'export const a = 33;\n');
    during.remember('biome');
    expect(checkCache(false, root).passed('biome')).toBe(false);
  });

  it('remembers nothing outside a git checkout', async () => {
    const { checkCache } = await load();
    const root = scratch();
    checkCache(false, root).remember('tsc');
    expect(checkCache(false, root).passed('tsc')).toBe(false);
  });
});
