// @ts-nocheck
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainCopy } from '../constructs/model/plain-copy';

/** Every reference-typed value in `value`, walked depth first. */
function objectsIn(value: unknown, found: object[] = []): object[] {
  if (value !== null && typeof value === 'object') {
    found.push(value);
    for (const child of Object.values(value)) objectsIn(child, found);
  }
  return found;
}

describe('plainCopy', () => {
  it('gives what structuredClone gives for any JSON value, undefined fields included, sharing no object with it', () => {
    const data = fc.jsonValue().chain((json) => fc.constantFrom(json, { json, missing: undefined, list: [json, undefined] }));
    fc.assert(
      fc.property(data, (value) => {
        const copy = plainCopy(value);
        expect(copy).toStrictEqual(structuredClone(value));
        const originals = new Set(objectsIn(value));
        expect(objectsIn(copy).filter((object) => originals.has(object))).toEqual([]);
      }),
      { seed: 12, numRuns: 200 },
    );
  });

  it('keeps a "__proto__" key as a key, as JSON.parse and structuredClone do', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const copy = plainCopy(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(copy).toStrictEqual(structuredClone(value));
  });

  it('hands what is not plain data to structuredClone: a Date stays a Date, a function is refused', () => {
    const when = new Date(0);
    const copy = plainCopy({ when, list: [new Map([['k', 1]])] });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(when);
    expect(copy.list[0]).toEqual(new Map([['k', 1]]));
    expect(() => plainCopy({ produce: [() => 1] })).toThrow();
  });
});
