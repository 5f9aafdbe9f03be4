// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { IMAGE_PULL_ALLOWANCE_SECONDS } from '../constructs/workflows/retry-policy';
import { PlayLabels } from '../constructs/model/labels';
import { repositoryLabelValue, workspacePvcName } from '../constructs/model/naming';
import { PlayTemplates } from '../constructs/model/play-contract';
import { renderedCodeRun } from './support/resolved-outputs';
import { synth } from './support/synth';

/** A platform shaped differently from the default: two repositories, a security stage, a custom gate. */
const file = {
  namespace: 'team-a',
  repositories: [
    { name: 'octo-org/payments', service: 'payments', branch: 'trunk', workingDirectory: 'services/payments' },
    { name: 'Octo-Org/Web.App', service: 'web' },
  ],
  agents: { cipher: { cli: 'codex' } },
  stages: [
    { name: 'implementation', type: 'agent', agent: 'blaze', timeout: '2h', retries: 2 },
    { name: 'waiting-pr-created', type: 'gate', release: [{ event: 'pull_request', actions: ['opened'] }] },
    { name: 'security', type: 'agent', agent: 'cipher' },
    {
      name: 'waiting-ready-for-security',
      type: 'gate',
      release: [{ event: 'pull_request', actions: ['labeled'], label: 'ready-for-security', by: ['cipher'] }],
    },
    { name: 'testing', type: 'agent', agent: 'tess', retries: 0 },
    { name: 'done', type: 'end' },
  ],
  workspace: { size: '20Gi', storageClass: 'fast-ssd' },
};

const platform = synth({ file, env: {} });

describe('a custom platform', () => {
  it('emits one play template for both repositories, and a registry entry for each', () => {
    const plays = platform.byKind('WorkflowTemplate').filter((template) => template.metadata.labels?.[PlayLabels.workflowType] === 'play');
    expect(plays.map((play) => play.metadata.name)).toEqual(['play']);
    const keys = platform
      .byKind('ConfigMap')
      .filter((configMap) => configMap.metadata.name.startsWith('play-repositories-'))
      .flatMap((configMap) => Object.keys(configMap.data));
    expect(keys.sort()).toEqual([repositoryLabelValue('Octo-Org/Web.App'), repositoryLabelValue(file.repositories[0].name)].sort());
  });

  it('runs its own stage list, custom gates included', async () => {
    const play = platform.one('WorkflowTemplate', 'play');
    const tasks = play.spec.templates.find((template: any) => template.name === PlayTemplates.main).dag.tasks;
    expect(tasks.map((task: any) => task.name)).toEqual([
      'resolve',
      'enter-implementation',
      'implementation',
      'enter-waiting-pr-created',
      'waiting-pr-created',
      'enter-security',
      'security',
      'enter-waiting-ready-for-security',
      'waiting-ready-for-security',
      'enter-testing',
      'testing',
      'enter-done',
    ]);
    const run = (stage: string) => play.spec.templates.find((template: any) => template.name === `run-${stage}`);
    // The stage timeout is the agent's time to work; the wait step's deadline adds room for an image pull.
    expect(run('implementation-wait').activeDeadlineSeconds).toBe(7200 + IMAGE_PULL_ALLOWANCE_SECONDS);
    expect(run('implementation').retryStrategy.limit).toBe('2');
    expect(run('testing').retryStrategy.limit).toBe('0');
    const coderun = await renderedCodeRun(platform.objects as never, run('security-create').resource.manifest, file.repositories[0].name);
    expect(coderun.spec).toMatchObject({
      githubApp: '5DLabs-Cipher',
      workingDirectory: 'services/payments',
      docsBranch: 'trunk',
      cliConfig: { cliType: 'codex' },
    });
  });

  it('gives every repository its workspaces, with the configured size and class', () => {
    const pvcs = platform.byKind('PersistentVolumeClaim');
    const expected = ['payments', 'web'].flatMap((service) => [
      workspacePvcName(service, 'blaze', true),
      workspacePvcName(service, 'cipher', false),
      workspacePvcName(service, 'tess', false),
    ]);
    expect(pvcs.map((pvc) => pvc.metadata.name).sort()).toEqual(expected.sort());
    for (const pvc of pvcs) {
      expect(pvc.spec.resources.requests.storage).toBe('20Gi');
      expect(pvc.spec.storageClassName).toBe('fast-ssd');
      expect(pvc.metadata.namespace).toBe('team-a');
    }
  });

  it('keeps its manifests stable (snapshot; review and update only for an intended change)', async () => {
    for (const [name, text] of platform.files) await expect(text).toMatchFileSnapshot(`__snapshots__/custom-platform/${name}`);
  });
});
