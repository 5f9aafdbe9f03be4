import fc from 'fast-check';

const SURROGATES_START = 0xd800;
const SURROGATES = 0x800;
const LAST_CODE_POINT = 0x10ffff;

/**
 * Any Unicode scalar value (every code point but the surrogates) as a string of one character: the alphabet
 * of fast-check's `'binary'` string unit, drawn the same way (a `nat` mapped to the code point, shrinking
 * towards U+0000). fast-check's own unit builds a reverse map of its 1.1 million values at its first use in
 * each worker (about 1.7 s of CPU); this one computes the reverse instead.
 */
export const anyScalarValue: fc.Arbitrary<string> = fc.nat({ max: LAST_CODE_POINT - SURROGATES }).map(
  (index) => String.fromCodePoint(index < SURROGATES_START ? index : index + SURROGATES),
  (value) => {
    if (typeof value !== 'string') throw new Error('not a string');
    const codePoint = value.codePointAt(0);
    if (codePoint === undefined || String.fromCodePoint(codePoint) !== value) throw new Error('not one code point');
    if (codePoint >= SURROGATES_START && codePoint < SURROGATES_START + SURROGATES) throw new Error('a lone surrogate');
    return codePoint < SURROGATES_START ? codePoint : codePoint - SURROGATES;
  },
);
