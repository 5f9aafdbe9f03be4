/**
 * The Kubernetes API over HTTPS from inside a pod, with Node's own `https` and nothing else: the API server
 * at KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT, the pod's service-account token (read again before
 * each request: the kubelet rotates it) and the cluster's CA, as client-go's `rest.InClusterConfig` finds
 * them. Error answers become `ApiError`s with the status and reason of the server's `Status` object; a
 * throttled (429) or unavailable (5xx) answer and a dropped connection are tried again a few times.
 */
// @ts-nocheck

import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import {
  ApiError,
  type ApiResource,
  type JsonPatchOperation,
  type KubeApi,
  type KubeObject,
  type ObjectRef,
  type PropagationPolicy,
} from '../constructs/runtime/kube-api';

/** Where a pod finds its service account's credentials. */
export const SERVICE_ACCOUNT_DIRECTORY = '/var/run/secrets/kubernetes.io/serviceaccount';

/** How the client reaches the API server. */
export interface ApiServerOptions {
  /** `https://host:port` (or `http://` for a test server). */
  readonly baseUrl: string;
  /** Read before each request; absent for none. */
  readonly tokenFile?: string;
  /** The CA that signed the server's certificate. */
  readonly caFile?: string;
  /** One request's limit. @default 30 s */
  readonly timeoutMilliseconds?: number;
  /** Waits between attempts after a 429, a 5xx or a dropped connection. @default 1 s, 2 s */
  readonly retryDelaysMilliseconds?: readonly number[];
}

/**
 * The options of a pod: from its environment and the service-account folder.
 *
 * @throws Error when the pod's environment does not name the API server
 */
export function inClusterOptions(environment: Readonly<Record<string, string | undefined>>): ApiServerOptions {
  const host = environment.KUBERNETES_SERVICE_HOST;
  const port = environment.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set: not running in a pod');
  const address = host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: `https://${address}:${port}`,
    tokenFile: `${SERVICE_ACCOUNT_DIRECTORY}/token`,
    caFile: `${SERVICE_ACCOUNT_DIRECTORY}/ca.crt`,
  };
}

/** The API path of a resource's collection in a namespace. */
export function collectionPath(resource: ApiResource, namespace: string): string {
  const root = resource.apiVersion.includes('/') ? `/apis/${resource.apiVersion}` : `/api/${resource.apiVersion}`;
  return `${root}/namespaces/${encodeURIComponent(namespace)}/${resource.plural}`;
}

/** The API path of one object. */
export function objectPath(ref: ObjectRef): string {
  return `${collectionPath(ref.resource, ref.namespace)}/${encodeURIComponent(ref.name)}`;
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/** The client. */
export class InClusterApi implements KubeApi {
  private readonly ca: Buffer | undefined;

  public constructor(private readonly options: ApiServerOptions) {
    this.ca = options.caFile === undefined ? undefined : readFileSync(options.caFile);
  }

  public async get(ref: ObjectRef): Promise<KubeObject> {
    return this.json('GET', objectPath(ref));
  }

  public async list(resource: ApiResource, namespace: string, labelSelector?: string): Promise<KubeObject[]> {
    const query = labelSelector ? `?labelSelector=${encodeURIComponent(labelSelector)}` : '';
    const answer = await this.json<{ items?: KubeObject[] }>('GET', `${collectionPath(resource, namespace)}${query}`);
    return answer.items ?? [];
  }

  public async create(resource: ApiResource, namespace: string, object: KubeObject): Promise<KubeObject> {
    return this.json('POST', collectionPath(resource, namespace), object, 'application/json');
  }

  public async mergePatch(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject> {
    return this.json('PATCH', objectPath(ref), patch, 'application/merge-patch+json');
  }

  public async jsonPatch(ref: ObjectRef, operations: readonly JsonPatchOperation[]): Promise<KubeObject> {
    return this.json('PATCH', objectPath(ref), operations, 'application/json-patch+json');
  }

  public async delete(ref: ObjectRef, propagationPolicy?: PropagationPolicy): Promise<void> {
    const options = { apiVersion: 'v1', kind: 'DeleteOptions', ...(propagationPolicy ? { propagationPolicy } : {}) };
    await this.json('DELETE', objectPath(ref), options, 'application/json');
  }

  private async json<T = KubeObject>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    const delays = this.options.retryDelaysMilliseconds ?? [1000, 2000];
    for (let attempt = 0; ; attempt += 1) {
      let answer: Answer;
      try {
        answer = await this.request(method, path, body === undefined ? undefined : JSON.stringify(body), contentType);
      } catch (error) {
        if (attempt < delays.length) {
          await sleep(delays[attempt]);
          continue;
        }
        throw new ApiError(0, 'ConnectionFailed', `${method} ${path}: ${(error as Error).message}`);
      }
      if (answer.status < 300) return (answer.body === '' ? {} : JSON.parse(answer.body)) as T;
      if ((answer.status === 429 || answer.status >= 500) && attempt < delays.length) {
        await sleep(delays[attempt]);
        continue;
      }
      throw apiErrorOf(answer, method, path);
    }
  }

  private request(method: string, path: string, body: string | undefined, contentType: string | undefined): Promise<Answer> {
    const url = new URL(path, this.options.baseUrl);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.tokenFile !== undefined) headers.Authorization = `Bearer ${readFileSync(this.options.tokenFile, 'utf8').trim()}`;
    if (body !== undefined) {
      headers['Content-Type'] = contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    const transport = url.protocol === 'http:' ? http : https;
    return new Promise((resolve, reject) => {
      const request = transport.request(
        url,
        { method, headers, ca: this.ca, timeout: this.options.timeoutMilliseconds ?? 30_000 },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error('the API server did not answer in time')));
      request.on('error', reject);
      request.end(body);
    });
  }
}

/** The error of an answer: the server's `Status` when it sent one, else the status line. */
function apiErrorOf(answer: Answer, method: string, path: string): ApiError {
  try {
    const status = JSON.parse(answer.body) as { reason?: string; message?: string };
    if (typeof status.message === 'string') return new ApiError(answer.status, status.reason ?? String(answer.status), status.message);
  } catch {
    // Not a Status object: fall through to the status code.
  }
  return new ApiError(answer.status, String(answer.status), `${method} ${path}: HTTP ${answer.status}`);
}
