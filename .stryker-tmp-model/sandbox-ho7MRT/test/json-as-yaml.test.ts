/**
 * The JSON fast path of the lint rules (src/validate/rules/json-as-yaml.ts): a text it reads gives the value
 * YAML 1.2 gives, and a text JSON and YAML could read differently is left to YAML.
 */
// @ts-nocheck

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { canonicalJsonValue, canonicalJsonWithPlaceholders } from '../src/validate/rules/json-as-yaml';

/** As Argo's placeholders are set aside before a manifest is read (src/validate/rules/resource-manifest.ts). */
const yamlWithoutPlaceholders = (manifest: string): unknown[] =>
  parseAllDocuments(manifest.replace(/\{\{[^{}]*\}\}/g, 'placeholder')).map((document) => document.toJS());

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

  it('reads a top-level list, and compact JSON without a final line break, as YAML does', () => {
    for (const text of ['[1,"a",{"b":null}]', '[\n  1\n]\n', '{"a":"b"}'])
      expect(canonicalJsonValue(text), text).toStrictEqual({ value: parse(text) });
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
      '{a: 1}', // a YAML flow mapping, not JSON
      'a: 1',
      '"text"',
      '{"a":1}\n\n',
      '',
    ])
      expect(canonicalJsonValue(text), text).toBeUndefined();
  });
});

describe('canonicalJsonWithPlaceholders', () => {
  it('reads every resource manifest the default platform writes, as YAML reads it with its placeholders set aside', () => {
    const dist = resolve(__dirname, '..', 'dist-manifests');
    let manifests = 0;
    for (const file of readdirSync(dist)) {
      for (const document of parseAllDocuments(readFileSync(join(dist, file), 'utf8'))) {
        for (const template of (document.toJS() as { spec?: { templates?: { resource?: { manifest?: string } }[] } }).spec?.templates ??
          []) {
          const manifest = template.resource?.manifest;
          if (manifest === undefined) continue;
          manifests += 1;
          expect(canonicalJsonWithPlaceholders(manifest)?.value, manifest).toStrictEqual(yamlWithoutPlaceholders(manifest)[0]);
        }
      }
    }
    expect(manifests).toBeGreaterThan(5);
  });

  it('keeps a placeholder between escaped quotes inside its string', () => {
    const manifest = '{"args":["echo \\"{{inputs.parameters.x}}\\" \\\\"]}\n';
    const expected = { args: ['echo "placeholder" \\'] };
    expect(yamlWithoutPlaceholders(manifest)[0]).toStrictEqual(expected);
    expect(canonicalJsonWithPlaceholders(manifest)).toStrictEqual({ value: expected });
  });

  it('leaves to YAML a placeholder that is never closed', () => {
    for (const manifest of ['["{{x"]', '{"a":"{{x"}\n', '{"a":"{{x}"}', '{"a":"{{x{{y}}"}'])
      expect(canonicalJsonWithPlaceholders(manifest), manifest).toBeUndefined();
  });

  it('gives what YAML gives for JSON with placeholders in strings and as values, or leaves it to YAML', () => {
    const marked = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('{{a}}', 'x{{b.c}}y', '{{=toJson(d)}}', '{{e}}{{f}}', '{{{g}}}', 'plain', '\\{{h}}'),
        fc.jsonValue({ maxDepth: 0 }),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('k', '{{key}}', 'l'), tie('value'), { maxKeys: 3, noNullPrototype: true }),
      ),
    })).value;
    fc.assert(
      fc.property(marked, fc.boolean(), (value, bare) => {
        let manifest = `${JSON.stringify(value, null, 2)}\n`;
        // A bare placeholder where a JSON value goes, as the CodeRun manifests write `{{=toJson(...)}}`.
        if (bare) manifest = manifest.replace(/"(\{\{[^{}"]*\}\})"/g, '$1');
        const read = canonicalJsonWithPlaceholders(manifest);
        if (read === undefined) return;
        expect(read.value).toStrictEqual(yamlWithoutPlaceholders(manifest)[0]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
