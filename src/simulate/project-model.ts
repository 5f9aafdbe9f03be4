/**
 * What the Argo Workflows controller does with a project's Workflows (docs/projects.md), in the simulator:
 *
 * - the project Workflow (`project-{name}`, entrypoint `project`) runs its chunks one after the other: each
 *   step calls `run-chunk`, whose `create` step is a resource `create` of the chunk Workflow (owned by the
 *   project: `setOwnerReference`) and whose `wait` step is a resource `get` of it with a success and a failure
 *   condition, in a pod (the chunk watcher) retried by the wait template's `retryStrategy`;
 * - a chunk Workflow runs its DAG (`chunk-N`): at most `parallelism` tasks at once, each when every task it
 *   `depends` on has Succeeded or been Skipped (a failed dependency omits it); each task is `run-task`, whose
 *   steps (`find-start`, then `start-play` and `wait-play` when find-start says `start`) are the runtime
 *   program's own steps, run by `StepRunner` with the project's service account. `wait-play` polls the task's
 *   progress record: here each poll is one run of the step, which yields at its sleep (`StillWaiting`) and is
 *   run again at the controller's next pass, while the plays it waits for move.
 *
 * Everything is read from the synthesized templates (steps, DAG, depends, parallelism, conditions, retry
 * strategy); what the simulator cannot read it refuses (`UnsupportedFeatureError`) rather than guess.
 * Time is not modelled: backoffs and poll intervals pass at once.
 */
import { ARGO_API_VERSION, ARGO_COMPLETED_LABEL } from '../../constructs/model/argo-api';
import { PlayLabels, WorkflowTypes } from '../../constructs/model/labels';
import { ApiResources, isNotFound, type KubeApi, type KubeObject, workflowRef } from '../../constructs/runtime/kube-api';
import { UnsupportedFeatureError } from './engine/unsupported';
import type { MemoryApiServer } from './memory-api';
import { retriedAfter } from './retry-strategy';
import { roleAuthorizer } from './role-authorizer';
import { fillReferences, StepRunner, type WorkflowScope } from './step-runner';

/** A chunk as the report shows it. */
export interface ChunkView {
  /** Its DAG template: `chunk-1`, `chunk-2`, ... */
  readonly chunk: string;
  /** `Pending` until the project created it, then its Workflow's phase. */
  readonly phase: string;
  readonly tasks: number;
  /** Its tasks whose `run-task` node Succeeded (a task skipped for a completed record included). */
  readonly tasksCompleted: number;
  /** The pods that watched it: the `wait-chunk` step's first pod and each retry's. */
  readonly watcherPods: number;
}

/** A project as the report shows it. */
export interface ProjectView {
  readonly name: string;
  readonly phase: string;
  readonly chunksCompleted: number;
  readonly tasksCompleted: number;
  readonly chunks: ChunkView[];
  /** Why it failed, when it did. */
  readonly reason?: string;
}

type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';
type TaskPhase = Phase | 'Skipped' | 'Omitted';

/** A step of `run-task` in progress: where it is, and the outputs of the steps before. */
interface TaskState {
  readonly name: string;
  readonly depends: readonly string[];
  readonly inputs: Readonly<Record<string, string>>;
  phase: TaskPhase;
  /** The step group running or next. */
  group: number;
  readonly outputs: Record<string, Record<string, string>>;
}

interface ChunkState {
  readonly chunk: string;
  /** The WorkflowTemplate holding it, as the project's step passes it. */
  readonly holder: string;
  readonly tasks: number;
  workflow?: string;
  uid?: string;
  phase: Phase;
  tasksCompleted: number;
  watcherPods: number;
  /** Failed watcher pods so far (evicted, or a failed get). */
  watcherFailures: number;
}

interface ProjectState {
  readonly name: string;
  readonly workflow: KubeObject;
  readonly template: string;
  readonly chunks: ChunkState[];
  phase: Phase;
  /** The chunk running (its index), while the project runs. */
  current: number;
  reason?: string;
}

/** A chunk Workflow the controller runs. */
interface ChunkRun {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  readonly template: string;
  readonly parallelism: number;
  readonly tasks: TaskState[];
  phase: Phase;
}

/** Thrown by a runtime step's sleep: the step waits; the controller runs it again at its next pass. */
class StillWaiting extends Error {}

/** A scenario step that cannot happen now. */
export class ProjectStepRefused extends Error {}

export class ProjectModel {
  private readonly runner: StepRunner;
  private readonly projects: ProjectState[] = [];
  private readonly chunks: ChunkRun[] = [];
  private notes: string[] = [];

  public constructor(
    private readonly objects: readonly Record<string, any>[],
    private readonly server: MemoryApiServer,
    private readonly namespace: string,
    now: () => Date,
  ) {
    this.runner = new StepRunner(objects, server, {
      now,
      sleep: async () => {
        throw new StillWaiting('the step waits');
      },
    });
  }

  /** Whether a WorkflowTemplate is a project's (the project's own or one holding further chunks). */
  public static isProjectTemplate(template: Record<string, any>): boolean {
    return template.metadata?.labels?.[PlayLabels.workflowType] === WorkflowTypes.project;
  }

  /** `argo submit --from workflowtemplate/project-{name}`. @throws ProjectStepRefused when the platform has no such project */
  public async submit(name: string): Promise<void> {
    const template = `project-${name}`;
    if (!this.objects.some((object) => object.kind === 'WorkflowTemplate' && object.metadata?.name === template))
      throw new ProjectStepRefused(
        `the platform has no project ${name} (no WorkflowTemplate ${template}): add it to the config's projects`,
      );
    await this.server.client().create(ApiResources.workflows, this.namespace, {
      apiVersion: ARGO_API_VERSION,
      kind: 'Workflow',
      metadata: { generateName: `${template}-`, namespace: this.namespace },
      spec: { workflowTemplateRef: { name: template } },
    });
  }

  /** Starts a Workflow of a project's template: the project itself, or one of its chunks. */
  public async start(workflow: KubeObject, templateName: string): Promise<void> {
    const entrypoint = (workflow.spec as { entrypoint?: string } | undefined)?.entrypoint;
    if (entrypoint === undefined) return this.startProject(workflow, templateName);
    this.startChunk(workflow, templateName, entrypoint);
  }

  /** One move of a project or chunk that can move; false when none can. */
  public async reconcile(): Promise<boolean> {
    for (const chunk of this.chunks) if (chunk.phase === 'Running' && (await this.moveChunk(chunk))) return true;
    for (const project of this.projects) if (project.phase === 'Running' && (await this.moveProject(project))) return true;
    return false;
  }

  /**
   * The pod watching chunk `number` of the project is evicted: its node ends Error (`pod deleted`), and Argo runs
   * the wait again, a new pod reading the same chunk, while the wait template's retryStrategy allows; past it
   * the project fails while its chunk runs on.
   *
   * @throws ProjectStepRefused when no pod watches that chunk now
   */
  public evictWatcher(name: string, number: number): string {
    const project = [...this.projects].reverse().find((candidate) => candidate.name === name);
    if (project === undefined) throw new ProjectStepRefused(`no Workflow of project ${name}: list it under the scenario's projects`);
    const chunk = project.chunks[number - 1];
    if (chunk === undefined) throw new ProjectStepRefused(`project ${name} has ${project.chunks.length} chunk(s), not ${number}`);
    if (project.phase !== 'Running' || project.current !== number - 1 || chunk.workflow === undefined)
      throw new ProjectStepRefused(`no pod watches chunk ${number} of project ${name} now (the project is ${project.phase})`);
    chunk.watcherFailures += 1;
    const wait = this.templateOf(project.template, this.runChunkSteps(project.template).wait);
    if (retriedAfter(wait, chunk.watcherFailures, 'Error', `${project.template}/${wait.name}`)) {
      chunk.watcherPods += 1;
      return `the pod watching chunk ${number} (${chunk.workflow}) of project ${name} was evicted; Argo runs the wait again (retry ${chunk.watcherFailures}) on the same chunk, which runs on`;
    }
    this.endProject(project, 'Failed', `the watcher of ${chunk.chunk} was lost ${chunk.watcherFailures} time(s), past its retries`);
    return `the pod watching chunk ${number} of project ${name} was evicted past its retries: the project failed; its chunk runs on`;
  }

  public views(): ProjectView[] {
    return this.projects.map((project) => ({
      name: project.name,
      phase: project.phase,
      chunksCompleted: project.chunks.filter((chunk) => chunk.phase === 'Succeeded').length,
      tasksCompleted: project.chunks.reduce((sum, chunk) => sum + chunk.tasksCompleted, 0),
      chunks: project.chunks.map((chunk) => ({
        chunk: chunk.chunk,
        phase: chunk.phase,
        tasks: chunk.tasks,
        tasksCompleted: chunk.tasksCompleted,
        watcherPods: chunk.watcherPods,
      })),
      ...(project.reason === undefined ? {} : { reason: project.reason }),
    }));
  }

  /** What happened since the last call, in words; then forgets it. */
  public takeNotes(): string[] {
    const notes = this.notes;
    this.notes = [];
    return notes;
  }

  // --- The project Workflow -------------------------------------------------------------------------------

  private startProject(workflow: KubeObject, templateName: string): void {
    const template = this.runner.workflowTemplate(templateName);
    const main = this.templateOf(templateName, template.spec.entrypoint);
    const chunks: ChunkState[] = (main.steps ?? []).map((group: any[]): ChunkState => {
      if (group.length !== 1) throw new UnsupportedFeatureError(`${templateName}/${main.name}: a step group of ${group.length} chunks`);
      const values = Object.fromEntries((group[0].arguments?.parameters ?? []).map((p: any) => [p.name, String(p.value)]));
      const [holder, chunk] = Object.values(values) as string[];
      const dag = this.templateOf(holder, chunk);
      return {
        chunk,
        holder,
        tasks: (dag.dag?.tasks ?? []).length,
        phase: 'Pending',
        tasksCompleted: 0,
        watcherPods: 0,
        watcherFailures: 0,
      };
    });
    const name = templateName.replace(/^project-/, '');
    const project: ProjectState = { name, workflow, template: templateName, chunks, phase: 'Running', current: 0 };
    this.projects.push(project);
    this.putPhase(workflow.metadata.name ?? '', 'Running');
    this.notes.push(`project ${name}: ${chunks.length} chunk(s), ${chunks.reduce((sum, chunk) => sum + chunk.tasks, 0)} tasks`);
  }

  /** The templates of run-chunk's two steps: the create and the wait. */
  private runChunkSteps(templateName: string): { run: string; create: string; wait: string } {
    const main = this.templateOf(templateName, this.runner.workflowTemplate(templateName).spec.entrypoint);
    const run = this.templateOf(templateName, main.steps?.[0]?.[0]?.template);
    const [create, wait] = (run.steps ?? []).map((group: any[]) => group[0]?.template);
    const createTemplate = this.templateOf(templateName, create);
    const waitTemplate = this.templateOf(templateName, wait);
    if (createTemplate.resource?.action !== 'create' || waitTemplate.resource?.action !== 'get')
      throw new UnsupportedFeatureError(`${templateName}/${run.name}: not a resource create then a resource get`);
    return { run: run.name, create, wait };
  }

  /** Creates the next chunk, or reads the chunk it waits for (the watcher's get). */
  private async moveProject(project: ProjectState): Promise<boolean> {
    const chunk = project.chunks[project.current];
    const steps = this.runChunkSteps(project.template);
    if (chunk.workflow === undefined) {
      await this.createChunk(project, chunk, steps.create);
      return true;
    }
    const wait = this.templateOf(project.template, steps.wait);
    const read = await this.watch(project, chunk, wait);
    if (read === 'waiting') return false;
    if (read === 'succeeded') {
      chunk.phase = 'Succeeded';
      project.current += 1;
      if (project.current === project.chunks.length) this.endProject(project, 'Succeeded');
      return true;
    }
    // A failed get or a chunk that failed: the node fails, and each retry reads the same.
    chunk.watcherFailures += 1;
    if (retriedAfter(wait, chunk.watcherFailures, 'Failed', `${project.template}/${wait.name}`)) {
      chunk.watcherPods += 1;
      return true;
    }
    this.endProject(project, 'Failed', `${chunk.chunk}: ${read}`);
    return true;
  }

  /** The resource create of the chunk Workflow, with the project's service account, owned by the project. */
  private async createChunk(project: ProjectState, chunk: ChunkState, create: string): Promise<void> {
    const template = this.templateOf(project.template, create);
    const scope = this.scopeOf(project.workflow);
    const inputs = { 'workflow-template': chunk.holder, chunk: chunk.chunk };
    const manifest = JSON.parse(fillReferences(String(template.resource.manifest), scope, inputs, `${project.template}/${create}`));
    if (template.resource.setOwnerReference === true)
      manifest.metadata.ownerReferences = [
        {
          apiVersion: ARGO_API_VERSION,
          kind: 'Workflow',
          name: project.workflow.metadata.name,
          uid: project.workflow.metadata.uid,
          blockOwnerDeletion: true,
          controller: true,
        },
      ];
    const created = await this.clientOf(project.template).create(ApiResources.workflows, scope.namespace, manifest);
    chunk.workflow = created.metadata.name;
    chunk.uid = created.metadata.uid;
    chunk.phase = 'Running';
    chunk.watcherPods = 1;
    this.notes.push(`project ${project.name}: created ${chunk.chunk} as Workflow ${chunk.workflow}; a wait-chunk pod watches it`);
  }

  /** One look of the watcher: `waiting`, `succeeded`, or why the get failed. */
  private async watch(project: ProjectState, chunk: ChunkState, wait: Record<string, any>): Promise<string> {
    let stored: KubeObject;
    try {
      stored = await this.clientOf(project.template).get(workflowRef(project.workflow.metadata.namespace ?? '', chunk.workflow ?? ''));
    } catch (error) {
      if (isNotFound(error)) return `Workflow ${chunk.workflow} not found`;
      throw error;
    }
    const phase = (stored.status as { phase?: string } | undefined)?.phase ?? '';
    if (conditionHolds(wait.resource.failureCondition, stored, wait.name)) {
      chunk.phase = 'Failed';
      return `the chunk Workflow ${chunk.workflow} is ${phase}`;
    }
    return conditionHolds(wait.resource.successCondition, stored, wait.name) ? 'succeeded' : 'waiting';
  }

  private endProject(project: ProjectState, phase: 'Succeeded' | 'Failed', reason?: string): void {
    project.phase = phase;
    if (reason !== undefined) project.reason = reason;
    this.putPhase(project.workflow.metadata.name ?? '', phase);
    this.notes.push(`project ${project.name}: ${phase}${reason === undefined ? '' : ` (${reason})`}`);
  }

  // --- Chunk Workflows ------------------------------------------------------------------------------------

  private startChunk(workflow: KubeObject, templateName: string, entrypoint: string): void {
    const dag = this.templateOf(templateName, entrypoint);
    if (dag.dag === undefined) throw new UnsupportedFeatureError(`${templateName}/${entrypoint}: a chunk that is no DAG`);
    const tasks = (dag.dag.tasks ?? []).map((task: any): TaskState => {
      const defaults = this.templateOf(templateName, task.template).inputs?.parameters ?? [];
      const inputs: Record<string, string> = {};
      for (const parameter of defaults) if (parameter.default !== undefined) inputs[parameter.name] = String(parameter.default);
      for (const parameter of task.arguments?.parameters ?? []) inputs[parameter.name] = String(parameter.value);
      return {
        name: task.name,
        depends: dependsOn(task.depends, `${templateName}/${entrypoint}`),
        inputs,
        phase: 'Pending',
        group: 0,
        outputs: {},
      };
    });
    const run: ChunkRun = {
      uid: workflow.metadata.uid ?? '',
      name: workflow.metadata.name ?? '',
      namespace: workflow.metadata.namespace ?? this.namespace,
      template: templateName,
      parallelism: Number(dag.parallelism ?? Number.POSITIVE_INFINITY),
      tasks,
      phase: 'Running',
    };
    this.chunks.push(run);
    this.putPhase(run.name, 'Running');
  }

  /** Starts a task that may start, or moves a running one by a step; false when none moves. */
  private async moveChunk(chunk: ChunkRun): Promise<boolean> {
    for (const task of chunk.tasks.filter((candidate) => candidate.phase === 'Running')) if (await this.moveTask(chunk, task)) return true;
    const running = chunk.tasks.filter((task) => task.phase === 'Running').length;
    for (const task of chunk.tasks.filter((candidate) => candidate.phase === 'Pending')) {
      const before = task.depends.map((name) => chunk.tasks.find((candidate) => candidate.name === name)?.phase);
      if (before.some((phase) => phase === 'Failed' || phase === 'Omitted')) {
        task.phase = 'Omitted';
        return true;
      }
      if (running < chunk.parallelism && before.every((phase) => phase === 'Succeeded' || phase === 'Skipped')) {
        task.phase = 'Running';
        await this.moveTask(chunk, task);
        return true;
      }
    }
    if (chunk.tasks.some((task) => task.phase === 'Pending' || task.phase === 'Running')) return false;
    chunk.phase = chunk.tasks.every((task) => task.phase === 'Succeeded' || task.phase === 'Skipped') ? 'Succeeded' : 'Failed';
    this.putPhase(chunk.name, chunk.phase);
    const completed = chunk.tasks.filter((task) => task.phase === 'Succeeded').length;
    const state = this.chunkStateOf(chunk);
    if (state !== undefined) state.tasksCompleted = completed;
    this.notes.push(`chunk ${chunk.name}: ${chunk.phase}, ${completed} of ${chunk.tasks.length} tasks completed`);
    return true;
  }

  private chunkStateOf(chunk: ChunkRun): ChunkState | undefined {
    return this.projects.flatMap((project) => project.chunks).find((state) => state.uid === chunk.uid);
  }

  /** Runs the task's next step group (one step each); false when its step still waits. */
  private async moveTask(chunk: ChunkRun, task: TaskState): Promise<boolean> {
    const runTask = this.templateOf(chunk.template, this.taskTemplate(chunk, task));
    const groups: any[][] = runTask.steps ?? [];
    if (task.group >= groups.length) {
      task.phase = 'Succeeded';
      return true;
    }
    if (groups[task.group].length !== 1)
      throw new UnsupportedFeatureError(`${chunk.template}/${runTask.name}: a step group of ${groups[task.group].length} steps`);
    const step = groups[task.group][0];
    const where = `${chunk.template}/${runTask.name}/${step.name}`;
    const fill = (value: string): string =>
      fillReferences(fillStepOutputs(value, task.outputs), this.scopeOfChunk(chunk), task.inputs, where);
    if (step.when !== undefined && !whenHolds(fill(String(step.when)), where)) {
      task.group += 1;
      return true;
    }
    const inputs = Object.fromEntries((step.arguments?.parameters ?? []).map((p: any) => [p.name, fill(String(p.value))]));
    try {
      const run = await this.runner.run(chunk.template, step.template, this.scopeOfChunk(chunk), inputs);
      if (run.failure !== undefined) {
        task.phase = 'Failed';
        this.notes.push(`chunk ${chunk.name}: ${task.name} failed at ${step.name}: ${run.failure}`);
        return true;
      }
      task.outputs[step.name] = { ...run.outputs };
      task.group += 1;
      return true;
    } catch (error) {
      if (error instanceof StillWaiting) return false;
      throw error;
    }
  }

  private taskTemplate(chunk: ChunkRun, task: TaskState): string {
    const dag = this.templateOf(chunk.template, this.entrypointOf(chunk));
    return (dag.dag.tasks ?? []).find((candidate: any) => candidate.name === task.name)?.template;
  }

  private entrypointOf(chunk: ChunkRun): string {
    const stored = this.server.peek(workflowRef(chunk.namespace, chunk.name));
    return (stored?.spec as { entrypoint?: string } | undefined)?.entrypoint ?? '';
  }

  // --- Helpers --------------------------------------------------------------------------------------------

  private templateOf(workflowTemplate: string, name: string | undefined): Record<string, any> {
    const found = (this.runner.workflowTemplate(workflowTemplate).spec.templates ?? []).find((template: any) => template.name === name);
    if (found === undefined) throw new UnsupportedFeatureError(`${workflowTemplate}: no template ${name}`);
    return found;
  }

  private clientOf(workflowTemplate: string): KubeApi {
    const account = this.runner.workflowTemplate(workflowTemplate).spec.serviceAccountName;
    return this.server.client(roleAuthorizer(this.objects, account, this.namespace));
  }

  private scopeOf(workflow: KubeObject): WorkflowScope {
    return {
      name: workflow.metadata.name ?? '',
      namespace: workflow.metadata.namespace ?? this.namespace,
      uid: workflow.metadata.uid ?? '',
      parameters: {},
    };
  }

  private scopeOfChunk(chunk: ChunkRun): WorkflowScope {
    return { name: chunk.name, namespace: chunk.namespace, uid: chunk.uid, parameters: {} };
  }

  /** The controller's write of a Workflow's phase (labelled completed when it ended). */
  private putPhase(name: string, phase: Phase): void {
    const stored = this.server.peek(workflowRef(this.namespace, name));
    if (stored === undefined) return;
    const done = phase === 'Succeeded' || phase === 'Failed';
    this.server.put(ApiResources.workflows, {
      ...stored,
      metadata: { ...stored.metadata, labels: { ...stored.metadata.labels, ...(done ? { [ARGO_COMPLETED_LABEL]: 'true' } : {}) } },
      status: { ...((stored.status as object | undefined) ?? {}), phase },
    });
  }
}

/** The tasks a DAG task's `depends` names: `task-1 && task-2` (each Succeeded or Skipped, Argo's default). */
export function dependsOn(depends: unknown, where: string): string[] {
  if (depends === undefined || depends === '') return [];
  const names = String(depends)
    .split('&&')
    .map((name) => name.trim());
  if (names.some((name) => !/^[A-Za-z0-9-]+$/.test(name)))
    throw new UnsupportedFeatureError(`${where}: depends ${JSON.stringify(depends)} is more than tasks joined by &&`);
  return names;
}

/** `{{steps.NAME.outputs.parameters.P}}` filled from the outputs of the steps before. */
function fillStepOutputs(value: string, outputs: Readonly<Record<string, Record<string, string>>>): string {
  return value.replace(/\{\{\s*steps\.([^.{}]+)\.outputs\.parameters\.([^.{}\s]+)\s*\}\}/g, (whole, step: string, parameter: string) => {
    const found = outputs[step]?.[parameter];
    return found === undefined ? whole : found;
  });
}

/** A step's `when` once filled: `'a' == 'b'` or `'a' != 'b'`. @throws UnsupportedFeatureError for anything else */
export function whenHolds(expression: string, where: string): boolean {
  const match = /^\s*'([^']*)'\s*(==|!=)\s*'([^']*)'\s*$/.exec(expression);
  if (match === null) throw new UnsupportedFeatureError(`${where}: when ${JSON.stringify(expression)} is not simulated`);
  return (match[1] === match[3]) === (match[2] === '==');
}

/**
 * A resource template's condition on an object, as argoexec reads the ones the platform writes:
 * `PATH == VALUE`, `PATH != VALUE` or `PATH in (A,B)` on a dotted path. Unset: never holds.
 * @throws UnsupportedFeatureError for another form
 */
export function conditionHolds(condition: unknown, object: KubeObject, where: string): boolean {
  if (condition === undefined || condition === '') return false;
  const match = /^\s*([A-Za-z0-9_.]+)\s*(==|!=|in)\s*(.+?)\s*$/.exec(String(condition));
  if (match === null) throw new UnsupportedFeatureError(`${where}: condition ${JSON.stringify(condition)} is not simulated`);
  const value = String(match[1].split('.').reduce<any>((node, key) => node?.[key], object) ?? '');
  if (match[2] === 'in') {
    const list = /^\((.*)\)$/.exec(match[3]);
    if (list === null) throw new UnsupportedFeatureError(`${where}: condition ${JSON.stringify(condition)} is not simulated`);
    return list[1].split(',').some((item) => item.trim() === value);
  }
  return (value === match[3]) === (match[2] === '==');
}
