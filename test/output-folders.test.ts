/**
 * Output folders and devices (issue 23 item 12): `--out` and the cache folder answer with one line and an exit
 * code in bounded time, whatever they name: an empty path, a mount point (which cannot be renamed: EBUSY), or
 * a path under /proc, where Node's recursive mkdir retried forever at full CPU.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFolder } from '../src/io/make-folder';
import { runCapturing } from './support/run-cli';
import { runSourceCli } from './support/source-cli';
import { useScratchDirs } from './support/scratch-dir';
import { skipNote } from './support/skip-note';

const scratch = useScratchDirs('agent-play-out-');
const HAS_PROC = existsSync('/proc/1');

/** A tmpfs mounted on a fresh folder, when this process may mount (root in a container); else `undefined`. */
function mountPoint(): string | undefined {
  const folder = path.join(scratch(), 'mounted');
  mkdirSync(folder);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'agent-play-test', folder]).status === 0;
  return mounted ? folder : undefined;
}
const MOUNTED = process.platform === 'linux' ? mountPoint() : undefined;
afterAll(() => {
  if (MOUNTED !== undefined) execFileSync('umount', [MOUNTED]);
});

/** The command line in a process of its own, from the sources: a command that never returns is stopped. */
function agentPlay(args: readonly string[], env: Record<string, string> = {}) {
  const folder = scratch();
  const run = runSourceCli(args, { cwd: folder, env, timeout: 240_000 });
  return { code: run.status, signal: run.signal, out: run.stdout, err: run.stderr, folder };
}

describe('--out', () => {
  it('"" is refused, not taken for the current folder', () => {
    const run = runCapturing(['synth', '--out', '']);
    expect(run).toMatchObject({
      code: 2,
      out: '',
      err: 'agent-play synth: --out "": expected a folder (an empty path would be the current folder)\n',
    });
    expect(runCapturing(['config', 'init', '--out', ''])).toMatchObject({
      code: 2,
      err: 'agent-play config: --out "": expected a file, or - to print it\n',
    });
  });

  it.skipIf(MOUNTED === undefined)(
    `a mount point is refused with EBUSY and a hint, not an unexpected failure${skipNote(MOUNTED !== undefined, 'cannot mount a tmpfs here (not root, or not Linux)')}`,
    () => {
      const run = runCapturing(['synth', '--out', MOUNTED as string]);
      expect(run.err).toBe(
        `agent-play synth: ${MOUNTED}: cannot write the manifests (EBUSY: a mount point cannot be replaced; pass --out a folder inside it)\n`,
      );
      expect(run.code).toBe(2);
      expect(readdirSync(MOUNTED as string)).toEqual([]);
      expect(readdirSync(path.dirname(MOUNTED as string)).filter((name) => name.includes('staging') || name.includes('retired'))).toEqual(
        [],
      );
      // Inside it, the manifests are written.
      expect(runCapturing(['synth', '--out', path.join(MOUNTED as string, 'out')]).code).toBe(0);
    },
  );

  it.skipIf(!HAS_PROC)(
    `a folder under /proc ends at once with the file system's code${skipNote(HAS_PROC, 'no /proc')}`,
    () => {
      const run = agentPlay(['synth', '--out', '/proc/1/x/y']);
      expect(run.signal, 'still running after four minutes').toBeNull();
      expect(run.err).toBe('agent-play synth: /proc/1/x/y: cannot make the folder it goes in (ENOENT); choose another --out\n');
      expect(run.code).toBe(2);
    },
    300_000,
  );
});

describe('the cache folder', () => {
  it.skipIf(!HAS_PROC)(
    `under /proc costs time, never an error or a hang${skipNote(HAS_PROC, 'no /proc')}`,
    () => {
      const folder = scratch();
      writeFileSync(path.join(folder, 'ok.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
      const run = agentPlay(['validate', path.join(folder, 'ok.yaml')], { AGENT_PLAY_CACHE_DIR: '/proc/1' });
      expect(run.signal, 'still running after four minutes').toBeNull();
      expect(run.code, run.err).toBe(0);
    },
    300_000,
  );
});

describe('makeFolder', () => {
  it('makes the missing folders, takes an existing one, and refuses a path through a file', () => {
    const folder = scratch();
    makeFolder(path.join(folder, 'a', 'b', 'c'));
    makeFolder(path.join(folder, 'a', 'b', 'c'));
    expect(existsSync(path.join(folder, 'a', 'b', 'c'))).toBe(true);
    writeFileSync(path.join(folder, 'file'), '');
    expect(() => makeFolder(path.join(folder, 'file', 'x'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });
});
