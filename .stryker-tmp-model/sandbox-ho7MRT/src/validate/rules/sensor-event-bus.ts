/**
 * What a Sensor's EventBus allows. On a NATS streaming bus (`spec.nats`, the Argo Events quick start's),
 * the Sensor controller refuses a Sensor in which two dependencies name the same `eventSourceName` and
 * `eventName` (argo-events `pkg/reconciler/sensor/validate.go`, `validateDependencies`); the Sensor never
 * runs. JetStream allows it. When the run holds the Sensor's EventBus the rule knows which; otherwise it
 * warns, since the Sensor breaks the day it meets a NATS streaming bus.
 */
// @ts-nocheck

import type { LintContext, LintRule, ManifestObject, Violation } from '../finding';
import { isRecord, pathOf } from './argo-spec';
import { dependenciesOf, sensorSpec } from './sensor-spec';

type BusType = 'nats' | 'jetstream' | 'unknown';

function busTypeOf(target: ManifestObject, context: LintContext): BusType {
  const name =
    typeof sensorSpec(target).eventBusName === 'string' && sensorSpec(target).eventBusName !== ''
      ? sensorSpec(target).eventBusName
      : 'default';
  const bus = context.objects.find(
    (object) =>
      object.kind === 'EventBus' &&
      object.name === name &&
      (object.namespace === undefined || target.namespace === undefined || object.namespace === target.namespace),
  );
  const spec = bus && isRecord(bus.object.spec) ? bus.object.spec : undefined;
  if (spec?.nats !== undefined) return 'nats';
  if (spec?.jetstream !== undefined || spec?.jetstreamExotic !== undefined || spec?.kafka !== undefined) return 'jetstream';
  return 'unknown';
}

export const sensorDuplicateDependencySourceRule: LintRule = {
  id: 'sensor-duplicate-dependency-source',
  severity: 'warning',
  description:
    'no two dependencies of a Sensor on one eventSourceName/eventName pair: a NATS streaming EventBus refuses the Sensor (error when the run shows that bus)',
  kinds: ['Sensor'],
  check: (target, context) => {
    const busType = busTypeOf(target, context);
    if (busType === 'jetstream') return [];
    const first = new Map<string, string>();
    const violations: Violation[] = [];
    for (const { dependency, at } of dependenciesOf(target)) {
      if (typeof dependency.eventSourceName !== 'string' || typeof dependency.eventName !== 'string') continue;
      const key = `${dependency.eventSourceName}\u0000${dependency.eventName}`;
      const earlier = first.get(key);
      if (earlier === undefined) {
        first.set(key, String(dependency.name));
        continue;
      }
      const pair = `${dependency.eventSourceName}/${dependency.eventName}`;
      violations.push(
        busType === 'nats'
          ? {
              path: pathOf(at),
              severity: 'error',
              message: `dependency "${dependency.name}" listens to ${pair} like "${earlier}": the NATS streaming EventBus refuses this Sensor; merge them into one dependency (alternatives as expr filters with exprLogicalOperator: or)`,
            }
          : {
              path: pathOf(at),
              message: `dependency "${dependency.name}" listens to ${pair} like "${earlier}": a NATS streaming EventBus (the quick start's) refuses this Sensor; merge them into one dependency, or use JetStream`,
            },
      );
    }
    return violations;
  },
};
