/**
 * A connection to one cluster: the kubeconfig read and its context chosen as kubectl does, and the few
 * calls agent-play makes (list, watch, create), each bounded in time and failing with one line.
 */
// @ts-nocheck

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type * as K8s from '@kubernetes/client-node';
import { ClusterError } from './cluster-error';
import type { ClusterTarget } from './cluster-target';
import { loadKubeClient, type KubeClient } from './kube-client';

/** How long one request may take before it is given up (a watch is exempt: it is meant to stay open). */
export const REQUEST_TIMEOUT_MS = 15_000;

/** An open connection: where it points, and the client's APIs. */
export interface Cluster {
  readonly server: string;
  readonly context: string;
  readonly namespace: string;
  readonly client: KubeClient;
  readonly config: K8s.KubeConfig;
  readonly core: K8s.CoreV1Api;
  readonly custom: K8s.CustomObjectsApi;
  /** Per-request options: a deadline of `timeoutMs` on each call. */
  readonly requestOptions: (timeoutMs?: number) => K8s.ConfigurationOptions;
}

/** The kubeconfig files to read, in kubectl's order. */
function kubeconfigFiles(target: ClusterTarget, env: Readonly<Record<string, string | undefined>>): string[] {
  if (target.kubeconfig !== undefined) {
    if (!existsSync(target.kubeconfig)) throw new ClusterError(`--kubeconfig ${target.kubeconfig}: no such file`);
    return [target.kubeconfig];
  }
  const listed = (env.KUBECONFIG ?? '').split(path.delimiter).filter((file) => file !== '' && existsSync(file));
  if (listed.length > 0) return listed;
  const home = env.HOME ?? homedir();
  const fallback = path.join(home, '.kube', 'config');
  if (existsSync(fallback)) return [fallback];
  throw new ClusterError(
    'no kubeconfig: pass --kubeconfig FILE, set KUBECONFIG, or create ~/.kube/config; or give the input as FILE, or - (or a pipe) for standard input',
  );
}

/** Reads the kubeconfig and picks the context. @throws ClusterError naming the file or the context */
export async function connect(target: ClusterTarget, env: Readonly<Record<string, string | undefined>>): Promise<Cluster> {
  const client = await loadKubeClient();
  const config = new client.KubeConfig();
  for (const file of kubeconfigFiles(target, env)) {
    const one = new client.KubeConfig();
    try {
      one.loadFromFile(file);
    } catch (error) {
      throw new ClusterError(`${file}: not a kubeconfig (${(error as Error).message.split('\n')[0]})`);
    }
    config.mergeConfig(one, true);
    if (config.getCurrentContext() === '' || config.getCurrentContext() === undefined) config.setCurrentContext(one.getCurrentContext());
  }
  const contextName = target.context ?? config.getCurrentContext();
  const context = contextName ? config.getContextObject(contextName) : null;
  if (!context) {
    const known = config.getContexts().map((candidate) => candidate.name);
    throw new ClusterError(
      target.context !== undefined
        ? `--context ${target.context}: no such context in the kubeconfig; contexts: ${known.join(', ') || 'none'}`
        : `the kubeconfig has no current context; pass --context (contexts: ${known.join(', ') || 'none'})`,
    );
  }
  config.setCurrentContext(context.name);
  const cluster = config.getCurrentCluster();
  if (!cluster)
    throw new ClusterError(
      `context ${context.name} names cluster ${JSON.stringify(context.cluster)}, which the kubeconfig does not define`,
    );
  // The object-parameter APIs take the observable kind of middleware (the package's own Observable).
  const requestOptions = (timeoutMs = target.timeoutMs ?? REQUEST_TIMEOUT_MS): K8s.ConfigurationOptions => ({
    middleware: [
      {
        pre: (request: K8s.RequestContext) => {
          request.setSignal(AbortSignal.timeout(timeoutMs));
          return new client.Observable(Promise.resolve(request));
        },
        post: (response: K8s.ResponseContext) => new client.Observable(Promise.resolve(response)),
      },
    ],
    middlewareMergeStrategy: 'append',
  });
  return {
    server: cluster.server,
    context: context.name,
    namespace: target.namespace ?? context.namespace ?? 'default',
    client,
    config,
    core: config.makeApiClient(client.CoreV1Api),
    custom: config.makeApiClient(client.CustomObjectsApi),
    requestOptions,
  };
}
