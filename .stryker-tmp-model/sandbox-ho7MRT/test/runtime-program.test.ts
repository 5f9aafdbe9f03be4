/**
 * The committed runtime program: it is what `scripts/build-runtime.mjs` makes from the sources now (a step
 * edited without `npm run runtime` would ship its old self), it runs under a plain `node`, and it needs no
 * package (only Node's built-in modules): the pods run it in a stock Node image from a ConfigMap.
 *
 * Not a behaviour test: the mutation run leaves it out (test/runtime/mutation.vitest.config.mts takes test/runtime/ only), since any
 * change to a source makes the committed bundle stale.
 */
// @ts-nocheck

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RUNTIME_PROGRAM, RUNTIME_PROGRAM_SHA256 } from '../constructs/runtime/runtime-program.generated';
import { RUNTIME_STEPS } from '../runtime/steps';
import { useScratchDirs } from './support/scratch-dir';

const scratch = useScratchDirs('runtime-bundle-');

interface BuildRuntime {
  readonly GENERATED: string;
  bundleRuntime(): Promise<string>;
  generatedModule(program: string): string;
}

const loadBuildRuntime = async (): Promise<BuildRuntime> =>
  (await import(pathToFileURL(resolve('scripts/build-runtime.mjs')).href)) as BuildRuntime;

function programFile(): string {
  const file = join(scratch(), 'runtime.cjs');
  writeFileSync(file, RUNTIME_PROGRAM);
  return file;
}

describe('the runtime bundle', () => {
  it('is what scripts/build-runtime.mjs makes from the sources now (run `npm run runtime` and commit it)', async () => {
    const build = await loadBuildRuntime();
    const program = await build.bundleRuntime();
    // Compared by hash: a stale bundle is one long line, whose diff would bury the message.
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(sha256(readFileSync(build.GENERATED, 'utf8')), `${build.GENERATED} is stale: run \`npm run runtime\``).toBe(
      sha256(build.generatedModule(program)),
    );
    expect(sha256(RUNTIME_PROGRAM)).toBe(sha256(program));
  });

  it('carries the SHA-256 of its program', () => {
    expect(RUNTIME_PROGRAM_SHA256).toBe(createHash('sha256').update(RUNTIME_PROGRAM).digest('hex'));
  });

  it('requires nothing but node: built-ins', () => {
    const required = [...RUNTIME_PROGRAM.matchAll(/\brequire\(\s*(["'`])([^"'`]*)\1\s*\)/g)].map((match) => match[2]);
    expect(required.length).toBeGreaterThan(0);
    for (const name of required) {
      expect(name, name).toMatch(/^node:/);
      expect(builtinModules).toContain(name.slice('node:'.length));
    }
    expect(RUNTIME_PROGRAM).not.toMatch(/\brequire\(\s*[^"'`\s]/);
    expect(RUNTIME_PROGRAM).not.toMatch(/\bimport\(/);
  });

  it('runs under node from a folder with no packages: --help lists every step', () => {
    const file = programFile();
    const result = spawnSync(process.execPath, [file, '--help'], {
      cwd: scratch(),
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    for (const step of RUNTIME_STEPS) expect(result.stderr).toContain(`  ${step.name} `);
  });

  it('exits 2 with one line for a step environment that is wrong', () => {
    const file = programFile();
    const result = spawnSync(process.execPath, [file, 'gate-check'], {
      cwd: scratch(),
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('gate-check: NAMESPACE: is not set\n');
  });
});
