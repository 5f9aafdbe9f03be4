/**
 * The cancel step of an agent run, run for real (bash and jq) against a stub kubectl that lists CodeRuns and
 * records what is deleted: only unfinished CodeRuns of the selector go, finished ones keep their status.
 */
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANCEL_CODERUNS_SCRIPT } from '../constructs/workflows/cancel-coderuns';
import { runBash } from './support/run-bash';
import { useScratchDirs } from './support/scratch-dir';

const STUB = String.raw`#!/usr/bin/env bash
printf '%s\n' "$*" >>"$STUB_DIR/calls"
case "$1" in
  get) cat "$STUB_DIR/listed.json" ;;
  delete) printf '%s\n' "$@" >"$STUB_DIR/deleted" ;;
  *) exit 97 ;;
esac
`;

const scratch = useScratchDirs('cancel-coderuns-');

async function cancel(items: object[]): Promise<{ code: number | null; calls: string[]; deleted: string[] }> {
  const dir = scratch();
  try {
    writeFileSync(join(dir, 'kubectl'), STUB);
    chmodSync(join(dir, 'kubectl'), 0o755);
    writeFileSync(join(dir, 'listed.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const env = {
      PATH: `${dir}:${process.env.PATH ?? ''}`,
      STUB_DIR: dir,
      SELECTOR: 'workflow-uid=u-1,workflow-stage=implementation,github-app=5DLabs-Rex',
      NAMESPACE: 'agents',
      CODERUNS: 'coderuns.agents.platform',
      SUCCEEDED: 'Succeeded',
      FAILED: 'Failed',
    };
    const run = await runBash(CANCEL_CODERUNS_SCRIPT, env, 8000);
    const read = (file: string) => {
      try {
        return readFileSync(join(dir, file), 'utf8').trim().split('\n').filter(Boolean);
      } catch {
        return [];
      }
    };
    return { code: run.code, calls: read('calls'), deleted: read('deleted') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const coderun = (name: string, phase?: string) => ({ metadata: { name }, ...(phase ? { status: { phase } } : {}) });

describe('cancel-coderuns', () => {
  it('deletes the unfinished CodeRuns of the selector, and keeps the finished ones', async () => {
    const result = await cancel([
      coderun('a', 'Running'),
      coderun('b', 'Succeeded'),
      coderun('c'),
      coderun('d', 'Failed'),
      coderun('e', 'Pending'),
    ]);
    expect(result.code).toBe(0);
    expect(result.calls[0]).toBe(
      'get coderuns.agents.platform -n agents -l workflow-uid=u-1,workflow-stage=implementation,github-app=5DLabs-Rex -o json',
    );
    expect(result.deleted).toEqual(['delete', 'coderuns.agents.platform', '-n', 'agents', '--ignore-not-found', 'a', 'c', 'e']);
  });

  it('deletes nothing when every CodeRun has finished, or there is none', async () => {
    for (const items of [[coderun('b', 'Succeeded'), coderun('d', 'Failed')], []]) {
      const result = await cancel(items);
      expect(result.code).toBe(0);
      expect(result.calls).toHaveLength(1);
      expect(result.deleted).toEqual([]);
    }
  });
});
