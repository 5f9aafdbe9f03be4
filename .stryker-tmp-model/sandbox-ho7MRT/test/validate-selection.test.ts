/**
 * `agent-play validate --skip KIND --disable RULE`: a skipped kind's objects get no finding but still count
 * for what others reference; a disabled rule reports nothing; the report says what was left out and why; a
 * kind or rule that does not exist is a one-line usage error naming what does, with the nearest name.
 */
// @ts-nocheck

import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closestName } from '../src/validate/selection';
import { runCapturing } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';

const scratchDir = useScratchDirs('agent-play-selection-');

const BAD = resolve(__dirname, 'fixtures/core-kinds/bad');
const DIST = resolve(__dirname, '../dist-manifests');
const bad = (name: string): string => join(BAD, name);

interface JsonReport {
  findings: { kind: string; rule: string }[];
  objects: { kind: string; schema: string | null; skipped?: string }[];
  summary: { errors: number };
  disabledRules?: string[];
}

const json = (argv: string[]) => {
  const run = runCapturing(['validate', '--format', 'json', ...argv]);
  return { code: run.code, report: JSON.parse(run.out) as JsonReport };
};

describe('validate --skip', () => {
  it.each(['Deployment', 'apps/Deployment', 'apps/v1/Deployment'])('--skip %s leaves the Deployments unchecked, and says so', (skip) => {
    const files = [bad('deployment-unknown-field.yaml'), bad('service-root-typo.yaml')];
    expect(
      json(files)
        .report.findings.map((finding) => finding.kind)
        .sort(),
    ).toEqual(['Deployment', 'Service']);
    const { code, report } = json([...files, '--skip', skip]);
    expect(code).toBe(1);
    expect(report.findings.map((finding) => finding.kind)).toEqual(['Service']);
    expect(report.objects.find((object) => object.kind === 'Deployment')).toMatchObject({ skipped: `--skip ${skip}`, schema: null });
    const text = runCapturing(['validate', ...files, '--skip', skip]).out;
    expect(text).toContain(`not checked:\n  --skip ${skip}: 1 object\n`);
  });

  it('takes core/Kind for the core group, and a kind no schema knows (as kubeconform users skip CRD kinds)', () => {
    expect(json([bad('secret-data-not-base64.yaml'), '--skip', 'core/Secret']).code).toBe(0);
    expect(runCapturing(['validate', bad('secret-data-not-base64.yaml'), '--skip', 'apps/Secret']).code).toBe(2);
    const folder = scratchDir();
    writeFileSync(join(folder, 'gadget.yaml'), 'apiVersion: example.com/v1\nkind: Gadget\nmetadata: { name: g }\n');
    const { code, report } = json([folder, '--skip', 'example.com/Gadget']);
    expect(code).toBe(0);
    expect(report.objects).toEqual([expect.objectContaining({ kind: 'Gadget', skipped: '--skip example.com/Gadget' })]);
  });

  it('keeps skipped objects for what others reference: skipping the WorkflowTemplates makes no Sensor gate missing', () => {
    const { code, report } = json([DIST, '--skip', 'WorkflowTemplate']);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
    expect(report.objects.filter((object) => object.skipped).length).toBe(
      report.objects.filter((object) => object.kind === 'WorkflowTemplate').length,
    );
  });

  it('refuses a kind that exists nowhere in one line, with the nearest one and the list', () => {
    const run = runCapturing(['validate', DIST, '--skip', 'Deploymnet']);
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).toMatch(
      /--skip Deploymnet: no such kind in the schemas or the manifests; did you mean Deployment\? \(known: .*\bConfigMap, .*\bWorkflowTemplate\)/,
    );
  });
});

describe('validate --disable', () => {
  it('turns off a lint rule and an engine check by id, and the report lists them', () => {
    const pvc = bad('pvc-access-modes-string.yaml');
    expect(
      json([pvc])
        .report.findings.map((finding) => finding.rule)
        .sort(),
    ).toEqual(['pvc-prune-protection', 'schema']);
    const { code, report } = json([pvc, '--disable', 'pvc-prune-protection']);
    expect(report.findings.map((finding) => finding.rule)).toEqual(['schema']);
    expect(report.disabledRules).toEqual(['pvc-prune-protection']);
    expect(code).toBe(1);
    const both = runCapturing(['validate', pvc, '--disable', 'schema', '--disable', 'pvc-prune-protection']);
    expect(both.code).toBe(0);
    expect(both.out).toContain('rules disabled (--disable): pvc-prune-protection, schema\n');
  });

  it('refuses a rule that does not exist in one line, with the nearest one and the list', () => {
    const run = runCapturing(['validate', DIST, '--disable', 'pvc-prune']);
    expect(run.code).toBe(2);
    expect(run.err.trim().split('\n')).toHaveLength(1);
    expect(run.err).toMatch(/--disable pvc-prune: no such rule; did you mean pvc-prune-protection\? \(known: [a-z-]+(, [a-z-]+)*\)\n?$/);
  });

  it('suggests the name a typo meant, and nothing for a name far from every one', () => {
    expect(closestName('sensor-gate-exist', ['sensor-gate-exists', 'sensor-triggers'])).toBe('sensor-gate-exists');
    expect(closestName('configmap', ['ConfigMap', 'CronJob'])).toBe('ConfigMap');
    expect(closestName('zzz', ['ConfigMap', 'CronJob'])).toBeUndefined();
  });
});
