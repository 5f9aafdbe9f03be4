/**
 * What Argo Events objects must agree on across files: a Sensor's dependencies name an EventSource and an
 * event it publishes (when the run has EventSources), and the Sensor, its EventSources and its EventBus live
 * in one namespace (the bus does not cross namespaces: events never arrive).
 */
// @ts-nocheck

import type { LintContext, LintRule, ManifestObject, Violation } from '../finding';
import { isRecord, pathOf } from './argo-spec';
import { dependenciesOf } from './sensor-spec';

/** Event names of an EventSource: the keys under each source type (`spec.github.<event>`). */
function eventNamesOf(eventSource: ManifestObject): Set<string> {
  const spec = isRecord(eventSource.object.spec) ? eventSource.object.spec : {};
  const names = new Set<string>();
  for (const [key, value] of Object.entries(spec)) {
    if (['eventBusName', 'template', 'service', 'replicas'].includes(key) || !isRecord(value)) continue;
    for (const name of Object.keys(value)) names.add(name);
  }
  return names;
}

const eventSources = (context: LintContext): ManifestObject[] => context.objects.filter((object) => object.kind === 'EventSource');

export const sensorEventSourceRule: LintRule = {
  id: 'sensor-event-source',
  severity: 'error',
  description: "a Sensor dependency's eventSourceName and eventName exist in an EventSource of the run (when the run has EventSources)",
  kinds: ['Sensor'],
  check: (target, context) => {
    const sources = eventSources(context);
    if (sources.length === 0) return [];
    return dependenciesOf(target).flatMap(({ dependency, at }): Violation[] => {
      const source = sources.find((candidate) => candidate.name === dependency.eventSourceName);
      if (!source)
        return [
          {
            path: pathOf(at, 'eventSourceName'),
            message: `EventSource "${dependency.eventSourceName}" is not in this run (EventSources: ${sources.map((candidate) => candidate.name).join(', ')})`,
          },
        ];
      const events = eventNamesOf(source);
      return events.has(dependency.eventName)
        ? []
        : [
            {
              path: pathOf(at, 'eventName'),
              message: `EventSource "${source.name}" publishes no event "${dependency.eventName}" (events: ${[...events].sort().join(', ')})`,
            },
          ];
    });
  },
};

const busOf = (object: ManifestObject): string => {
  const name = isRecord(object.object.spec) ? object.object.spec.eventBusName : undefined;
  return typeof name === 'string' && name !== '' ? name : 'default';
};

export const eventsNamespaceRule: LintRule = {
  id: 'events-namespace',
  severity: 'error',
  description: 'a Sensor, the EventSources it listens to and its EventBus share a namespace and a bus',
  kinds: ['Sensor'],
  check: (target, context) => {
    const violations: Violation[] = [];
    const buses = context.objects.filter((object) => object.kind === 'EventBus' && object.name === busOf(target));
    for (const bus of buses) {
      if (bus.namespace !== undefined && target.namespace !== undefined && bus.namespace !== target.namespace) {
        violations.push({
          path: 'metadata.namespace',
          message: `the Sensor is in namespace ${target.namespace} but its EventBus "${bus.name}" is in ${bus.namespace}: events never reach it`,
        });
      }
    }
    const sourceNames = new Set(dependenciesOf(target).map(({ dependency }) => dependency.eventSourceName));
    for (const source of eventSources(context).filter((candidate) => sourceNames.has(candidate.name))) {
      if (source.namespace !== undefined && target.namespace !== undefined && source.namespace !== target.namespace) {
        violations.push({
          path: 'metadata.namespace',
          message: `the Sensor is in namespace ${target.namespace} but EventSource "${source.name}" is in ${source.namespace}: put them in one namespace`,
        });
      }
      if (busOf(source) !== busOf(target)) {
        violations.push({
          path: 'spec.eventBusName',
          message: `the Sensor listens on EventBus "${busOf(target)}" but EventSource "${source.name}" publishes on "${busOf(source)}"`,
        });
      }
    }
    return violations;
  },
};
