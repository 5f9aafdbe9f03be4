// @ts-nocheck
import type { Construct } from 'constructs';
import { dnsLabelProblem } from '../model/naming';
import { checkProp } from '../model/prop-checks';

/** An Argo Events EventBus. Sensors and EventSources must live in its namespace. */
export interface IEventBus {
  /** The EventBus's `metadata.name`: what `eventBusName` fields name. */
  readonly name: string;
  /** Undefined: the namespace of whoever uses it. */
  readonly namespace?: string;
}

/**
 * The EventBus a platform publishes to. The bus itself is usually installed once per namespace by the
 * platform team, so this construct only refers to it.
 */
export class EventBus {
  /**
   * Refers to an EventBus that exists elsewhere.
   *
   * @param namespace where it lives; a Sensor or EventSource in another namespace refuses it
   * @throws when the name or the namespace is not a DNS-1123 label
   */
  public static fromEventBusName(_scope: Construct, _id: string, name: string, namespace?: string): IEventBus {
    checkProp('EventBus.fromEventBusName', 'name', name, dnsLabelProblem(name));
    if (namespace !== undefined) checkProp('EventBus.fromEventBusName', 'namespace', namespace, dnsLabelProblem(namespace));
    return { name, namespace };
  }
}

/**
 * Refuses an EventBus in another namespace than `namespace`: Argo Events connects an EventSource or Sensor
 * only to a bus of its own namespace (the original split them across namespaces and lost every event).
 *
 * @throws naming both namespaces and what to change
 */
export function assertSameNamespace(what: string, namespace: string | undefined, bus: IEventBus): void {
  if (bus.namespace !== undefined && namespace !== undefined && bus.namespace !== namespace) {
    throw new Error(
      `${what} is in namespace "${namespace}" but its EventBus "${bus.name}" is in "${bus.namespace}": put them in one namespace`,
    );
  }
}
