/**
 * Projects: every task of a repository run as a child play in dependency order, chunked to stay inside
 * Argo's limits (200 tasks per DAG, 200 templates per object) and ArgoCD's (256 KiB per object), with every
 * object valid against the upstream Workflows CRD and our lint rules.
 */
import { App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { resolveConfig } from '../constructs/model/resolve-config';
import { StageMachine } from '../constructs/model/stage-machine';
import { orderTasks, chunkTasks, ProjectError } from '../constructs/project/project';
import { PlayParameters, playWorkflowName } from '../constructs/model/play-contract';
import { PROJECT_CHUNK_TASKS, ProjectWorkflowTemplate } from '../constructs/project/project-workflow-template';
import { IMAGE_PULL_ALLOWANCE_SECONDS } from '../constructs/workflows/retry-policy';
import { ProjectTemplates } from '../constructs/project/project-task-templates';
import { ConfigError } from '../constructs/model/resolve-config';
import { synthesizeApp, synthesizePlatform } from '../src/synth/synthesize';
import { validateManifestTexts } from '../src/validate/validate-texts';
import { validateArgoWorkflowsObject } from './support/argo-schemas';
import { parseManifests } from './support/synth';

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
    runtimeImage: config.images.runtime,
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

  /** The runtime step a template runs, and its environment by name. */
  const stepOf = (name: string): { step: string; env: Record<string, string> } => {
    const template = main.spec.templates.find((candidate: Json) => candidate.name === name);
    expect(template.script).toBeUndefined();
    expect(template.resource).toBeUndefined();
    return {
      step: template.container.command[2],
      env: Object.fromEntries(template.container.env.map((variable: Json) => [variable.name, variable.value])),
    };
  };

  it('creates each child as a play (the runtime step builds it as a play is built), never over one', () => {
    const { step, env } = stepOf(ProjectTemplates.startPlay);
    expect(step).toBe('project-start-play');
    expect(env).toMatchObject({
      REPOSITORY,
      SERVICE: repository.service,
      PROJECT: 'launch',
      TASK_ID: '{{inputs.parameters.task-id}}',
      START_STAGE: '{{inputs.parameters.start-stage}}',
      PARAMETER_NAMES: 'task-type',
      PARAMETER_1: '{{inputs.parameters.task-type}}',
    });
  });

  it('resumes rather than restarts: the start stage comes from the progress record, and a completed task is skipped', () => {
    const runTask = main.spec.templates.find((template: Json) => template.name === ProjectTemplates.runTask);
    const [[findStart], [play]] = runTask.steps;
    expect(findStart.template).toBe(ProjectTemplates.findStart);
    expect(play.when).toBe("'{{steps.find-start.outputs.parameters.action}}' == 'start'");
    expect(play.arguments.parameters).toContainEqual({ name: 'start-stage', value: '{{steps.find-start.outputs.parameters.start-stage}}' });
    const { step, env } = stepOf(ProjectTemplates.findStart);
    expect(step).toBe('project-find-start');
    expect(env).toMatchObject({ STAGES: stages.names.join(' '), REPOSITORY, TASK_ID: '{{inputs.parameters.task-id}}' });
  });

  it('waits for the task, not for one Workflow: wait-play reads the same record as find-start, after start-play, only for a started task', () => {
    const runTask = main.spec.templates.find((template: Json) => template.name === ProjectTemplates.runTask);
    const [[findStart], [play], [wait]] = runTask.steps;
    expect(play.template).toBe(ProjectTemplates.startPlay);
    expect(wait.template).toBe(ProjectTemplates.waitPlay);
    expect(wait.when).toBe(play.when);
    expect(wait.arguments.parameters).toEqual([{ name: 'task-id', value: '{{inputs.parameters.task-id}}' }]);
    const [found, waited] = [stepOf(findStart.template), stepOf(wait.template)];
    expect(waited.step).toBe('project-wait-play');
    for (const name of ['REPOSITORY', 'TASK_ID', 'NAMESPACE']) expect(waited.env[name]).toBe(found.env[name]);
    expect(waited.env.PLAY).toBe(playWorkflowName(repository.service, '{{inputs.parameters.task-id}}'));
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

  it('grant their service account get on ConfigMaps (the progress records), and create, get and watch on Workflows, never patch', () => {
    const withProject = resolveConfig({ file: { projects: [{ name: 'launch', repository: REPOSITORY, tasks: [{ id: 1 }] }] } });
    const objects = parseAllDocuments(synthesizePlatform(withProject).get('project-workflow-templates.yaml') ?? '').map((document) =>
      document.toJS(),
    );
    const role = objects.find((object) => object.kind === 'Role');
    const rulesOf = (resource: string) => role.rules.filter((rule: Json) => rule.resources.includes(resource));
    expect(rulesOf('configmaps')).toEqual([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]);
    expect(
      rulesOf('workflows')
        .flatMap((rule: Json) => rule.verbs)
        .sort(),
    ).toEqual(['create', 'get', 'watch']);
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

  it('creates each chunk as a child Workflow it owns, entered at the chunk, and waits for it in a step a lost pod does not fail', () => {
    const run = template('run-chunk');
    expect(run.steps.map((group: Json[]) => group[0].template)).toEqual(['create-chunk', 'wait-chunk']);
    const create = template('create-chunk');
    expect(create.resource).toMatchObject({ action: 'create', setOwnerReference: true });
    expect(create.resource.successCondition).toBeUndefined();
    // A second create would run the chunk twice: only the wait is retried.
    expect(create.retryStrategy).toBeUndefined();
    expect(JSON.parse(create.resource.manifest).spec).toEqual({
      workflowTemplateRef: { name: '{{inputs.parameters.workflow-template}}' },
      entrypoint: '{{inputs.parameters.chunk}}',
    });
    const wait = template('wait-chunk');
    expect(wait.resource).toMatchObject({
      action: 'get',
      successCondition: 'status.phase == Succeeded',
      failureCondition: 'status.phase in (Failed,Error)',
    });
    expect(JSON.parse(wait.resource.manifest).metadata.name).toBe('{{inputs.parameters.chunk-name}}');
    // An evicted or drained waiting pod reads the same chunk again (Always: an eviction is Failed, not Error).
    expect(wait.retryStrategy).toMatchObject({ retryPolicy: 'Always' });
    expect(Number(wait.retryStrategy.limit)).toBeGreaterThanOrEqual(3);
  });

  it('is bounded: time to live and pod garbage collection on every object a Workflow is made from', () => {
    for (const object of objects) {
      expect(object.spec.ttlStrategy).toEqual({ secondsAfterSuccess: 86400, secondsAfterFailure: 3 * 86400 });
      expect(object.spec.podGC).toEqual({ strategy: 'OnPodCompletion' });
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
