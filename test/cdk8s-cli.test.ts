/**
 * `cdk8s synth` (the cdk8s CLI, run as users run it) is as safe as `agent-play synth`: the CLI deletes its
 * `output` folder before it runs the app, so cdk8s.yaml points that at a scratch folder under build/ and the
 * app writes dist-manifests/ itself (src/main.ts). Run in a scratch copy of the project, since it writes.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_HEADER } from '../src/synth/synthesize';
import { useScratchDirs } from './support/scratch-dir';

const ROOT = path.resolve(__dirname, '..');
/** What the copy holds; the tests write into dist-manifests/ only, a real copy. */
const PROJECT_FILES = [
  'package.json',
  'package-lock.json',
  'cdk8s.yaml',
  'tsconfig.json',
  'scripts',
  'constructs',
  'runtime',
  'src',
  'bench',
  'schemas',
];

const scratch = useScratchDirs('agent-play-cdk8s-');
/** The folders test/package.test.ts makes under build/ for a moment, one per process. */
const README_EXAMPLE_PREFIX = 'readme-example-';
let project: string;

const contents = (folder: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(folder)
      .sort()
      .map((file) => [file, readFileSync(path.join(folder, file), 'utf8')]),
  );

function cdk8sSynth(): { code: number | null; out: string; err: string } {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/cdk8s-cli/bin/cdk8s'), 'synth'], {
    cwd: project,
    encoding: 'utf8',
    // The user cache the other tests fill: with one of its own, each run compiled the validators again.
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

/**
 * `from` at `to` as hard links, file by file: the same files, down to their modification times, which is what
 * scripts/build.mjs's stamp hashes. A copy has new times, and its first `cdk8s synth` rebuilt everything the
 * checkout's build/ already holds (a third of this file's CPU time). A scratch folder on another file system
 * gets copies instead. A build writes its generated files by renaming a new file into place (never through a
 * link), so nothing here can change the checkout.
 */
function linkTree(from: string, to: string): void {
  if (!statSync(from).isDirectory()) {
    try {
      linkSync(from, to);
    } catch {
      cpSync(from, to, { preserveTimestamps: true });
    }
    return;
  }
  mkdirSync(to);
  for (const name of readdirSync(from)) linkTree(path.join(from, name), path.join(to, name));
}

beforeAll(() => {
  project = path.join(scratch(), 'project');
  mkdirSync(project);
  for (const file of PROJECT_FILES) linkTree(path.join(ROOT, file), path.join(project, file));
  cpSync(path.join(ROOT, 'dist-manifests'), path.join(project, 'dist-manifests'), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  // The checkout's build, which `cdk8s synth` (scripts/build.mjs) keeps while its stamp matches the sources
  // here (built from these very files) and makes again otherwise; how the build is made is no part of what
  // this file tests. Copies, since a build replaces files in build/.
  // Not what other test files make under build/ while this one starts (test/package.test.ts runs the README's
  // example in build/readme-example-PID, where tsx opens a socket that cpSync refuses, and deletes it after).
  if (existsSync(path.join(ROOT, 'build')))
    cpSync(path.join(ROOT, 'build'), path.join(project, 'build'), {
      recursive: true,
      filter: (source) => !path.basename(source).startsWith(README_EXAMPLE_PREFIX),
    });
  else mkdirSync(path.join(project, 'build'));
  writeFileSync(path.join(project, 'notes.txt'), 'a file nobody generated\n');
});

const listedCount = (): number => readdirSync(path.join(project, 'dist-manifests')).length;

describe('cdk8s synth', () => {
  it('with a broken config: exits non-zero with the one-line errors of agent-play synth and leaves dist-manifests/ as it was', () => {
    const before = contents(path.join(project, 'dist-manifests'));
    writeFileSync(path.join(project, 'agent-play.yaml'), 'agents: { rex: { cli: nope } }\n');
    try {
      const run = cdk8sSynth();
      expect(run.code).not.toBe(0);
      expect(run.err).toContain('agents.rex.cli: unknown CLI "nope"; known: ');
      expect(contents(path.join(project, 'dist-manifests'))).toEqual(before);
    } finally {
      rmSync(path.join(project, 'agent-play.yaml'));
    }
  });

  it('with a good config: writes dist-manifests/ as agent-play synth does, and deletes nothing it did not write', () => {
    writeFileSync(path.join(project, 'dist-manifests', 'play-rbac.yaml'), `${GENERATED_HEADER}stale: true\n`);
    const run = cdk8sSynth();
    expect(run.code, run.err).toBe(0);
    expect(contents(path.join(project, 'dist-manifests'))).toEqual(contents(path.join(ROOT, 'dist-manifests')));
    expect(contents(path.join(project, 'build', 'cdk8s-synth'))).toEqual(contents(path.join(ROOT, 'dist-manifests')));
    // What the CLI lists as its output is the written files: links to them, not copies that could differ.
    expect(run.err).toContain(`wrote ${listedCount()} files to dist-manifests: `);
    expect(run.err).toContain('the cdk8s CLI lists them below through build/cdk8s-synth/, whose files link to dist-manifests/\n');
    const listed = [...run.out.matchAll(/^ {2}- (\S+)$/gm)].map((match) => match[1]);
    expect(listed.length).toBe(readdirSync(path.join(project, 'dist-manifests')).length);
    for (const file of listed)
      expect(realpathSync(path.join(project, file))).toBe(realpathSync(path.join(project, 'dist-manifests', path.basename(file))));
    expect(readFileSync(path.join(project, 'notes.txt'), 'utf8')).toBe('a file nobody generated\n');
  });
});
