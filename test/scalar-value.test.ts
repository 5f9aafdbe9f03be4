/**
 * The tests' stand-in for fast-check's `'binary'` string unit (test/support/scalar-value.ts) draws from the
 * same alphabet: every code point but the surrogates, one at a time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyScalarValue } from './support/scalar-value';

describe('anyScalarValue', () => {
  it('gives one code point, never a surrogate, from U+0000 to U+10FFFF', () => {
    fc.assert(
      fc.property(anyScalarValue, (value) => {
        const codePoint = value.codePointAt(0) ?? -1;
        expect(String.fromCodePoint(codePoint)).toBe(value);
        expect(codePoint < 0xd800 || codePoint > 0xdfff).toBe(true);
        expect(codePoint).toBeLessThanOrEqual(0x10ffff);
      }),
      { numRuns: 2000, seed: 20261127 },
    );
  });

  it('reaches both sides of the surrogates', () => {
    const values = fc.sample(anyScalarValue, { numRuns: 5000, seed: 20261127 }).map((value) => value.codePointAt(0) ?? -1);
    expect(values.some((codePoint) => codePoint < 0xd800)).toBe(true);
    expect(values.some((codePoint) => codePoint > 0xdfff)).toBe(true);
  });

  it('maps a value back to what drew it, and refuses what it cannot draw', () => {
    for (const value of ['\u0000', 'a', '\ud7ff', '\ue000', '😀', '\u{10ffff}'])
      expect(anyScalarValue.canShrinkWithoutContext(value)).toBe(true);
    for (const value of ['\ud800', '\udfff', 'ab', '', 7]) expect(anyScalarValue.canShrinkWithoutContext(value)).toBe(false);
  });
});
