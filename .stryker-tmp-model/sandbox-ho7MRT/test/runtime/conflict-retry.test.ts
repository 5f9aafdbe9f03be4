/**
 * The retry of a read-modify-write that lost a race (409: read again, 1/2/4/8 s apart, five attempts), and how
 * the steps word the API errors they do not retry: a 403 says that the service account lacks the grant and is
 * never taken for a race; the error helpers tell a stale write from a name that is taken.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ApiResources,
  apiGroupOf,
  codeRunRef,
  configMapRef,
  isAlreadyExists,
  isConflict,
  isNotFound,
  selectorOf,
  workflowRef,
} from '../../constructs/runtime/kube-api';
import { backoffMilliseconds, CONFLICT_ATTEMPTS, explainApiError, retryOnConflict } from '../../constructs/runtime/conflict-retry';
import { StepFailure } from '../../constructs/runtime/runtime-step';
import { alreadyExists, apiError, conflict, failure, forbidden, harness, notFound } from '../support/runtime-harness';

/** An attempt that fails with the given errors in turn, then returns `done`; counts its calls. */
function attempts(...errors: unknown[]): { run: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    run: async () => {
      calls += 1;
      const error = errors[calls - 1];
      if (error !== undefined) throw error;
      return 'done';
    },
    calls: () => calls,
  };
}

describe('retryOnConflict', () => {
  it('returns the first success at once, without waiting', async () => {
    const h = harness();
    const attempt = attempts();
    expect(await retryOnConflict(h.context, 'writing x', attempt.run)).toBe('done');
    expect(attempt.calls()).toBe(1);
    expect(h.sleeps).toEqual([]);
    expect(h.logs).toEqual([]);
  });

  it('reads again after a 409 and succeeds, after waiting one second', async () => {
    const h = harness();
    const attempt = attempts(conflict());
    expect(await retryOnConflict(h.context, 'writing x', attempt.run)).toBe('done');
    expect(attempt.calls()).toBe(2);
    expect(h.sleeps).toEqual([1000]);
    expect(h.logs).toEqual(['writing x: the object changed meanwhile (409 Conflict); reading it again']);
  });

  it('succeeds on the fifth attempt after four conflicts, backing off 1, 2, 4, 8 s', async () => {
    const h = harness();
    const attempt = attempts(conflict(), conflict(), conflict(), conflict());
    expect(await retryOnConflict(h.context, 'writing x', attempt.run)).toBe('done');
    expect(attempt.calls()).toBe(5);
    expect(h.sleeps).toEqual([1000, 2000, 4000, 8000]);
  });

  it('gives up after five conflicts with a StepFailure, without a fifth wait', async () => {
    const h = harness();
    const attempt = attempts(conflict(), conflict(), conflict(), conflict(), conflict(), conflict());
    const error = await failure(retryOnConflict(h.context, 'writing x', attempt.run));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe('writing x: the object changed under every one of 5 attempts (409 Conflict); giving up');
    expect(attempt.calls()).toBe(CONFLICT_ATTEMPTS);
    expect(h.sleeps).toEqual([1000, 2000, 4000, 8000]);
    expect(h.logs).toHaveLength(4);
  });

  it('never retries a 403 and says the grant is missing, never that the object changed', async () => {
    const h = harness();
    const attempt = attempts(forbidden());
    const error = await failure(retryOnConflict(h.context, 'writing x', attempt.run));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe(`writing x: forbidden (403): the step's service account lacks this grant: ${forbidden().message}`);
    expect(error.message).not.toMatch(/changed|conflict/i);
    expect(attempt.calls()).toBe(1);
    expect(h.sleeps).toEqual([]);
    expect(h.logs).toEqual([]);
  });

  it('never retries an AlreadyExists (a 409 that is no race on a version)', async () => {
    const h = harness();
    const attempt = attempts(alreadyExists());
    const error = await failure(retryOnConflict(h.context, 'creating x', attempt.run));
    expect(error.message).toBe('creating x: 409 AlreadyExists: already exists');
    expect(attempt.calls()).toBe(1);
  });

  it('words another API error with its status and reason, and passes other errors on unchanged', async () => {
    const h = harness();
    expect((await failure(retryOnConflict(h.context, 'reading x', attempts(notFound()).run))).message).toBe(
      'reading x: 404 NotFound: not found',
    );
    const plain = new TypeError('a bug');
    expect(await failure(retryOnConflict(h.context, 'reading x', attempts(plain).run))).toBe(plain);
    const step = new StepFailure('said already');
    expect(await failure(retryOnConflict(h.context, 'reading x', attempts(conflict(), step).run))).toBe(step);
  });
});

describe('backoffMilliseconds and explainApiError', () => {
  it('doubles from one second', () => {
    expect([1, 2, 3, 4, 5].map(backoffMilliseconds)).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it('turns only API errors into step failures', () => {
    const explained = explainApiError(apiError(500, 'InternalError', 'etcd is down'), 'listing y');
    expect(explained).toBeInstanceOf(StepFailure);
    expect((explained as Error).message).toBe('listing y: 500 InternalError: etcd is down');
    const other = new Error('x');
    expect(explainApiError(other, 'listing y')).toBe(other);
    expect(explainApiError('text', 'listing y')).toBe('text');
  });
});

describe('the API error helpers', () => {
  it('tell a stale write, a taken name and a missing object apart', () => {
    expect([isConflict(conflict()), isAlreadyExists(conflict()), isNotFound(conflict())]).toEqual([true, false, false]);
    expect([isConflict(alreadyExists()), isAlreadyExists(alreadyExists()), isNotFound(alreadyExists())]).toEqual([false, true, false]);
    expect([isConflict(notFound()), isAlreadyExists(notFound()), isNotFound(notFound())]).toEqual([false, false, true]);
    expect([isConflict(forbidden()), isAlreadyExists(forbidden()), isNotFound(forbidden())]).toEqual([false, false, false]);
    const lookalike = Object.assign(new Error('x'), { status: 409, reason: 'Conflict' });
    expect([isConflict(lookalike), isAlreadyExists(lookalike), isNotFound({ status: 404 })]).toEqual([false, false, false]);
    expect(isAlreadyExists(new ApiError(400, 'AlreadyExists', 'x'))).toBe(false);
  });

  it('names an ApiError as such and keeps its status, reason and message', () => {
    const error = new ApiError(422, 'Invalid', 'bad');
    expect([error.name, error.status, error.reason, error.message]).toEqual(['ApiError', 422, 'Invalid', 'bad']);
  });

  it('builds references and selectors', () => {
    expect(configMapRef('ns', 'a')).toEqual({ resource: ApiResources.configMaps, namespace: 'ns', name: 'a' });
    expect(workflowRef('ns', 'b')).toEqual({ resource: ApiResources.workflows, namespace: 'ns', name: 'b' });
    expect(codeRunRef('ns', 'c')).toEqual({ resource: ApiResources.codeRuns, namespace: 'ns', name: 'c' });
    expect(selectorOf({ z: '1', a: '2', 'b/c': '3' })).toBe('a=2,b/c=3,z=1');
    expect(selectorOf({})).toBe('');
    expect(apiGroupOf(ApiResources.pods)).toBe('');
    expect(apiGroupOf(ApiResources.workflows)).toBe('argoproj.io');
    expect(apiGroupOf(ApiResources.codeRuns)).toBe('agents.platform');
  });
});
