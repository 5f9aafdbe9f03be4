// @ts-nocheck
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
