/**
 * The young generation of the command line (src/young-generation.ts): once a command lets it grow, compiled-code
 * caches are still read and made under the flags the command line started with, which V8 checks them against.
 */
import * as v8 from 'node:v8';
import { Script } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { keepYoungGenerationSmall, letYoungGenerationGrow, underStartFlags } from '../src/young-generation';

const STATE = Symbol.for('agent-play.young-generation');

/**
 * A source of its own for each compile (the same length, which is all V8 compares of a cache's source): V8 takes
 * a source it compiled before from memory without reading the cache, and would accept any cache for it.
 */
let sources = 0;
const source = (): string => `(function () { return ${String(1000 + (sources++ % 9000))}; })`;

describe('the young generation kept small', () => {
  afterEach(() => {
    // Back to V8's default and to a process that did not start as the command line.
    v8.setFlagsFromString('--semi-space-growth-factor=2');
    delete (globalThis as Record<symbol, unknown>)[STATE];
  });

  it('compiles from a cache made under the start flags after the young generation was let grow', () => {
    keepYoungGenerationSmall();
    const made = underStartFlags(() => new Script(source()).createCachedData());
    letYoungGenerationGrow();
    // Under the flags of the grown young generation V8 rejects it: the reason for underStartFlags.
    expect(new Script(source(), { cachedData: made }).cachedDataRejected).toBe(true);
    expect(underStartFlags(() => new Script(source(), { cachedData: made })).cachedDataRejected).toBe(false);
    // And what it makes then, a later run of the command line (start flags) reads.
    const later = underStartFlags(() => new Script(source()).createCachedData());
    keepYoungGenerationSmall();
    expect(new Script(source(), { cachedData: later }).cachedDataRejected).toBe(false);
  });

  it('leaves the flags alone in a process that did not start as the command line', () => {
    const made = new Script(source()).createCachedData();
    letYoungGenerationGrow();
    expect(underStartFlags(() => new Script(source(), { cachedData: made })).cachedDataRejected).toBe(false);
    expect(new Script(source(), { cachedData: made }).cachedDataRejected).toBe(false);
  });
});
