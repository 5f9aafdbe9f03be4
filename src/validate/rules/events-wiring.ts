/**
 * What Argo Events objects must agree on across files: a Sensor's dependencies name an EventSource and an
 * event it publishes (when the run has EventSources), and the Sensor, its EventSources and its EventBus live
 * in one namespace (the bus does not cross namespaces: events never arrive).
 *
 * Names are looked up within the Sensor's namespace, as Argo Events does: a run may hold several platforms,
 * each in its namespace with its own bus and EventSource of the same names (`team-a`, `team-b`), and a
 * Sensor of one is wired to its own. An object without a namespace (applied with `kubectl -n`) is taken to
 * be in any. Only a name found in another namespace and not in the Sensor's own is a wiring across
 * namespaces.
 */
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

/** Whether two objects can be in one namespace: the same one, or either without one. */
const sameNamespace = (a: ManifestObject, b: ManifestObject): boolean =>
  a.namespace === undefined || b.namespace === undefined || a.namespace === b.namespace;

/** The objects named `name` that `target` sees (in its namespace), and those it does not (in another). */
function byNamespace(
  target: ManifestObject,
  objects: readonly ManifestObject[],
  name: string,
): { own: ManifestObject[]; other: ManifestObject[] } {
  const named = objects.filter((object) => object.name === name);
  return { own: named.filter((object) => sameNamespace(object, target)), other: named.filter((object) => !sameNamespace(object, target)) };
}

export const sensorEventSourceRule: LintRule = {
  id: 'sensor-event-source',
  severity: 'error',
  description: "a Sensor dependency's eventSourceName and eventName exist in an EventSource of the run (when the run has EventSources)",
  kinds: ['Sensor'],
  check: (target, context) => {
    const sources = eventSources(context);
    if (sources.length === 0) return [];
    return dependenciesOf(target).flatMap(({ dependency, at }): Violation[] => {
      const { own, other } = byNamespace(target, sources, dependency.eventSourceName);
      // Only in another namespace: events-namespace says so.
      if (own.length === 0 && other.length > 0) return [];
      if (own.length === 0)
        return [
          {
            path: pathOf(at, 'eventSourceName'),
            message: `EventSource "${dependency.eventSourceName}" is not in this run (EventSources: ${[...new Set(sources.map((candidate) => candidate.name))].join(', ')})`,
          },
        ];
      const source = own.find((candidate) => candidate.namespace === target.namespace) ?? own[0];
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
    const buses = byNamespace(
      target,
      context.objects.filter((object) => object.kind === 'EventBus'),
      busOf(target),
    );
    // A bus of that name in the Sensor's namespace is the one it listens on; one elsewhere cannot be.
    if (target.namespace !== undefined && buses.own.length === 0) {
      for (const bus of buses.other) {
        violations.push({
          path: 'metadata.namespace',
          message: `the Sensor is in namespace ${target.namespace} but its EventBus "${bus.name}" is in ${bus.namespace}: events never reach it`,
        });
      }
    }
    const sourceNames = new Set(dependenciesOf(target).map(({ dependency }) => dependency.eventSourceName));
    for (const name of sourceNames) {
      const sources = byNamespace(target, eventSources(context), name);
      if (sources.own.length === 0) {
        for (const source of sources.other) {
          violations.push({
            path: 'metadata.namespace',
            message: `the Sensor is in namespace ${target.namespace} but EventSource "${source.name}" is in ${source.namespace}: put them in one namespace`,
          });
        }
      }
      for (const source of sources.own.filter((candidate) => busOf(candidate) !== busOf(target))) {
        violations.push({
          path: 'spec.eventBusName',
          message: `the Sensor listens on EventBus "${busOf(target)}" but EventSource "${source.name}" publishes on "${busOf(source)}"`,
        });
      }
    }
    return violations;
  },
};
