/**
 * The CodeRun cancellation step: the unfinished CodeRuns of a selector are deleted and waited for (their
 * finalizers may hold them) within a time limit; finished ones are kept with their status.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { ApiResources, codeRunRef } from '../../constructs/runtime/kube-api';
import { StepFailure } from '../../constructs/runtime/runtime-step';
import { cancelCodeRunsStep } from '../../constructs/workflows/cancel-coderuns-step';
import { failure, forbidden, type Harness, harness, NAMESPACE, notFound } from '../support/runtime-harness';

const environment = (overrides: Record<string, string> = {}) => ({
  NAMESPACE,
  SELECTOR: 'task-id=7,stage=implementation',
  TIMEOUT_SECONDS: '30',
  ...overrides,
});

function codeRun(
  h: Harness,
  name: string,
  phase?: string,
  labels: Record<string, string> = { 'task-id': '7', stage: 'implementation' },
): void {
  h.server.put(ApiResources.codeRuns, {
    apiVersion: 'agents.platform/v1',
    kind: 'CodeRun',
    metadata: { name, namespace: NAMESPACE, labels },
    ...(phase === undefined ? {} : { status: { phase } }),
  });
}

const remaining = (h: Harness) => h.server.all(ApiResources.codeRuns).map((run) => run.metadata.name);

describe('cancel-coderuns', () => {
  it('does nothing when no unfinished CodeRun matches', async () => {
    const h = harness();
    codeRun(h, 'done', 'Succeeded');
    codeRun(h, 'other', undefined, { 'task-id': '8', stage: 'implementation' });
    expect(await h.run(cancelCodeRunsStep, environment())).toEqual({ cancelled: '' });
    expect(h.logs).toEqual(['no unfinished CodeRun matches task-id=7,stage=implementation']);
    expect(h.api.calls('delete')).toEqual([]);
    expect(h.api.calls('list')[0].body).toBe('task-id=7,stage=implementation');
  });

  it('deletes the unfinished ones in name order, keeps the finished ones, and says which went', async () => {
    const h = harness();
    codeRun(h, 'b-running', 'Running');
    codeRun(h, 'a-new');
    codeRun(h, 'c-succeeded', 'Succeeded');
    codeRun(h, 'd-failed', 'Failed');
    codeRun(h, 'e-other', 'Running', { 'task-id': '8' });
    expect(await h.run(cancelCodeRunsStep, environment())).toEqual({ cancelled: 'a-new b-running' });
    expect(h.api.calls('delete').map((call) => [call.name, call.body])).toEqual([
      ['a-new', 'Background'],
      ['b-running', 'Background'],
    ]);
    expect(remaining(h)).toEqual(['c-succeeded', 'd-failed', 'e-other']);
    expect(h.logs).toEqual(['cancelled: a-new b-running']);
    expect(h.sleeps).toEqual([]);
  });

  it('deletes in name order whatever order the server lists them in', async () => {
    const h = harness();
    for (const name of ['c', 'a', 'b']) codeRun(h, name, 'Running');
    h.api.answer({ verb: 'list' }, () => ['c', 'a', 'b'].map((name) => ({ metadata: { name }, status: { phase: 'Running' } })));
    expect(await h.run(cancelCodeRunsStep, environment())).toEqual({ cancelled: 'a b c' });
    expect(h.api.calls('delete').map((call) => call.name)).toEqual(['a', 'b', 'c']);
  });

  it('waits while finalizers hold a deleted CodeRun, looking only at those still there', async () => {
    const h = harness();
    codeRun(h, 'a', 'Running');
    codeRun(h, 'b', 'Running');
    h.api.answer({ verb: 'delete', name: 'b' }, () => undefined);
    h.onSleep((sleeps) => {
      if (sleeps === 2) h.server.remove(codeRunRef(NAMESPACE, 'b'));
    });
    expect(await h.run(cancelCodeRunsStep, environment())).toEqual({ cancelled: 'a b' });
    expect(h.sleeps).toEqual([2000, 2000]);
    expect(h.api.calls('get').map((call) => call.name)).toEqual(['a', 'b', 'b', 'b']);
  });

  it('fails, naming what is left, when they are not gone within the time limit', async () => {
    const h = harness();
    codeRun(h, 'a', 'Running');
    codeRun(h, 'b', 'Running');
    h.api.answer({ verb: 'delete' }, () => undefined, 2);
    const error = await failure(h.run(cancelCodeRunsStep, environment({ TIMEOUT_SECONDS: '3' })));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe('CodeRuns a, b are still there 3 s after their deletion (finalizers?)');
    expect(h.sleeps).toEqual([2000, 2000]);
    const exact = harness();
    codeRun(exact, 'a', 'Running');
    exact.api.answer({ verb: 'delete' }, () => undefined);
    await failure(exact.run(cancelCodeRunsStep, environment({ TIMEOUT_SECONDS: '4' })));
    expect(exact.sleeps).toEqual([2000, 2000]);
  });

  it('takes a CodeRun deleted by someone else meanwhile as cancelled', async () => {
    const h = harness();
    codeRun(h, 'a', 'Running');
    h.api.fail({ verb: 'delete' }, notFound);
    h.api.before({ verb: 'get' }, () => h.server.remove(codeRunRef(NAMESPACE, 'a')));
    expect(await h.run(cancelCodeRunsStep, environment())).toEqual({ cancelled: 'a' });
  });

  it('fails with the missing grant when it may not list, delete or read CodeRuns', async () => {
    const h = harness();
    codeRun(h, 'a', 'Running');
    h.api.fail({ verb: 'list' }, forbidden);
    expect((await failure(h.run(cancelCodeRunsStep, environment()))).message).toMatch(
      /^listing the CodeRuns of task-id=7,stage=implementation: forbidden \(403\): the step's service account lacks this grant/,
    );
    h.api.fail({ verb: 'delete' }, forbidden);
    expect((await failure(h.run(cancelCodeRunsStep, environment()))).message).toMatch(/^deleting CodeRun a: forbidden \(403\)/);
    h.api.fail({ verb: 'get' }, forbidden);
    expect((await failure(h.run(cancelCodeRunsStep, environment()))).message).toMatch(/^reading CodeRun a: forbidden \(403\)/);
  });

  it('refuses an environment without a selector or with a zero time limit', () => {
    expect(() => cancelCodeRunsStep.env.read(environment({ SELECTOR: '' }))).toThrow('SELECTOR: is empty');
    expect(() => cancelCodeRunsStep.env.read(environment({ TIMEOUT_SECONDS: '0' }))).toThrow(/^TIMEOUT_SECONDS: /);
  });
});
