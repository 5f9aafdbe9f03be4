/**
 * `agent-play synth` validates what it is about to write with the same engine as `agent-play validate`, and
 * writes nothing when it finds an error. The synthesis is replaced here by fixed manifests (the command's
 * `synthesize`), since the real constructs refuse to build a broken platform in the first place.
 */
// @ts-nocheck

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCapturing } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';

const fixture = (name: string): string => readFileSync(resolve(__dirname, 'fixtures/lint', name), 'utf8');
const scratch = useScratchDirs('agent-play-synth-');
const scratchOut = (): string => join(scratch(), 'out');

describe('agent-play synth validates before it writes', () => {
  it('writes nothing and exits 1 when what it would write has an error', () => {
    const files = new Map([
      ['plays.yaml', fixture('dag-cycle.yaml')],
      ['claims.yaml', fixture('pvc-prune-protection.yaml')],
    ]);
    const out = scratchOut();
    const run = runCapturing(['synth', '--out', out], { synthesize: () => files });
    expect(run.code).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(run.err).toContain(
      `error: ${join(out, 'plays.yaml')}: WorkflowTemplate/lint-case: spec.templates[0].dag.tasks: dependency cycle: a -> b -> a`,
    );
    expect(run.err).toMatch(/nothing written to .*: the platform has 1 error;/);
  });

  it('prints warnings and still writes', () => {
    const files = new Map([['claims.yaml', fixture('pvc-prune-protection.yaml')]]);
    const out = scratchOut();
    const run = runCapturing(['synth', '--out', out], { synthesize: () => files });
    expect(run.code).toBe(0);
    expect(existsSync(join(out, 'claims.yaml'))).toBe(true);
    expect(run.err).toContain('warning: ');
    expect(run.err).toContain('[pvc-prune-protection]');
  });
});
