/**
 * Duplicates across a folder (issue 23 item 14): two documents that are one object to the API server (API
 * group, kind, namespace, name) with different content are an error of `validate` and of `validatePlatform`,
 * since applied together the last wins; the same content twice is a warning.
 */
// @ts-nocheck

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { AgentPlatform } from '../constructs';
import { validatePlatform } from '../src/validate/platform-validation';
import { runCapturing } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';

const scratch = useScratchDirs('agent-play-duplicates-');
const configMap = (data: Record<string, string>, namespace = 'agents') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: ${namespace}\ndata:\n${Object.entries(data)
    .map(([key, value]) => `  ${key}: "${value}"\n`)
    .join('')}`;

describe('validate', () => {
  it('one object with two contents in two files is an error naming the other place', () => {
    const folder = scratch();
    writeFileSync(join(folder, 'a.yaml'), configMap({ a: '1' }));
    writeFileSync(join(folder, 'b.yaml'), configMap({ a: '2' }));
    const run = runCapturing(['validate', folder, '--format', 'json']);
    expect(run.code).toBe(1);
    const findings = JSON.parse(run.out).findings.filter((finding: { rule: string }) => finding.rule === 'duplicate-object');
    const message = (other: string) =>
      `ConfigMap agents/settings is also at ${join(folder, other)}:1, with other content: applied together, one overwrites the other; rename one or give it its own namespace`;
    expect(findings).toEqual([
      expect.objectContaining({ severity: 'error', message: message('b.yaml') }),
      expect.objectContaining({ severity: 'error', message: message('a.yaml') }),
    ]);
  });

  it('the same content twice is a warning; other namespaces, kinds or groups are other objects', () => {
    const folder = scratch();
    writeFileSync(join(folder, 'a.yaml'), `${configMap({ a: '1' })}---\n${configMap({ a: '1' }, 'other')}`);
    writeFileSync(join(folder, 'b.yaml'), configMap({ a: '1' }));
    const run = runCapturing(['validate', folder, '--format', 'json']);
    const findings = JSON.parse(run.out).findings.filter((finding: { rule: string }) => finding.rule === 'duplicate-object');
    expect(findings.map((finding: { severity: string }) => finding.severity)).toEqual(['warning', 'warning']);
    expect(run.code).toBe(0);
  });

  it('two platforms synthesized into one namespace are refused', () => {
    const first = join(scratch(), 'one');
    const second = join(scratch(), 'two');
    const config = join(scratch(), 'agent-play.yaml');
    writeFileSync(config, 'repositories:\n  - { name: octo/web, service: web }\n');
    expect(runCapturing(['synth', '--out', first]).code).toBe(0);
    expect(runCapturing(['synth', '--config', config, '--out', second]).code).toBe(0);
    const run = runCapturing(['validate', first, second, '--format', 'json']);
    expect(run.code).toBe(1);
    const errors = JSON.parse(run.out).findings.filter(
      (finding: { rule: string; severity: string }) => finding.rule === 'duplicate-object' && finding.severity === 'error',
    );
    expect(errors.length).toBeGreaterThan(0);
    // Each platform alone has none.
    for (const folder of [first, second])
      expect(
        JSON.parse(runCapturing(['validate', folder, '--format', 'json']).out).findings.filter(
          (finding: { rule: string }) => finding.rule === 'duplicate-object',
        ),
      ).toEqual([]);
  }, 300_000);
});

describe('validatePlatform', () => {
  it('refuses two platforms of one namespace in one app', () => {
    const app = new App();
    new AgentPlatform(app, 'one');
    new AgentPlatform(app, 'two', { config: { repositories: [{ name: 'octo/web', service: 'web' }] } });
    validatePlatform(app, { onWarning: () => {} });
    expect(() => app.synth()).toThrow(/duplicate-object/);
  }, 300_000);
});
