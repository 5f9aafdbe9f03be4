/**
 * The name of the runtime ConfigMap: `agent-play-runtime-{hash}`, from the program's own hash. A new program
 * is a new ConfigMap, so a play that is running keeps the program it started with (its templates, frozen in
 * the Workflow when it started, name its ConfigMap), and a sync never changes a running play's steps under it.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { RUNTIME_PROGRAM_SHA256 } from './runtime-program.generated';

/** The prefix of every runtime ConfigMap's name (and of their label's value). */
export const RUNTIME_CONFIGMAP_PREFIX = 'agent-play-runtime';

/** The ConfigMap of the runtime program this library carries. */
export function runtimeConfigMapName(): string {
  return `${RUNTIME_CONFIGMAP_PREFIX}-${RUNTIME_PROGRAM_SHA256.slice(0, 10)}`;
}
