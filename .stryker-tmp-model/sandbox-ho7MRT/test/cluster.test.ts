/**
 * `status` and `resume` reading the cluster themselves: the real client (@kubernetes/client-node) against an
 * in-process API server (test/support/fake-kube-api.ts) over HTTP, never a mock of the client. What is read
 * from the cluster reads as the same ConfigMaps piped from kubectl; every failure of the API server (401,
 * 403, 404, 409, no answer) is one line naming what was done, where, and what to do; a watch follows a
 * task's stages and survives a dropped connection, a normal close and a 410 Gone (listing again).
 */
// @ts-nocheck

import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROGRESS_TRACKING_LABEL } from '../constructs/model/labels';
import { legacyProgressKey } from '../constructs/progress/progress-layout';
import { runCli, type Io } from '../src/cli';
import { connect } from '../src/cluster/connect';
import { followProgress } from '../src/cluster/progress-source';
import { FakeKubeApi } from './support/fake-kube-api';
import { runCapturing, runCapturingAsync } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';
import { NOT_BUILT, skipNote } from './support/skip-note';

const STATE = readFileSync(resolve(__dirname, 'fixtures/state/progress-configmaps.yaml'), 'utf8');
const CONFIG_MAPS: Record<string, any>[] = parse(STATE).items;
const NAMESPACE: string = CONFIG_MAPS[0].metadata.namespace;
const REPOSITORY = '5dlabs/cto-play-test';
const NOW = new Date('2026-11-23T07:22:00Z');

const scratch = useScratchDirs('agent-play-cluster-');
let api: FakeKubeApi;
let folder: string;
let kubeconfig: string;

beforeAll(() => {
  folder = scratch();
});

beforeEach(async () => {
  api = await FakeKubeApi.start();
  kubeconfig = api.kubeconfig(folder, { namespace: NAMESPACE });
  for (const configMap of CONFIG_MAPS) api.put(configMap);
});

afterEach(async () => {
  await api.close();
});

afterAll(() => undefined);

/** One record of the fixture's first ConfigMap, changed, put back: what a play's step does. */
function putRecord(task: string, change: (record: Record<string, any>) => void): void {
  const configMap = structuredClone(CONFIG_MAPS[0]);
  const record = JSON.parse(configMap.data[legacyProgressKey(task)]);
  change(record);
  configMap.data[legacyProgressKey(task)] = JSON.stringify(record);
  api.put(configMap);
}

const run = (argv: string[], options: { env?: Record<string, string> } = {}) =>
  runCapturingAsync(argv, { now: NOW, env: options.env ?? {} });

describe('agent-play status, from the cluster', () => {
  it('lists the progress ConfigMaps of the context namespace, the same as from kubectl output', async () => {
    const fromCluster = await run(['status', '--kubeconfig', kubeconfig]);
    expect(fromCluster.code, fromCluster.err).toBe(0);
    const fromPipe = runCapturing(['status'], { stdin: STATE, now: NOW });
    expect(fromCluster.out).toBe(fromPipe.out);
    expect(
      api.count(
        'GET',
        new RegExp(`^/api/v1/namespaces/${NAMESPACE}/configmaps$`),
        (query) => query.labelSelector === `${PROGRESS_TRACKING_LABEL}=true`,
      ),
    ).toBe(1);
  });

  it('reads the kubeconfig of KUBECONFIG, picks --context and --namespace, and -A reads every namespace', async () => {
    const env = { KUBECONFIG: kubeconfig };
    expect((await run(['status', '--format', 'json', '-A'], { env })).code).toBe(0);
    expect(api.count('GET', /^\/api\/v1\/configmaps\b/)).toBe(1);
    const other = await run(['status', '--context', 'other'], { env });
    expect(other).toMatchObject({ code: 2, out: '' });
    expect(other.err).toBe(
      `no progress ConfigMap in namespace "elsewhere" of context other (${api.url}); pass --namespace (-n) where the platform runs\n`,
    );
    expect((await run(['status', '-n', NAMESPACE, '--context', 'other'], { env })).code).toBe(0);
    const unknown = await run(['status', '--context', 'nope'], { env });
    expect(unknown).toMatchObject({ code: 2, err: '--context nope: no such context in the kubeconfig; contexts: fake, other\n' });
  });

  it('says in one line what the API server refused: 401, 403 (its message without terminal escapes), 404', async () => {
    const wrongToken = api.kubeconfig(folder, { namespace: NAMESPACE, token: 'stale', name: 'stale' });
    const unauthorized = await run(['status', '--kubeconfig', wrongToken]);
    expect(unauthorized.code).toBe(2);
    expect(unauthorized.err).toBe(
      `listing the progress ConfigMaps (${PROGRESS_TRACKING_LABEL}=true) in namespace "${NAMESPACE}" at ${api.url}: the API server answered 401; Unauthorized; the credentials of the kubeconfig were refused; log in again or pass --kubeconfig/--context\n`,
    );
    api.fail(/configmaps\b/, 403, 'configmaps is forbidden: User "dev" cannot list resource "configmaps"\u001b[2J\u001b]0;pwned\u0007', 1);
    const forbidden = await run(['status', '--kubeconfig', kubeconfig]);
    expect(forbidden.code).toBe(2);
    expect(forbidden.err.split('\n')).toHaveLength(2);
    expect(forbidden.err).toContain(
      'the API server answered 403; configmaps is forbidden: User "dev" cannot list resource "configmaps" [2J ]0;pwned; forbidden;',
    );
    // No control character but the final newline: the server's escapes cannot reach the terminal.
    expect([...forbidden.err.trimEnd()].filter((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)).toEqual([]);
    api.fail(/configmaps\b/, 404, 'namespaces "gone" not found', 1);
    const missing = await run(['status', '--kubeconfig', kubeconfig, '-n', 'gone']);
    expect(missing.err).toBe(
      `listing the progress ConfigMaps (${PROGRESS_TRACKING_LABEL}=true) in namespace "gone" at ${api.url}: the API server answered 404; namespaces "gone" not found; namespace "gone" does not exist\n`,
    );
  });

  it('gives up a request that gets no answer, and one to a server that is not there', async () => {
    api.hang(/configmaps\b/);
    const started = Date.now();
    const hung = await run(['status', '--kubeconfig', kubeconfig, '--request-timeout', '1s']);
    expect(hung.code).toBe(2);
    expect(hung.err).toBe(
      `listing the progress ConfigMaps (${PROGRESS_TRACKING_LABEL}=true) in namespace "${NAMESPACE}" at ${api.url}: no answer in time (timed out)\n`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const url = api.url;
    await api.close();
    const refused = await run(['status', '--kubeconfig', kubeconfig]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`at ${url}: cannot reach the API server (ECONNREFUSED)`);
    api = await FakeKubeApi.start(); // for afterEach
  });

  it('refuses a FILE with cluster options, malformed cluster options, and a missing kubeconfig, each in one line', async () => {
    expect(await run(['status', 'state.yaml', '--context', 'fake'])).toMatchObject({
      code: 2,
      err: 'agent-play status: give the progress ConfigMaps as FILE (or -) or read them from the cluster (--kubeconfig, --context, --namespace), not both\n',
    });
    expect((await run(['status', '-n', 'Not_A_Namespace'])).err).toBe(
      'agent-play status: --namespace: expected a namespace name (lower-case letters, digits and -, at most 63), got "Not_A_Namespace"\n',
    );
    expect((await run(['status', '--request-timeout', 'soon', '--kubeconfig', kubeconfig])).err).toMatch(
      /^agent-play status: --request-timeout: .+\n$/,
    );
    expect(await run(['status', '--kubeconfig', resolve(folder, 'absent')])).toMatchObject({
      code: 2,
      err: `--kubeconfig ${resolve(folder, 'absent')}: no such file\n`,
    });
    expect((await run(['status', '-A'], { env: { HOME: folder, KUBECONFIG: '' } })).err).toMatch(/^no kubeconfig: pass --kubeconfig FILE/);
  });
});

describe('agent-play resume, from the cluster', () => {
  const resume = (extra: string[], io: Partial<Io> = {}) => {
    let out = '';
    let err = '';
    const code = runCli(['resume', '--repository', REPOSITORY, '--task', '5', '--kubeconfig', kubeconfig, ...extra], {
      out: (text) => (out += text),
      err: (text) => (err += text),
      env: {},
      ...io,
    });
    return Promise.resolve(code).then((exit) => ({ code: exit, out, err }));
  };

  it('prints the same Workflow as from kubectl output', async () => {
    const fromCluster = await resume([]);
    expect(fromCluster.code, fromCluster.err).toBe(0);
    const fromPipe = runCapturing(['resume', '--repository', REPOSITORY, '--task', '5'], { stdin: STATE });
    expect(fromCluster.out).toBe(fromPipe.out);
    expect(JSON.parse((await resume(['--format', 'json'])).out)).toEqual(parse(fromPipe.out));
    expect(api.workflows).toEqual([]);
  });

  it('--apply --yes creates the Workflow once; a second time the API server says it exists (409), one line', async () => {
    const created = await resume(['--apply', '--yes']);
    expect(created.code, created.err).toBe(0);
    expect(created.out).toBe(`created Workflow play-play-test-task-5 in namespace ${NAMESPACE}\n`);
    expect(api.workflows).toHaveLength(1);
    expect(api.workflows[0]).toMatchObject({ kind: 'Workflow', metadata: { name: 'play-play-test-task-5', namespace: NAMESPACE } });
    const again = await resume(['--apply', '--yes']);
    expect(again.code).toBe(2);
    expect(again.err).toBe(
      `creating Workflow play-play-test-task-5 in namespace "${NAMESPACE}" at ${api.url}: a Workflow of that name exists already; the play is running (see agent-play status), or delete it first\n`,
    );
    expect(api.workflows).toHaveLength(1);
  });

  it('asks first: creates on yes, nothing on no, and refuses without a terminal unless --yes', async () => {
    const questions: string[] = [];
    const declined = await resume(['--apply'], { interactive: true, ask: async (question) => (questions.push(question), 'n') });
    expect(declined).toMatchObject({ code: 1, err: 'nothing created\n' });
    expect(questions[0]).toBe(
      `create Workflow play-play-test-task-5 in namespace ${NAMESPACE} of context fake (${api.url}), resuming ${REPOSITORY} task 5 at stage implementation? [y/N] `,
    );
    expect(api.workflows).toEqual([]);
    const headless = await resume(['--apply'], { interactive: false });
    expect(headless).toMatchObject({
      code: 2,
      err: 'agent-play resume: --apply: no terminal to ask on; pass --yes to create the Workflow without asking\n',
    });
    expect(api.workflows).toEqual([]);
    expect(await resume(['--apply'], { interactive: true, ask: async () => 'yes' })).toMatchObject({ code: 0 });
    expect(api.workflows).toHaveLength(1);
    expect((await resume(['--yes'])).err).toBe('agent-play resume: --yes: only with --apply\n');
  });

  it('says so when the cluster has no Workflow resource (404) or refuses the create (403)', async () => {
    api.fail(/workflows\b/, 404, 'the server could not find the requested resource', 1);
    const missing = await resume(['--apply', '--yes']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(
      'the API server answered 404; the server could not find the requested resource; no Workflow resource there: is Argo Workflows installed',
    );
    api.fail(/workflows\b/, 403, 'workflows.argoproj.io is forbidden', 1);
    const forbidden = await resume(['--apply', '--yes']);
    expect(forbidden.err).toContain('the API server answered 403; workflows.argoproj.io is forbidden; forbidden;');
    expect(api.workflows).toEqual([]);
  });
});

describe('agent-play status --watch', () => {
  it("prints a task's stages as they change and ends when its play completes", async () => {
    let out = '';
    const stop = AbortSignal.timeout(20_000);
    const code = runCli(['status', '--watch', '--task', '6', '--kubeconfig', kubeconfig], {
      out: (text) => (out += text),
      err: () => undefined,
      env: {},
      now: () => NOW,
      signal: stop,
    });
    await until(() => api.openWatches === 1);
    putRecord('6', (record) => Object.assign(record, { stage: 'code-quality', status: 'in-progress', lastAgent: 'cleo' }));
    await until(() => out.split('\n').length === 3);
    putRecord('6', (record) => Object.assign(record, { stage: 'code-quality', status: 'in-progress', lastAgent: 'cleo' }));
    putRecord('6', (record) => Object.assign(record, { stage: 'completed', status: 'completed' }));
    expect(await code).toBe(0);
    expect(stop.aborted).toBe(false);
    expect(out.split('\n').map((line) => line.split(/\s{2}/).slice(1, 5))).toEqual([
      [REPOSITORY, 'task 6', 'waiting-pr-created', 'suspended'],
      [REPOSITORY, 'task 6', 'code-quality', 'in-progress'],
      [REPOSITORY, 'task 6', 'completed', 'completed'],
      [],
    ]);
  });

  it('ends with exit 1 when the play fails, and prints JSON lines with --format json', async () => {
    let out = '';
    const code = runCli(['status', '-w', '--task', '6', '--format', 'json', '--kubeconfig', kubeconfig], {
      out: (text) => (out += text),
      err: () => undefined,
      env: {},
      now: () => NOW,
      signal: AbortSignal.timeout(20_000),
    });
    await until(() => api.openWatches === 1);
    putRecord('6', (record) => Object.assign(record, { status: 'failed' }));
    expect(await code).toBe(1);
    const lines = out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.status)).toEqual(['suspended', 'failed']);
  });
});

describe('following the progress ConfigMaps', () => {
  const follow = async (maxFailures = 3) => {
    const controller = new AbortController();
    const cluster = await connect({ kubeconfig }, {});
    const seen: string[][] = [];
    const done = followProgress(
      cluster,
      { allNamespaces: false },
      (objects) => seen.push(objects.map((object: any) => `${object.metadata.name}@${object.metadata.resourceVersion}`)),
      { signal: controller.signal, backoffMs: () => 10, maxFailures, idleMs: 2000, watchSeconds: 1 },
    );
    return { controller, seen, done };
  };
  const watchesFrom = () =>
    api.requests.filter((request) => request.query.watch === 'true').map((request) => request.query.resourceVersion);
  const lists = () => api.requests.filter((request) => request.query.watch === undefined).length;

  it('opens the watch again from the last version after a drop or a close, and lists again after 410 Gone', async () => {
    const { controller, seen, done } = await follow();
    await until(() => api.openWatches === 1);
    const listed = watchesFrom()[0];
    putRecord('5', (record) => (record.stage = 'code-quality'));
    await until(() => seen.length === 2);
    const afterPut = seen[1][0].split('@')[1];
    api.dropWatches();
    await until(() => api.openWatches === 1 && watchesFrom().length === 2);
    api.closeWatches();
    await until(() => api.openWatches === 1 && watchesFrom().length === 3);
    expect(watchesFrom()).toEqual([listed, afterPut, afterPut]);
    expect(lists()).toBe(1);
    api.expireWatches();
    await until(() => api.openWatches === 1 && lists() === 2);
    api.remove(NAMESPACE, CONFIG_MAPS[0].metadata.name);
    await until(() => seen.at(-1)?.length === CONFIG_MAPS.length - 1);
    controller.abort();
    await done;
  });

  it('gives up, in one line, after the watch fails time after time', async () => {
    api.fail(/configmaps\?.*watch=true/, 500, 'etcd is down');
    const cluster = await connect({ kubeconfig }, {});
    await expect(
      followProgress(cluster, { allNamespaces: false }, () => undefined, { signal: new AbortController().signal, backoffMs: () => 5 }),
    ).rejects.toThrow(
      `watching the progress ConfigMaps in namespace "${NAMESPACE}" at ${api.url}: gave up after 8 failed attempts (the API server answered 500)`,
    );
  });
});

const BUILT = resolve(__dirname, '..', 'build/cli.cjs');

describe.skipIf(!existsSync(BUILT))(`the compiled command line${skipNote(existsSync(BUILT), NOT_BUILT)}`, () => {
  it('loads the client it carries (build/kube-client.cjs) and reads the cluster', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = execFile(process.execPath, [BUILT, 'status', '--kubeconfig', kubeconfig, '--format', 'json'], (error, stdout, stderr) =>
        done({ code: error ? (child.exitCode ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout).tasks.map((task: { task: string }) => task.task)).toContain('5');
  });
});

/** Waits for a condition the server or the command reaches asynchronously. */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${condition}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
