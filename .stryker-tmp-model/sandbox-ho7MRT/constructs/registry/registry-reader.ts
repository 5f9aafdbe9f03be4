/**
 * Reads a repository's entry of the registry through the Kubernetes API, for the runtime steps.
 *
 * Pure: no cdk8s, no I/O (the API comes with the step's context).
 */
// @ts-nocheck

import { explainApiError } from '../runtime/conflict-retry';
import { configMapRef, isNotFound, type KubeObject } from '../runtime/kube-api';
import { StepFailure, type StepContext } from '../runtime/runtime-step';
import { parseRegistryEntry, registryConfigMapOf, registryKeyOf, type RegistryEntry } from './registry-layout';

/**
 * The registry entry of `repository`, or `undefined` when the platform has none (a repository it was not
 * configured with).
 *
 * @throws StepFailure when the API refuses, or the entry is not one
 */
export async function readRegistryEntry(context: StepContext, namespace: string, repository: string): Promise<RegistryEntry | undefined> {
  const name = registryConfigMapOf(repository);
  let configMap: KubeObject;
  try {
    configMap = await context.api.get(configMapRef(namespace, name));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw explainApiError(error, `reading the repository registry ${name}`);
  }
  const text = (configMap.data as Record<string, unknown> | undefined)?.[registryKeyOf(repository)];
  if (text === undefined) return undefined;
  if (typeof text !== 'string') throw new StepFailure(`${name}: the entry of ${repository} is not text`);
  const parsed = parseRegistryEntry(text);
  if ('problem' in parsed) throw new StepFailure(`${name}: ${repository}: ${parsed.problem}`);
  return parsed.entry;
}
