/**
 * The JSON fast path of the lint rules (src/validate/rules/json-as-yaml.ts): a text it reads gives the value
 * YAML 1.2 gives, and a text JSON and YAML could read differently is left to YAML.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { canonicalJsonValue } from '../src/validate/rules/json-as-yaml';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const RUNS = Number(process.env.FC_RUNS ?? 300);

const container = fc.oneof(
  fc.array(fc.jsonValue()),
  fc.dictionary(fc.string(), fc.jsonValue(), { noNullPrototype: true }),
) as fc.Arbitrary<unknown>;

describe('canonicalJsonValue', () => {
  it('reads what JSON.stringify writes (compact or indented, with or without a final line break) as YAML 1.2 does', () => {
    fc.assert(
      fc.property(container, fc.boolean(), fc.boolean(), (value, indented, newline) => {
        const text = JSON.stringify(value, null, indented ? 2 : undefined) + (newline ? '\n' : '');
        const read = canonicalJsonValue(text);
        if (read === undefined) return; // left to YAML: allowed, never wrong
        expect(read.value).toStrictEqual(parse(text));
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it('takes the manifests the constructs write', () => {
    expect(canonicalJsonValue('{"metadata":{"labels":{"a":"b"}}}\n')).toStrictEqual({ value: { metadata: { labels: { a: 'b' } } } });
    expect(canonicalJsonValue(`${JSON.stringify({ kind: 'Workflow', spec: { n: [1, 2.5] } }, null, 2)}\n`)?.value).toStrictEqual({
      kind: 'Workflow',
      spec: { n: [1, 2.5] },
    });
  });

  it('leaves to YAML what the two could read differently, and what is not JSON', () => {
    for (const text of [
      '{"a":1,"a":2}', // YAML refuses the second key; JSON.parse keeps it
      '{"b":1,"1":2}', // JSON.parse puts the integer-like key first
      '{"n":12345678901234567890}', // rounded by JSON.parse
      '{"n":1.0}',
      '{"n":1e400}',
      '{"__proto__":{"a":1}}',
      '{ "a": 1 }',
      'a: 1',
      '"text"',
      '{"a":1}\n\n',
      '',
    ])
      expect(canonicalJsonValue(text), text).toBeUndefined();
  });
});
