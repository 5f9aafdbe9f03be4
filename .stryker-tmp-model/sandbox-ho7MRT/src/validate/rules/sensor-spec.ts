/** Where the Argo Events semantics live in a Sensor: its dependencies and its triggers. */
// @ts-nocheck

import { isRecord, listOf, type Json, type Path } from './argo-spec';
import type { ManifestObject } from '../finding';

export interface DependencyAt {
  readonly dependency: Json;
  readonly at: Path;
}

export interface TriggerAt {
  readonly trigger: Json;
  readonly template: Json;
  readonly name: string;
  readonly at: Path;
}

export const sensorSpec = (target: ManifestObject): Json => (isRecord(target.object.spec) ? target.object.spec : {});

export const dependenciesOf = (target: ManifestObject): DependencyAt[] =>
  listOf(sensorSpec(target).dependencies).flatMap((dependency, index) =>
    isRecord(dependency) ? [{ dependency, at: ['spec', 'dependencies', index] }] : [],
  );

export const triggersOf = (target: ManifestObject): TriggerAt[] =>
  listOf(sensorSpec(target).triggers).flatMap((trigger, index) => {
    if (!isRecord(trigger)) return [];
    const template = isRecord(trigger.template) ? trigger.template : {};
    return [{ trigger, template, name: typeof template.name === 'string' ? template.name : '', at: ['spec', 'triggers', index] }];
  });

/** The trigger types of Argo Events v1.9 (`TriggerTemplate` fields besides name, conditions, conditionsReset). */
export const TRIGGER_TYPES = [
  'k8s',
  'argoWorkflow',
  'http',
  'awsLambda',
  'custom',
  'kafka',
  'nats',
  'slack',
  'openWhisk',
  'log',
  'azureEventHubs',
  'pulsar',
  'email',
  'azureServiceBus',
] as const;

/** The dependency names of a Sensor. */
export const dependencyNames = (target: ManifestObject): Set<string> =>
  new Set(
    dependenciesOf(target)
      .map(({ dependency }) => dependency.name)
      .filter((name): name is string => typeof name === 'string'),
  );
