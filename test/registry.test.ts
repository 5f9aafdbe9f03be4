/**
 * The repository registry (constructs/registry/): the entries the platform writes, the play templates the
 * repositories share, the first step of every play that reads its entry, and the event helpers' check of an
 * event's repository and base branch; with the failure paths a cluster gives them (a missing or broken
 * entry, a forbidden read, a play that is gone).
 */
import { describe, expect, it } from 'vitest';
import { PlayAnnotations, PlayLabels, WorkflowTypes } from '../constructs/model/labels';
import { playSelectorLabels } from '../constructs/model/play-workflow';
import { repositoryLabelValue } from '../constructs/model/naming';
import { eventRepository } from '../constructs/registry/event-repository';
import { playGroups, playTemplateOf, registryEntry, type RegistrySource } from '../constructs/registry/registry-entries';
import { readRegistryEntry } from '../constructs/registry/registry-reader';
import {
  parseRegistryEntry,
  REGISTRY_SHARDS,
  registryConfigMapOf,
  registryKeyOf,
  RepositoryOutputs,
} from '../constructs/registry/registry-layout';
import { resolveRepositoryStep } from '../constructs/registry/resolve-repository-step';
import { resolveConfig } from '../constructs/model/resolve-config';
import { ApiError, ApiResources, type KubeApi, type KubeObject, workflowRef } from '../constructs/runtime/kube-api';
import { StepFailure, type StepContext } from '../constructs/runtime/runtime-step';
import { MemoryApiServer } from '../src/simulate/memory-api';
import { synth } from './support/synth';

const REPOSITORIES = [
  { name: 'octo-org/api', service: 'api' },
  { name: 'Octo-Org/Web.App', service: 'web', branch: 'develop', workingDirectory: 'app' },
];
const platform = synth({ file: { repositories: REPOSITORIES }, env: {} });
const NAMESPACE = 'agents';
const PLAY = 'play-api-task-5';

/** A context on an API server holding the platform's ConfigMaps and one play Workflow, with `labels`. */
function context(
  wrap: (api: KubeApi) => KubeApi = (api) => api,
  labels?: Record<string, string>,
): { context: StepContext; server: MemoryApiServer; log: string[] } {
  const server = new MemoryApiServer(() => new Date('2026-11-01T00:00:00Z'));
  for (const object of platform.objects) if (object.kind === 'ConfigMap') server.put(ApiResources.configMaps, object as KubeObject);
  server.put(ApiResources.workflows, {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: { name: PLAY, namespace: NAMESPACE, ...(labels ? { labels } : {}) },
  });
  const log: string[] = [];
  return {
    server,
    log,
    context: { api: wrap(server.client()), now: () => new Date(), sleep: async () => {}, log: (line) => log.push(line) },
  };
}

/** An API whose calls matching `when` fail with `status`. */
function failing(status: number, reason: string, when: (method: string, name: string) => boolean) {
  return (api: KubeApi): KubeApi =>
    new Proxy(api, {
      get(target, method: string) {
        const real = (target as any)[method].bind(target);
        return (...args: any[]) => {
          const name = args[0]?.name ?? '';
          if (when(method, name)) throw new ApiError(status, reason, `${method} ${name}: ${reason}`);
          return real(...args);
        };
      },
    });
}

const resolve = (
  values: Partial<Parameters<typeof resolveRepositoryStep.run>[1]> = {},
  wrap?: (api: KubeApi) => KubeApi,
  labels?: Record<string, string>,
) => {
  const run = context(wrap, labels);
  const result = resolveRepositoryStep.run(run.context, {
    namespace: NAMESPACE,
    workflowName: PLAY,
    repository: 'octo-org/api',
    task: 42,
    startStage: 'implementation',
    round: 1,
    playTemplate: 'play',
    agents: ['rex', 'cleo', 'tess'],
    ...values,
  });
  return { ...run, result };
};

describe('the registry the platform writes', () => {
  const registry = platform.byKind('ConfigMap').filter((object) => object.metadata.name.startsWith('play-repositories-'));

  it('holds one entry per repository, under its label value, in the shard its name hashes to', () => {
    const keys = registry.flatMap((configMap) => Object.keys(configMap.data));
    expect(keys.sort()).toEqual(REPOSITORIES.map((repository) => repositoryLabelValue(repository.name)).sort());
    for (const repository of REPOSITORIES) {
      const shard = registry.find((configMap) => configMap.metadata.name === registryConfigMapOf(repository.name));
      expect(shard?.data[registryKeyOf(repository.name)], repository.name).toBeDefined();
    }
  });

  it('writes what the plays read: service, branch, folders, and each agent CLI, claim and settings', () => {
    const text = registry.find((configMap) => configMap.metadata.name === registryConfigMapOf('octo-org/web.app'))?.data[
      registryKeyOf('Octo-Org/Web.App')
    ];
    const parsed = parseRegistryEntry(text);
    expect('entry' in parsed && parsed.entry).toMatchObject({
      name: 'Octo-Org/Web.App',
      service: 'web',
      branch: 'develop',
      workingDirectory: 'app',
      docsBranch: 'develop',
      playTemplate: 'play',
      agents: { rex: { claim: 'workspace-web' }, cleo: { claim: 'workspace-web-cleo' } },
    });
  });

  it('spreads repositories over a fixed number of shards, whatever the letter case', () => {
    const shards = new Set(Array.from({ length: 500 }, (_, index) => registryConfigMapOf(`o/r-${index}`)));
    expect(shards.size).toBe(REGISTRY_SHARDS);
    expect(registryConfigMapOf('Octo/Web')).toBe(registryConfigMapOf('octo/web'));
  });

  it('refuses an entry that is not one, saying what is wrong', () => {
    expect(parseRegistryEntry('{')).toEqual({ problem: expect.stringMatching(/JSON/) });
    expect(parseRegistryEntry('{"name":"a/b"}')).toEqual({ problem: expect.any(String) });
  });
});

describe('play templates shared by repositories', () => {
  const config = resolveConfig({ env: {}, file: { repositories: REPOSITORIES } });
  const source = (overrides: Partial<RegistrySource> = {}): RegistrySource => ({
    repositories: config.repositories,
    agents: config.agents,
    clis: config.clis,
    stageAgents: ['rex', 'cleo', 'tess'],
    ...overrides,
  });

  it('is one template, play, for every repository of CodeRun agents, whatever their CLI bindings', () => {
    const bound = config.repositories.map((repository, index) =>
      index === 0 ? { ...repository, agentClis: { rex: 'codex' } } : repository,
    );
    expect(playGroups(source({ repositories: bound })).map((group) => group.template)).toEqual(['play']);
    expect(registryEntry(source(), bound[0], 'play').agents.rex.cli).toBe('codex');
  });

  it('gives direct agents bound to another CLI their own template, and names it in their entries', () => {
    const bound = config.repositories.map((repository, index) =>
      index === 0 ? { ...repository, agentClis: { rex: 'codex' } } : repository,
    );
    const groups = playGroups(source({ repositories: bound, execution: 'direct' }));
    expect(groups).toHaveLength(2);
    expect(groups.find((group) => group.template === 'play')?.repositories.map((repository) => repository.name)).toEqual([
      'Octo-Org/Web.App',
    ]);
    const variant = groups.find((group) => group.template !== 'play');
    expect(variant?.template).toMatch(/^play-[a-z0-9]{6}$/);
    expect(variant?.directClis).toEqual({ cleo: config.agents.cleo.cli, rex: 'codex', tess: config.agents.tess.cli });
    expect(playTemplateOf(source({ repositories: bound, execution: 'direct' }), 'OCTO-ORG/API')).toBe(variant?.template);
    expect(() => playTemplateOf(source(), 'octo-org/nope')).toThrow('repository octo-org/nope is not configured');
  });
});

describe('resolve-repository, the first step of every play', () => {
  it("gives the later steps the repository's settings and labels the play with its repository", async () => {
    const { result, server } = resolve({ repository: 'OCTO-ORG/API' });
    const outputs = await result;
    expect(outputs).toMatchObject({
      [RepositoryOutputs.name]: 'octo-org/api',
      [RepositoryOutputs.label]: 'octo-org.api',
      [RepositoryOutputs.service]: 'api',
      [RepositoryOutputs.branch]: 'main',
      'cli-rex': expect.any(String),
      'claim-rex': 'workspace-api',
      'claim-cleo': 'workspace-api-cleo',
      'cli-settings-rex': expect.stringMatching(/^\{/),
    });
    const play = server.peek(workflowRef(NAMESPACE, PLAY));
    expect(play?.metadata.labels?.[PlayLabels.repository]).toBe('octo-org.api');
    expect(play?.metadata.annotations?.[PlayAnnotations.repository]).toBe('octo-org/api');
  });

  it('puts every label the play is found by on it, for a play the controller postponed before it applied workflowMetadata', async () => {
    // A Workflow the controller first makes Pending never gets its template's workflowMetadata labels.
    const { result, server } = resolve({ repository: 'OCTO-ORG/API', task: 7, startStage: 'code-quality', round: 2 });
    await result;
    const labels = server.peek(workflowRef(NAMESPACE, PLAY))?.metadata.labels ?? {};
    expect(labels).toEqual({
      [PlayLabels.workflowType]: WorkflowTypes.play,
      [PlayLabels.taskId]: '7',
      [PlayLabels.repository]: 'octo-org.api',
      [PlayLabels.currentStage]: 'code-quality',
      [PlayLabels.round]: '2',
    });
    // The resumer's selector finds it.
    expect(labels).toMatchObject(playSelectorLabels('7', repositoryLabelValue('OCTO-ORG/API')));
  });

  it('keeps the labels others wrote on the play: it merges, never replaces', async () => {
    const { result, server } = resolve({}, undefined, { 'workflows.argoproj.io/phase': 'Running', project: 'p1' });
    await result;
    expect(server.peek(workflowRef(NAMESPACE, PLAY))?.metadata.labels).toMatchObject({
      'workflows.argoproj.io/phase': 'Running',
      project: 'p1',
      [PlayLabels.taskId]: '42',
    });
  });

  it('fails a play of a repository the platform does not have, naming the registry ConfigMap and the fix', async () => {
    await expect(resolve({ repository: 'octo-org/other' }).result).rejects.toThrow(
      new StepFailure(
        `repository octo-org/other is not in the platform's registry (${registryConfigMapOf('octo-org/other')}): add it to the configuration's repositories and sync the platform`,
      ),
    );
    await expect(resolve({ repository: 'not-a-repository' }).result).rejects.toThrow(/^REPOSITORY: /);
  });

  it('fails a play submitted from another template than its repository runs, or that runs an agent the entry lacks', async () => {
    await expect(resolve({ playTemplate: 'play-abc123' }).result).rejects.toThrow(
      'repository octo-org/api runs WorkflowTemplate play, not play-abc123: submit it from that one',
    );
    await expect(resolve({ agents: ['rex', 'ghost'] }).result).rejects.toThrow('the registry entry of octo-org/api has no agent ghost');
  });

  it('explains a forbidden read of the registry and a play that is gone, and never reports success', async () => {
    const forbidden = failing(403, 'Forbidden', (method, name) => method === 'get' && name.startsWith('play-repositories-'));
    await expect(resolve({}, forbidden).result).rejects.toThrow(
      /^reading the repository registry play-repositories-\d+: forbidden \(403\): the step's service account lacks this grant/,
    );
    const gone = failing(404, 'NotFound', (method) => method === 'mergePatch');
    await expect(resolve({}, gone).result).rejects.toThrow(`labelling play ${PLAY}: 404 NotFound`);
  });

  it('refuses an entry that is broken in the cluster (edited by hand), naming the ConfigMap', async () => {
    const run = context();
    const name = registryConfigMapOf('octo-org/api');
    run.server.put(ApiResources.configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: NAMESPACE },
      data: { [registryKeyOf('octo-org/api')]: '{"name":' },
    });
    await expect(readRegistryEntry(run.context, NAMESPACE, 'octo-org/api')).rejects.toThrow(new RegExp(`^${name}: octo-org/api: `));
  });
});

describe("the event helpers' check of an event's repository", () => {
  const check = (repository: string, baseBranch: string, strategy: 'label-selector' | 'workflow-name' = 'label-selector') =>
    eventRepository(context().context, { namespace: NAMESPACE, repository, task: 5, baseBranch, strategy });

  it('takes an event of a platform repository into its branch, in any letter case', async () => {
    expect(await check('OCTO-ORG/WEB.APP', 'develop')).toMatchObject({ entry: { service: 'web' }, playName: '' });
    expect(await check('octo-org/api', '', 'workflow-name')).toMatchObject({ playName: 'play-api-task-5' });
  });

  it('ignores an event of another repository, or of a pull request into another branch, saying why', async () => {
    expect(await check('octo-org/other', 'main')).toEqual({
      ignored: "repository octo-org/other is not one of the platform's: nothing to do",
    });
    expect(await check('octo-org/web.app', 'main')).toEqual({
      ignored: 'the pull request merges into main, not into develop (the branch of Octo-Org/Web.App): nothing to do',
    });
  });
});
