/**
 * The runtime's reading of the repository registry: `readRegistryEntry` (the shard and key of a repository,
 * a missing shard or entry, a refused or failed read, an entry that is not one), the first step of every play
 * (`resolve-repository`: its outputs, the label it puts on the play, and each way it refuses to run the play),
 * and the event helpers' check of an event's repository (`eventRepository`). The behaviours the mutation run
 * of the runtime program (stryker.runtime.config.json) holds these files to.
 */
import { describe, expect, it } from 'vitest';
import { PlayAnnotations, PlayLabels, WorkflowTypes } from '../../constructs/model/labels';
import { eventRepository } from '../../constructs/registry/event-repository';
import {
  AgentOutputs,
  parseRegistryEntry,
  REGISTRY_SHARDS,
  registryConfigMapOf,
  registryKeyOf,
  RepositoryOutputs,
} from '../../constructs/registry/registry-layout';
import { readRegistryEntry } from '../../constructs/registry/registry-reader';
import { resolveRepositoryStep } from '../../constructs/registry/resolve-repository-step';
import { ApiResources, workflowRef } from '../../constructs/runtime/kube-api';
import { StepFailure } from '../../constructs/runtime/runtime-step';
import {
  apiError,
  conflict,
  failure,
  forbidden,
  type Harness,
  harness,
  NAMESPACE,
  notFound,
  putConfigMap,
  REPOSITORY,
  register,
  registeredHarness,
  registryEntryOf,
} from '../support/runtime-harness';

const SHARD = registryConfigMapOf(REPOSITORY);
const KEY = registryKeyOf(REPOSITORY);
const PLAY = 'play-x7k2p';
const timeout = () => apiError(0, 'ConnectionFailed', 'GET /api/v1/namespaces/agents/configmaps: the API server did not answer in time');

/** Puts `text` as the stored entry of `REPOSITORY`. */
function storeEntry(h: Harness, text: unknown): void {
  putConfigMap(h, SHARD, { [KEY]: text });
}

/** The entry of `REPOSITORY` as JSON with `edit` applied (a hand edit of the registry). */
function editedEntry(edit: (entry: Record<string, unknown>) => void): string {
  const entry = JSON.parse(JSON.stringify(registryEntryOf())) as Record<string, unknown>;
  edit(entry);
  return JSON.stringify(entry);
}

describe('the registry layout', () => {
  it('keys an entry by the repository label value, in one of the shards, whatever the letter case', () => {
    expect(KEY).toBe('octo-org.payments');
    expect(registryKeyOf('octo-org/PAYMENTS')).toBe(KEY);
    expect(registryConfigMapOf('OCTO-ORG/payments')).toBe(SHARD);
    expect(SHARD).toMatch(/^play-repositories-\d{1,2}$/);
    const shards = new Set(Array.from({ length: 400 }, (_, index) => registryConfigMapOf(`octo-org/repo-${index}`)));
    expect(shards.size).toBe(REGISTRY_SHARDS);
    expect([...shards].every((name) => Number(name.slice('play-repositories-'.length)) < REGISTRY_SHARDS)).toBe(true);
  });

  it('names the agent outputs after the agent', () => {
    expect([AgentOutputs.cli('rex'), AgentOutputs.claim('rex'), AgentOutputs.settings('rex')]).toEqual([
      'cli-rex',
      'claim-rex',
      'cli-settings-rex',
    ]);
  });

  it('reads back an entry it stored, extra fields and no agents included', () => {
    const entry = registryEntryOf();
    expect(parseRegistryEntry(JSON.stringify(entry))).toEqual({ entry });
    expect(parseRegistryEntry(editedEntry((fields) => Object.assign(fields, { agents: {}, later: 1 })))).toMatchObject({
      entry: { agents: {} },
    });
  });

  it.each([
    ['not JSON', '{"name":', 'the registry entry is not JSON'],
    ['JSON null', 'null', 'the registry entry is not an object'],
    ['a JSON text', '"octo-org/payments"', 'the registry entry is not an object'],
    ['a JSON array', '[]', 'the registry entry is not an object'],
    ['a number', '7', 'the registry entry is not an object'],
  ])('says why an entry that is %s is not one', (_, text, problem) => {
    expect(parseRegistryEntry(text)).toEqual({ problem });
  });

  it.each(['name', 'service', 'branch', 'workingDirectory', 'docsRepository', 'docsProjectDirectory', 'docsBranch', 'playTemplate'])(
    'refuses an entry whose %s is missing or not text',
    (field) => {
      const problem = `the registry entry has no text ${field}`;
      expect(parseRegistryEntry(editedEntry((entry) => delete entry[field]))).toEqual({ problem });
      expect(parseRegistryEntry(editedEntry((entry) => Object.assign(entry, { [field]: 7 })))).toEqual({ problem });
      expect(parseRegistryEntry(editedEntry((entry) => Object.assign(entry, { [field]: '' })))).not.toHaveProperty('problem');
    },
  );

  it('refuses an entry without agents, or with an agent that lacks its cli, claim or settings', () => {
    expect(parseRegistryEntry(editedEntry((entry) => delete entry.agents))).toEqual({ problem: 'the registry entry has no agents' });
    expect(parseRegistryEntry(editedEntry((entry) => Object.assign(entry, { agents: null })))).toEqual({
      problem: 'the registry entry has no agents',
    });
    expect(parseRegistryEntry(editedEntry((entry) => Object.assign(entry, { agents: 'rex' })))).toEqual({
      problem: 'the registry entry has no agents',
    });
    const agent = { cli: 'claude', claim: 'workspace-payments', settings: '{}' };
    for (const broken of [null, 'claude', {}, { ...agent, cli: 1 }, { ...agent, claim: undefined }, { ...agent, settings: {} }])
      expect(parseRegistryEntry(editedEntry((entry) => Object.assign(entry, { agents: { rex: agent, tess: broken } })))).toEqual({
        problem: 'the registry entry of agent tess lacks its cli, claim or settings',
      });
  });
});

describe('readRegistryEntry', () => {
  it("reads the repository's entry from its key in its shard, in one read, whatever the letter case", async () => {
    const h = registeredHarness();
    register(h, registryEntryOf({ name: 'octo-org/web', service: 'web' }));
    expect(await readRegistryEntry(h.context, NAMESPACE, 'OCTO-ORG/payments')).toEqual(registryEntryOf());
    expect(h.api.seen).toEqual([{ verb: 'get', resource: 'configmaps', name: SHARD, body: undefined }]);
  });

  it('reads in the namespace it is given', async () => {
    const h = registeredHarness();
    expect(await readRegistryEntry(h.context, 'elsewhere', REPOSITORY)).toBeUndefined();
  });

  it('finds no entry when the shard is missing, holds other repositories only, or holds no data', async () => {
    const h = harness();
    expect(await readRegistryEntry(h.context, NAMESPACE, REPOSITORY)).toBeUndefined();
    putConfigMap(h, SHARD, { 'octo-org.web': JSON.stringify(registryEntryOf({ name: 'octo-org/web' })) });
    expect(await readRegistryEntry(h.context, NAMESPACE, REPOSITORY)).toBeUndefined();
    h.server.put(ApiResources.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: SHARD, namespace: NAMESPACE } });
    expect(await readRegistryEntry(h.context, NAMESPACE, REPOSITORY)).toBeUndefined();
  });

  it('says the grant is missing when the read is forbidden, never that the entry is missing', async () => {
    const h = registeredHarness();
    h.api.fail({ verb: 'get', resource: ApiResources.configMaps }, forbidden);
    const error = await failure(readRegistryEntry(h.context, NAMESPACE, REPOSITORY));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe(
      `reading the repository registry ${SHARD}: forbidden (403): the step's service account lacks this grant: ${forbidden().message}`,
    );
  });

  it('fails with what the server answered to a read that timed out, was refused or conflicted', async () => {
    const h = registeredHarness();
    h.api.fail({ verb: 'get' }, timeout);
    expect((await failure(readRegistryEntry(h.context, NAMESPACE, REPOSITORY))).message).toBe(
      `reading the repository registry ${SHARD}: 0 ConnectionFailed: ${timeout().message}`,
    );
    h.api.fail({ verb: 'get' }, () => apiError(500, 'InternalError', 'etcd'));
    expect((await failure(readRegistryEntry(h.context, NAMESPACE, REPOSITORY))).message).toBe(
      `reading the repository registry ${SHARD}: 500 InternalError: etcd`,
    );
    h.api.fail({ verb: 'get' }, conflict);
    expect(await failure(readRegistryEntry(h.context, NAMESPACE, REPOSITORY))).toBeInstanceOf(StepFailure);
  });

  it('passes on an error that is not an API error', async () => {
    const h = registeredHarness();
    const bug = new TypeError('a bug');
    h.api.answer({ verb: 'get' }, () => {
      throw bug;
    });
    expect(await failure(readRegistryEntry(h.context, NAMESPACE, REPOSITORY))).toBe(bug);
  });

  it('refuses an entry that is not text, or not an entry, naming the ConfigMap and the repository', async () => {
    const h = harness();
    storeEntry(h, 12);
    const notText = await failure(readRegistryEntry(h.context, NAMESPACE, REPOSITORY));
    expect(notText).toBeInstanceOf(StepFailure);
    expect(notText.message).toBe(`${SHARD}: the entry of ${REPOSITORY} is not text`);
    storeEntry(
      h,
      editedEntry((entry) => delete entry.branch),
    );
    const broken = await failure(readRegistryEntry(h.context, NAMESPACE, REPOSITORY));
    expect(broken).toBeInstanceOf(StepFailure);
    expect(broken.message).toBe(`${SHARD}: ${REPOSITORY}: the registry entry has no text branch`);
    storeEntry(h, '');
    expect((await failure(readRegistryEntry(h.context, NAMESPACE, REPOSITORY))).message).toBe(
      `${SHARD}: ${REPOSITORY}: the registry entry is not JSON`,
    );
  });
});

describe('resolve-repository', () => {
  const environment = (overrides: Record<string, string> = {}) => ({
    NAMESPACE,
    WORKFLOW_NAME: PLAY,
    REPOSITORY: 'octo-org/payments',
    TASK_ID: '7',
    START_STAGE: 'implementation',
    ROUND: '1',
    PLAY_TEMPLATE: 'play',
    AGENTS: 'rex cleo',
    ...overrides,
  });

  /** A harness holding the registry and the play the step runs in. */
  function withPlay(): Harness {
    const h = registeredHarness();
    h.server.put(ApiResources.workflows, {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { name: PLAY, namespace: NAMESPACE, labels: { 'task-id': '7' } },
    });
    return h;
  }

  const playOf = (h: Harness) => h.server.peek(workflowRef(NAMESPACE, PLAY));

  it("gives the later steps the repository's settings and each agent's, and labels the play with its repository", async () => {
    const h = withPlay();
    register(
      h,
      registryEntryOf({
        service: 'payments-api',
        branch: 'develop',
        workingDirectory: 'services/payments',
        docsRepository: 'octo-org/docs',
        docsProjectDirectory: 'projects/payments',
        docsBranch: 'trunk',
        agents: {
          rex: { cli: 'codex', claim: 'workspace-payments-api', settings: '{"model":"m"}' },
          cleo: { cli: 'claude', claim: 'workspace-payments-api-cleo', settings: '{}' },
          tess: { cli: 'gemini', claim: 'workspace-payments-api-tess', settings: '{}' },
        },
      }),
    );
    expect(await h.run(resolveRepositoryStep, environment())).toEqual({
      [RepositoryOutputs.name]: REPOSITORY,
      [RepositoryOutputs.label]: 'octo-org.payments',
      [RepositoryOutputs.service]: 'payments-api',
      [RepositoryOutputs.branch]: 'develop',
      [RepositoryOutputs.workingDirectory]: 'services/payments',
      [RepositoryOutputs.docsRepository]: 'octo-org/docs',
      [RepositoryOutputs.docsProjectDirectory]: 'projects/payments',
      [RepositoryOutputs.docsBranch]: 'trunk',
      'cli-rex': 'codex',
      'claim-rex': 'workspace-payments-api',
      'cli-settings-rex': '{"model":"m"}',
      'cli-cleo': 'claude',
      'claim-cleo': 'workspace-payments-api-cleo',
      'cli-settings-cleo': '{}',
    });
    expect(playOf(h)?.metadata.labels).toEqual({
      [PlayLabels.workflowType]: WorkflowTypes.play,
      [PlayLabels.taskId]: '7',
      [PlayLabels.repository]: 'octo-org.payments',
      [PlayLabels.currentStage]: 'implementation',
      [PlayLabels.round]: '1',
    });
    expect(playOf(h)?.metadata.annotations).toEqual({ [PlayAnnotations.repository]: REPOSITORY });
    expect(h.logs).toEqual([`play ${PLAY} runs ${REPOSITORY} (service payments-api, branch develop)`]);
  });

  it('declares every output it gives, and gives only the repository outputs when the play names no agent', async () => {
    const h = withPlay();
    const outputs = await h.run(resolveRepositoryStep, environment({ AGENTS: '' }));
    expect(Object.keys(outputs).sort()).toEqual(Object.values(RepositoryOutputs).sort());
    expect(resolveRepositoryStep.outputs).toEqual(Object.values(RepositoryOutputs));
  });

  it('refuses a repository that is not owner/name before any API call', async () => {
    const h = withPlay();
    const error = await failure(h.run(resolveRepositoryStep, environment({ REPOSITORY: 'payments' })));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe('REPOSITORY: "payments" is not a GitHub repository: expected owner/name, e.g. octo-org/payments');
    expect(h.api.seen).toEqual([]);
  });

  it('refuses a task, stage or round it could not label the play with, before any API call', async () => {
    for (const [overrides, message] of [
      [{ TASK_ID: '07' }, 'TASK_ID: expected a task id'],
      [{ START_STAGE: '' }, 'START_STAGE: is empty'],
      [{ ROUND: '0' }, 'ROUND: expected a whole number of at least 1, got "0"'],
    ] as const) {
      const h = withPlay();
      const error = await failure(h.run(resolveRepositoryStep, environment(overrides)));
      expect(error.message).toContain(message);
      expect(h.api.seen).toEqual([]);
    }
  });

  it('fails a play of a repository the registry does not hold (no shard, or no entry in it), labelling nothing', async () => {
    const h = harness();
    const message = `repository ${REPOSITORY} is not in the platform's registry (${SHARD}): add it to the configuration's repositories and sync the platform`;
    const missing = await failure(h.run(resolveRepositoryStep, environment({ REPOSITORY })));
    expect(missing).toBeInstanceOf(StepFailure);
    expect(missing.message).toBe(message);
    register(h, registryEntryOf({ name: 'octo-org/web' }));
    putConfigMap(h, SHARD, { 'octo-org.other': '{}' });
    expect((await failure(h.run(resolveRepositoryStep, environment({ REPOSITORY })))).message).toBe(message);
    expect(h.api.calls('patch')).toEqual([]);
  });

  it('fails a play run from another template than its repository runs, labelling nothing', async () => {
    const h = withPlay();
    register(h, registryEntryOf({ playTemplate: 'play-x1y2z3' }));
    const error = await failure(h.run(resolveRepositoryStep, environment()));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe(`repository ${REPOSITORY} runs WorkflowTemplate play-x1y2z3, not play: submit it from that one`);
    expect(await h.run(resolveRepositoryStep, environment({ PLAY_TEMPLATE: 'play-x1y2z3' }))).toMatchObject({ service: 'payments' });
  });

  it('fails a play whose stage machine has an agent the entry lacks (a platform not synced), labelling nothing', async () => {
    const h = withPlay();
    const error = await failure(h.run(resolveRepositoryStep, environment({ AGENTS: 'rex tess cleo' })));
    expect(error).toBeInstanceOf(StepFailure);
    expect(error.message).toBe(`the registry entry of ${REPOSITORY} has no agent tess: sync the platform`);
    expect(h.api.calls('patch')).toEqual([]);
  });

  it('fails on an entry that is not one, naming the ConfigMap', async () => {
    const h = withPlay();
    storeEntry(
      h,
      editedEntry((entry) => Object.assign(entry, { agents: { rex: {} } })),
    );
    expect((await failure(h.run(resolveRepositoryStep, environment()))).message).toBe(
      `${SHARD}: octo-org/payments: the registry entry of agent rex lacks its cli, claim or settings`,
    );
  });

  it('says the grant is missing when it may not read the registry', async () => {
    const h = withPlay();
    h.api.fail({ verb: 'get', resource: ApiResources.configMaps }, forbidden);
    expect((await failure(h.run(resolveRepositoryStep, environment()))).message).toMatch(
      new RegExp(`^reading the repository registry ${SHARD}: forbidden \\(403\\): the step's service account lacks this grant`),
    );
  });

  it('fails with one line naming the play when it may not label it, or the label write conflicts, times out or finds it gone', async () => {
    const h = withPlay();
    const labelling = `labelling play ${PLAY}`;
    h.api.fail({ verb: 'patch', resource: ApiResources.workflows }, forbidden);
    expect((await failure(h.run(resolveRepositoryStep, environment()))).message).toBe(
      `${labelling}: forbidden (403): the step's service account lacks this grant: ${forbidden().message}`,
    );
    h.api.fail({ verb: 'patch' }, conflict);
    expect((await failure(h.run(resolveRepositoryStep, environment()))).message).toBe(`${labelling}: 409 Conflict: ${conflict().message}`);
    h.api.fail({ verb: 'patch' }, timeout);
    expect((await failure(h.run(resolveRepositoryStep, environment()))).message).toBe(
      `${labelling}: 0 ConnectionFailed: ${timeout().message}`,
    );
    h.api.fail({ verb: 'patch' }, notFound);
    const gone = await failure(h.run(resolveRepositoryStep, environment()));
    expect(gone).toBeInstanceOf(StepFailure);
    expect(gone.message).toBe(`${labelling}: 404 NotFound: not found`);
    expect(playOf(h)?.metadata.annotations).toBeUndefined();
    expect(h.logs).toEqual([]);
  });
});

describe('eventRepository', () => {
  const event = (overrides: Partial<Parameters<typeof eventRepository>[1]> = {}) => ({
    namespace: NAMESPACE,
    repository: 'octo-org/PAYMENTS',
    task: 12,
    baseBranch: 'main',
    strategy: 'label-selector' as const,
    ...overrides,
  });

  it("takes an event of a registered repository into its branch, or naming no branch, with the task's play name by strategy", async () => {
    const h = registeredHarness();
    register(h, registryEntryOf({ service: 'Billing API' }));
    expect(await eventRepository(h.context, event())).toEqual({ entry: registryEntryOf({ service: 'Billing API' }), playName: '' });
    expect(await eventRepository(h.context, event({ baseBranch: '', strategy: 'workflow-name' }))).toMatchObject({
      playName: 'play-billing-api-task-12',
    });
  });

  it('ignores an event of a repository the registry does not hold, or into another branch, saying why', async () => {
    const h = harness();
    expect(await eventRepository(h.context, event())).toEqual({
      ignored: "repository octo-org/PAYMENTS is not one of the platform's: nothing to do",
    });
    register(h);
    expect(await eventRepository(h.context, event({ baseBranch: 'Main' }))).toEqual({
      ignored: `the pull request merges into Main, not into main (the branch of ${REPOSITORY}): nothing to do`,
    });
  });

  it('fails, never ignoring the event, when the registry cannot be read', async () => {
    const h = registeredHarness();
    h.api.fail({ verb: 'get' }, forbidden);
    expect(await failure(eventRepository(h.context, event()))).toBeInstanceOf(StepFailure);
    storeEntry(h, '[]');
    expect((await failure(eventRepository(h.context, event()))).message).toBe(
      `${SHARD}: octo-org/PAYMENTS: the registry entry is not an object`,
    );
  });
});
