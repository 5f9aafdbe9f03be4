/**
 * The CRD validator where it must answer as the API server does (issue 23 items 3 and 11), each class
 * searched with fast-check; test/oracle-fixtures.test.ts holds the same classes against the API server's own
 * answers (k8s.io/apiextensions-apiserver, through `npm run oracle`).
 *
 * - `pattern` is Go's regexp: a plain pattern run as a JavaScript RegExp matches exactly what re2js (Go's
 *   syntax and matching) matches; a nested repeat is linear; a pattern Go refuses makes `--crds` refuse the CRD.
 * - CEL rules get the API server's cost limits: a rule whose cost on the value is over the per-call limit is
 *   reported, not run; one under it is run and gives its verdict.
 * - A CRD's root need not list apiVersion, kind and metadata; a CRD whose spec lists no field still checks
 *   its kind; anything but a CRD in `--crds` is unusable input; a kind or apiVersion wrong only by case gets
 *   a "did you mean".
 */
// @ts-nocheck

import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGoRegexp } from '../src/simulate/engine/re2';
import { CEL_LIMITS } from '../src/validate/schema/cel-cost';
import { celProblems } from '../src/validate/schema/cel-rules';
import { goPattern, isPlainPattern } from '../src/validate/schema/go-pattern';
import { SchemaCatalog, SchemaSourceError } from '../src/validate/schema/schema-catalog';
import { customCrd } from './support/custom-crd';
import { useScratchDirs } from './support/scratch-dir';

const scratch = useScratchDirs('agent-play-oracle-crds-');
const RUNS = { numRuns: 60, seed: 23 };

/**
 * A folder holding these documents as one `crds.json` (a `List` of them): JSON, so that a generated field
 * name such as `y` stays a name (Kubernetes' YAML 1.1 reads a plain `y:` key as the boolean true).
 */
function crdsDir(...documents: readonly unknown[]): string {
  const folder = scratch();
  writeFileSync(
    path.join(folder, 'crds.json'),
    JSON.stringify(documents.length === 1 ? documents[0] : { apiVersion: 'v1', kind: 'List', items: documents }),
  );
  return folder;
}

const reMatches = (pattern: string, text: string): boolean => compileGoRegexp(pattern).matcher(text).find();

describe('pattern runs as Go runs it', () => {
  const literal = fc.constantFrom('a', 'b', 'Z', '0', '-', '_', '\\.', '/', '@');
  const klass = fc.constantFrom('[a-z]', '[-a-zA-Z0-9_]', '[0-9]', '[ab.]', '[-_]', '[a-c0-3]');
  const atom = fc.oneof(literal, klass);
  const quantifier = fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{0,}');
  const plain = fc
    .tuple(
      fc.boolean(),
      fc.array(atom, { maxLength: 3 }),
      fc.option(fc.tuple(atom, quantifier)),
      fc.array(atom, { maxLength: 3 }),
      fc.boolean(),
    )
    .map(
      ([start, before, repeated, after, end]) =>
        `${start ? '^' : ''}${before.join('')}${repeated ? repeated.join('') : ''}${after.join('')}${end ? '$' : ''}`,
    );
  const text = fc.stringMatching(/^[-a-zA-Z0-9_./@é]{0,12}$/);

  it('a plain pattern is plain, and matches what Go matches', () => {
    fc.assert(
      fc.property(plain, fc.array(text, { minLength: 1, maxLength: 8 }), (pattern, texts) => {
        expect(isPlainPattern(pattern), pattern).toBe(true);
        for (const value of texts) expect(goPattern(pattern).test(value), `${pattern} on ${value}`).toBe(reMatches(pattern, value));
      }),
      RUNS,
    );
  });

  it('a pattern with nested repeats is not plain, and answers at once on long input, as Go does', () => {
    const nested = fc
      .tuple(fc.constantFrom('a', '[a-z]', '(a|aa)'), fc.constantFrom('+', '*'))
      .map(([inner, repeat]) => `^(${inner}${repeat})${repeat}$`);
    fc.assert(
      fc.property(nested, fc.integer({ min: 20, max: 60 }), (pattern, length) => {
        expect(isPlainPattern(pattern)).toBe(false);
        const value = `${'a'.repeat(length)}!`;
        expect(goPattern(pattern).test(value)).toBe(false);
        expect(goPattern(pattern).test('a'.repeat(length))).toBe(true);
      }),
      RUNS,
    );
  });

  it('a CRD whose pattern Go refuses (lookaround, backreference, huge repeat) is unusable input, naming the pattern', () => {
    const refused = fc.constantFrom('^(?=a)b$', '^(?!a)b$', '(?<=a)b', '(a)\\1', 'a{1001}', '[[:word:]]{2,1}');
    fc.assert(
      fc.property(refused, (pattern) => {
        const crd = customCrd({
          kind: 'Guard',
          name: 'guards.example.com',
          spec: { type: 'object', properties: { word: { type: 'string', pattern } } },
        });
        const dir = crdsDir(crd);
        expect(() => SchemaCatalog.fromDirectories([dir])).toThrow(SchemaSourceError);
        expect(() => SchemaCatalog.fromDirectories([dir])).toThrow(JSON.stringify(pattern));
      }),
      { ...RUNS, numRuns: 12 },
    );
  });
});

describe('CEL rules within the API server cost limits', () => {
  const rule = 'self.all(x, self.all(y, self.all(z, x != "q")))';
  const schema = { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule, message: 'no q' }] };

  it('a cubic rule is run when its cost on the value is within the per-call limit, and reported, not run, past it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 160 }), fc.boolean(), (size, withQ) => {
        const value = Array.from({ length: size }, (_, index) => (withQ && index === size - 1 ? 'q' : 'a'));
        const problems = celProblems(schema, value);
        // An innermost step costs a few units (cel-go: the loop's condition and step, the comparison): a
        // list of 40 is well within 1,000,000, one of 100 (a million steps) well past it.
        const messages = problems.map((problem) => problem.message);
        const over = [expect.stringContaining(`over the API server's limit of ${CEL_LIMITS.perCall} per rule`)];
        if (size >= 100) expect(messages).toEqual(over);
        else if (size <= 40) expect(messages).toEqual(withQ ? ['no q'] : []);
        else
          expect([JSON.stringify(withQ ? ['no q'] : []), 'over']).toContain(
            messages.length === 1 && messages[0] !== 'no q' ? 'over' : JSON.stringify(messages),
          );
      }),
      { ...RUNS, numRuns: 30 },
    );
  });

  it('a CRD whose rule is estimated over the limit for the list it may hold is refused, as the API server refuses it', () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }), (maxItems) => {
        const items = {
          type: 'array',
          items: { type: 'string', maxLength: 8 },
          ...(maxItems ? { maxItems } : {}),
          'x-kubernetes-validations': [{ rule }],
        };
        const crd = customCrd({ kind: 'Triple', name: 'triples.example.com', spec: { type: 'object', properties: { items } } });
        const dir = crdsDir(crd);
        // Unbounded, the API server assumes the list fills a 3 MiB request; bounded, a cubic rule of a few hundred items is over.
        if (maxItems === undefined || maxItems > 100)
          expect(() => SchemaCatalog.fromDirectories([dir])).toThrow('estimated rule cost exceeds budget');
        else if (maxItems <= 40) expect(() => SchemaCatalog.fromDirectories([dir])).not.toThrow();
      }),
      { ...RUNS, numRuns: 20 },
    );
  });
});

describe('CRDs as the API server reads them', () => {
  const fieldName = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/).filter((name) => !['apiVersion', 'kind', 'metadata'].includes(name));

  it("a root that lists only spec (the docs' CronTab) takes apiVersion, kind and metadata, and still refuses unknown fields", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fieldName, { minLength: 1, maxLength: 4 }), fieldName, (fields, extra) => {
        const properties = Object.fromEntries(fields.map((field) => [field, { type: 'string' }]));
        const crd = customCrd({ kind: 'CronTab', name: 'crontabs.example.com', spec: { type: 'object', properties } });
        const openApi = (crd.spec as any).versions[0].schema.openAPIV3Schema;
        openApi.properties = { spec: openApi.properties.spec };
        const catalog = SchemaCatalog.fromDirectories([crdsDir(crd)]);
        const object = {
          apiVersion: 'example.com/v1',
          kind: 'CronTab',
          metadata: { name: 'a' },
          spec: Object.fromEntries(fields.map((field) => [field, 'x'])),
        };
        const validate = (value: Record<string, unknown>) => catalog.schemaFor(value)?.validate(value) ?? [];
        expect(validate(object)).toEqual([]);
        const withExtra = { ...object, spec: { ...object.spec, [extra]: 'x' } };
        expect(validate(withExtra).length).toBe(fields.includes(extra) ? 0 : 1);
      }),
      { ...RUNS, numRuns: 12 },
    );
  });

  it('a CRD whose spec keeps unknown fields and lists none still checks its kind: its CEL rules hold', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][-a-z0-9]{0,20}$/), (name) => {
        const crd = customCrd({
          kind: 'Scaler',
          name: 'scalers.example.com',
          spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        });
        const openApi = (crd.spec as any).versions[0].schema.openAPIV3Schema;
        openApi['x-kubernetes-validations'] = [{ rule: "!self.metadata.name.startsWith('forbidden')", message: 'forbidden name' }];
        const catalog = SchemaCatalog.fromDirectories([crdsDir(crd)]);
        const object = { apiVersion: 'example.com/v1', kind: 'Scaler', metadata: { name }, spec: { anything: 1 } };
        const schema = catalog.schemaFor(object);
        expect(schema?.source).toContain('CRD scalers.example.com');
        expect(schema?.validate(object).map((problem) => problem.message)).toEqual(name.startsWith('forbidden') ? ['forbidden name'] : []);
      }),
      { ...RUNS, numRuns: 20 },
    );
  });

  it('anything but a CRD in --crds is unusable input, naming the file and what it holds', () => {
    const kind = fc.constantFrom('ConfigMap', 'Secret', 'WorkflowTemplate', 'Namespace', 'CustomResource');
    fc.assert(
      fc.property(kind, fc.boolean(), (other, besideACrd) => {
        const crd = customCrd({ kind: 'Widget', name: 'widgets.example.com', spec: { type: 'object' } });
        const stranger = { apiVersion: 'v1', kind: other, metadata: { name: 'x' } };
        const dir = crdsDir(...(besideACrd ? [crd, stranger] : [stranger]));
        expect(() => SchemaCatalog.fromDirectories([dir])).toThrow(
          new RegExp(`crds\\.json: object ${besideACrd ? 2 : 1} is a ${other}, not a CustomResourceDefinition`),
        );
      }),
      { ...RUNS, numRuns: 20 },
    );
  });

  it('an apiVersion or kind wrong only by case gets a did-you-mean, never "no schema"', () => {
    const known = fc.constantFrom(
      ['argoproj.io/v1alpha1', 'WorkflowTemplate'],
      ['argoproj.io/v1alpha1', 'Sensor'],
      ['argoproj.io/v1alpha1', 'CronWorkflow'],
      ['v1', 'ConfigMap'],
    );
    const flips = fc.array(fc.boolean(), { minLength: 30, maxLength: 30 });
    const flipped = (text: string, by: readonly boolean[]) =>
      [...text].map((char, index) => (by[index] ? (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase()) : char)).join('');
    fc.assert(
      fc.property(known, flips, flips, ([apiVersion, kind], versionFlips, kindFlips) => {
        const object = { apiVersion: flipped(apiVersion, versionFlips), kind: flipped(kind, kindFlips), metadata: { name: 'a' } };
        const schema = SchemaCatalog.builtIn().schemaFor(object);
        if (object.apiVersion === apiVersion && object.kind === kind) {
          expect(schema?.source).not.toContain('did you mean');
          return;
        }
        expect(schema?.source).toBe(`no schema (did you mean ${apiVersion} ${kind}?)`);
        expect(schema?.validate(object)).toEqual([
          expect.objectContaining({
            kind: 'schema',
            message: expect.stringContaining(`did you mean apiVersion ${apiVersion}, kind ${kind}?`),
          }),
        ]);
      }),
      RUNS,
    );
  });
});
