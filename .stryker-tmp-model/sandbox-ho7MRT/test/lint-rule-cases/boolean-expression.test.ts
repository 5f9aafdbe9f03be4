/**
 * The parser behind `depends` (dag rules) and trigger `conditions` (sensor-triggers), called directly: each
 * syntax error names what is wrong and the character where it is (counted from 1), and each accepted
 * expression yields its operands, a `.Result` suffix split from its name.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { parseBooleanExpression } from '../../src/validate/rules/boolean-expression';

// The operand patterns of the two callers: a DAG task (with an optional .Result) and a Sensor dependency.
const TASK = /[a-zA-Z0-9][-a-zA-Z0-9]*(\.[A-Z][a-zA-Z]+)?/;
const DEPENDENCY = /[A-Za-z0-9_][-A-Za-z0-9_.]*/;

describe('errors, with the character where they are', () => {
  it.each([
    ['a && $b', TASK, 'unexpected "$b" at character 6'],
    ['a && b-c-d-e-f-g-h-i-j-k$', TASK, 'unexpected "$" at character 25'],
    ['a && ?bcdefghijklmnop', TASK, 'unexpected "?bcdefghijkl" at character 6'],
    ['a b', TASK, 'unexpected "b" at character 3'],
    ['a b.Succeeded', TASK, 'unexpected "b.Succeeded" at character 3'],
    ['(a) )', TASK, 'unexpected ")" at character 5'],
    ['a &&', TASK, 'the expression ends where an operand was expected (character 5)'],
    ['a && || b', TASK, 'unexpected "||" at character 6: an operand was expected'],
    ['a && (b || c', TASK, 'the "(" at character 6 is never closed'],
    ['a && (b || )', TASK, 'unexpected ")" at character 12: an operand was expected'],
    ['(a ||) && b', TASK, 'unexpected ")" at character 6: an operand was expected'],
    ['  ', TASK, 'the expression is empty'],
  ])('%s', (text, operand, error) => {
    expect(parseBooleanExpression(text, operand)).toEqual({ ok: false, error });
  });
});

describe('operands of accepted expressions', () => {
  it.each([
    ['a', TASK, [{ name: 'a' }]],
    ['a.Succeeded && !(b.Failed || c)', TASK, [{ name: 'a', result: 'Succeeded' }, { name: 'b', result: 'Failed' }, { name: 'c' }]],
    ['!!a&&b||c', TASK, [{ name: 'a' }, { name: 'b' }, { name: 'c' }]],
    ['dep.v1 || dep.Two', DEPENDENCY, [{ name: 'dep.v1' }, { name: 'dep', result: 'Two' }]],
    ['x.y.Result', DEPENDENCY, [{ name: 'x.y', result: 'Result' }]],
    ['dep.Two.three', DEPENDENCY, [{ name: 'dep.Two.three' }]],
  ])('%s', (text, operand, operands) => {
    expect(parseBooleanExpression(text, operand)).toStrictEqual({ ok: true, operands });
  });
});
