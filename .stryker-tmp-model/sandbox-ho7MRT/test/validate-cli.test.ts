/**
 * `agent-play validate` end to end: the engine's own checks each fail on their fixture with their id, exit
 * codes 0/1/2, the text and JSON reports, --crds (CRDs, a List of CRDs, JSON Schema definitions), List
 * unpacking, and unusable input.
 */
// @ts-nocheck

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_CHECKS, SCHEMA_RULES, validateObjects } from '../src/validate/engine';
import { manifestObject } from '../src/validate/manifest-reader';
import { SchemaCatalog } from '../src/validate/schema/schema-catalog';
import { ARGO_SCHEMAS_DIR, HAS_UPSTREAM_ARGO, UPSTREAM_SKIP_REASON } from './support/argo-schemas';
import { runCapturing } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';

const FIXTURES = resolve(__dirname, 'fixtures/validate');
const fixture = (name: string): string => join(FIXTURES, name);

/** Which --crds each fixture needs (none: the built-in schemas, the Argo ones included). */
const FIXTURE_CRDS: Readonly<Record<string, string>> = {
  'schema-cel-not-evaluated': fixture('crds-with-rule'),
};

const scratchDir = useScratchDirs('agent-play-validate-');

function scratch(files: Record<string, string>): string {
  const folder = scratchDir();
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  return folder;
}

interface JsonReport {
  findings: { file: string; kind: string; name: string; path: string; message: string; rule: string; severity: string; line?: number }[];
  objects: { file: string; kind: string; name: string; schema: string | null }[];
  summary: { objects: number; errors: number; warnings: number };
}

const json = (argv: string[]): { code: number; report: JsonReport } => {
  const run = runCapturing(['validate', '--format', 'json', ...argv]);
  return { code: run.code, report: JSON.parse(run.out) as JsonReport };
};

describe('each check of the engine fails its fixture with its id', () => {
  const checks = Object.keys(ENGINE_CHECKS).filter((id) => id !== SCHEMA_RULES.lintRuleFailed);

  it.each(checks)('%s', (id) => {
    const crds = FIXTURE_CRDS[id] ? ['--crds', FIXTURE_CRDS[id]] : [];
    const { code, report } = json([fixture(`${id}.yaml`), ...crds]);
    const rules = report.findings.map((finding) => finding.rule);
    expect(rules, JSON.stringify(report.findings)).toContain(id);
    // Only the fixture's own problem: a fixture that trips other checks would not show this one works alone.
    expect([...new Set(rules)]).toEqual([id]);
    expect(code).toBe(ENGINE_CHECKS[id].severity === 'error' ? 1 : 0);
  });

  it('locates them: the duplicate key at its path and line, the CEL rule on the task, the label by key', () => {
    expect(json([fixture('yaml-duplicate-key.yaml')]).report.findings[0]).toMatchObject({
      kind: 'ConfigMap',
      name: 'settings',
      path: 'data.mode',
      line: 8,
    });
    expect(json([fixture('schema-cel.yaml')]).report.findings[0]).toMatchObject({
      path: 'spec.templates[0].dag.tasks[1].withSequence',
      message: 'only one of count or end can be defined',
    });
    expect(json([fixture('schema.yaml')]).report.findings[0]).toMatchObject({
      path: 'colour',
      message: expect.stringMatching(/^unknown field/),
      line: 8,
    });
    expect(json([fixture('metadata-labels.yaml')]).report.findings[0]).toMatchObject({ path: 'metadata.labels.repository', line: 7 });
  });

  it('turns a lint rule that throws into a warning on that object, not a crash', () => {
    const object = manifestObject('x.yaml', 0, 1, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    if (!object) throw new Error('fixture object');
    const broken = {
      id: 'broken',
      severity: 'error' as const,
      description: 'throws',
      kinds: ['ConfigMap'],
      check: () => {
        throw new Error('boom');
      },
    };
    const report = validateObjects({ objects: [object], catalog: SchemaCatalog.builtIn(), rules: [broken] });
    expect(report.findings).toEqual([
      expect.objectContaining({ rule: SCHEMA_RULES.lintRuleFailed, severity: 'warning', message: expect.stringContaining('boom') }),
    ]);
  });
});

describe('agent-play validate', () => {
  it('passes the committed dist-manifests/ with the built-in schemas, Argo kinds included, saying which version checked what', () => {
    const builtIn = json([resolve(__dirname, '../dist-manifests')]);
    expect(builtIn.code, JSON.stringify(builtIn.report.findings)).toBe(0);
    expect(builtIn.report.summary).toMatchObject({ errors: 0, warnings: 0 });
    const schemaOf = (kind: string) => [
      ...new Set(builtIn.report.objects.filter((object) => object.kind === kind).map((object) => object.schema)),
    ];
    expect(schemaOf('WorkflowTemplate')).toEqual(['built-in: Argo Workflows v4.1.2 CRD workflowtemplates.argoproj.io']);
    expect(schemaOf('Sensor')).toEqual(['built-in: Argo Events v1.9.11 JSON Schema io.argoproj.events.v1alpha1.Sensor']);
    expect(schemaOf('EventSource')).toEqual(['built-in: Argo Events v1.9.11 JSON Schema io.argoproj.events.v1alpha1.EventSource']);
    expect(schemaOf('ConfigMap')).toEqual(['built-in: Kubernetes v1.37.2 OpenAPI io.k8s.api.core.v1.ConfigMap']);
    expect(builtIn.report.objects.every((object) => object.schema !== null)).toBe(true);
  });

  it.skipIf(!HAS_UPSTREAM_ARGO)(
    `passes it with --crds ../shared/argo too, the upstream files overriding the built-in schemas per kind${HAS_UPSTREAM_ARGO ? '' : ` (${UPSTREAM_SKIP_REASON})`}`,
    () => {
      const upstream = json([resolve(__dirname, '../dist-manifests'), '--crds', ARGO_SCHEMAS_DIR]);
      expect(upstream.code).toBe(0);
      expect(upstream.report.summary.errors).toBe(0);
      const schemaOf = (kind: string) => [
        ...new Set(upstream.report.objects.filter((object) => object.kind === kind).map((object) => object.schema)),
      ];
      expect(schemaOf('WorkflowTemplate')).toEqual([expect.stringMatching(/^CRD workflowtemplates\.argoproj\.io \(/)]);
      expect(schemaOf('Sensor')).toEqual([expect.stringMatching(/^JSON Schema io\.argoproj\.events\.v1alpha1\.Sensor \(/)]);
      expect(upstream.report.objects.every((object) => object.schema !== null)).toBe(true);
    },
  );

  it('prints errors before warnings, one line each in the FILE: Kind/name: path: message [rule] form, and a count', () => {
    const folder = scratch({
      'a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ok, labels: { team: "a b" } }\n',
      'b.yaml': fixtureText('schema-cel-not-evaluated.yaml'),
    });
    const run = runCapturing(['validate', folder, '--crds', fixture('crds-with-rule')]);
    expect(run.code).toBe(1);
    const lines = run.out.split('\n');
    expect(lines[0]).toBe('errors:');
    expect(lines[1]).toBe(
      `  ${join(folder, 'a.yaml')}: ConfigMap/ok: metadata.labels.team: label value "a b" is not legal: at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric (or empty) [metadata-labels]`,
    );
    expect(lines[2]).toBe('warnings:');
    expect(lines[3]).toMatch(
      /b\.yaml: Widget\/small: CEL rule at \/spec not evaluated .*: isURL\(self\.homepage\) \[schema-cel-not-evaluated\]$/,
    );
    expect(run.out).toMatch(/2 objects in 2 files: 1 error, 1 warning\n$/);
  });

  it('with --verbose, says what each object was checked against', () => {
    const folder = scratch({
      'x.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ok }\n---\napiVersion: example.com/v1\nkind: Gadget\nmetadata: { name: g }\n',
    });
    const run = runCapturing(['validate', folder, '--verbose']);
    expect(run.code).toBe(0);
    expect(run.out).toContain(`${join(folder, 'x.yaml')}: ConfigMap/ok: built-in: Kubernetes v1.37.2 OpenAPI io.k8s.api.core.v1.ConfigMap`);
    expect(run.out).toContain(`${join(folder, 'x.yaml')}: Gadget/g: no schema (pass --crds DIR`);
  });

  it('exits 0 on warnings alone', () => {
    const run = runCapturing(['validate', fixture('schema-cel-not-evaluated.yaml'), '--crds', fixture('crds-with-rule')]);
    expect(run.code).toBe(0);
    expect(run.out).toContain('0 errors, 1 warning');
  });

  it('unpacks a List (as kubectl get -o yaml prints it) and blames the item, at the line of the field', () => {
    const list =
      'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: fine }\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: { name: Bad_Name }\n';
    const { code, report } = json([scratch({ 'list.yaml': list })]);
    expect(code).toBe(1);
    expect(report.objects.map((object) => object.name)).toEqual(['fine', 'Bad_Name']);
    expect(report.findings).toEqual([expect.objectContaining({ rule: 'metadata-name', name: 'Bad_Name', path: 'metadata.name', line: 9 })]);
  });

  it('reads CRDs given as a List and JSON Schema files from --crds, and refuses a schema file it cannot read', () => {
    const crdList = `apiVersion: v1\nkind: List\nitems:\n${fixtureText('crds-with-rule/widgets.yaml')
      .replace(/^/gm, '    ')
      .replace(/^ {4}apiVersion/, '  - apiVersion')}`;
    const crds = scratch({ 'exported.yaml': crdList });
    const { report } = json([fixture('schema-cel-not-evaluated.yaml'), '--crds', crds]);
    expect(report.objects[0].schema).toMatch(/^CRD widgets\.example\.com \(/);
    const broken = scratch({ 'bad.json': '{ "definitions": ' });
    const run = runCapturing(['validate', fixture('schema.yaml'), '--crds', broken]);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^--crds .*bad\.json: not JSON/);
    expect(runCapturing(['validate', fixture('schema.yaml'), '--crds', join(broken, 'missing')]).err).toMatch(
      /cannot read the schema directory \(ENOENT\)/,
    );
  });

  it('exits 2 with one line per unusable input: a missing path, a file that is not YAML, an empty folder', () => {
    const folder = scratch({ 'broken.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x\n', 'empty/README.md': '#' });
    const run = runCapturing(['validate', join(folder, 'broken.yaml'), join(folder, 'nothing.yaml'), join(folder, 'empty')]);
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    const lines = run.err.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${escape(join(folder, 'broken.yaml'))}: not YAML: line \\d+: Flow map .*\\}$`));
    expect(lines[1]).toBe(`${join(folder, 'nothing.yaml')}: no such file or folder`);
    expect(lines[2]).toBe(`${join(folder, 'empty')}: no *.yaml, *.yml or *.json files in this folder`);
  });

  it('refuses an unknown format', () => {
    const run = runCapturing(['validate', '--format', 'xml']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('--format: expected one of text, json, got "xml"');
  });

  it('gives byte-identical reports for the same input', () => {
    const crds = HAS_UPSTREAM_ARGO ? ['--crds', ARGO_SCHEMAS_DIR] : [];
    const argv = ['validate', resolve(__dirname, '../dist-manifests'), ...crds, '--verbose'];
    expect(runCapturing(argv).out).toBe(runCapturing(argv).out);
  });
});

function fixtureText(name: string): string {
  return readFileSync(fixture(name), 'utf8');
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
