/**
 * `validatePlatform` checks an app once per `app.synth()`. cdk8s runs every validation of the app again for
 * each chart it writes (`Chart.toJson` calls `App._synthChart`, which validates the whole app), so without
 * care a platform of 14 charts was checked 15 times, and each warning printed 15 times. A second synthesis,
 * of an app that changed, is checked again.
 */
import { ApiObject, App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { AgentPlatform } from '../constructs';
import { validatePlatform } from '../src/validate';
import { useScratchDirs } from './support/scratch-dir';

const scratch = useScratchDirs('agent-play-validate-once-');

/** A Sensor whose pod has no security context: one events-pod-security warning, no error. */
function insecureSensor(scope: Chart, name: string): ApiObject {
  return new ApiObject(scope, name, {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Sensor',
    metadata: { name },
    spec: {
      template: { serviceAccountName: 'sensor' },
      dependencies: [{ name: 'push', eventSourceName: 'github', eventName: 'play' }],
      triggers: [{ template: { name: 'log-it', log: {} } }],
    },
  });
}

describe('validatePlatform', () => {
  it('checks the app once per synthesis: each warning is reported once, though cdk8s validates per chart', () => {
    const app = new App({ outdir: scratch() });
    new AgentPlatform(app, 'platform', { config: { namespace: 'team-a' } });
    insecureSensor(new Chart(app, 'extra', { namespace: 'team-a' }), 'extra');
    const warnings: string[] = [];
    validatePlatform(app, { onWarning: (line) => warnings.push(line) });
    app.synth();
    expect(app.node.findAll().filter((construct) => construct instanceof Chart).length).toBeGreaterThan(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: extra\.k8s\.yaml: Sensor\/extra: .*\[events-pod-security\]$/);
  });

  it('checks a later synthesis again, and sees what changed since', async () => {
    const app = new App({ outdir: scratch() });
    const chart = new Chart(app, 'extra', { namespace: 'team-a' });
    insecureSensor(chart, 'first');
    const warnings: string[] = [];
    validatePlatform(app, { onWarning: (line) => warnings.push(line) });
    app.synth();
    await Promise.resolve();
    insecureSensor(chart, 'second');
    app.synth();
    expect(warnings.map((line) => /Sensor\/(\w+)/.exec(line)?.[1])).toEqual(['first', 'first', 'second']);
  });

  it('sees a construct added between two synthesizes of one synchronous run', () => {
    const app = new App({ outdir: scratch() });
    const chart = new Chart(app, 'extra', { namespace: 'team-a' });
    validatePlatform(app, { onWarning: () => undefined });
    app.synth();
    new ApiObject(chart, 'broken', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Not_A_Name' } });
    expect(() => app.synth()).toThrow(/ConfigMap\/Not_A_Name/);
  });
});
