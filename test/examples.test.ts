/**
 * Every cdk8s app in `examples/` synthesizes, passes the upstream schemas, keeps its output stable (file
 * snapshots under `test/__snapshots__/examples/`), and shows what it claims to show.
 */
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
const manifestOf = (play: K8sObject, template: string) =>
  JSON.parse(
    play.spec.templates
      .find((entry: any) => entry.name === agentAttemptTemplateNames(template).create)
      .resource.manifest.replace(/\{\{[^}]*\}\}/g, '1'),
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
    expect(manifestOf(plays(objects)[0], agentRunTemplateName('testing', 'probe')).spec.cliConfig.cliType).toBe('aider');
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

  it('two-repositories: rex runs on another CLI in each repository', async () => {
    const { objects } = await synthExample('two-repositories.ts');
    const cliOfRex = (service: string) =>
      manifestOf(plays(objects).find((play) => play.metadata.name === `play-${service}`)!, agentRunTemplateName('implementation')).spec
        .cliConfig.cliType;
    expect(cliOfRex('payments-api')).toBe('claude');
    expect(cliOfRex('payments-web')).toBe('codex');
  });
});
