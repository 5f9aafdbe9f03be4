/**
 * Go durations the golden vectors (test/golden/duration.json) do not hold: an element that starts with its
 * fraction's point right after a unit (`1h.5m`), and a fraction longer than an int64 holds. The expected
 * values are Go 1.19's `time.ParseDuration` answers, obtained with the real function.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { goDurationNanoseconds } from '../../src/validate/rules/go-duration';

describe("time.ParseDuration's answers", () => {
  it.each([
    ['1h.5m', 3_630_000_000_000n],
    ['1.5h.5m', 5_430_000_000_000n],
    ['2m.25s', 120_250_000_000n],
    ['-1h.5m', -3_630_000_000_000n],
    ['0.12345678901234567890123h', 444_444_440_444n],
    ['1s.5', undefined],
  ])('%s', (text, nanoseconds) => {
    expect(goDurationNanoseconds(text)).toBe(nanoseconds);
  });
});
