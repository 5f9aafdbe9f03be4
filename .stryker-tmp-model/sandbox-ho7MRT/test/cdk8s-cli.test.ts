/**
 * `cdk8s synth` (the cdk8s CLI, run as users run it) is as safe as `agent-play synth`: the CLI deletes its
 * `output` folder before it runs the app, so cdk8s.yaml points that at a scratch folder under build/ and the
 * app writes dist-manifests/ itself (src/main.ts). Run in a scratch copy of the project, since it writes.
 */
// @ts-nocheck

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_HEADER } from '../src/synth/synthesize';
import { useScratchDirs } from './support/scratch-dir';

const ROOT = path.resolve(__dirname, '..');
const PROJECT_FILES = [
  'package.json',
  'cdk8s.yaml',
  'tsconfig.json',
  'scripts',
  'constructs',
  'runtime',
  'src',
  'bench',
  'schemas',
  'dist-manifests',
];

const scratch = useScratchDirs('agent-play-cdk8s-');
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

beforeAll(() => {
  project = path.join(scratch(), 'project');
  for (const file of PROJECT_FILES) cpSync(path.join(ROOT, file), path.join(project, file), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  // The Kubernetes client's bundle, which a build keeps while its stamp matches (scripts/build.mjs): bundling
  // it again is no part of what this file tests.
  mkdirSync(path.join(project, 'build'));
  for (const file of ['kube-client.cjs', '.kube-client-stamp'])
    if (existsSync(path.join(ROOT, 'build', file))) cpSync(path.join(ROOT, 'build', file), path.join(project, 'build', file));
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
