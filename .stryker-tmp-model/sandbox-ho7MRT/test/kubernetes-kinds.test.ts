/**
 * The built-in Kubernetes schemas (schemas/kubernetes.json, src/validate/schema/kubernetes-built-in.ts) on a
 * folder of core-kind manifests as a GitOps repository holds them: every good one passes, and each bad one
 * (test/fixtures/core-kinds/bad/, one mistake each, named on its `# expect: PATH: MESSAGE` line) fails with
 * exactly that finding, at the path of the bad field, and no other.
 */
// @ts-nocheck

import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateObjects } from '../src/validate/engine';
import { readManifestPaths } from '../src/validate/manifest-files';
import { LINT_RULES } from '../src/validate/rules';
import { BUILT_IN_KUBERNETES_VERSION } from '../src/validate/schema/kubernetes-built-in';
import { SchemaCatalog } from '../src/validate/schema/schema-catalog';

const FIXTURES = path.join(__dirname, 'fixtures', 'core-kinds');
const BAD = readdirSync(path.join(FIXTURES, 'bad')).sort();

const validate = (paths: readonly string[]) => {
  const manifests = readManifestPaths(paths);
  return validateObjects({
    objects: manifests.objects,
    readingFindings: manifests.findings,
    catalog: SchemaCatalog.builtIn(),
    rules: LINT_RULES,
  });
};

describe(`the built-in Kubernetes ${BUILT_IN_KUBERNETES_VERSION} schemas`, () => {
  it('pass every good core-kind manifest, each checked against its kind of the Kubernetes OpenAPI', () => {
    const report = validate([path.join(FIXTURES, 'good')]);
    expect(report.findings).toEqual([]);
    expect(report.objects.length).toBeGreaterThanOrEqual(27);
    for (const object of report.objects)
      expect(object.schema).toMatch(
        new RegExp(`^built-in: Kubernetes ${BUILT_IN_KUBERNETES_VERSION} OpenAPI io\\.k8s\\..*\\.${object.kind}$`),
      );
  });

  it('has one bad manifest per mistake', () => {
    expect(BAD.length).toBeGreaterThanOrEqual(15);
  });

  it.each(BAD)('refuse %s with the path of the bad field', (file) => {
    const expected = /^# expect: (.*?): (.*)$/m.exec(readFileSync(path.join(FIXTURES, 'bad', file), 'utf8'));
    expect(expected, `${file} has no "# expect: PATH: MESSAGE" line`).not.toBeNull();
    const [, pathText, message] = expected as RegExpExecArray;
    const report = validate([path.join(FIXTURES, 'bad', file)]);
    const errors = report.findings.filter((finding) => finding.severity === 'error');
    expect(errors.map((finding) => ({ path: finding.path, rule: finding.rule }))).toEqual([{ path: pathText, rule: 'schema' }]);
    expect(errors[0].message.startsWith(message), `${errors[0].message} does not start with ${message}`).toBe(true);
  });

  it('take an int-or-string as either, a quantity as a number or its string forms, and null for any field', () => {
    const object = (port: unknown, cpu: unknown) => [
      {
        file: 'x.yaml',
        index: 0,
        kind: 'Pod',
        name: 'p',
        object: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', labels: null },
          spec: {
            containers: [{ name: 'c', image: 'c', resources: { limits: { cpu } }, readinessProbe: { httpGet: { port } } }],
            volumes: null,
          },
        },
      },
    ];
    const errors = (port: unknown, cpu: unknown) =>
      validateObjects({ objects: object(port, cpu), catalog: SchemaCatalog.builtIn(), rules: [] }).findings.map(
        (finding) => `${finding.path}: ${finding.message}`,
      );
    for (const port of [8080, 'http', null])
      for (const cpu of [0.5, '500m', '1', '+1.5e3', ' 2Gi ', '1.', null]) expect(errors(port, cpu)).toEqual([]);
    expect(errors(1.5, '1')).toEqual(['spec.containers[0].readinessProbe.httpGet.port: must be an integer or a string']);
    for (const cpu of ['', '1 Gi', '1GB', 'Gi', '1e', true])
      expect(errors(80, cpu)).toEqual([expect.stringMatching(/^spec\.containers\[0\]\.resources\.limits\.cpu: must be a quantity/)]);
  });
});
