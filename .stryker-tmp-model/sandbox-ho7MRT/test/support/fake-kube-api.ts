/**
 * An in-process HTTP server speaking enough of the Kubernetes API for agent-play's cluster commands, so
 * that their tests run the real client (@kubernetes/client-node) over a real connection: list ConfigMaps
 * (one namespace or all, by label selector), watch them (one JSON event a line, as k8s.io/apiserver
 * streams them, with resourceVersion and bookmarks), create Workflows (409 for a name taken). A bearer token
 * is required (401 without it). Tests can make a path answer with a status (403, 404...), hang, drop the
 * open watches, or expire them (an ERROR event of code 410).
 */
// @ts-nocheck

import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

export const TOKEN = 'fake-token';

type Json = Record<string, any>;

interface Watcher {
  readonly namespace: string | undefined;
  readonly selector: Record<string, string>;
  readonly response: ServerResponse;
}

/** What the server was asked, for the tests to check. */
export interface Request {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
}

export class FakeKubeApi {
  public readonly requests: Request[] = [];
  public readonly workflows: Json[] = [];
  private readonly configMaps = new Map<string, Json>();
  private readonly failures: { pattern: RegExp; status: number; message: string; times: number }[] = [];
  private readonly hangs: RegExp[] = [];
  private readonly watchers = new Set<Watcher>();
  private version = 100;
  private server!: Server;
  public url = '';

  public static async start(): Promise<FakeKubeApi> {
    const api = new FakeKubeApi();
    api.server = createServer((request, response) => api.handle(request, response));
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    api.url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    return api;
  }

  public async close(): Promise<void> {
    for (const watcher of this.watchers) watcher.response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Writes a kubeconfig for this server into `folder`; returns its path. */
  public kubeconfig(folder: string, options: { namespace?: string; token?: string; name?: string } = {}): string {
    const file = path.join(folder, options.name ?? 'kubeconfig');
    const namespace = options.namespace !== undefined ? `\n    namespace: ${options.namespace}` : '';
    writeFileSync(
      file,
      `apiVersion: v1
kind: Config
current-context: fake
clusters:
- name: fake
  cluster:
    server: ${this.url}
    # The client refuses plain HTTP unless told to skip TLS verification (there is no TLS to verify).
    insecure-skip-tls-verify: true
contexts:
- name: fake
  context:
    cluster: fake
    user: fake${namespace}
- name: other
  context:
    cluster: fake
    user: fake
    namespace: elsewhere
users:
- name: fake
  user:
    token: ${options.token ?? TOKEN}
`,
    );
    return file;
  }

  /** Puts (adds or replaces) a ConfigMap, and tells the watches. */
  public put(configMap: Json): void {
    const key = `${configMap.metadata.namespace}/${configMap.metadata.name}`;
    const type = this.configMaps.has(key) ? 'MODIFIED' : 'ADDED';
    this.version += 1;
    const stored = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      ...configMap,
      metadata: { ...configMap.metadata, resourceVersion: String(this.version) },
    };
    this.configMaps.set(key, stored);
    this.notify(type, stored);
  }

  public remove(namespace: string, name: string): void {
    const stored = this.configMaps.get(`${namespace}/${name}`);
    if (!stored) return;
    this.configMaps.delete(`${namespace}/${name}`);
    this.version += 1;
    this.notify('DELETED', { ...stored, metadata: { ...stored.metadata, resourceVersion: String(this.version) } });
  }

  /** The next `times` requests whose path (and query) matches answer `status` with a Status of `message`. */
  public fail(pattern: RegExp, status: number, message: string, times = Number.POSITIVE_INFINITY): void {
    this.failures.push({ pattern, status, message, times });
  }

  /** Requests whose path matches are never answered. */
  public hang(pattern: RegExp): void {
    this.hangs.push(pattern);
  }

  /** How many watches are open. */
  public get openWatches(): number {
    return this.watchers.size;
  }

  /** Cuts every open watch's connection, as a network failure would. */
  public dropWatches(): void {
    for (const watcher of this.watchers) watcher.response.socket?.destroy();
    this.watchers.clear();
  }

  /** Tells every open watch that its version is too old (410 Gone), and closes it. */
  public expireWatches(): void {
    for (const watcher of this.watchers) {
      watcher.response.end(`${JSON.stringify({ type: 'ERROR', object: status(410, 'too old resource version', 'Expired') })}\n`);
    }
    this.watchers.clear();
  }

  /** Ends every open watch normally, as the server does when a watch's timeoutSeconds runs out. */
  public closeWatches(): void {
    for (const watcher of this.watchers) watcher.response.end();
    this.watchers.clear();
  }

  public count(method: string, pattern: RegExp, query?: (query: Record<string, string>) => boolean): number {
    return this.requests.filter((request) => request.method === method && pattern.test(request.path) && (!query || query(request.query)))
      .length;
  }

  private notify(type: string, object: Json): void {
    for (const watcher of this.watchers) {
      if (matches(object, watcher.namespace, watcher.selector)) watcher.response.write(`${JSON.stringify({ type, object })}\n`);
    }
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.url);
    const query = Object.fromEntries(url.searchParams);
    this.requests.push({ method: request.method ?? 'GET', path: url.pathname, query });
    // Failures and hangs match the path with its query (`?watch=true` tells a watch from a list).
    const target = `${url.pathname}${url.search}`;
    if (this.hangs.some((pattern) => pattern.test(target))) return;
    if (request.headers.authorization !== `Bearer ${TOKEN}`) return send(response, 401, status(401, 'Unauthorized', 'Unauthorized'));
    const failure = this.failures.find((candidate) => candidate.times > 0 && candidate.pattern.test(target));
    if (failure) {
      failure.times -= 1;
      return send(response, failure.status, status(failure.status, failure.message, 'Failure'));
    }
    const list = /^\/api\/v1\/(?:namespaces\/([^/]+)\/)?configmaps$/.exec(url.pathname);
    if (list && request.method === 'GET') {
      const namespace = list[1] === undefined ? undefined : decodeURIComponent(list[1]);
      const selector = parseSelector(query.labelSelector ?? '');
      if (query.watch === 'true') return this.watch(namespace, selector, response);
      const items = [...this.configMaps.values()]
        .filter((object) => matches(object, namespace, selector))
        // A list's items carry no kind or apiVersion.
        .map(({ kind: _kind, apiVersion: _apiVersion, ...item }) => item);
      return send(response, 200, { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: String(this.version) }, items });
    }
    const workflows = /^\/apis\/argoproj\.io\/v1alpha1\/namespaces\/([^/]+)\/workflows$/.exec(url.pathname);
    if (workflows && request.method === 'POST') {
      void readBody(request).then((body) => {
        const workflow = JSON.parse(body) as Json;
        const namespace = decodeURIComponent(workflows[1]);
        if (
          this.workflows.some((existing) => existing.metadata.name === workflow.metadata?.name && existing.metadata.namespace === namespace)
        )
          return send(response, 409, status(409, `workflows.argoproj.io "${workflow.metadata?.name}" already exists`, 'AlreadyExists'));
        this.version += 1;
        const created = {
          ...workflow,
          metadata: { ...workflow.metadata, namespace, resourceVersion: String(this.version), uid: `uid-${this.version}` },
        };
        this.workflows.push(created);
        send(response, 201, created);
      });
      return;
    }
    send(response, 404, status(404, `the server could not find the requested resource (${request.method} ${url.pathname})`, 'NotFound'));
  }

  private watch(namespace: string | undefined, selector: Record<string, string>, response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.flushHeaders();
    const watcher: Watcher = { namespace, selector, response };
    this.watchers.add(watcher);
    response.on('close', () => this.watchers.delete(watcher));
  }
}

function status(code: number, message: string, reason: string): Json {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

function send(response: ServerResponse, code: number, body: Json): void {
  response.writeHead(code, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function parseSelector(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split(',')
      .filter(Boolean)
      .map((term) => term.split('=') as [string, string]),
  );
}

function matches(object: Json, namespace: string | undefined, selector: Record<string, string>): boolean {
  if (namespace !== undefined && object.metadata?.namespace !== namespace) return false;
  return Object.entries(selector).every(([key, value]) => object.metadata?.labels?.[key] === value);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
  });
}
