/**
 * The compiled command line sets a V8 flag at start (src/start-cli.ts). Node's built-in modules carry a code
 * cache that V8 rejects once the flags changed, so a built-in loaded after the flag is compiled from source:
 * every built-in a synthesis needs must be loaded before. Runs when build/ is there (`npm ci` builds it).
 */
// @ts-nocheck

import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDirs } from './support/scratch-dir';
import { NOT_BUILT, skipNote } from './support/skip-note';

const ROOT = resolve(__dirname, '..');
const BIN = resolve(ROOT, 'bin/agent-play.cjs');
const BUILT = resolve(ROOT, 'build/cli.cjs');
// A folder of its own, not a cache folder of its own: the command finds its compiled validators where
// the other tests left them (compiling them again took a second).
const scratch = useScratchDirs('agent-play-flags-')();

/** Node's recursive rmSync loads its rimraf only when called: no require can load it earlier. */
const LOADED_ONLY_BY_A_CALL = ['NativeModule internal/fs/rimraf'];

/**
 * Preloaded into the command's process: records which built-in modules were loaded when the command first
 * set a V8 flag, and prints, at exit, those loaded after it.
 */
const RECORDER = `const v8 = require('node:v8');
const setFlags = v8.setFlagsFromString;
let atFlags;
v8.setFlagsFromString = function (flags) {
  atFlags ??= new Set(process.moduleLoadList);
  return setFlags.call(this, flags);
};
process.on('exit', () => {
  const after = atFlags ? process.moduleLoadList.filter((name) => name.startsWith('NativeModule ') && !atFlags.has(name)) : null;
  process.stderr.write('\\nAFTER-FLAGS ' + JSON.stringify(after) + '\\n');
});
`;

function builtInsLoadedAfterFlags(args: readonly string[]): string[] | null {
  const recorder = join(scratch, 'recorder.cjs');
  writeFileSync(recorder, RECORDER);
  const run = spawnSync(process.execPath, ['-r', recorder, BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const line = /AFTER-FLAGS (.*)/.exec(run.stderr)?.[1];
  if (line === undefined) throw new Error(`the recorder printed nothing:\n${run.stderr}`);
  return JSON.parse(line) as string[] | null;
}

describe.runIf(existsSync(BUILT))(`the flags the compiled command line sets${skipNote(existsSync(BUILT), NOT_BUILT)}`, () => {
  it('are set after every built-in module a synthesis loads', () => {
    const after = builtInsLoadedAfterFlags(['synth', '--out', join(scratch, 'out')]);
    expect(after, 'the command set no V8 flag: the recorder saw nothing').not.toBeNull();
    expect(after?.filter((name) => !LOADED_ONLY_BY_A_CALL.includes(name))).toEqual([]);
  });
});
