/**
 * The command line ends at once after a command when its output is written (src/commands/exit-when-written.ts),
 * and waits for the writes otherwise; either way the exit code is the command's, and a pipe gets every byte.
 */
// @ts-nocheck

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli';
import { exitWhenWritten } from '../src/commands/exit-when-written';
import { useScratchDirs } from './support/scratch-dir';
import { NOT_BUILT, skipNote } from './support/skip-note';

const ROOT = resolve(__dirname, '..');
const BIN = resolve(ROOT, 'bin/agent-play.cjs');
// A folder of its own, not a cache folder of its own: the command finds its compiled validators where
// the other tests left them (compiling them again took a second).
const scratch = useScratchDirs('agent-play-exit-')();
const exitCodeBefore = process.exitCode;
afterEach(() => {
  process.exitCode = exitCodeBefore;
});

describe('exitWhenWritten', () => {
  it('ends now, with the code, when no stream holds unwritten output', () => {
    const exits: number[] = [];
    exitWhenWritten(3, [{ writableLength: 0 }, { writableLength: 0 }], (code) => exits.push(code));
    expect(exits).toEqual([3]);
  });

  it('leaves the process to end by itself, with the code set, while a stream still holds output', () => {
    const exits: number[] = [];
    exitWhenWritten(4, [{ writableLength: 0 }, { writableLength: 120 }], (code) => exits.push(code));
    expect(exits).toEqual([]);
    expect(process.exitCode).toBe(4);
  });
});

describe.runIf(existsSync(resolve(ROOT, 'build/cli.cjs')))(
  `the installed command${skipNote(existsSync(resolve(ROOT, 'build/cli.cjs')), NOT_BUILT)}`,
  () => {
    it('hands a pipe its whole output and the exit code of the command', () => {
      let expected = '';
      expect(runCli(['config', 'schema'], { out: (text) => (expected += text), err: () => {}, env: {} })).toBe(0);
      const schema = spawnSync(process.execPath, [BIN, 'config', 'schema'], { cwd: ROOT, encoding: 'utf8' });
      expect(schema.status).toBe(0);
      expect(expected.length).toBeGreaterThan(10_000);
      expect(schema.stdout).toBe(expected);
      const unknown = spawnSync(process.execPath, [BIN, 'no-such-command'], { cwd: ROOT, encoding: 'utf8' });
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain('no-such-command');
    });
  },
);

describe.runIf(existsSync(resolve(ROOT, 'build/main.cjs')))(
  `the cdk8s app entry (build/main.cjs)${skipNote(existsSync(resolve(ROOT, 'build/main.cjs')), NOT_BUILT)}`,
  () => {
    it('synthesizes and ends with code 0, running no command line of its own', () => {
      // It bundles src/cli.ts: a `require.main === module` block there once ran the command line with no
      // arguments first, printing the usage and, once commands ended at once, exiting before the synthesis.
      const app = spawnSync(process.execPath, [resolve(ROOT, 'build/main.cjs')], { cwd: scratch, encoding: 'utf8' });
      expect(app.stdout).not.toContain('Usage: agent-play');
      expect(app.status, app.stderr).toBe(0);
      expect(existsSync(resolve(scratch, 'dist-manifests', 'play-workflow-templates.yaml'))).toBe(true);
    });
  },
);
