/**
 * The in-cluster API client against a local HTTP server: the paths of core and group resources, the methods
 * and content types of each call, the label selector query, the token file read again for every request, a
 * `Status` answer turned into an ApiError (status, reason, message), and the retries of a throttled (429) or
 * unavailable (5xx) answer and of a dropped or silent connection, then giving up.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, ApiResources, configMapRef, workflowRef } from '../../constructs/runtime/kube-api';
import { collectionPath, InClusterApi, inClusterOptions, objectPath, SERVICE_ACCOUNT_DIRECTORY } from '../../runtime/in-cluster-api';
import { useScratchDirs } from '../support/scratch-dir';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

type Handler = (request: Seen, response: ServerResponse, index: number) => void;

const scratch = useScratchDirs('in-cluster-api-');
let server: Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      handler(entry, response, seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  handler = (_request, response) => json(response, 200, { metadata: { name: 'x' } });
});

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

function status(code: number, reason: string, message: string) {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, message, code };
}

function client(options: { token?: string; timeoutMilliseconds?: number; retryDelaysMilliseconds?: readonly number[] } = {}): InClusterApi {
  let tokenFile: string | undefined;
  if (options.token !== undefined) {
    tokenFile = join(scratch(), 'token');
    writeFileSync(tokenFile, options.token);
  }
  return new InClusterApi({
    baseUrl,
    tokenFile,
    timeoutMilliseconds: options.timeoutMilliseconds,
    retryDelaysMilliseconds: options.retryDelaysMilliseconds ?? [1, 1],
  });
}

async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('paths', () => {
  it('puts core resources under /api and group resources under /apis, names and namespaces escaped', () => {
    expect(collectionPath(ApiResources.configMaps, 'agents')).toBe('/api/v1/namespaces/agents/configmaps');
    expect(collectionPath(ApiResources.workflows, 'agents')).toBe('/apis/argoproj.io/v1alpha1/namespaces/agents/workflows');
    expect(collectionPath(ApiResources.codeRuns, 'a b')).toBe('/apis/agents.platform/v1/namespaces/a%20b/coderuns');
    expect(objectPath(configMapRef('agents', 'a/b?c'))).toBe('/api/v1/namespaces/agents/configmaps/a%2Fb%3Fc');
  });
});

describe('inClusterOptions', () => {
  it('reads the API server from the pod environment and the credentials from the service-account folder', () => {
    expect(inClusterOptions({ KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' })).toEqual({
      baseUrl: 'https://10.0.0.1:443',
      tokenFile: `${SERVICE_ACCOUNT_DIRECTORY}/token`,
      caFile: `${SERVICE_ACCOUNT_DIRECTORY}/ca.crt`,
    });
    expect(SERVICE_ACCOUNT_DIRECTORY).toBe('/var/run/secrets/kubernetes.io/serviceaccount');
    expect(inClusterOptions({ KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '6443' }).baseUrl).toBe(
      'https://[fd00::1]:6443',
    );
  });

  it('refuses to run outside a pod', () => {
    const message = 'KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set: not running in a pod';
    expect(() => inClusterOptions({})).toThrow(message);
    expect(() => inClusterOptions({ KUBERNETES_SERVICE_HOST: 'h' })).toThrow(message);
    expect(() => inClusterOptions({ KUBERNETES_SERVICE_PORT: '1' })).toThrow(message);
    expect(() => inClusterOptions({ KUBERNETES_SERVICE_HOST: '', KUBERNETES_SERVICE_PORT: '1' })).toThrow(message);
  });

  it('reads the CA file when it is given', () => {
    const ca = join(scratch(), 'ca.crt');
    writeFileSync(ca, 'not a certificate');
    expect(() => new InClusterApi({ baseUrl, caFile: ca })).not.toThrow();
    expect(() => new InClusterApi({ baseUrl, caFile: join(scratch(), 'missing') })).toThrow(/ENOENT/);
  });
});

describe('requests', () => {
  it('gets an object with the bearer token, asking for JSON', async () => {
    expect(await client({ token: 'secret\n' }).get(workflowRef('agents', 'play-1'))).toEqual({ metadata: { name: 'x' } });
    expect(seen).toHaveLength(1);
    expect(seen[0].method).toBe('GET');
    expect(seen[0].url).toBe('/apis/argoproj.io/v1alpha1/namespaces/agents/workflows/play-1');
    expect(seen[0].headers.authorization).toBe('Bearer secret');
    expect(seen[0].headers.accept).toBe('application/json');
    expect(seen[0].headers['content-type']).toBeUndefined();
    expect(seen[0].body).toBe('');
  });

  it('sends no authorization without a token file', async () => {
    await client().get(configMapRef('agents', 'a'));
    expect(seen[0].headers.authorization).toBeUndefined();
  });

  it('reads the token file again for every request (the kubelet rotates it)', async () => {
    const tokenFile = join(scratch(), 'token');
    writeFileSync(tokenFile, 'first');
    const api = new InClusterApi({ baseUrl, tokenFile });
    await api.get(configMapRef('agents', 'a'));
    writeFileSync(tokenFile, '  second  ');
    await api.get(configMapRef('agents', 'a'));
    expect(seen.map((request) => request.headers.authorization)).toEqual(['Bearer first', 'Bearer second']);
  });

  it('lists with the label selector as an escaped query, and reads the items', async () => {
    handler = (_request, response) => json(response, 200, { kind: 'List', items: [{ metadata: { name: 'a' } }] });
    expect(await client().list(ApiResources.pods, 'agents', 'a=b,c!=d')).toEqual([{ metadata: { name: 'a' } }]);
    expect(seen[0].url).toBe('/api/v1/namespaces/agents/pods?labelSelector=a%3Db%2Cc!%3Dd');
    await client().list(ApiResources.pods, 'agents');
    await client().list(ApiResources.pods, 'agents', '');
    expect(seen.slice(1).map((request) => request.url)).toEqual(['/api/v1/namespaces/agents/pods', '/api/v1/namespaces/agents/pods']);
    handler = (_request, response) => json(response, 200, { kind: 'List' });
    expect(await client().list(ApiResources.pods, 'agents')).toEqual([]);
  });

  it('creates with a POST of the object as JSON to the collection', async () => {
    const object = { metadata: { name: 'a' }, data: { k: 'v' } };
    await client().create(ApiResources.configMaps, 'agents', object);
    expect([seen[0].method, seen[0].url, seen[0].headers['content-type']]).toEqual([
      'POST',
      '/api/v1/namespaces/agents/configmaps',
      'application/json',
    ]);
    expect(JSON.parse(seen[0].body)).toEqual(object);
    expect(seen[0].headers['content-length']).toBe(String(Buffer.byteLength(seen[0].body)));
  });

  it('patches with the content type of each patch kind', async () => {
    await client().mergePatch(configMapRef('agents', 'a'), { data: { k: 'é' } });
    await client().jsonPatch(configMapRef('agents', 'a'), [{ op: 'test', path: '/a', value: 1 }]);
    expect(seen.map((request) => [request.method, request.headers['content-type'], JSON.parse(request.body)])).toEqual([
      ['PATCH', 'application/merge-patch+json', { data: { k: 'é' } }],
      ['PATCH', 'application/json-patch+json', [{ op: 'test', path: '/a', value: 1 }]],
    ]);
    expect(seen[0].headers['content-length']).toBe(String(Buffer.byteLength(seen[0].body)));
  });

  it('deletes with DeleteOptions that carry the propagation policy when one is given', async () => {
    handler = (_request, response) => {
      response.writeHead(200);
      response.end();
    };
    await client().delete(workflowRef('agents', 'p'), 'Foreground');
    await client().delete(workflowRef('agents', 'p'));
    expect(seen.map((request) => [request.method, request.headers['content-type'], JSON.parse(request.body)])).toEqual([
      ['DELETE', 'application/json', { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground' }],
      ['DELETE', 'application/json', { apiVersion: 'v1', kind: 'DeleteOptions' }],
    ]);
  });
});

describe('errors', () => {
  it("turns the server's Status into an ApiError with its status, reason and message, without retrying", async () => {
    for (const [code, reason] of [
      [404, 'NotFound'],
      [409, 'Conflict'],
      [403, 'Forbidden'],
      [422, 'Invalid'],
    ] as const) {
      seen = [];
      handler = (_request, response) => json(response, code, status(code, reason, `${reason} message`));
      const error = await apiErrorOf(client().get(configMapRef('agents', 'a')));
      expect([error.status, error.reason, error.message]).toEqual([code, reason, `${reason} message`]);
      expect(seen).toHaveLength(1);
    }
  });

  it('uses the status code as the reason of a Status without one, and the status line without a Status', async () => {
    handler = (_request, response) => json(response, 400, { message: 'bad selector' });
    const noReason = await apiErrorOf(client().get(configMapRef('agents', 'a')));
    expect([noReason.status, noReason.reason, noReason.message]).toEqual([400, '400', 'bad selector']);
    for (const body of ['<html>', 'null', '{"reason":"X"}']) {
      handler = (_request, response) => {
        response.writeHead(401);
        response.end(body);
      };
      const plain = await apiErrorOf(client().get(configMapRef('agents', 'a')));
      expect([plain.status, plain.reason, plain.message]).toEqual([401, '401', 'GET /api/v1/namespaces/agents/configmaps/a: HTTP 401']);
    }
  });

  it('names the method and path of a list that failed without a Status', async () => {
    handler = (_request, response) => {
      response.writeHead(401);
      response.end();
    };
    const error = await apiErrorOf(client().list(ApiResources.pods, 'agents', 'a=b'));
    expect(error.message).toBe('GET /api/v1/namespaces/agents/pods?labelSelector=a%3Db: HTTP 401');
  });

  it('speaks TLS to an https address', async () => {
    const api = new InClusterApi({ baseUrl: baseUrl.replace('http:', 'https:'), retryDelaysMilliseconds: [] });
    const error = await apiErrorOf(api.get(configMapRef('agents', 'a')));
    expect(error.reason).toBe('ConnectionFailed');
    expect(error.message).not.toMatch(/Protocol/);
    expect(seen).toEqual([]);
  });

  it('reads an empty success as an empty object', async () => {
    handler = (_request, response) => {
      response.writeHead(201);
      response.end();
    };
    expect(await client().get(configMapRef('agents', 'a'))).toEqual({});
  });

  it('takes a 299 as success and a 300 as an error', async () => {
    handler = (_request, response) => json(response, 299, { ok: true });
    expect(await client().get(configMapRef('agents', 'a'))).toEqual({ ok: true });
    handler = (_request, response) => json(response, 300, status(300, 'Multiple', 'm'));
    expect((await apiErrorOf(client().get(configMapRef('agents', 'a')))).status).toBe(300);
  });
});

describe('retries', () => {
  it.each([429, 500, 503])('tries a %d again and takes the answer that follows', async (code) => {
    handler = (_request, response, index) =>
      index === 0 ? json(response, code, status(code, 'Busy', 'later')) : json(response, 200, { ok: 1 });
    expect(await client().get(configMapRef('agents', 'a'))).toEqual({ ok: 1 });
    expect(seen).toHaveLength(2);
  });

  it('gives up after one try per delay and one more, with the last answer', async () => {
    handler = (_request, response) => json(response, 429, status(429, 'TooManyRequests', 'slow down'));
    const error = await apiErrorOf(client({ retryDelaysMilliseconds: [1, 1] }).get(configMapRef('agents', 'a')));
    expect([error.status, error.reason, error.message]).toEqual([429, 'TooManyRequests', 'slow down']);
    expect(seen).toHaveLength(3);
    seen = [];
    await apiErrorOf(client({ retryDelaysMilliseconds: [] }).get(configMapRef('agents', 'a')));
    expect(seen).toHaveLength(1);
  });

  it('waits the given delays between tries', async () => {
    const times: number[] = [];
    handler = (_request, response) => {
      times.push(performance.now());
      json(response, 503, status(503, 'ServiceUnavailable', 'x'));
    };
    await apiErrorOf(client({ retryDelaysMilliseconds: [60, 120] }).get(configMapRef('agents', 'a')));
    expect(times).toHaveLength(3);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(55);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(115);
  });

  it('tries a dropped connection again', async () => {
    handler = (_request, response, index) => (index === 0 ? response.socket?.destroy() : json(response, 200, { ok: 2 }));
    expect(await client().get(configMapRef('agents', 'a'))).toEqual({ ok: 2 });
    expect(seen).toHaveLength(2);
  });

  it('gives up on a connection that keeps dropping, as a ConnectionFailed error', async () => {
    handler = (_request, response) => response.socket?.destroy();
    const error = await apiErrorOf(client().mergePatch(configMapRef('agents', 'a'), {}));
    expect([error.status, error.reason]).toEqual([0, 'ConnectionFailed']);
    expect(error.message).toMatch(/^PATCH \/api\/v1\/namespaces\/agents\/configmaps\/a: /);
    expect(seen).toHaveLength(3);
  });

  it('gives up on a server that does not answer in time', async () => {
    handler = () => undefined;
    // Half a second, not a few milliseconds: each attempt must reach the server before the client gives up
    // on it, which a loaded machine (a CI runner) may take tens of milliseconds to do.
    const error = await apiErrorOf(client({ timeoutMilliseconds: 500, retryDelaysMilliseconds: [1] }).get(configMapRef('agents', 'a')));
    expect(error.message).toBe('GET /api/v1/namespaces/agents/configmaps/a: the API server did not answer in time');
    expect(seen).toHaveLength(2);
  });

  it('cannot reach a closed port', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const api = new InClusterApi({ baseUrl: `http://127.0.0.1:${port}`, retryDelaysMilliseconds: [] });
    const error = await apiErrorOf(api.get(configMapRef('agents', 'a')));
    expect(error.reason).toBe('ConnectionFailed');
    expect(error.message).toMatch(/ECONNREFUSED/);
  });
});
