/**
 * The nesting and size of a YAML text, measured before the `yaml` package parses it (src/io/yaml-bounds.ts):
 * the measured bound is never below the depth of the syntax tree the package's parser builds from the same
 * text, for texts generated from YAML's indicators, quotes, block scalars, indentation and line breaks; and
 * the hostile texts that crashed or exhausted the reader are refused at once, each at its line.
 *
 * Seeded like test/property.test.ts; search longer with FC_RUNS=20000 FC_SEED=$RANDOM.
 */
// @ts-nocheck

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Parser } from 'yaml';
import { MAX_NESTING_BOUND, MAX_YAML_VALUES, yamlBoundsProblem } from '../src/io/yaml-bounds';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const RUNS = Number(process.env.FC_RUNS ?? 3000);

/** The deepest nesting of collections in the syntax tree the `yaml` package's parser builds (what it composes by recursion). */
function syntaxTreeDepth(text: string): number {
  let deepest = 0;
  const stack: [unknown, number][] = [];
  for (const token of new Parser().parse(text)) stack.push([token, 0]);
  while (stack.length > 0) {
    const [token, above] = stack.pop() as [Record<string, unknown> | undefined, number];
    if (token === undefined || token === null || typeof token !== 'object') continue;
    const collection = token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection';
    const depth = collection ? above + 1 : above;
    deepest = Math.max(deepest, depth);
    if (token.type === 'document') stack.push([token.value as Record<string, unknown>, depth]);
    if (Array.isArray(token.items))
      for (const item of token.items as { key?: unknown; value?: unknown }[]) stack.push([item.key, depth], [item.value, depth]);
  }
  return deepest;
}

/** The smallest depth limit `text` passes. */
function measuredBound(text: string): number {
  let low = 0;
  let high = 10_000;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (yamlBoundsProblem(text, { depth: middle, values: Number.MAX_SAFE_INTEGER })) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Pieces of YAML: every indicator, quote, block scalar header, line break and indentation the lexer tells apart. */
const PIECE = fc.constantFrom(
  ...['[', ']', '{', '}', '"', "'", '\n', '\n  ', '\n    ', '\n ', ' ', '  ', '- ', '? ', ': ', ':', ',', '#', ' #'],
  ...['|', '>', '|-', '>+', '|2', '|1', 'a', 'b', '\\', '---\n', '...\n', '&x ', '!t ', '!<x> ', '*x', '\t', '-'],
  ...['\r\n', '\r', '%', '\ufeff', 'k: ', '- - ', '[a, ', ', ', '"a": ', "'b': ", 'a: a: ', '[a: '],
);
const yamlish = fc.array(PIECE, { maxLength: 120 }).map((pieces) => pieces.join(''));

describe('yamlBoundsProblem', () => {
  it('never measures less nesting than the parser builds', () => {
    fc.assert(
      fc.property(yamlish, (text) => {
        expect(measuredBound(text), JSON.stringify(text)).toBeGreaterThanOrEqual(syntaxTreeDepth(text));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('control: the parser nests every form the measure counts (so the property above has depth to find)', () => {
    for (const text of ['- '.repeat(40), '[a: '.repeat(40), 'a: '.repeat(40), '{a: '.repeat(40), '[\n- - - - - ']) {
      expect(syntaxTreeDepth(text), JSON.stringify(text)).toBeGreaterThanOrEqual(5);
      expect(measuredBound(text)).toBeGreaterThanOrEqual(syntaxTreeDepth(text));
    }
  });

  it.each([
    ['1,000 unclosed [ (a kilobyte)', '['.repeat(1000)],
    ['5 MB of [', '['.repeat(5_000_000)],
    ['5 MB of {a: ', '{a: '.repeat(1_250_000)],
    ['a flow mapping nested by keys', `[${'a: '.repeat(100_000)}]`],
    ['a compact sequence nested 100,000 deep', `${'- '.repeat(100_000)}x\n`],
    ['mappings indented 3,000 deep', Array.from({ length: 3000 }, (_, level) => `${' '.repeat(level)}a:`).join('\n')],
  ])('refuses %s by its nesting, at once', (_name, text) => {
    const started = performance.now();
    const problem = yamlBoundsProblem(text);
    expect(problem?.message).toBe('nested too deeply to read (more than 256 levels of lists and mappings); no Kubernetes object is');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it.each([
    ['two million empty flow lists', `[${'[],'.repeat(2_000_000)}]`],
    ['two million block items', '- a\n'.repeat(2_000_000)],
    ['a million documents', '--- a\n'.repeat(1_000_000)],
  ])('refuses %s by their number', (_name, text) => {
    expect(yamlBoundsProblem(text)?.message).toMatch(/^more than 500,000 values \(list items, mapping entries, documents\)/);
  });

  it('names the line where the limit was passed', () => {
    expect(yamlBoundsProblem(`a: 1\nb: 2\nc: ${'['.repeat(600)}\n`)).toMatchObject({ line: 3 });
  });

  it('passes what real manifests hold: a bound near 2 × 35 for the Argo Workflows CRD, far within the limits', () => {
    expect(MAX_NESTING_BOUND).toBe(512);
    expect(MAX_YAML_VALUES).toBe(500_000);
    const schema = (depth: number): string =>
      Array.from({ length: depth }, (_, level) => `${'  '.repeat(2 * level)}properties:\n${'  '.repeat(2 * level + 1)}p${level}:`).join(
        '\n',
      );
    expect(yamlBoundsProblem(schema(100))).toBeUndefined();
    expect(measuredBound(schema(100))).toBeLessThanOrEqual(2 * 2 * 100 + 4);
  });

  it('is not fooled by structure-like text in scalars, comments and block scalars', () => {
    const script = `run: |\n  ${'[['.repeat(2000)}\nnote: "${'{'.repeat(2000)}"\nplain: a ${'['.repeat(2000)}\n# ${'['.repeat(2000)}\n`;
    expect(yamlBoundsProblem(script)).toBeUndefined();
  });
});
