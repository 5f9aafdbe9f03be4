import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { expect, it } from 'vitest';
import { StoredMap } from '../src/stored-map';
import { saveAllNow, saveAtExit } from '../src/save-at-exit';
import { useScratchDirs } from './support/scratch-dir';

const scratch = useScratchDirs('agent-play-exit-');

it('keeps every cache under one exit listener, however many there are, and writes each of them at exit', () => {
  const folder = scratch();
  const before = process.listeners('exit');
  const maps = Array.from({ length: 30 }, (_, index) => new StoredMap(join(folder, `map-${index}.json`)));
  for (const [index, map] of maps.entries()) {
    map.set('a', index);
    map.save();
    map.set('b', index);
  }
  const added = process.listeners('exit').filter((listener) => !before.includes(listener));
  expect(added.length).toBeLessThanOrEqual(1);
  // What the process does at exit, done now: every map holds both keys on disk.
  saveAllNow();
  for (const index of maps.keys())
    expect(JSON.parse(readFileSync(join(folder, `map-${index}.json`), 'utf8'))).toEqual({ a: index, b: index });
});

it('runs a saver given twice once, at each save', () => {
  let runs = 0;
  const save = () => {
    runs += 1;
  };
  saveAtExit(save);
  saveAtExit(save);
  saveAllNow();
  expect(runs).toBe(1);
});

it('keeps one exit listener for every copy of itself in a process, and does the work of each copy at exit', () => {
  // Copies as a process gets them: the library's and the validator's bundles in one app, or modules loaded
  // afresh by a test runner (a listener per copy passed Node's ten in a vitest worker).
  const folder = scratch();
  const [bundle] = buildSync({
    entryPoints: [join(__dirname, '../src/save-at-exit.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
  }).outputFiles;
  const copies = Array.from({ length: 12 }, (_, index) => join(folder, `copy-${index}.cjs`));
  for (const copy of copies) writeFileSync(copy, bundle.text);
  const saved = join(folder, 'saved.txt');
  const program = `const { appendFileSync } = require('node:fs');
${JSON.stringify(copies)}.forEach((copy, index) => require(copy).saveAtExit(() => appendFileSync(${JSON.stringify(saved)}, index + '\\n')));
console.log(process.listenerCount('exit'));`;
  const run = spawnSync(process.execPath, ['-e', program], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe('1\n');
  expect(
    readFileSync(saved, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .sort((a, b) => a - b),
  ).toEqual([...copies.keys()]);
});
