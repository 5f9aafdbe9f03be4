/**
 * Retry budgets: every attempt Argo allows gets its whole deadline before maxDuration (counted from the
 * first attempt's start) runs out, and the lint rule that guards users' manifests agrees with the budgets.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { argoDurationSeconds, retryMaxDurationRule } from '../src/validate/rules/retry-max-duration';
import { boundedRetry, retryBudgetSeconds, sharedDeadlineRetry } from '../constructs/workflows/retry-policy';
import type { ManifestObject } from '../src/validate/finding';

/** A WorkflowTemplate with one container template of this deadline and retry strategy, as the engine reads it. */
function manifest(activeDeadlineSeconds: number, retryStrategy: object): ManifestObject {
  const object = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'WorkflowTemplate',
    metadata: { name: 'case' },
    spec: { entrypoint: 'main', templates: [{ name: 'main', activeDeadlineSeconds, retryStrategy, container: { image: 'alpine:3.23' } }] },
  };
  return { file: 'case.yaml', index: 0, object, kind: 'WorkflowTemplate', name: 'case' };
}

describe('boundedRetry', () => {
  it('lets the last attempt start after every earlier one ran to its deadline and backed off, and still finish', () => {
    for (const [limit, attempt, backoff] of [
      [0, 300, 10],
      [1, 14_700, 60],
      [3, 360, 5],
      [5, 3600, 60],
    ]) {
      const strategy = boundedRetry({ limit, attemptSeconds: attempt, backoffSeconds: backoff });
      const maxDuration = argoDurationSeconds(strategy.backoff.maxDuration) as number;
      let lastStart = 0;
      for (let retry = 0; retry < limit; retry += 1) lastStart += attempt + backoff * 2 ** retry;
      expect(maxDuration, `${limit} retries`).toBeGreaterThanOrEqual(lastStart + attempt);
      expect(strategy.limit).toBe(String(limit));
      expect(retryMaxDurationRule.check(manifest(attempt, strategy), { objects: [] })).toEqual([]);
    }
  });

  it('refuses a negative or fractional number, which Argo would not read as meant', () => {
    expect(() => boundedRetry({ limit: -1, attemptSeconds: 60, backoffSeconds: 5 })).toThrow(/limit must be a whole number/);
    expect(() => boundedRetry({ limit: 1, attemptSeconds: 1.5, backoffSeconds: 5 })).toThrow(/attemptSeconds must be a whole number/);
  });
});

describe('sharedDeadlineRetry', () => {
  it('gives all attempts together one deadline and the backoffs, never a second full deadline', () => {
    const strategy = sharedDeadlineRetry({ limit: 2, attemptSeconds: 14_700, backoffSeconds: 10, retryPolicy: 'Always' });
    const maxDuration = argoDurationSeconds(strategy.backoff.maxDuration) as number;
    expect(maxDuration).toBeGreaterThanOrEqual(14_700 + 10 + 20);
    expect(maxDuration).toBeLessThan(2 * 14_700);
    expect(maxDuration).toBe(retryBudgetSeconds({ limit: 0, attemptSeconds: 14_700, backoffSeconds: 10 }) + 30);
    // Still a retry after a lost pod: the rule only asks for room for one backoff after a full attempt.
    expect(retryMaxDurationRule.check(manifest(14_700, strategy), { objects: [] })).toEqual([]);
  });
});

describe('argoDurationSeconds', () => {
  it('reads durations as Argo does: bare seconds and Go durations', () => {
    expect(argoDurationSeconds('90')).toBe(90);
    expect(argoDurationSeconds(90)).toBe(90);
    expect(argoDurationSeconds('1h30m')).toBe(5400);
    expect(argoDurationSeconds('1.5h')).toBe(5400);
    expect(argoDurationSeconds('500ms')).toBe(0.5);
    expect(argoDurationSeconds('4 hours')).toBeUndefined();
  });
});
