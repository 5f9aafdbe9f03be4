/**
 * Files, folders and YAML that are hostile or careless: every one ends in one line naming the file (exit 2),
 * with no hang, no stack trace and the user's files left as they were.
 */
// @ts-nocheck

import { execFileSync, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import {
  closeSync,
  cpSync,
  openSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endQuietlyOnClosedPipe } from '../src/commands/closed-pipe';
import { MAX_INPUT_BYTES, readCapped } from '../src/io/read-text-file';
import { MAX_NESTING_DEPTH } from '../src/validate/kubernetes-yaml';
import { runCapturing, runCapturingAsync } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';
import { NOT_BUILT, skipNote } from './support/skip-note';

const scratch = useScratchDirs('agent-play-bad-');
const DIST = resolve(__dirname, '../dist-manifests');
const canMakeFifo = process.platform !== 'win32';

/** Ten anchors, each a list of ten aliases of the one before: 10^10 nodes once expanded. */
function aliasBomb(): string {
  const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let level = 1; level < 10; level += 1)
    lines.push(
      `a${level}: &a${level} [${Array(10)
        .fill(`*a${level - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

const deepNesting = (levels: number): string => `a: ${'['.repeat(levels)}${']'.repeat(levels)}\n`;
const deepMappings = (levels: number): string => `${'{a: '.repeat(levels)}1${'}'.repeat(levels)}\n`;

describe('hostile YAML is one line naming the file (exit 2), never an unexpected failure', () => {
  const tooDeep =
    /: not YAML: line \d+: nested (more than 256 levels deep; no Kubernetes object is|too deeply to read( \(more than 256 levels of lists and mappings\); no Kubernetes object is)?)$/;
  const cases: [string, string, RegExp][] = [
    [
      'an alias bomb',
      aliasBomb(),
      /: not YAML: line 1: its aliases expand to more than 1000 nodes \(an alias bomb\?\); write the values out$/,
    ],
    ['3,000 levels of flow nesting', deepNesting(3000), tooDeep],
    ['3,000 levels of nested mappings', deepMappings(3000), tooDeep],
    // What aborted the process inside V8 (exit 134, "RegExpCompiler Allocation failed"), or ran for minutes.
    ['a kilobyte of unclosed [', '['.repeat(1000), tooDeep],
    ['5 MB of [', '['.repeat(5_000_000), tooDeep],
    ['a compact sequence 5,000 deep', `${'- '.repeat(5000)}x\n`, tooDeep],
    ['a flow mapping nested by 5,000 keys', `[${'a: '.repeat(5000)}]\n`, tooDeep],
    [
      '600,000 empty flow lists',
      `[${'[],'.repeat(600_000)}]\n`,
      /: not YAML: line 1: more than 500,000 values \(list items, mapping entries, documents\); no manifest or configuration holds that many: is it the right file\?$/,
    ],
    ['a corrupt document', 'apiVersion: v1\nkind: ConfigMap\n\u0000: [\n', /: not YAML: line \d+: .+$/],
  ];

  it.each(cases)('%s in validate: the other files are still read, every problem listed', (_name, text, expected) => {
    const folder = scratch();
    writeFileSync(join(folder, 'a-hostile.yaml'), text);
    writeFileSync(join(folder, 'b-broken.yaml'), 'kind: [\n');
    const run = runCapturing(['validate', folder]);
    expect(run.code).toBe(2);
    const lines = run.err.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${join(folder, 'a-hostile.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${expected.source}`));
    expect(lines[1]).toContain('b-broken.yaml: not YAML');
  });

  it.each(cases)('%s in status and resume input', (_name, text, expected) => {
    for (const argv of [
      ['status', '-'],
      ['resume', '--repository', '5dlabs/cto-play-test', '--task', '1', '-'],
    ]) {
      const run = runCapturing(argv, { stdin: text, env: {} });
      expect(run.code, run.err).toBe(2);
      expect(run.err.trimEnd()).toMatch(new RegExp(`^standard input${expected.source}`));
    }
  });

  it.each(cases)('%s as a config file or a scenario', async (_name, text) => {
    const folder = scratch();
    writeFileSync(join(folder, 'hostile.yaml'), text);
    for (const argv of [
      ['config', 'validate', '--config', join(folder, 'hostile.yaml')],
      ['simulate', join(folder, 'hostile.yaml')],
    ]) {
      const run = await runCapturingAsync(argv, { env: {} });
      expect(run.code, run.err).toBe(2);
      expect(run.err).toMatch(new RegExp(`^${join(folder, 'hostile.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      expect(run.err).not.toContain('unexpected failure');
      expect(run.err.trim().split('\n')).toHaveLength(1);
    }
  });

  it('real manifests stay far inside the nesting limit', () => {
    expect(runCapturing(['validate', DIST]).code).toBe(0);
    expect(MAX_NESTING_DEPTH).toBeGreaterThanOrEqual(100);
  });
});

describe('files that are not manifests', () => {
  it('a file far larger than any manifest is refused by its size, without reading it', () => {
    const file = join(scratch(), 'huge.yaml');
    writeFileSync(file, Buffer.alloc(MAX_INPUT_BYTES + 1, 'a'));
    const run = runCapturing(['validate', file]);
    expect(run).toMatchObject({ code: 2, err: `${file}: 8.0 MiB, more than the 8.0 MiB an input may hold; is it the right file?\n` });
  });

  it('a device is refused, in validate, status and config', () => {
    expect(runCapturing(['validate', '/dev/zero']).err).toBe('/dev/zero: a device, not a file: name a regular file\n');
    expect(runCapturing(['status', '/dev/zero']).err).toBe('/dev/zero: cannot read (a device, not a file: name a regular file)\n');
    expect(runCapturing(['config', 'validate', '--config', '/dev/zero']).err).toBe(
      '/dev/zero: cannot read the config file (a device, not a file: name a regular file)\n',
    );
  });

  it.runIf(existsSync('/dev/zero'))(
    `standard input that never ends (< /dev/zero) is cut at the limit, not read forever${skipNote(existsSync('/dev/zero'), 'no /dev/zero here')}`,
    () => {
      const fd = openSync('/dev/zero', 'r');
      try {
        expect(() => readCapped(fd, 1024 * 1024)).toThrow('more than the 1.0 MiB an input may hold; is it the right file?');
      } finally {
        closeSync(fd);
      }
    },
  );

  it.runIf(canMakeFifo)(
    `a FIFO nobody writes to is refused at once instead of hanging${skipNote(canMakeFifo, 'no FIFOs here')}`,
    async () => {
      const fifo = join(scratch(), 'pipe.yaml');
      execFileSync('mkfifo', [fifo]);
      expect(runCapturing(['validate', fifo]).err).toBe(`${fifo}: a FIFO (named pipe), not a file: name a regular file\n`);
      expect((await runCapturingAsync(['simulate', fifo])).err).toBe(
        `${fifo}: cannot read the scenario (a FIFO (named pipe), not a file: name a regular file)\n`,
      );
    },
  );

  it('validate follows folder links once, reads each real file once and names a symlink loop', () => {
    const folder = scratch();
    mkdirSync(join(folder, 'sub'));
    cpSync(join(DIST, 'workspaces.yaml'), join(folder, 'sub', 'workspaces.yaml'));
    symlinkSync('..', join(folder, 'sub', 'up'));
    symlinkSync(join('sub', 'workspaces.yaml'), join(folder, 'again.yaml'));
    const clean = runCapturing(['validate', folder, join(folder, 'sub', 'workspaces.yaml'), '--format', 'json']);
    expect(clean.code, clean.err).toBe(0);
    const checked = JSON.parse(clean.out).objects as { file: string }[];
    expect(new Set(checked.map((object) => object.file))).toEqual(new Set([join(folder, 'again.yaml')]));
    symlinkSync('self.yaml', join(folder, 'self.yaml'));
    expect(runCapturing(['validate', folder]).err).toBe(`${join(folder, 'self.yaml')}: a symlink loop (the link leads back to itself)\n`);
  });
});

describe('outputs are followed, never replaced', () => {
  it('a symlinked --out stays a link: the folder it points to receives the manifests', () => {
    const folder = scratch();
    mkdirSync(join(folder, 'real'));
    symlinkSync('real', join(folder, 'out'));
    for (let round = 0; round < 2; round += 1) expect(runCapturing(['synth', '--out', join(folder, 'out')]).code).toBe(0);
    expect(lstatSync(join(folder, 'out')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(folder, 'out'))).toBe('real');
    expect(readdirSync(join(folder, 'real'))).toEqual(readdirSync(DIST).sort());
    expect(readdirSync(folder).sort()).toEqual(['out', 'real']);
  });

  it('a staging folder left by a killed synth is removed; an output it had moved aside is put back', () => {
    const folder = scratch();
    mkdirSync(join(folder, '.out.staging-999999999'));
    writeFileSync(join(folder, '.out.staging-999999999', 'half.yaml'), 'kind: [');
    cpSync(DIST, join(folder, '.out.retired-999999998'), { recursive: true });
    const synth = runCapturing(['synth', '--out', join(folder, 'out')]);
    expect(synth.code, synth.err).toBe(0);
    expect(readdirSync(folder)).toEqual(['out']);
  });

  it('config init --out through a symlink writes the file it points to, and refuses a device', () => {
    const folder = scratch();
    writeFileSync(join(folder, 'target.yaml'), 'namespace: mine\n');
    symlinkSync('target.yaml', join(folder, 'agent-play.yaml'));
    expect(runCapturing(['config', 'init', '--out', join(folder, 'agent-play.yaml'), '--force']).code).toBe(0);
    expect(lstatSync(join(folder, 'agent-play.yaml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(folder, 'target.yaml'), 'utf8')).toContain('namespace: agents');
    expect(readdirSync(folder).sort()).toEqual(['agent-play.schema.json', 'agent-play.yaml', 'target.yaml']);
    expect(runCapturing(['config', 'init', '--out', '/dev/null', '--force'])).toMatchObject({
      code: 2,
      err: '/dev/null: is not a regular file (a device, FIFO or socket); pass --out a file\n',
    });
    expect(existsSync('/dev/null')).toBe(true);
  });
});

describe('the command line says what is wrong with a value', () => {
  const resume = (...argv: string[]) => runCapturing(['resume', ...argv, '-'], { stdin: 'kind: List\nitems: []\n', env: {} });

  it.each([
    [['--task', 'abc'], 'agent-play resume: --task "abc": expected the task id, a whole number such as 5\n'],
    [['--task', '-1'], 'agent-play resume: --task "-1": expected the task id, a whole number such as 5\n'],
    [['--task', '5.0'], 'agent-play resume: --task "5.0": expected the task id, a whole number such as 5\n'],
    // One form everywhere (the runtime's canonicalTaskId): a leading zero is refused with the form to write.
    [
      ['--task', '007'],
      'agent-play resume: --task "007": a task id is written without leading zeros, as its records and plays name it: --task 7\n',
    ],
    [['--task', '2147483648'], 'agent-play resume: --task "2147483648": more than the largest task id (2147483647)\n'],
    [['--task', '1e20'], 'agent-play resume: --task "1e20": expected the task id, a whole number such as 5\n'],
    [
      ['--task', '5', '--repository', 'Foo Bar/x'],
      'agent-play resume: --repository "Foo Bar/x": "Foo Bar/x" is not a GitHub repository: expected owner/name, e.g. octo-org/payments\n',
    ],
    [['--task', '5'], 'agent-play resume: --repository OWNER/NAME is required\n'],
  ])('resume %j', (argv, expected) => {
    const withRepository =
      argv.includes('--repository') || expected.includes('--repository OWNER/NAME is required')
        ? argv
        : ['--repository', '5dlabs/cto-play-test', ...argv];
    expect(resume(...withRepository)).toMatchObject({ code: 2, err: expected });
  });

  it('resume checks --parameter names and values with the rules of the config', () => {
    const base = ['--repository', '5dlabs/cto-play-test', '--task', '5'];
    expect(resume(...base, '--parameter', 'task-type=a"b').err).toBe(
      'agent-play resume: --parameter task-type=a"b: the value: expected a value without quotes, backslashes, braces or line breaks\n',
    );
    expect(resume(...base, '--parameter', 'Task_Type=x').err).toBe(
      'agent-play resume: --parameter Task_Type=x: the name: expected lower-case letters, digits and "-", starting with a letter\n',
    );
    expect(resume(...base, '--parameter', 'task-type={{workflow.name}}').err).toContain('without quotes, backslashes, braces');
  });
});

describe('the process around the command', () => {
  it('a closed pipe ends the command quietly with the code it had decided', () => {
    const stream = new EventEmitter() as unknown as NodeJS.WriteStream;
    const exits: number[] = [];
    endQuietlyOnClosedPipe(stream, (code) => exits.push(code));
    process.exitCode = 1;
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    process.exitCode = 0;
    expect(exits).toEqual([1]);
    expect(() => stream.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' }))).toThrow('EIO');
  });

  it.runIf(existsSync(resolve(__dirname, '../build/cli.cjs')) && canMakeFifo)(
    `agent-play validate ... | head ends without a stack trace${skipNote(existsSync(resolve(__dirname, '../build/cli.cjs')), NOT_BUILT)}${skipNote(canMakeFifo, 'no pipes between processes here')}`,
    () => {
      const bin = resolve(__dirname, '../bin/agent-play.cjs');
      const shell = `{ node ${JSON.stringify(bin)} validate ${JSON.stringify(DIST)} --verbose --format json; echo "exit $?" >&2; } | true`;
      const result = spawnSync('bash', ['-c', shell], { encoding: 'utf8' });
      expect(result.stderr).not.toContain('EPIPE');
      expect(result.stderr).toMatch(/^exit (0|1)\n$/);
    },
  );

  it('bin/agent-play.cjs before a build says to run npm ci', () => {
    const folder = scratch();
    mkdirSync(join(folder, 'bin'));
    cpSync(resolve(__dirname, '../bin/agent-play.cjs'), join(folder, 'bin', 'agent-play.cjs'));
    const result = spawnSync(process.execPath, [join(folder, 'bin', 'agent-play.cjs'), 'validate'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^agent-play: not built yet \(no .*build\/cli\.cjs\); run npm ci \(or npm run build\) in the project first\n$/,
    );
  });
});
