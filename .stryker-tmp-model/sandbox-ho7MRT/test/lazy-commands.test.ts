/**
 * A command's modules load only when it runs: src/commands/lazy-command.ts, and the compiled command line,
 * whose registry scripts/build.mjs makes lazy (`agent-play validate` must not load cdk8s, which only synth
 * needs). The compiled checks run when build/ is there (`npm ci` builds it).
 */
// @ts-nocheck

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands';
import type { Command } from '../src/commands/command';
import { lazyCommand } from '../src/commands/lazy-command';
import { useScratchDirs } from './support/scratch-dir';
import { NOT_BUILT, skipNote } from './support/skip-note';

const ROOT = resolve(__dirname, '..');
const BUILT = resolve(ROOT, 'build/cli.cjs');
const scratch = useScratchDirs('agent-play-lazy-')();

const fake = (name: string): Command => ({ name, summary: `${name} summary`, usage: `Usage: ${name}`, options: [], run: () => 7 });

/**
 * The packages a run of the compiled command line loaded: from node_modules (require.cache), and the peers it
 * carries in its bundle, which say so when their code first runs (scripts/build.mjs, markPeerLoads).
 */
function packagesLoadedBy(args: readonly string[]): string[] {
  const script = `const { runCli } = require(${JSON.stringify(BUILT)});
runCli(${JSON.stringify(args)}, { out: () => {}, err: () => {}, env: {} });
const names = Object.keys(require.cache).map((file) => /node_modules[\\\\/]((@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(file)?.[1]).filter(Boolean);
const carried = globalThis[Symbol.for('agent-play.loaded-peers')] ?? [];
process.stdout.write(JSON.stringify([...new Set([...names, ...carried])].sort()));`;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script], {
      // The user cache the other tests fill: with one of its own, validate compiled the validators again.
      cwd: ROOT,
      encoding: 'utf8',
    }),
  );
}

describe('lazyCommand', () => {
  it('knows its name without loading, and loads once, when used', () => {
    let loads = 0;
    const command = lazyCommand('synth', () => {
      loads += 1;
      return fake('synth');
    });
    expect(command.name).toBe('synth');
    expect(loads).toBe(0);
    expect(command.summary).toBe('synth summary');
    expect(command.run([], { out: () => {}, err: () => {}, env: {} })).toBe(7);
    expect(command.usage).toBe('Usage: synth');
    expect(loads).toBe(1);
  });

  it("refuses a module that holds another command: the registry names a command's module after it", () => {
    const command = lazyCommand('synth', () => fake('validate'));
    expect(() => command.summary).toThrow('the module of command "synth" holds command "validate"');
  });
});

describe.runIf(existsSync(BUILT))(`the compiled command line${skipNote(existsSync(BUILT), NOT_BUILT)}`, () => {
  it('lists the commands of src/commands/index.ts in the same order', () => {
    const usage = readFileSync(resolve(ROOT, 'build/usage.txt'), 'utf8');
    const listed = [...usage.matchAll(/^ {2}(\S+) {2,}/gm)].map((match) => match[1]);
    // src/cli.ts adds completion, which reads the others, after them.
    expect(listed).toEqual([...COMMANDS.map((command) => command.name), 'completion']);
  });

  it('agent-play validate loads neither cdk8s nor constructs; agent-play synth does', () => {
    const validate = packagesLoadedBy(['validate', 'dist-manifests']);
    expect(validate).not.toContain('cdk8s');
    expect(validate).not.toContain('cdk8s-plus-28');
    expect(validate).not.toContain('constructs');
    expect(packagesLoadedBy(['synth', '--out', join(scratch, 'out')])).toEqual(
      expect.arrayContaining(['cdk8s', 'cdk8s-plus-28', 'constructs']),
    );
  });
});
