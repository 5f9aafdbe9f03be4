/**
 * The simulator's reading of an Argo retryStrategy (src/simulate/retry-strategy.ts), against what the
 * controller does in argo-workflows v4.0.5 workflow/controller/operator.go (processNodeRetries).
 */
import { describe, expect, it } from 'vitest';
import { UnsupportedFeatureError } from '../src/simulate/engine/unsupported';
import { retriedAfter } from '../src/simulate/retry-strategy';

const template = (retryStrategy?: Record<string, unknown>) => (retryStrategy === undefined ? {} : { retryStrategy });

describe('retriedAfter', () => {
  it('never retries a template without a retryStrategy', () => {
    expect(retriedAfter(template(), 1, 'Failed', 't')).toBe(false);
    expect(retriedAfter(template(), 1, 'Error', 't')).toBe(false);
  });

  it('retries while the failed children are at most the limit (limit 2: after the first and second, not the third)', () => {
    const strategy = template({ limit: '2', retryPolicy: 'Always' });
    expect([1, 2, 3].map((failures) => retriedAfter(strategy, failures, 'Failed', 't'))).toEqual([true, true, false]);
    expect(retriedAfter(template({ limit: 0, retryPolicy: 'Always' }), 1, 'Failed', 't')).toBe(false);
    expect(retriedAfter(template({ retryPolicy: 'Always' }), 100, 'Failed', 't')).toBe(true);
  });

  it.each([
    ['Always', true, true],
    ['OnFailure', true, false],
    ['OnError', false, true],
    ['OnTransientError', false, false],
  ])('policy %s: Failed %s, Error %s', (policy, failed, error) => {
    const strategy = template({ limit: '1', retryPolicy: policy });
    expect(retriedAfter(strategy, 1, 'Failed', 't')).toBe(failed);
    expect(retriedAfter(strategy, 1, 'Error', 't')).toBe(error);
  });

  it('takes OnFailure when no policy is given', () => {
    expect(retriedAfter(template({ limit: '1' }), 1, 'Failed', 't')).toBe(true);
    expect(retriedAfter(template({ limit: '1' }), 1, 'Error', 't')).toBe(false);
  });

  it('refuses what it cannot read, naming the template', () => {
    expect(() => retriedAfter(template({ limit: '1', expression: 'lastRetry.exitCode == 1' }), 1, 'Failed', 'play/run-x')).toThrow(
      new UnsupportedFeatureError('play/run-x: a retryStrategy expression is not simulated'),
    );
    expect(() => retriedAfter(template({ limit: '1', retryPolicy: 'Sometimes' }), 1, 'Failed', 't')).toThrow(/retryPolicy Sometimes/);
    expect(() => retriedAfter(template({ limit: 'two' }), 1, 'Failed', 't')).toThrow(/limit "two" is not a whole number/);
  });
});
