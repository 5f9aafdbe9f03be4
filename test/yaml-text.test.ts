/**
 * The YAML emitter of the synthesis (constructs/model/yaml-text.ts): what it writes reads back, under YAML 1.1
 * and YAML 1.2, as exactly the value it was given, the same bytes every time, and in the layout of the `yaml`
 * package (the committed manifests are compared byte for byte in synth-output.test.ts).
 *
 * Seeded like test/property.test.ts; search longer with FC_RUNS=20000 FC_SEED=$RANDOM.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { toYamlText } from '../constructs/model/yaml-text';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const RUNS = Number(process.env.FC_RUNS ?? 400);
const settings = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });

/** Strings YAML readers misread, and the characters that make a plain or block scalar unsafe. */
const TRICKY = [
  ...['yes', 'No', 'on', 'OFF', 'y', 'n', '~', 'null', 'NULL', '', 'true', 'False'],
  ...['1_000', '0x1f', '0o17', '017', '0b101', '12:30', '1:20:30.5', '1e3', '.5', '-.inf', '.NaN', '+12'],
  ...['2024-01-01', '2001-12-14t21:59:43.10-05:00', '<<', '---', '...', '--- a', '%x', '- a', '? a', 'a: b', 'a #b', '#a'],
  ...['"x"', "'y'", `'"`, 'a\n', 'a\n\n', '\n', ' \n', '\n\n', ' a\nb', 'a \nb', 'a\n ', '\ta\n', 'a\n---\nb', '\u0085', '\u2028', '\0'],
  'x'.repeat(1100),
];
const text = fc.oneof(
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.stringMatching(/^[ \n\ta-z0-9:#'"{}[\],&*!|>%@`?-]{0,14}$/),
  fc.constantFrom(...TRICKY),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value')),
    fc.dictionary(text, tie('value'), { noNullPrototype: true }),
  ),
})).value;

describe('toYamlText', () => {
  it('reads back as the value it was given, under YAML 1.1 and 1.2, and writes the same bytes twice', () => {
    fc.assert(
      fc.property(json, (value) => {
        const written = toYamlText(value);
        expect(parse(written, { version: '1.1' })).toStrictEqual(value);
        expect(parse(written, { version: '1.2' })).toStrictEqual(value);
        expect(toYamlText(value)).toBe(written);
      }),
      settings(RUNS),
    );
  });

  it('reads back every tricky string as a value, a key and a nested list item', () => {
    for (const tricky of TRICKY) {
      for (const value of [{ key: tricky }, { [tricky]: 1 }, [tricky], { a: { b: [tricky] } }]) {
        expect(parse(toYamlText(value), { version: '1.1' }), JSON.stringify(value)).toStrictEqual(value);
        expect(parse(toYamlText(value), { version: '1.2' }), JSON.stringify(value)).toStrictEqual(value);
      }
    }
  });

  it('quotes the strings YAML 1.1 or 1.2 would read as something else, and leaves ordinary ones plain', () => {
    expect(toYamlText({ a: 'on', b: 'yes', c: '~', d: '1_000', e: '0o17', f: '12:30', g: '', h: '2024-01-01' })).toBe(
      'a: "on"\nb: "yes"\nc: "~"\nd: "1_000"\ne: "0o17"\nf: "12:30"\ng: ""\nh: "2024-01-01"\n',
    );
    expect(toYamlText({ a: 'a: b', b: 'a #b', c: '- a', d: '"x"', e: 'plain text', f: 'ghcr.io/x:1.2' })).toBe(
      `a: "a: b"\nb: "a #b"\nc: "- a"\nd: '"x"'\ne: plain text\nf: ghcr.io/x:1.2\n`,
    );
  });

  it('writes multi-line strings as literal blocks with the chomping that keeps their final line breaks', () => {
    expect(toYamlText({ a: 'x\ny', b: 'x\n', c: 'x\n\n', d: ' x\ny' })).toBe(
      'a: |-\n  x\n  y\nb: |\n  x\nc: |+\n  x\n\nd: |2-\n   x\n  y\n',
    );
  });

  it('lays out collections as the yaml package does (lineWidth 0): sequences under their key, empty ones in flow', () => {
    const value = { spec: { list: [{ a: 1, b: [true, null] }, [1, 2], 'x'], empty: [], none: {}, n: -0, f: 1.5e300 } };
    expect(toYamlText(value)).toBe(stringify(value, { lineWidth: 0, aliasDuplicateObjects: false, version: '1.1' }));
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z0-9.-]{0,10}$/), fc.oneof(fc.stringMatching(/^[a-z][ -~]{0,20}$/), fc.integer()), {
          noNullPrototype: true,
        }),
        (value) => {
          expect(toYamlText({ items: [value], value })).toBe(
            stringify({ items: [value], value }, { lineWidth: 0, aliasDuplicateObjects: false, version: '1.1' }),
          );
        },
      ),
      settings(RUNS),
    );
  });

  it('refuses what JSON has no form for, with a message instead of a stack overflow', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => toYamlText(loop)).toThrow('contains itself');
    expect(() => toYamlText({ when: new Date(0) })).toThrow('plain objects only');
    expect(() => toYamlText({ n: 1n })).toThrow('JSON values only');
    expect(toYamlText({ gone: undefined, kept: [undefined] })).toBe('kept:\n  - null\n');
  });
});
