/**
 * Projects: every task of a repository run as a child play in dependency order, chunked to stay inside
 * Argo's limits (200 tasks per DAG, 200 templates per object) and ArgoCD's (256 KiB per object), with every
 * object valid against the upstream Workflows CRD and our lint rules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { resolveConfig } from '../constructs/model/resolve-config';
import { StageMachine } from '../constructs/model/stage-machine';
import { orderTasks, chunkTasks, ProjectError } from '../constructs/model/project';
import { PlayLabels, ProjectLabels, WorkflowTypes } from '../constructs/model/labels';
import { PlayParameters, playTemplateName, playWorkflowName } from '../constructs/model/play-contract';
import { PROJECT_CHUNK_TASKS, ProjectWorkflowTemplate } from '../constructs/workflows/project-workflow-template';
import { IMAGE_PULL_ALLOWANCE_SECONDS } from '../constructs/workflows/retry-policy';
import { ProjectTemplates } from '../constructs/workflows/project-task-templates';
import { ConfigError } from '../constructs/model/resolve-config';
import { synthesizeApp, synthesizePlatform } from '../src/synth/synthesize';
import { validateManifestTexts } from '../src/validate/validate-texts';
import { validateArgoWorkflowsObject } from './support/argo-schemas';
import { FakeCluster } from './support/fake-kubectl';
import { runBash } from './support/run-bash';
import { parseManifests } from './support/synth';
import { progressConfigMapName, progressConfigMapNames, progressConfigMapOf, progressTaskKey } from '../constructs/model/naming';
import { playWorkflow } from '../constructs/model/play-workflow';
import { useScratchDirs } from './support/scratch-dir';

const scratch = useScratchDirs('fake-kubectl-');

const REPOSITORY = '5dlabs/cto-play-test';
const config = resolveConfig({});
const repository = config.repositories[0];
const stages = StageMachine.fromConfig(config);

type Json = Record<string, any>;
type Task = { id: number; dependsOn?: number[]; parameters?: Record<string, string> };

/** A chain-and-fan project of `count` tasks: every third task starts a chain, the others depend on the one before. */
const manyTasks = (count: number): Task[] =>
  Array.from({ length: count }, (_, index) => ({ id: index + 1, dependsOn: index % 3 === 0 ? [] : [index] }));

function build(tasks: Task[], parallelism = 4): { objects: Json[]; texts: Map<string, string>; construct: ProjectWorkflowTemplate } {
  const app = new App();
  const chart = new Chart(app, 'project', { namespace: 'agents' });
  const construct = new ProjectWorkflowTemplate(chart, 'Launch', {
    project: {
      name: 'launch',
      repository: REPOSITORY,
      parallelism,
      tasks: tasks.map((task) => ({ dependsOn: [], parameters: {}, ...task })),
    },
    repository,
    stages,
    helperImage: config.images.kubectl,
    serviceAccountName: 'agent-play-project',
  });
  const files = synthesizeApp(app);
  const texts = new Map(files);
  const objects = parseManifests(files) as Json[];
  return { objects, texts, construct };
}

/** Every DAG task of every chunk, with the chunk's position. */
function dagTasks(objects: Json[]): { chunk: number; task: Json }[] {
  const main = objects[0];
  const chunkNames: string[] = main.spec.templates
    .find((template: Json) => template.name === 'project')
    .steps.map((group: Json[]) => group[0].name);
  const templates = new Map<string, Json>(
    objects.flatMap((object) => object.spec.templates.map((template: Json): [string, Json] => [template.name, template])),
  );
  return chunkNames.flatMap((name, chunk) => (templates.get(name) as Json).dag.tasks.map((task: Json) => ({ chunk, task })));
}

describe('the task order', () => {
  it('puts every task after all it depends on, keeping the list order among ready tasks', () => {
    const ordered = orderTasks([
      { id: 3, dependsOn: [7], parameters: {} },
      { id: 7, dependsOn: [], parameters: {} },
      { id: 1, dependsOn: [], parameters: {} },
    ]);
    expect(ordered.map((task) => task.id)).toEqual([7, 1, 3]);
  });

  it('refuses a cycle with its path, an unknown dependency and a duplicate id, saying what to change', () => {
    const cycle = () =>
      orderTasks([
        { id: 3, dependsOn: [7], parameters: {} },
        { id: 7, dependsOn: [3], parameters: {} },
        { id: 9, dependsOn: [3], parameters: {} },
      ]);
    expect(cycle).toThrow(ProjectError);
    expect(cycle).toThrow('tasks: dependency cycle 3 -> 7 -> 3: no task of it can ever start; remove one of these dependencies');
    expect(() => orderTasks([{ id: 1, dependsOn: [2], parameters: {} }])).toThrow(
      'tasks[0].dependsOn[0]: task 1 depends on task 2, which is not in the project; add it or remove the dependency',
    );
    expect(() =>
      orderTasks([
        { id: 1, dependsOn: [], parameters: {} },
        { id: 1, dependsOn: [], parameters: {} },
      ]),
    ).toThrow('tasks[1].id: task 1 is listed twice; give each task its own id');
  });

  it('cuts chunks of at most 200 and keeps only the dependencies inside a chunk; the others are in earlier chunks', () => {
    const tasks = manyTasks(450).map((task) => ({ dependsOn: [], parameters: {}, ...task }));
    const chunks = chunkTasks(orderTasks(tasks));
    expect(chunks.map((chunk) => chunk.length)).toEqual([200, 200, 50]);
    const chunkOf = new Map(chunks.flatMap((chunk, index) => chunk.map((task) => [task.id, index])));
    for (const task of tasks) {
      const chunk = chunkOf.get(task.id) as number;
      const kept = chunks[chunk].find((candidate) => candidate.id === task.id)?.dependsOn ?? [];
      for (const dependency of task.dependsOn) {
        if (chunkOf.get(dependency) === chunk) expect(kept).toContain(dependency);
        else expect(chunkOf.get(dependency)).toBeLessThan(chunk);
      }
    }
  });
});

describe('a small project', () => {
  const { objects, construct, texts } = build(
    [{ id: 5 }, { id: 6, dependsOn: [5], parameters: { 'task-type': 'backend' } }, { id: 7, dependsOn: [5] }],
    2,
  );
  const [main] = objects;

  it('runs each task once, as a DAG task calling run-task with its id and parameters, after its dependencies, with bounded parallelism', () => {
    expect(objects).toHaveLength(1);
    const chunk = main.spec.templates.find((template: Json) => template.name === 'chunk-1');
    expect(chunk.parallelism).toBe(2);
    expect(chunk.dag.tasks).toEqual([
      { name: 'task-5', template: ProjectTemplates.runTask, arguments: { parameters: [{ name: PlayParameters.taskId, value: '5' }] } },
      {
        name: 'task-6',
        template: ProjectTemplates.runTask,
        depends: 'task-5',
        arguments: {
          parameters: [
            { name: PlayParameters.taskId, value: '6' },
            { name: PlayParameters.taskType, value: 'backend' },
          ],
        },
      },
      {
        name: 'task-7',
        template: ProjectTemplates.runTask,
        depends: 'task-5',
        arguments: { parameters: [{ name: PlayParameters.taskId, value: '7' }] },
      },
    ]);
    expect(construct.chunks).toEqual([[5, 6, 7]]);
  });

  it('creates each child as a play, never applies over one: the play template by workflowTemplateRef, the play name, the play labels and the project label', () => {
    const startPlay = main.spec.templates.find((template: Json) => template.name === ProjectTemplates.startPlay);
    expect(startPlay.resource).toBeUndefined();
    expect(startPlay.script.source).toContain('kubectl create -f - <<<"$PLAY_MANIFEST"');
    expect(startPlay.script.source).not.toMatch(/kubectl (apply|replace|patch)/);
    const manifest = startPlay.script.env.find((variable: Json) => variable.name === 'PLAY_MANIFEST').value;
    const child = JSON.parse(
      manifest.replace(
        /\{\{inputs\.parameters\.([a-z-]+)\}\}/g,
        (_: string, name: string) => ({ 'task-id': '6', 'start-stage': 'implementation', 'task-type': 'backend' })[name] ?? '',
      ),
    );
    expect(child.metadata.name).toBe(playWorkflowName(repository.service, 6));
    expect(child.metadata.labels).toEqual({
      [PlayLabels.taskId]: '6',
      [PlayLabels.repository]: '5dlabs.cto-play-test',
      [PlayLabels.workflowType]: WorkflowTypes.play,
      [PlayLabels.currentStage]: 'implementation',
      [PlayLabels.round]: '1',
      [ProjectLabels.project]: 'launch',
    });
    expect(child.spec).toEqual({
      workflowTemplateRef: { name: playTemplateName(repository.service) },
      arguments: {
        parameters: [
          { name: 'task-id', value: '6' },
          { name: 'start-stage', value: 'implementation' },
          { name: 'task-type', value: 'backend' },
        ],
      },
    });
  });

  it('resumes rather than restarts: the start stage comes from the progress record, and a completed task is skipped', () => {
    const runTask = main.spec.templates.find((template: Json) => template.name === ProjectTemplates.runTask);
    const [[findStart], [play]] = runTask.steps;
    expect(findStart.template).toBe(ProjectTemplates.findStart);
    expect(play.when).toBe("'{{steps.find-start.outputs.parameters.action}}' == 'start'");
    expect(play.arguments.parameters).toContainEqual({ name: 'start-stage', value: '{{steps.find-start.outputs.parameters.start-stage}}' });
    const script = main.spec.templates.find((template: Json) => template.name === ProjectTemplates.findStart).script;
    expect(script.env).toContainEqual({ name: 'FIRST_STAGE', value: stages.first.name });
    expect(script.env).toContainEqual({ name: 'PROGRESS_KEY', value: 'task-{{inputs.parameters.task-id}}.json' });
  });

  it('waits for the task, not for one Workflow: wait-play reads the same record as find-start, after start-play, only for a started task', () => {
    const runTask = main.spec.templates.find((template: Json) => template.name === ProjectTemplates.runTask);
    const [[findStart], [play], [wait]] = runTask.steps;
    expect(play.template).toBe(ProjectTemplates.startPlay);
    expect(wait.template).toBe(ProjectTemplates.waitPlay);
    expect(wait.when).toBe(play.when);
    expect(wait.arguments.parameters).toEqual([{ name: 'task-id', value: '{{inputs.parameters.task-id}}' }]);
    const envOf = (name: string) =>
      Object.fromEntries(
        main.spec.templates
          .find((template: Json) => template.name === name)
          .script.env.map((variable: Json) => [variable.name, variable.value]),
      );
    const [found, waited] = [envOf(findStart.template), envOf(wait.template)];
    for (const name of ['PROGRESS_CONFIGMAP', 'PROGRESS_SHARDS', 'PROGRESS_KEY', 'TASK_ID', 'NAMESPACE'])
      expect(waited[name]).toBe(found[name]);
    expect(waited.PLAY).toBe(playWorkflowName(repository.service, '{{inputs.parameters.task-id}}'));
    expect(waited).toMatchObject({ COMPLETED: 'completed', FAILED: 'failed', ROUND_LABEL: PlayLabels.round });
    const waitTemplate = main.spec.templates.find((template: Json) => template.name === ProjectTemplates.waitPlay);
    expect(waitTemplate.resource).toBeUndefined();
    expect(waitTemplate.script.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true });
  });

  it('validates: upstream CRD with unknown fields rejected, and every lint rule', () => {
    for (const object of objects.filter((candidate) => candidate.kind === 'WorkflowTemplate'))
      expect(validateArgoWorkflowsObject(object)).toEqual([]);
    expect(validateManifestTexts(texts, 'dist-manifests').findings).toEqual([]);
  });

  it('refuses at construction: a cycle, an unknown dependency, a duplicate id, another repository, an undeclared parameter', () => {
    expect(() =>
      build([
        { id: 1, dependsOn: [2] },
        { id: 2, dependsOn: [1] },
      ]),
    ).toThrow('dependency cycle 1 -> 2 -> 1');
    expect(() => build([{ id: 1, dependsOn: [9] }])).toThrow('task 1 depends on task 9, which is not in the project');
    expect(() => build([{ id: 1 }, { id: 1 }])).toThrow('task 1 is listed twice');
    expect(() => build([{ id: 1, parameters: { team: 'core' } }])).toThrow(
      'tasks[0].parameters.team: the play declares no parameter team (it has task-type); declare it under play.parameters',
    );
  });
});

describe('projects in the configuration', () => {
  it('leave the default platform unchanged when there are none, and add one chart when there are', () => {
    expect(synthesizePlatform(config).has('project-workflow-templates.yaml')).toBe(false);
    const withProject = resolveConfig({
      file: { projects: [{ name: 'launch', repository: REPOSITORY, tasks: [{ id: 1 }, { id: 2, dependsOn: [1] }] }] },
    });
    const files = synthesizePlatform(withProject);
    const objects = parseAllDocuments(files.get('project-workflow-templates.yaml') ?? '').map((document) => document.toJS());
    expect(objects.map((object) => `${object.kind}/${object.metadata.name}`)).toEqual([
      'ServiceAccount/agent-play-project',
      'Role/agent-play-project',
      'RoleBinding/agent-play-project',
      'WorkflowTemplate/project-launch',
    ]);
    expect(validateManifestTexts(files, 'dist-manifests').findings).toEqual([]);
  });

  it("grant their service account get on the projects' progress ConfigMaps only, and create and get on Workflows, never patch", () => {
    const withProject = resolveConfig({ file: { projects: [{ name: 'launch', repository: REPOSITORY, tasks: [{ id: 1 }] }] } });
    const objects = parseAllDocuments(synthesizePlatform(withProject).get('project-workflow-templates.yaml') ?? '').map((document) =>
      document.toJS(),
    );
    const role = objects.find((object) => object.kind === 'Role');
    const rulesOf = (resource: string) => role.rules.filter((rule: Json) => rule.resources.includes(resource));
    expect(rulesOf('configmaps')).toEqual([
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get'],
        resourceNames: [...progressConfigMapNames(REPOSITORY), progressConfigMapName(REPOSITORY)],
      },
    ]);
    expect(
      rulesOf('workflows')
        .flatMap((rule: Json) => rule.verbs)
        .sort(),
    ).toEqual(['create', 'get']);
  });

  it('are checked with the rest of the configuration, at the path to change', () => {
    const bad = () =>
      resolveConfig({
        file: { projects: [{ name: 'launch', repository: 'octo-org/nowhere', tasks: [{ id: 1, parameters: { team: 'x' } }] }] },
      });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/projects\[0\]\.repository: repository "octo-org\/nowhere" is not configured/);
    expect(bad).toThrow(/projects\[0\]\.tasks\[0\]\.parameters\.team: unknown play parameter "team"/);
  });
});

describe.each([1_000, 10_000])('a project of %i tasks', (count) => {
  const { objects, texts } = build(manyTasks(count));

  it('stays inside the limits: at most 200 tasks per DAG, 200 templates per object, every object under 256 KiB', () => {
    for (const object of objects) {
      expect(object.spec.templates.length).toBeLessThanOrEqual(200);
      for (const template of object.spec.templates) expect(template.dag?.tasks.length ?? 0).toBeLessThanOrEqual(200);
      expect(Buffer.byteLength(JSON.stringify(object))).toBeLessThan(256 * 1024);
    }
    for (const text of texts.values())
      for (const document of text.split('\n---\n')) expect(Buffer.byteLength(document)).toBeLessThan(256 * 1024);
  });

  it('runs every task exactly once, each after all its dependencies', () => {
    const tasks = dagTasks(objects);
    expect(tasks.map(({ task }) => task.arguments.parameters[0].value).sort((a: string, b: string) => Number(a) - Number(b))).toEqual(
      Array.from({ length: count }, (_, index) => String(index + 1)),
    );
    const chunkOf = new Map(tasks.map(({ chunk, task }) => [task.name, chunk]));
    const dependencies = new Map(manyTasks(count).map((task) => [`task-${task.id}`, (task.dependsOn ?? []).map((id) => `task-${id}`)]));
    for (const { chunk, task } of tasks) {
      for (const dependency of dependencies.get(task.name) ?? []) {
        const dependencyChunk = chunkOf.get(dependency) as number;
        // Either in an earlier chunk (finished before this one starts) or named in depends.
        expect(
          dependencyChunk < chunk || (dependencyChunk === chunk && String(task.depends).split(' && ').includes(dependency)),
          `${task.name} after ${dependency}`,
        ).toBe(true);
      }
    }
  });

  it('spreads over WorkflowTemplates whose chunks run as child Workflows, and each validates against the upstream CRD', () => {
    const names = objects.map((object) => object.metadata.name);
    const steps = objects[0].spec.templates.find((template: Json) => template.name === 'project').steps.flat();
    expect(steps).toHaveLength(Math.ceil(count / PROJECT_CHUNK_TASKS));
    for (const step of steps) {
      expect(step.template).toBe('run-chunk');
      const [holder, chunk] = step.arguments.parameters.map((parameter: Json) => parameter.value);
      expect(names).toContain(holder);
      expect(objects.find((object) => object.metadata.name === holder)!.spec.templates.map((template: Json) => template.name)).toContain(
        chunk,
      );
    }
    const sample = count > 1_000 ? [objects[0], objects[objects.length - 1]] : objects;
    for (const object of sample) expect(validateArgoWorkflowsObject(object)).toEqual([]);
    if (count === 10_000) expect(objects.length).toBeGreaterThan(1);
  });

  it('is deterministic', () => {
    expect([...build(manyTasks(count)).texts.values()]).toEqual([...texts.values()]);
  });

  it('fits at run time: no Workflow holds more than one chunk of tasks, and the project Workflow two nodes per chunk', () => {
    // About 1 KiB per node (argo-workflows NodeStatus with its inputs and outputs), 4 nodes per task in a chunk.
    const NODE_BYTES = 1024;
    for (const { task } of dagTasks(objects)) expect(task.template).toBe(ProjectTemplates.runTask);
    for (const object of objects) {
      for (const template of object.spec.templates.filter((candidate: Json) => candidate.dag)) {
        expect(template.dag.tasks.length).toBeLessThanOrEqual(PROJECT_CHUNK_TASKS);
        expect(Buffer.byteLength(JSON.stringify(object)) + 4 * template.dag.tasks.length * NODE_BYTES).toBeLessThan(1024 * 1024);
      }
    }
    const chunks = Math.ceil(count / PROJECT_CHUNK_TASKS);
    expect(Buffer.byteLength(JSON.stringify(objects[0])) + 2 * chunks * NODE_BYTES).toBeLessThan(1024 * 1024);
  });
});

describe('the project Workflow at run time', () => {
  const { objects } = build(manyTasks(5));
  const main = objects[0];
  const template = (name: string) => main.spec.templates.find((candidate: Json) => candidate.name === name);

  it('creates each chunk as a child Workflow it owns, entered at the chunk, and waits for it', () => {
    const run = template('run-chunk');
    expect(run.resource).toMatchObject({
      action: 'create',
      setOwnerReference: true,
      successCondition: 'status.phase == Succeeded',
      failureCondition: 'status.phase in (Failed,Error)',
    });
    expect(JSON.parse(run.resource.manifest).spec).toEqual({
      workflowTemplateRef: { name: '{{inputs.parameters.workflow-template}}' },
      entrypoint: '{{inputs.parameters.chunk}}',
    });
  });

  it('is bounded: time to live and pod garbage collection on every object a Workflow is made from', () => {
    for (const object of objects) {
      expect(object.spec.ttlStrategy).toEqual({ secondsAfterSuccess: 86400, secondsAfterFailure: 3 * 86400 });
      expect(object.spec.podGC.strategy).toBe('OnPodCompletion');
      expect(object.spec.serviceAccountName).toBe('agent-play-project');
    }
  });

  it('retries a lost wait-play pod within the play deadline', () => {
    const start = template(ProjectTemplates.waitPlay);
    expect(start.activeDeadlineSeconds).toBe(7 * 86400 + IMAGE_PULL_ALLOWANCE_SECONDS);
    expect(start.retryStrategy).toMatchObject({ limit: '2', retryPolicy: 'Always' });
    expect(Number.parseInt(start.retryStrategy.backoff.maxDuration, 10)).toBeGreaterThanOrEqual(start.activeDeadlineSeconds);
  });
});

describe('find-start, run for real against a fake kubectl', () => {
  const { objects } = build(manyTasks(2));
  const findStart = objects[0].spec.templates.find((template: Json) => template.name === ProjectTemplates.findStart);
  const baseEnv: Record<string, string> = Object.fromEntries(findStart.script.env.map((variable: Json) => [variable.name, variable.value]));
  const record = (task: number, stage: string, status: string) =>
    JSON.stringify({
      repository: REPOSITORY,
      task: String(task),
      workflowName: playWorkflowName(repository.service, task),
      startedAt: '2026-11-23T08:00:00Z',
      lastUpdated: '2026-11-23T09:00:00Z',
      stage,
      status,
    });

  async function findStartOf(
    cluster: FakeCluster,
    taskId: string,
  ): Promise<{ code: number | null; stderr: string; stage?: string; action?: string }> {
    const outputs = { START_STAGE_FILE: join(cluster.root, 'start-stage'), ACTION_FILE: join(cluster.root, 'action') };
    const env = { ...baseEnv, TASK_ID: taskId, NAMESPACE: 'agents', PROGRESS_KEY: progressTaskKey(taskId), ...outputs, HOME: cluster.root };
    const run = await runBash(findStart.script.source, cluster.scriptEnv(env), 8000);
    const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
    return { code: run.code, stderr: run.stderr, stage: read(outputs.START_STAGE_FILE), action: read(outputs.ACTION_FILE) };
  }

  it("reads the task's own shard: skips a completed task, restarts another at its stage, starts a new one at the first stage", async () => {
    const cluster = FakeCluster.create(scratch());
    try {
      // Tasks 6, 70 and 134 share shard 6; a record of task 6 in any other ConfigMap would not be read.
      cluster.put({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: progressConfigMapOf(REPOSITORY, 6), namespace: 'agents', labels: { 'play-tracking': 'true' } },
        data: {
          repository: REPOSITORY,
          [progressTaskKey(70)]: record(70, 'completed', 'completed'),
          [progressTaskKey(134)]: record(134, 'code-quality', 'failed'),
        },
      });
      cluster.put({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: progressConfigMapOf(REPOSITORY, 7), namespace: 'agents', labels: { 'play-tracking': 'true' } },
        data: { repository: REPOSITORY, [progressTaskKey(6)]: record(6, 'testing', 'failed') },
      });
      expect(await findStartOf(cluster, '70')).toMatchObject({ code: 0, action: 'skip', stage: 'completed' });
      expect(await findStartOf(cluster, '134')).toMatchObject({ code: 0, action: 'start', stage: 'code-quality' });
      expect(await findStartOf(cluster, '6')).toMatchObject({ code: 0, action: 'start', stage: stages.first.name });
      // No shard ConfigMap yet: NotFound starts the task at its first stage.
      expect(await findStartOf(cluster, '5')).toMatchObject({ code: 0, action: 'start', stage: stages.first.name });
      // A task without a record in its shard is looked up in the single ConfigMap of the earlier layout too.
      const legacy = `get configmap ${progressConfigMapName(REPOSITORY)}`;
      const shard = (task: number) => `get configmap ${progressConfigMapOf(REPOSITORY, task)}`;
      expect(cluster.calls().map((call) => call.args.slice(0, 3).join(' '))).toEqual([
        shard(70),
        shard(134),
        shard(6),
        legacy,
        shard(5),
        legacy,
      ]);
    } finally {
      cluster.dispose();
    }
  });

  it("finds a record of the earlier single-ConfigMap layout when the shard has none, and prefers the shard's", async () => {
    const cluster = FakeCluster.create(scratch());
    try {
      cluster.put({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: progressConfigMapName(REPOSITORY), namespace: 'agents', labels: { 'play-tracking': 'true' } },
        data: {
          repository: REPOSITORY,
          [progressTaskKey(200)]: record(200, 'testing', 'failed'),
          [progressTaskKey(201)]: record(201, 'implementation', 'failed'),
        },
      });
      cluster.put({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: progressConfigMapOf(REPOSITORY, 201), namespace: 'agents', labels: { 'play-tracking': 'true' } },
        data: { repository: REPOSITORY, [progressTaskKey(201)]: record(201, 'completed', 'completed') },
      });
      expect(await findStartOf(cluster, '200')).toMatchObject({ code: 0, action: 'start', stage: 'testing' });
      expect(await findStartOf(cluster, '201')).toMatchObject({ code: 0, action: 'skip', stage: 'completed' });
    } finally {
      cluster.dispose();
    }
  });

  it('fails, rather than restart from the first stage, a task whose record is not JSON or lacks a stage or status', async () => {
    const cluster = FakeCluster.create(scratch());
    try {
      const unreadable = {
        300: 'not json',
        301: JSON.stringify({ stage: 3, status: 'failed' }),
        302: JSON.stringify({ stage: 'testing' }),
      };
      for (const [task, text] of Object.entries(unreadable))
        cluster.put({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: progressConfigMapOf(REPOSITORY, Number(task)), namespace: 'agents' },
          data: { [progressTaskKey(task)]: text },
        });
      for (const task of Object.keys(unreadable)) {
        const found = await findStartOf(cluster, task);
        expect(found.code, task).toBe(1);
        expect(found.stderr).toContain(`is unreadable; not restarting task ${task} from its first stage`);
        expect(found.action).toBeUndefined();
      }
    } finally {
      cluster.dispose();
    }
  });

  it('refuses a task id that is not digits before any kubectl call', async () => {
    const cluster = FakeCluster.create(scratch());
    try {
      const refused = await findStartOf(cluster, '1 -o yaml');
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('is not a task id');
      expect(cluster.calls()).toEqual([]);
    } finally {
      cluster.dispose();
    }
  });
});

// Concurrent: every test has its own fake cluster, and the waits of wait-play's polls overlap.
describe.concurrent('start-play and wait-play, run for real against a fake kubectl', () => {
  const { objects } = build(manyTasks(2));
  const NAMESPACE = 'agents';
  const PLAY = playWorkflowName(repository.service, 5);
  const PROGRESS = progressConfigMapOf(REPOSITORY, 5);
  const scriptOf = (name: string) => objects[0].spec.templates.find((template: Json) => template.name === name).script;
  const inputs: Record<string, string> = { 'task-id': '5', 'start-stage': 'implementation', 'task-type': 'backend' };
  const envOf = (name: string, cluster: FakeCluster): Record<string, string> => ({
    ...Object.fromEntries(
      scriptOf(name).env.map((variable: Json) => [
        variable.name,
        variable.value
          .replace(/\{\{inputs\.parameters\.([a-z-]+)\}\}/g, (_: string, key: string) => inputs[key] ?? '')
          .replaceAll('{{workflow.namespace}}', NAMESPACE),
      ]),
    ),
    HOME: cluster.root,
    POLL_SECONDS: '0.1',
  });
  const run = (name: string, cluster: FakeCluster, timeoutMs = 8000) =>
    runBash(scriptOf(name).source, cluster.scriptEnv(envOf(name, cluster)), timeoutMs);

  /** A play of task 5 in `round`: running, or ended (stopped by the remediator when `stopped`). */
  const play = (round: number, state: 'running' | 'ended' | 'stopped'): any => {
    const workflow = playWorkflow({
      service: repository.service,
      namespace: NAMESPACE,
      task: '5',
      repository: REPOSITORY,
      stage: 'implementation',
      round: String(round),
      parameters: [],
    }) as any;
    if (state !== 'running') workflow.metadata.labels['workflows.argoproj.io/completed'] = 'true';
    if (state === 'stopped') workflow.spec.shutdown = 'Stop';
    return workflow;
  };
  /** The progress shard of task 5 holding its record (fields as the progress script and the remediator write them). */
  const progress = (record: Json): any => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: PROGRESS, namespace: NAMESPACE },
    data: { [progressTaskKey(5)]: JSON.stringify({ task: '5', workflowName: PLAY, stage: 'code-quality', ...record }) },
  });
  const recordReads = (cluster: FakeCluster) =>
    cluster.calls().filter((call) => call.args.join(' ').startsWith(`get configmap ${PROGRESS}`)).length;
  /** Waits until the script has read the record `count` more times: it is polling in the state the test set. */
  async function readsMore(cluster: FakeCluster, count: number): Promise<void> {
    const target = recordReads(cluster) + count;
    for (let tries = 0; tries < 200 && recordReads(cluster) < target; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(recordReads(cluster)).toBeGreaterThanOrEqual(target);
  }
  async function withCluster(body: (cluster: FakeCluster) => Promise<void>): Promise<void> {
    const cluster = FakeCluster.create(scratch());
    try {
      await body(cluster);
      expect(cluster.unsupported()).toEqual([]);
    } finally {
      cluster.dispose();
    }
  }

  it('start-play creates the play when the task has none', () =>
    withCluster(async (cluster) => {
      const started = await run(ProjectTemplates.startPlay, cluster);
      expect(started.code, started.stderr).toBe(0);
      const created = cluster.get('workflow', NAMESPACE, PLAY);
      expect(created?.metadata.labels).toMatchObject({ [PlayLabels.round]: '1', [ProjectLabels.project]: 'launch' });
      expect(created?.spec.arguments.parameters).toContainEqual({ name: 'start-stage', value: 'implementation' });
    }));

  it("start-play leaves the task's play alone when one exists, in whatever round (the remediator's successor)", () =>
    withCluster(async (cluster) => {
      cluster.put(play(2, 'running'));
      const before = cluster.get('workflow', NAMESPACE, PLAY);
      const started = await run(ProjectTemplates.startPlay, cluster);
      expect(started.code, started.stderr).toBe(0);
      expect(started.stdout).toContain('exists already');
      expect(cluster.get('workflow', NAMESPACE, PLAY)).toEqual(before);
      expect(cluster.get('workflow', NAMESPACE, PLAY)?.metadata.labels?.[PlayLabels.round]).toBe('2');
    }));

  it('start-play fails on any other error', () =>
    withCluster(async (cluster) => {
      cluster.forbid('create', 'workflow');
      const started = await run(ProjectTemplates.startPlay, cluster);
      expect(started.code).toBe(1);
      expect(started.stderr).toContain('Forbidden');
    }));

  it('wait-play passes a completed task', () =>
    withCluster(async (cluster) => {
      cluster.put(play(1, 'ended'));
      cluster.put(progress({ status: 'completed', stage: 'completed', round: 1 }));
      const waited = await run(ProjectTemplates.waitPlay, cluster);
      expect(waited.code, waited.stderr).toBe(0);
      expect(waited.stdout).toContain('task 5 completed (round 1)');
    }));

  it('wait-play fails a task whose rounds are exhausted, naming the reason', () =>
    withCluster(async (cluster) => {
      cluster.put(play(3, 'stopped'));
      cluster.put(progress({ status: 'failed', round: 3, reason: 'remediation rounds exhausted: 3 of 3' }));
      const waited = await run(ProjectTemplates.waitPlay, cluster);
      expect(waited.code).toBe(1);
      expect(waited.stderr).toContain('task 5 failed at code-quality in round 3: remediation rounds exhausted: 3 of 3');
    }));

  it('wait-play fails a task whose play failed on its own', () =>
    withCluster(async (cluster) => {
      cluster.put(play(1, 'ended'));
      cluster.put(progress({ status: 'failed', round: 1 }));
      const waited = await run(ProjectTemplates.waitPlay, cluster);
      expect(waited.code).toBe(1);
      expect(waited.stderr).toContain('task 5 failed at code-quality in round 1');
    }));

  it('wait-play keeps waiting while there is no record yet, and while a failed record is older than the running play', () =>
    withCluster(async (cluster) => {
      const pending = run(ProjectTemplates.waitPlay, cluster, 60_000);
      await readsMore(cluster, 3);
      // A re-run started the task again at its stored stage: the record still says how the last play ended.
      cluster.put(play(1, 'running'));
      cluster.put(progress({ status: 'failed', round: 1 }));
      await readsMore(cluster, 3);
      cluster.put(progress({ status: 'completed', stage: 'completed', round: 1 }));
      const waited = await pending;
      expect(waited.code, waited.stderr).toBe(0);
      expect(waited.stdout).toContain('task 5: no record yet');
      expect(waited.stdout).toContain(`task 5: failed at code-quality, round 1; play ${PLAY} is running`);
    }));

  it('wait-play survives a remediation: the stopped play, the round recorded, no play, the successor, then completed in round 2', () =>
    withCluster(async (cluster) => {
      cluster.put(play(1, 'running'));
      cluster.put(progress({ status: 'in-progress', round: 1 }));
      const pending = run(ProjectTemplates.waitPlay, cluster, 60_000);
      await readsMore(cluster, 2);
      // stop-play: the exit handler records the end, the play ends with spec.shutdown set.
      cluster.put(play(1, 'stopped'));
      cluster.put(progress({ status: 'failed', round: 1 }));
      await readsMore(cluster, 2);
      // replace-play: the next round is recorded, then the play is deleted and its successor created.
      cluster.put(progress({ status: 'failed', round: 2, stage: 'implementation' }));
      await readsMore(cluster, 2);
      cluster.delete('workflow', NAMESPACE, PLAY);
      await readsMore(cluster, 2);
      cluster.put(play(2, 'running'));
      await readsMore(cluster, 2);
      cluster.put(progress({ status: 'in-progress', round: 2, stage: 'implementation' }));
      await readsMore(cluster, 2);
      cluster.put(progress({ status: 'completed', round: 2, stage: 'completed' }));
      const waited = await pending;
      expect(waited.code, waited.stderr).toBe(0);
      expect(waited.stdout.split('\n')).toEqual([
        'task 5: in-progress at code-quality, round 1',
        `task 5: failed at code-quality, round 1; play ${PLAY} was stopped`,
        `task 5: failed at implementation, round 2; play ${PLAY} is of round 1, the record of round 2`,
        `task 5: failed at implementation, round 2; no play ${PLAY} (being replaced)`,
        `task 5: failed at implementation, round 2; play ${PLAY} is running`,
        'task 5: in-progress at implementation, round 2',
        'task 5 completed (round 2)',
        '',
      ]);
    }));

  it('wait-play fails on an API error other than NotFound (a retry continues the wait)', () =>
    withCluster(async (cluster) => {
      cluster.forbid('get', 'configmap');
      const waited = await run(ProjectTemplates.waitPlay, cluster);
      expect(waited.code).toBe(1);
      expect(waited.stderr).toContain('Forbidden');
    }));
});
