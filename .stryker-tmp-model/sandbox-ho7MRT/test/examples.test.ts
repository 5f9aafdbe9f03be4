/**
 * Every cdk8s app in `examples/` synthesizes, passes the upstream schemas, keeps its output stable (file
 * snapshots under `test/__snapshots__/examples/`), and shows what it claims to show.
 */
// @ts-nocheck

import { renderedCodeRun, resolvedOutputs } from './support/resolved-outputs';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { App } from 'cdk8s';
import { agentAttemptTemplateNames, agentRunTemplateName, enterTaskName, stageTaskName } from '../constructs/model/play-contract';
import { synthesizeApp } from '../src/synth/synthesize';
import { validateArgoEventsObject, validateArgoWorkflowsObject } from './support/argo-schemas';
import { parseManifests, type K8sObject } from './support/synth';
import { validateManifestTexts } from '../src/validate/validate-texts';

const EXAMPLES = join(__dirname, '..', 'examples');
const names = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith('.ts'))
  .sort();

async function synthExample(name: string): Promise<{ text: string; objects: K8sObject[]; files: ReadonlyMap<string, string> }> {
  const example = (await import(join(EXAMPLES, name))) as { buildApp: () => App };
  const files = synthesizeApp(example.buildApp());
  const text = [...files.entries()].map(([file, yaml]) => `# ---- ${file}\n${yaml}`).join('');
  return { text, objects: parseManifests(files), files };
}

const plays = (objects: readonly K8sObject[]) =>
  objects.filter((object) => object.kind === 'WorkflowTemplate' && object.metadata.labels?.['workflow-type'] === 'play');
const dagOf = (play: K8sObject): any[] => play.spec.templates.find((template: any) => template.name === play.spec.entrypoint).dag.tasks;
/** The CodeRun a play of `repository` creates in `template`, as Argo renders it after the play's first step. */
const manifestOf = (objects: readonly K8sObject[], play: K8sObject, template: string, repository: string) =>
  renderedCodeRun(
    objects as never,
    play.spec.templates.find((entry: any) => entry.name === agentAttemptTemplateNames(template).create).resource.manifest,
    repository,
    play.metadata.name,
  );

it('there are at least four examples', () => {
  expect(names.length).toBeGreaterThanOrEqual(4);
});

describe.each(names)('examples/%s', (name) => {
  it('builds an app that synthesizes, with a play whose stages agree with its gates', async () => {
    const { objects } = await synthExample(name);
    expect(plays(objects).length).toBeGreaterThan(0);
    for (const play of plays(objects)) {
      const templateNames = new Set(play.spec.templates.map((template: any) => template.name));
      const stageEnum: string[] = play.spec.arguments.parameters.find((parameter: any) => parameter.name === 'start-stage').enum;
      for (const task of dagOf(play)) expect(templateNames.has(task.template)).toBe(true);
      for (const stage of stageEnum) expect(dagOf(play).some((task: any) => task.name === enterTaskName(stage))).toBe(true);
    }
  });

  it('passes the upstream schemas', async () => {
    const { objects } = await synthExample(name);
    for (const object of objects) {
      const where = `${object.kind}/${object.metadata.name}`;
      if (['WorkflowTemplate', 'Workflow', 'CronWorkflow'].includes(object.kind))
        expect(validateArgoWorkflowsObject(object), where).toEqual([]);
      if (['Sensor', 'EventSource'].includes(object.kind)) expect(validateArgoEventsObject(object), where).toEqual([]);
    }
  });

  it('passes agent-play validate with no finding (metadata, built-in schemas, every lint rule: its Sensors resume gates that exist)', async () => {
    const { files } = await synthExample(name);
    expect(validateManifestTexts(files, `dist-examples/${name.replace(/\.ts$/, '')}`).findings).toEqual([]);
  });

  it('keeps its manifests stable (snapshot; review and update only for an intended change)', async () => {
    const { text } = await synthExample(name);
    await expect(text).toMatchFileSnapshot(join(__dirname, '__snapshots__', 'examples', name.replace(/\.ts$/, '.yaml')));
  });
});

describe('what each example shows', () => {
  it('security-stage: a conditional security stage and a gate its Sensor releases on the ready-for-security label', async () => {
    const { objects } = await synthExample('security-stage.ts');
    const dag = dagOf(plays(objects)[0]);
    expect(dag.find((task: any) => task.name === 'security').when).toContain("workflow.parameters['task-type'] in ['backend', 'api']");
    const sensor = objects.find((object) => object.kind === 'Sensor' && object.metadata.name === 'gate-waiting-security-approved');
    expect(JSON.stringify(sensor?.spec)).toContain('ready-for-security');
  });

  it('parallel-testers: two testers after one stage entry, joined before the merge gate', async () => {
    const { objects } = await synthExample('parallel-testers.ts');
    const dag = dagOf(plays(objects)[0]);
    const join = dag.find((task: any) => task.name === enterTaskName('waiting-pr-merged'));
    expect(join.depends).toBe(`${stageTaskName('testing', 'tess')} && ${stageTaskName('testing', 'probe')}`);
    const repository = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('play-repositories-'));
    const [name] = Object.values(repository?.data ?? {}).map((entry) => JSON.parse(entry as string).name);
    const coderun = await manifestOf(objects, plays(objects)[0], agentRunTemplateName('testing', 'probe'), name);
    expect(coderun.spec.cliConfig.cliType).toBe('aider');
  });

  it('project: six tasks as child plays, each after the tasks it depends on, two at a time', async () => {
    const { objects } = await synthExample('project.ts');
    const project = objects.find(
      (object) => object.kind === 'WorkflowTemplate' && object.metadata.name === 'project-checkout-v2',
    ) as K8sObject;
    const chunk = project.spec.templates.find((template: any) => template.name === 'chunk-1');
    expect(chunk.parallelism).toBe(2);
    expect(Object.fromEntries(chunk.dag.tasks.map((task: any) => [task.name, task.depends ?? '']))).toEqual({
      'task-1': '',
      'task-5': '',
      'task-2': 'task-1',
      'task-3': 'task-1',
      'task-6': 'task-5',
      'task-4': 'task-2 && task-3',
    });
  });

  it('two-repositories: rex runs on another CLI in each repository, from one play template', async () => {
    const { objects } = await synthExample('two-repositories.ts');
    expect(plays(objects).map((play) => play.metadata.name)).toEqual(['play']);
    const cliOfRex = async (repository: string) =>
      (await manifestOf(objects, plays(objects)[0], agentRunTemplateName('implementation'), repository)).spec.cliConfig.cliType;
    expect(await cliOfRex('octo-org/payments-api')).toBe('claude');
    expect(await cliOfRex('octo-org/payments-web')).toBe('codex');
  });
});

describe('direct-execution: every agent stage runs its CLI in an Argo step', () => {
  const agentStages = { implementation: 'rex', 'code-quality': 'cleo', testing: 'tess' } as const;
  const images = { rex: 'ghcr.io/5dlabs/claude:v1.4.2', cleo: 'ghcr.io/5dlabs/codex:v1.4.2', tess: 'ghcr.io/5dlabs/claude:v1.4.2' };
  const apps = { rex: '5DLabs-Rex', cleo: '5DLabs-Cleo', tess: '5DLabs-Tess' };

  it.each(Object.entries(agentStages))(
    '%s: a script step in the CLI image with prompt, workspace, Secrets, resources, deadline, retry and restricted security',
    async (stage, agent) => {
      const { objects } = await synthExample('direct-execution.ts');
      const play = plays(objects)[0];
      const byName = (name: string) => play.spec.templates.find((entry: any) => entry.name === name);
      const task = dagOf(play).find((entry: any) => entry.name === stageTaskName(stage));
      const run = byName(task.template);
      expect(run.steps.flat().map((step: any) => step.template)).toEqual([`${task.template}-agent`]);
      // The agent's workspace claim in the play's repository, which the play's first step resolves.
      expect(run.synchronization.mutexes[0].name).toBe(`{{workflow.outputs.parameters.claim-${agent}}}`);
      const outputs = await resolvedOutputs(objects as never, 'octo-org/shop-api', { playTemplate: play.metadata.name });
      expect(outputs[`workflow.outputs.parameters.claim-${agent}`]).toBe(
        agent === 'rex' ? 'workspace-shop-api' : `workspace-shop-api-${agent}`,
      );
      const step = byName(`${task.template}-agent`);
      expect(step.script.image).toBe(images[agent]);
      const volumes = Object.fromEntries(step.volumes.map((volume: any) => [volume.name, volume]));
      expect(volumes.workspace.persistentVolumeClaim.claimName).toBe(run.synchronization.mutexes[0].name);
      expect(volumes['agent-prompt'].configMap).toEqual({
        name: 'controller-agents',
        items: [{ key: `${apps[agent]}_system-prompt.md`, path: 'system-prompt.md' }],
      });
      expect(volumes['github-app'].secret.secretName).toBe(`github-app-${apps[agent].toLowerCase()}`);
      const mounts = Object.fromEntries(step.script.volumeMounts.map((mount: any) => [mount.name, mount]));
      expect(mounts['github-app'].readOnly).toBe(true);
      expect(mounts['agent-prompt'].readOnly).toBe(true);
      expect(mounts.workspace.mountPath).toBe(step.script.workingDir);
      expect(mounts['agent-tmp'].mountPath).toBe('/tmp');
      expect(volumes['agent-tmp'].emptyDir.sizeLimit).toBe('4Gi');
      const env = Object.fromEntries(step.script.env.map((variable: any) => [variable.name, variable]));
      const keyVariable = agent === 'cleo' ? 'CODEX_API_KEY' : 'ANTHROPIC_API_KEY';
      expect(env[keyVariable].valueFrom.secretKeyRef).toEqual({ name: `${agent === 'cleo' ? 'codex' : 'claude'}-api-key`, key: 'api-key' });
      expect(env.ROUND.value).toBe('{{workflow.parameters.round}}');
      expect(step.metadata.labels.round).toBe('{{workflow.parameters.round}}');
      expect(step.script.source).not.toContain('{{');
      expect(step.script.resources).toEqual({
        requests: { cpu: '1', memory: '2Gi' },
        limits: { cpu: '4', memory: agent === 'rex' ? '16Gi' : '8Gi' },
      });
      expect(step.activeDeadlineSeconds).toBe(4 * 3600 + 300);
      expect(Number(step.retryStrategy.limit)).toBe(1);
      expect(Number.parseInt(step.retryStrategy.backoff.maxDuration, 10)).toBeGreaterThanOrEqual(2 * step.activeDeadlineSeconds);
      expect(step.script.securityContext).toMatchObject({
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(step.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
      expect(step.podSpecPatch).toContain('"name":"wait"');
    },
  );

  it('creates no CodeRun for direct agents, and needs no CodeRun CRD', async () => {
    const { objects } = await synthExample('direct-execution.ts');
    expect(objects.some((object) => object.kind === 'CustomResourceDefinition')).toBe(false);
    for (const play of plays(objects)) {
      expect(play.spec.templates.some((entry: any) => entry.resource?.manifest?.includes('CodeRun'))).toBe(false);
      expect(play.spec.templates.some((entry: any) => entry.name === 'cancel-coderuns')).toBe(false);
    }
  });
});
