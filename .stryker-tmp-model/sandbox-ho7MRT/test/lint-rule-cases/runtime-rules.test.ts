/**
 * What the case tables of tables/runtime.ts cannot say: which severity each branch reports at, that a branch
 * reports once, and that a rule stays silent for a kind or a bus it does not concern.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { MAX_CLIENT_SIDE_APPLY_BYTES, MAX_DATA_BYTES } from '../../constructs/model/object-limits';
import { eventsPodSecurityRule } from '../../src/validate/rules/events-pod-security';
import { integerRangeRule } from '../../src/validate/rules/integer-range';
import { objectSizeRule } from '../../src/validate/rules/object-size';
import { podSecurityRestrictedRule } from '../../src/validate/rules/pod-security';
import { retryMaxDurationRule } from '../../src/validate/rules/retry-max-duration';
import { sensorTriggerAtLeastOnceRule } from '../../src/validate/rules/sensor-at-least-once';
import { sensorDuplicateDependencySourceRule } from '../../src/validate/rules/sensor-event-bus';
import { SchemaCatalog } from '../../src/validate/schema/schema-catalog';
import { validateObjects } from '../../src/validate/engine';
import { LINT_RULES } from '../../src/validate/rules';
import { readManifestText } from '../../src/validate/manifest-reader';
import { manifest, run, sensor, workflowTemplate } from './cases';
import { configMapOfJsonSize, coreObject, SERVER_SIDE } from './tables/runtime';

/** The severity each violation reports at: its own, else the rule's. */
const severities = (rule: typeof objectSizeRule, ...objects: Parameters<typeof run>[1]) =>
  run(rule, objects).map((violation) => violation.severity ?? rule.severity);

describe('object-size', () => {
  it('data over 1 MiB is an error, reported once (not also as an object over 256 KiB)', () => {
    expect(severities(objectSizeRule, coreObject('ConfigMap', { data: { a: 'x'.repeat(MAX_DATA_BYTES + 1) } }))).toEqual(['error']);
  });

  it('a ConfigMap between 256 KiB and 1 MiB is legal, so only a warning', () => {
    expect(severities(objectSizeRule, configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1))).toEqual(['warning']);
    expect(severities(objectSizeRule, coreObject('ConfigMap', { data: { a: 'x'.repeat(MAX_DATA_BYTES) } }))).toEqual(['warning']);
  });

  it('counts a data map only on ConfigMaps and Secrets: another kind over 1 MiB is a warning', () => {
    expect(severities(objectSizeRule, coreObject('Deployment', { data: { a: 'x'.repeat(MAX_DATA_BYTES + 1) } }))).toEqual(['warning']);
    expect(severities(objectSizeRule, coreObject('Deployment', { data: { a: 'x'.repeat(MAX_DATA_BYTES + 1) } }, SERVER_SIDE))).toEqual([]);
  });
});

describe('integer-range', () => {
  it('reports every number out of range, each at its path, as an error', () => {
    const found = run(integerRangeRule, [
      workflowTemplate((spec) => Object.assign(spec, { activeDeadlineSeconds: 1e20, parallelism: -1e20, priority: 5 })),
    ]);
    expect(found.map((violation) => [violation.path, violation.severity ?? integerRangeRule.severity])).toEqual([
      ['spec.activeDeadlineSeconds', 'error'],
      ['spec.parallelism', 'error'],
    ]);
  });
});

describe('retry-max-duration and pod-security-restricted', () => {
  it('warn, once per template', () => {
    const retried = { activeDeadlineSeconds: 600, retryStrategy: { limit: 1, backoff: { duration: '1s', maxDuration: '1m' } } };
    const twice = workflowTemplate((spec) => {
      spec.templates.push({ ...spec.templates[1], name: 'unbounded' }, { ...spec.templates[1], name: 'third', ...retried });
      Object.assign(spec.templates[1], retried);
    });
    expect(
      run(retryMaxDurationRule, [twice]).map((violation) => [violation.path, violation.severity ?? retryMaxDurationRule.severity]),
    ).toEqual([
      ['spec.templates[1].retryStrategy.backoff.maxDuration', 'warning'],
      ['spec.templates[3].retryStrategy.backoff.maxDuration', 'warning'],
    ]);
    const bare = workflowTemplate((spec) => {
      spec.securityContext = { runAsNonRoot: true };
      spec.templates.push({ name: 'other', script: { image: 'a', source: 'true' } });
    });
    expect(
      run(podSecurityRestrictedRule, [bare]).map((violation) => [violation.path, violation.severity ?? podSecurityRestrictedRule.severity]),
    ).toEqual([
      ['spec.templates[1]', 'warning'],
      ['spec.templates[2]', 'warning'],
    ]);
  });

  it('look at no kind without a workflow spec', () => {
    expect(run(retryMaxDurationRule, [manifest('Workflow', 'run', undefined as any)])).toEqual([]);
    expect(run(podSecurityRestrictedRule, [manifest('Workflow', 'run', undefined as any)])).toEqual([]);
  });
});

describe('sensor-duplicate-dependency-source', () => {
  const twice = sensor((spec) => spec.dependencies.push({ ...spec.dependencies[0], name: 'pr2' }));
  const bus = (spec: Record<string, unknown>) => manifest('EventBus', 'default', spec, { namespace: 'argo' });

  it('is an error beside a NATS streaming EventBus', () => {
    expect(severities(sensorDuplicateDependencySourceRule, twice, bus({ nats: { native: {} } }))).toEqual(['error']);
  });

  it('is a warning when the run holds no EventBus for the Sensor', () => {
    expect(severities(sensorDuplicateDependencySourceRule, twice)).toEqual(['warning']);
    expect(
      severities(sensorDuplicateDependencySourceRule, twice, manifest('EventBus', 'default', 'not a spec' as any, { namespace: 'argo' })),
    ).toEqual(['warning']);
  });

  it('is silent beside JetStream, exotic JetStream or Kafka', () => {
    for (const spec of [{ jetstream: {} }, { jetstreamExotic: {} }, { kafka: {} }])
      expect(run(sensorDuplicateDependencySourceRule, [twice, bus(spec)])).toEqual([]);
  });
});

describe('sensor-trigger-at-least-once and events-pod-security', () => {
  it('warn once per trigger and once per pod, at the first missing field', () => {
    const triggers = sensor((spec) => {
      spec.triggers[0].retryStrategy = { steps: 2 };
      spec.triggers.push({ template: { name: 'b', log: {} }, retryStrategy: {} }, 'not a trigger');
    });
    expect(severities(sensorTriggerAtLeastOnceRule, triggers)).toEqual(['warning', 'warning']);
    expect(severities(eventsPodSecurityRule, sensor())).toEqual(['warning']);
    expect(
      run(eventsPodSecurityRule, [
        manifest('Sensor', 'gate', { template: { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } } }),
      ])[0].path,
    ).toBe('spec.template.container');
  });
});

describe('the engine', () => {
  const rulesFound = (text: string): string[] => {
    const reading = readManifestText(text, 'case.yaml');
    return validateObjects({
      objects: reading.objects,
      readingFindings: reading.findings,
      catalog: SchemaCatalog.builtIn(),
      rules: LINT_RULES,
    }).findings.map((finding) => finding.rule);
  };

  it('runs object-size and integer-range on every kind, events-pod-security on EventSources', () => {
    expect(
      rulesFound(`apiVersion: v1\nkind: ConfigMap\nmetadata: { name: big }\ndata: { a: "${'x'.repeat(MAX_CLIENT_SIDE_APPLY_BYTES)}" }\n`),
    ).toContain('object-size');
    expect(rulesFound('apiVersion: v1\nkind: Service\nmetadata: { name: s }\nspec: { ports: [{ port: 1e30 }] }\n')).toContain(
      'integer-range',
    );
    expect(
      rulesFound(
        'apiVersion: argoproj.io/v1alpha1\nkind: EventSource\nmetadata: { name: github }\nspec: { github: { org: { webhook: { port: "12000" } } } }\n',
      ),
    ).toContain('events-pod-security');
  });
});
