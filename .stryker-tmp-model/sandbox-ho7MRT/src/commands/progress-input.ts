/**
 * Where `status` and `resume` read the progress ConfigMaps: a FILE, standard input (`-` or a pipe), or
 * the cluster of the kubeconfig. The cluster is read when a cluster option is given, or when nothing
 * else is: no FILE and standard input is a terminal.
 */
// @ts-nocheck

import type { ClusterTarget } from '../cluster/cluster-target';
import { clusterTarget } from './cluster-options';
import { type Cluster, connect } from '../cluster/connect';
import { listProgress, type Scope } from '../cluster/progress-source';
import { type ProgressConfigMap, progressConfigMaps, readProgressState } from '../state/progress-state';
import { InputError, type Io, UsageError } from './command';
import type { ParsedOptions } from './options';
import { readInput } from './read-input';

const WHAT = 'the progress ConfigMaps';

/** Where the ConfigMaps come from. */
export type ProgressInput =
  | { readonly kind: 'text'; readonly file: string | undefined }
  | { readonly kind: 'cluster'; readonly target: ClusterTarget };

/** Decides the source from the command line. @throws UsageError for a FILE given with cluster options */
export function progressInput(options: ParsedOptions, io: Io, forceCluster = false): ProgressInput {
  let target: ClusterTarget | undefined;
  try {
    target = clusterTarget(options);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const file = options.positionals[0];
  if (file !== undefined) {
    if (target !== undefined || forceCluster)
      throw new UsageError(`give ${WHAT} as FILE (or -) or read them from the cluster (--kubeconfig, --context, --namespace), not both`);
    return { kind: 'text', file };
  }
  if (target !== undefined || forceCluster) return { kind: 'cluster', target: target ?? {} };
  const piped = io.stdin !== undefined || !process.stdin.isTTY;
  return piped ? { kind: 'text', file: undefined } : { kind: 'cluster', target: {} };
}

/** The ConfigMaps in a file or standard input. */
export function readProgressText(file: string | undefined, io: Io): ProgressConfigMap[] {
  const input = readInput(file, io, WHAT);
  return readProgressState(input.text, input.source);
}

/** The ConfigMaps in the cluster, and the connection (for what the command does next). */
export async function readProgressCluster(
  target: ClusterTarget,
  io: Io,
  scope: Scope,
): Promise<{ cluster: Cluster; configMaps: ProgressConfigMap[] }> {
  const cluster = await connect(target, io.env);
  const snapshot = await listProgress(cluster, scope);
  const configMaps = progressConfigMaps(snapshot.objects);
  if (configMaps.length === 0) {
    const where = scope.allNamespaces ? 'any namespace' : `namespace ${JSON.stringify(cluster.namespace)}`;
    throw new InputError([
      `no progress ConfigMap in ${where} of context ${cluster.context} (${cluster.server}); pass --namespace (-n) where the platform runs`,
    ]);
  }
  return { cluster, configMaps };
}
