// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { formatGoFloat, goJson, goTrimSpace } from '../../src/simulate/engine/go-format';

describe('formatGoFloat', () => {
  it("'g' is fmt's %v of a float64: exponent form below 1e-4 and from 1e6", () => {
    const cases: [number, string][] = [
      [42, '42'],
      [1.5, '1.5'],
      [999999, '999999'],
      [1234567, '1.234567e+06'],
      [1e6, '1e+06'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1e100, '1e+100'],
      [-2.5, '-2.5'],
      [0, '0'],
      [-0, '-0'],
    ];
    for (const [value, text] of cases) expect(formatGoFloat(value, 'g')).toBe(text);
  });

  it("'f' never uses an exponent", () => {
    expect(formatGoFloat(1e21, 'f')).toBe('1000000000000000000000');
    expect(formatGoFloat(1234567, 'f')).toBe('1234567');
    expect(formatGoFloat(1e-7, 'f')).toBe('0.0000001');
    expect(formatGoFloat(0.1 + 0.2, 'f')).toBe('0.30000000000000004');
  });
});

describe('goJson', () => {
  it('sorts keys, writes no spaces and escapes <, >, &, U+2028 as Go does', () => {
    expect(goJson({ b: 1, a: [true, null], c: { z: 'x', y: '<a href="x">&' } })).toBe(
      '{"a":[true,null],"b":1,"c":{"y":"\\u003ca href=\\"x\\"\\u003e\\u0026","z":"x"}}',
    );
    expect(goJson('line\u2028\n\t')).toBe('"line\\u2028\\n\\t"');
    expect(goJson(undefined)).toBe('null');
    expect(goJson(5n)).toBe('5');
  });

  it('writes float64s as encoding/json does', () => {
    expect(goJson([1e21, 1e-7, 1.5, 100, -0])).toBe('[1e+21,1e-7,1.5,100,-0]');
  });
});

describe('goTrimSpace', () => {
  it("trims Go's white space (NEL, NBSP) but not U+FEFF", () => {
    expect(goTrimSpace('\u0085\u00a0 x \t\n')).toBe('x');
    expect(goTrimSpace('\ufeffx')).toBe('\ufeffx');
  });
});
