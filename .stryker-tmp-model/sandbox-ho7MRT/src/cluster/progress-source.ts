/**
 * The progress ConfigMaps, read from the cluster: listed once (status, resume), or followed (status
 * --watch) as a list and then a watch from the list's resourceVersion. The watch is the API server's
 * (k8s.io/apiserver's watch protocol: one JSON event a line, ADDED/MODIFIED/DELETED/BOOKMARK/ERROR): an
 * ERROR of code 410 (Gone: the version is older than the server keeps) means listing again; a connection
 * that closes, drops or goes quiet is opened again from the last version seen.
 */
// @ts-nocheck

import { PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { ClusterError, clusterFailure, printable } from './cluster-error';
import type { Cluster } from './connect';

const SELECTOR = `${PROGRESS_TRACKING_LABEL}=true`;

/** Which namespaces to read: the connection's, or all of them. */
export interface Scope {
  readonly allNamespaces: boolean;
}

/** The ConfigMaps as objects of kind ConfigMap (a list's items carry no kind), and the list's version. */
export interface ProgressSnapshot {
  readonly objects: Record<string, unknown>[];
  readonly resourceVersion: string;
}

function where(cluster: Cluster, scope: Scope): string {
  return scope.allNamespaces ? 'in all namespaces' : `in namespace ${JSON.stringify(cluster.namespace)}`;
}

/** @throws ClusterError with one line (forbidden, unreachable, timed out...) */
export async function listProgress(cluster: Cluster, scope: Scope): Promise<ProgressSnapshot> {
  const doing = `listing the progress ConfigMaps (${SELECTOR}) ${where(cluster, scope)}`;
  try {
    const list = scope.allNamespaces
      ? await cluster.core.listConfigMapForAllNamespaces({ labelSelector: SELECTOR }, cluster.requestOptions())
      : await cluster.core.listNamespacedConfigMap({ namespace: cluster.namespace, labelSelector: SELECTOR }, cluster.requestOptions());
    // Dates back to the strings of the wire form, as in kubectl's output.
    const items = JSON.parse(JSON.stringify(list.items ?? [])) as Record<string, unknown>[];
    return {
      objects: items.map((item) => ({ apiVersion: 'v1', kind: 'ConfigMap', ...item })),
      resourceVersion: list.metadata?.resourceVersion ?? '',
    };
  } catch (error) {
    throw clusterFailure(error, doing, cluster.server, `namespace ${JSON.stringify(cluster.namespace)} does not exist`);
  }
}

/** How a follow behaves; the defaults are for people, tests make them short. */
export interface FollowOptions {
  /** Stops the follow (resolves it). */
  readonly signal: AbortSignal;
  /** Asked of the server for each watch; it closes the watch after this, and the watch is opened again. */
  readonly watchSeconds?: number;
  /** A watch that sends nothing for this long (not even the close) is dropped and opened again. */
  readonly idleMs?: number;
  /** Waits before opening a watch again after a failure: attempt 1, 2, ... (default 1 s, 2 s, 4 s... up to 30 s). */
  readonly backoffMs?: (attempt: number) => number;
  /** Consecutive failed attempts before giving up. */
  readonly maxFailures?: number;
}

type Objects = Map<string, Record<string, unknown>>;

const keyOf = (object: Record<string, any>): string => `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;

/**
 * Lists the ConfigMaps and then follows them, calling `onChange` with all of them after the list and after
 * every change. Resolves when `options.signal` aborts.
 * @throws ClusterError when listing fails, or the watch fails `maxFailures` times in a row
 */
export async function followProgress(
  cluster: Cluster,
  scope: Scope,
  onChange: (objects: readonly Record<string, unknown>[]) => void,
  options: FollowOptions,
): Promise<void> {
  const backoff = options.backoffMs ?? ((attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1)));
  const maxFailures = options.maxFailures ?? 8;
  let failures = 0;
  while (!options.signal.aborted) {
    const snapshot = await listProgress(cluster, scope);
    const objects: Objects = new Map(snapshot.objects.map((object) => [keyOf(object), object]));
    onChange([...objects.values()]);
    let version = snapshot.resourceVersion;
    for (;;) {
      if (options.signal.aborted) return;
      const outcome = await watchOnce(cluster, scope, version, objects, onChange, options);
      if (outcome.kind === 'gone') break;
      version = outcome.version;
      if (outcome.kind === 'closed') {
        failures = 0;
        continue;
      }
      failures += 1;
      if (failures >= maxFailures)
        throw new ClusterError(
          `watching the progress ConfigMaps ${where(cluster, scope)} at ${cluster.server}: gave up after ${failures} failed attempts (${outcome.reason})`,
        );
      await sleep(backoff(failures), options.signal);
    }
  }
}

type WatchOutcome =
  | { readonly kind: 'closed'; readonly version: string }
  | { readonly kind: 'failed'; readonly version: string; readonly reason: string }
  | { readonly kind: 'gone' };

/** One watch connection, until the server closes it, it fails, it goes quiet, or the follow stops. */
function watchOnce(
  cluster: Cluster,
  scope: Scope,
  from: string,
  objects: Objects,
  onChange: (objects: readonly Record<string, unknown>[]) => void,
  options: FollowOptions,
): Promise<WatchOutcome> {
  const path = scope.allNamespaces ? '/api/v1/configmaps' : `/api/v1/namespaces/${encodeURIComponent(cluster.namespace)}/configmaps`;
  const watchSeconds = options.watchSeconds ?? 300;
  const idleMs = options.idleMs ?? (watchSeconds + 30) * 1000;
  let version = from;
  return new Promise((resolve, reject) => {
    let controller: AbortController | undefined;
    let settled = false;
    let idle: NodeJS.Timeout | undefined;
    const finish = (outcome: WatchOutcome | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      options.signal.removeEventListener('abort', stop);
      controller?.abort();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const stop = (): void => finish({ kind: 'closed', version });
    const quiet = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => finish({ kind: 'failed', version, reason: `no event for ${idleMs} ms` }), idleMs);
    };
    options.signal.addEventListener('abort', stop);
    quiet();
    const onEvent = (type: string, object: Record<string, any>): void => {
      quiet();
      if (type === 'ERROR') {
        if (object?.code === 410) finish({ kind: 'gone' });
        else finish({ kind: 'failed', version, reason: printable(String(object?.message ?? 'an ERROR event')) });
        return;
      }
      const next = object?.metadata?.resourceVersion;
      if (typeof next === 'string' && next !== '') version = next;
      if (type === 'BOOKMARK') return;
      if (type === 'DELETED') objects.delete(keyOf(object));
      else if (type === 'ADDED' || type === 'MODIFIED') objects.set(keyOf(object), object);
      else return;
      onChange([...objects.values()]);
    };
    const onDone = (error: unknown): void => {
      if (error === null || error === undefined || options.signal.aborted) return finish({ kind: 'closed', version });
      const status = (error as { statusCode?: unknown }).statusCode;
      if (status === 410) return finish({ kind: 'gone' });
      if (status === 401 || status === 403)
        return finish(clusterFailure({ code: status }, `watching the progress ConfigMaps ${where(cluster, scope)}`, cluster.server));
      finish({ kind: 'failed', version, reason: typeof status === 'number' ? `the API server answered ${status}` : describe(error) });
    };
    new cluster.client.Watch(cluster.config)
      .watch(
        path,
        { labelSelector: SELECTOR, resourceVersion: version, allowWatchBookmarks: true, timeoutSeconds: watchSeconds },
        onEvent,
        onDone,
      )
      .then(
        (started) => {
          controller = started;
          if (settled) started.abort();
        },
        (error: unknown) => onDone(error ?? new Error('the watch did not start')),
      );
  });
}

const describe = (error: unknown): string => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : printable(error instanceof Error ? error.message : String(error));
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
