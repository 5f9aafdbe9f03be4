/**
 * The Argo schema data agent-play carries (`schemas/`): it is exactly what `npm run schemas` generates from
 * the upstream files, and its compact form means what the upstream CRDs mean (every kind, expanded again,
 * equals the upstream schema with only documentation and merge hints removed). Needs `../shared/argo/`;
 * skipped with the reason without it. The schemas themselves are tested in every clone by
 * test/argo-schemas.test.ts and test/validate-corpus.test.ts.
 */
// @ts-nocheck

import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { KUBERNETES_SCHEMA_FILES } from '../scripts/generate-kubernetes-schemas';
import { generateSchemaFiles, SCHEMAS_DIR, UPSTREAM } from '../scripts/generate-schemas';
import { inlineReferences, pruneSchema, UnknownKeywordError } from '../src/validate/schema/compact-schema';
import { withoutGoTagRequired } from '../src/validate/schema/json-schema-passes';
import { ARGO_SCHEMAS_DIR, describeWithUpstream, HAS_UPSTREAM_ARGO } from './support/argo-schemas';

const committed = (name: string): string => readFileSync(path.resolve(__dirname, '..', SCHEMAS_DIR, name), 'utf8');
/** The Argo files of `schemas/` (the Kubernetes ones are test/kubernetes-schema-data.test.ts's). */
const COMMITTED_FILES = readdirSync(path.resolve(__dirname, '..', SCHEMAS_DIR))
  .filter((name) => !(KUBERNETES_SCHEMA_FILES as readonly string[]).includes(name))
  .sort();

/** `value` and everything in it frozen: a write to it throws (modules are strict). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Each upstream CRD parsed once for the generator and the checks below (four files of 3 MB of YAML), frozen
 * so that what the generator reads is, as the checks need, the file as it is.
 */
const parsedCrds = new Map<string, unknown>();
const readCrd = (file: string): unknown => {
  if (!parsedCrds.has(file)) parsedCrds.set(file, deepFreeze(parse(readFileSync(path.join(ARGO_SCHEMAS_DIR, file), 'utf8'))));
  return parsedCrds.get(file);
};

describeWithUpstream('schemas/ (the built-in Argo schemas)', () => {
  // Generated only where the upstream files are: the body of a skipped suite still runs.
  const generated = HAS_UPSTREAM_ARGO ? generateSchemaFiles(ARGO_SCHEMAS_DIR, readCrd) : new Map<string, string>();

  it('holds exactly the files the generator writes', () => {
    expect(COMMITTED_FILES).toEqual([...generated.keys()].sort());
  });

  it.each(COMMITTED_FILES)('%s is what `npm run schemas` writes from ../shared/argo (run it and commit the result)', (name) => {
    expect(committed(name) === generated.get(name), `schemas/${name} differs from the generator's output`).toBe(true);
  });

  it('records the release, commits and the sha256 of every upstream file read', () => {
    const provenance = JSON.parse(committed('PROVENANCE.json'));
    expect(provenance['argo-workflows.json']).toMatchObject({ tag: 'v4.1.2', tagCommit: UPSTREAM.workflows.tagCommit });
    expect(provenance['argo-events.json']).toMatchObject({ tag: 'v1.9.11', tagCommit: UPSTREAM.events.tagCommit });
    expect(Object.keys(provenance['argo-workflows.json'].sha256)).toHaveLength(5);
    for (const hash of Object.values<string>(provenance['argo-workflows.json'].sha256)) expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(Object.entries(UPSTREAM.workflows.crds))('%s: the compact schema expands back to the upstream CRD schema', (kind, file) => {
    const data = JSON.parse(committed('argo-workflows.json'));
    const upstream = (readCrd(file) as { spec: { versions: { name: string; schema: { openAPIV3Schema: unknown } }[] } }).spec.versions[0];
    const expanded = inlineReferences(data.roots[`${kind}/${upstream.name}`], data.definitions);
    expect(JSON.parse(JSON.stringify(expanded))).toEqual(pruneSchema(upstream.schema.openAPIV3Schema));
  });

  it('the compact Events data holds each kind and everything it references, without the required lists of Go fields', () => {
    const data = JSON.parse(committed('argo-events.json'));
    const upstream = JSON.parse(readFileSync(path.join(ARGO_SCHEMAS_DIR, UPSTREAM.events.jsonSchema), 'utf8'));
    for (const kind of UPSTREAM.events.kinds)
      expect(data.definitions[`io.argoproj.events.v1alpha1.${kind}`]).toEqual(
        withoutGoTagRequired(pruneSchema(upstream.definitions[`io.argoproj.events.v1alpha1.${kind}`]) as Record<string, unknown>),
      );
    // Argo Events' own definitions require nothing (nothing in Argo enforces those lists); Kubernetes' keep theirs.
    const requiring = (prefix: string) =>
      Object.entries(data.definitions)
        .filter(([name, definition]) => name.startsWith(prefix) && JSON.stringify(definition).includes('"required"'))
        .map(([name]) => name);
    expect(requiring('io.argoproj.events.')).toEqual([]);
    expect(requiring('io.k8s.api.core.v1.')).toContain('io.k8s.api.core.v1.Volume');
    expect(upstream.definitions['io.argoproj.events.v1alpha1.WebhookContext'].required).toContain('url');
    for (const match of JSON.stringify(data.definitions).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g))
      expect(data.definitions[match[1]], match[1]).toBeDefined();
  });
});

it('the generator stops at a schema keyword it does not know, rather than dropping a check', () => {
  expect(() => pruneSchema({ type: 'object', properties: { a: { type: 'string', 'x-new-check': true } } })).toThrow(UnknownKeywordError);
  expect(pruneSchema({ type: 'string', description: 'dropped', pattern: '^a$' })).toEqual({ type: 'string', pattern: '^a$' });
});
