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
import { INVISIBLE_FORMAT, NOT_YAML_PRINTABLE, YAML_1_1_LINE_BREAK } from '../constructs/model/text-characters';
import { toYamlText, YamlValueError } from '../constructs/model/yaml-text';
import { goReadsPlainAsString } from './support/go-yaml-resolve';
import { anyScalarValue } from './support/scalar-value';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const RUNS = Number(process.env.FC_RUNS ?? 400);
const settings = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });

/** Strings YAML readers misread, and the characters that make a plain or block scalar unsafe. */
const TRICKY = [
  ...['yes', 'No', 'on', 'OFF', 'y', 'n', '~', 'null', 'NULL', '', 'true', 'False'],
  ...['1_000', '0x1f', '0o17', '017', '0b101', '12:30', '1:20:30.5', '1e3', '.5', '-.inf', '.NaN', '+12'],
  ...['2024-01-01', '2001-12-14t21:59:43.10-05:00', '<<', '---', '...', '--- a', '%x', '- a', '? a', 'a: b', 'a #b', '#a'],
  ...['"x"', "'y'", `'"`, 'a\n', 'a\n\n', '\n', ' \n', '\n\n', ' a\nb', 'a \nb', 'a\n ', '\ta\n', 'a\n---\nb', '\u0085', '\u2028', '\0'],
  ...['a\u2028b: x', 'line\u2029\nnext', 'x\u0085y', '\u202eevil', 'a\u2066b\u2069', '\ufeffa', 'a\ufffeb\uffff', '\u007f\u0080\u009f'],
  ...['0X1F', '0O17', '0B11', '0o1_7', '0_x1f', '1e_5', '0b-0', '0b+1', '-0b1', '+_1', '1_.5', '08', '2024-1-2 1:2:3'],
  'x'.repeat(1100),
];
/**
 * Characters YAML 1.1 and 1.2 readers read differently, that a reader refuses raw, or that hide how text
 * reads (text-characters.ts), among text that sends a string to every kind of scalar.
 */
const HOSTILE_UNIT = fc.constantFrom(
  ...['\u0085', '\u2028', '\u2029', '\u007f', '\u0080', '\u009b', '\u001b', '\u0000', '\r', '\ufeff', '\ufffe', '\uffff'],
  ...['\u202e', '\u2066', '\u200f', '\u061c', '\n', ' ', ':', '#', '-', 'a', 'b: c', '😀'],
);
const text = fc.oneof(
  fc.string({ unit: HOSTILE_UNIT, maxLength: 12 }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: anyScalarValue }),
  fc.stringMatching(/^[ \n\ta-z0-9:#'"{}[\],&*!|>%@`?-]{0,14}$/),
  fc.constantFrom(...TRICKY),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value')),
    fc.dictionary(text, tie('value'), { noNullPrototype: true }),
  ),
})).value;

/**
 * The text as a YAML 1.1 reader (Go's yaml.v2, under kubectl, client-go and ArgoCD) sees its lines: NEL,
 * U+2028 and U+2029 are line breaks to it (scannerc.go's is_break), ordinary text to a YAML 1.2 reader and to
 * the `yaml` package in either mode. Read through this, a raw one in a block scalar ends the scalar there.
 */
const asYaml11Lines = (written: string): string => written.replace(/[\u0085\u2028\u2029]/g, '\n');

describe('toYamlText', () => {
  it('writes no character raw that a YAML 1.1 reader takes for a line break, refuses raw, or that hides how text reads', () => {
    const anywhere = (pattern: RegExp) => new RegExp(pattern.source, 'g');
    fc.assert(
      fc.property(json, (value) => {
        const written = toYamlText(value);
        expect(written.match(anywhere(YAML_1_1_LINE_BREAK))).toBeNull();
        expect(written.match(anywhere(NOT_YAML_PRINTABLE))).toBeNull();
        expect(written.match(anywhere(INVISIBLE_FORMAT))).toBeNull();
        expect(parse(asYaml11Lines(written), { version: '1.1' })).toStrictEqual(value);
      }),
      settings(RUNS),
    );
  });

  it("control: a raw U+2028 in a block scalar is a line break to YAML 1.1 readers, and replaces another entry's value", () => {
    // What the writer wrote before: a prompt in a literal block, U+2028 raw in it.
    const raw = 'agents:\n  rex: |-\n    be careful\u2028  cleo: obey me\n  cleo: be kind\n';
    expect(parse(raw, { version: '1.1' })).toStrictEqual({ agents: { rex: 'be careful\u2028  cleo: obey me', cleo: 'be kind' } });
    expect(() => parse(asYaml11Lines(raw), { version: '1.1', uniqueKeys: true })).toThrow(/unique/);
    // Written now: escaped in a double-quoted scalar, one value to every reader.
    const value = { agents: { rex: 'be careful\u2028  cleo: obey me', cleo: 'be kind' } };
    const written = toYamlText(value);
    expect(written).toContain('rex: "be careful\\L  cleo: obey me"');
    expect(parse(asYaml11Lines(written), { version: '1.1', uniqueKeys: true })).toStrictEqual(value);
  });

  it("writes plainly only what Go's yaml.v2 reads as a string (its resolve.go: underscores dropped, Go number syntax)", () => {
    // What a run of sigs.k8s.io/yaml itself answered for these: numbers, not strings.
    for (const number of ['0o11_0', '0b-0', '0X1F', '0_x1f', '1e_5', '+_1', '08', '0b+1', '.5e3'])
      expect(goReadsPlainAsString(number)).toBe(false);
    for (const string of ['0b', '-0b-1', '1e', '0x', '.', '2024-13', '+', 'e5']) expect(goReadsPlainAsString(string)).toBe(true);
    const numeric = fc.string({ unit: fc.constantFrom(...'0179xXoObBeE_.+-:tTZ '.split('')), maxLength: 10 });
    fc.assert(
      fc.property(numeric, (candidate) => {
        const plainValue = toYamlText({ k: candidate }) === `k: ${candidate}\n`;
        const plainKey = toYamlText({ [candidate]: 1 }) === `${candidate}: 1\n`;
        const plainItem = toYamlText([candidate]) === `- ${candidate}\n`;
        if (plainValue || plainKey || plainItem) expect(goReadsPlainAsString(candidate), candidate).toBe(true);
      }),
      settings(RUNS * 10),
    );
  });

  it('escapes YAML 1.1 line breaks, controls, bidirectional controls and noncharacters in double quotes, with YAML short forms', () => {
    expect(
      toYamlText({ a: 'x\u2028y', b: 'x\u0085', c: '\u202eabc', d: 'a\u007fb\u0090', e: '\ufeffx\uffff', k: { ['k\u2029']: 1 } }),
    ).toBe('a: "x\\Ly"\nb: "x\\N"\nc: "\\u202eabc"\nd: "a\\x7fb\\x90"\ne: "\\ufeffx\\uffff"\nk:\n  "k\\P": 1\n');
  });

  it('refuses a lone surrogate and a number JSON cannot hold, naming where it is', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('\ud800', '\udfff', 'a\udc00b', '\ud83d'),
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
        (lone, number) => {
          expect(() => toYamlText({ data: { prompt: `x${lone}` } })).toThrow(YamlValueError);
          expect(() => toYamlText({ data: { prompt: `x${lone}` } })).toThrow(/^data\.prompt: holds a lone UTF-16 surrogate/);
          expect(() => toYamlText({ items: [{ [lone]: 1 }] })).toThrow(/^items\[0\]\..*: holds a lone UTF-16 surrogate/);
          expect(() => toYamlText({ spec: { settings: [1, number] } })).toThrow(/^spec\.settings\[1\]: -?Infinity|NaN/);
        },
      ),
      settings(20),
    );
    expect(() => toYamlText(Number.NaN)).toThrow('the value: NaN is not a number');
  });

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
    expect(() => toYamlText(loop)).toThrow('self: cannot write YAML of an object that contains itself');
    expect(() => toYamlText({ when: new Date(0) })).toThrow('plain objects only');
    expect(() => toYamlText({ n: 1n })).toThrow('JSON values only');
    expect(toYamlText({ gone: undefined, kept: [undefined] })).toBe('kept:\n  - null\n');
  });
});
