// @ts-nocheck
import type { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import {
  DEFAULT_KEEP_FAILED,
  DEFAULT_KEEP_SUCCEEDED,
  DEFAULT_PLAY_DEADLINE,
  RepositorySchema,
  type RepositoryConfig,
} from '../model/config-shapes';
import { pinnedImageProblem } from '../model/image-reference';
import { dnsLabelProblem } from '../model/naming';
import { checkProp, durationProp, schemaProblem } from '../model/prop-checks';
import { type ServiceAccountRef, serviceAccountNameOf } from '../rbac/service-account-ref';
import { inputParameter, stepOutput, WorkflowVariables } from '../model/argo-expressions';
import { PlayLabels, ProjectLabels, WorkflowTypes } from '../model/labels';
import { dnsName } from '../model/naming';
import { PLAY_TEMPLATE_NAME, PlayParameters } from '../model/play-contract';
import { ProjectSchema } from '../model/config-shapes';
import { chunkTasks, MAX_DAG_TASKS, orderTasks, ProjectError, type OrderedTask, type ProjectConfig } from './project';
import type { StageMachine } from '../model/stage-machine';
import type { DagTask, Template, WorkflowSpec, WorkflowStep } from '../workflows/argo-types';
import { HARDENED_POD, SCRATCH_VOLUME } from '../workflows/hardened-pod';
import { projectTaskTemplates, ProjectTemplates } from './project-task-templates';
import { workflowLifetime } from '../workflows/workflow-lifetime';
import { IMAGE_PULL_ALLOWANCE_SECONDS, sharedDeadlineRetry } from '../workflows/retry-policy';
import { DEFAULT_RUNTIME_IMAGE } from '../runtime/runtime-layout';
import { MAX_TEMPLATES, WorkflowTemplate } from '../workflows/workflow-template';
import { ARGO_API_VERSION } from '../model/argo-api';

/**
 * Keep each WorkflowTemplate well under 256 KiB, the largest object ArgoCD's client-side apply can store in
 * its last-applied annotation: chunks are added while the object's JSON stays under this budget, which
 * leaves room for YAML's indentation.
 */
export const PROJECT_OBJECT_BUDGET_BYTES = 150 * 1024;

/**
 * Tasks per chunk. Each chunk runs as a child Workflow of its own, whose status holds about seven nodes per
 * task (run-task; find-start, start-play and wait-play, each with its retry node) of about 1 KiB each, beside
 * the stored WorkflowTemplate: 100 tasks keep a chunk near 0.7 MiB, under the controller's 1 MiB before it compresses
 * the node status (argo-workflows `workflow/packer/packer.go`, MAX_WORKFLOW_SIZE) and etcd's 1.5 MiB. The
 * project Workflow itself then holds two nodes per chunk. See docs/limits.md.
 */
export const PROJECT_CHUNK_TASKS = 100;

/** What `new ProjectWorkflowTemplate(scope, id, props)` takes. */
export interface ProjectWorkflowTemplateProps {
  /** The project: its name, repository, parallelism and tasks (validated here). */
  readonly project: ProjectConfig;
  /** The project's repository (its service names the child plays). */
  readonly repository: RepositoryConfig;
  /** The play WorkflowTemplate the repository runs. @default play */
  readonly playTemplate?: string;
  /** The stage machine of the plays, for the stage a task without progress starts at. */
  readonly stages: StageMachine;
  /** Play parameters a task may set, with their defaults (task-type and the declared ones). @default `{ task-type: '' }` */
  readonly playParameters?: Readonly<Record<string, string>>;
  /** The image the runtime steps run in (Node.js 20 or later), pinned. @default DEFAULT_RUNTIME_IMAGE */
  readonly runtimeImage?: string;
  /**
   * The service account of the project's Workflows (its name, or a cdk8s-plus service account): may read
   * progress ConfigMaps and create and read Workflows (`projectGrants`).
   */
  readonly serviceAccountName: ServiceAccountRef;
  /** The longest a child play may run (its WorkflowTemplate's deadline): a cdk8s `Duration` or text. @default 7d */
  readonly playDeadline?: Duration | string;
  /** How long a succeeded project (and chunk) Workflow is kept: a cdk8s `Duration` or text. @default 1d */
  readonly keepSucceeded?: Duration | string;
  /** How long a failed one is kept: a cdk8s `Duration` or text. @default 3d */
  readonly keepFailed?: Duration | string;
  /** `metadata.namespace` of every object. @default - the chart's namespace */
  readonly namespace?: string;
}

/** The props a project checks before it builds anything (the project itself is parsed by `parseProject`). */
function checkProjectProps(props: ProjectWorkflowTemplateProps) {
  const owner = `ProjectWorkflowTemplate ${props.project?.name}`;
  checkProp(owner, 'repository', props.repository?.name, schemaProblem(RepositorySchema, props.repository));
  if (props.runtimeImage !== undefined) checkProp(owner, 'runtimeImage', props.runtimeImage, pinnedImageProblem(props.runtimeImage));
  if (props.namespace !== undefined) checkProp(owner, 'namespace', props.namespace, dnsLabelProblem(props.namespace));
  return {
    serviceAccountName: serviceAccountNameOf(owner, 'serviceAccountName', props.serviceAccountName),
    playDeadlineSeconds: durationProp(owner, 'playDeadline', props.playDeadline, DEFAULT_PLAY_DEADLINE),
    keepSucceededSeconds: durationProp(owner, 'keepSucceeded', props.keepSucceeded, DEFAULT_KEEP_SUCCEEDED),
    keepFailedSeconds: durationProp(owner, 'keepFailed', props.keepFailed, DEFAULT_KEEP_FAILED),
  };
}

/** A chunk: at most 200 tasks, run as one DAG after the chunks before it. */
interface Chunk {
  readonly name: string;
  readonly template: Template;
}

/**
 * A project: every task of a repository run as a child play (a Workflow from the repository's play
 * template, named and labelled like any play), in dependency order, at most `parallelism` at once. Each
 * task first reads its progress record, so a re-run skips finished tasks and restarts the others where they
 * stopped. Tasks are cut into DAGs of at most 100 (`PROJECT_CHUNK_TASKS`), run one after the other from the
 * main WorkflowTemplate `project-{name}`, each as a child Workflow (so that no Workflow's node status grows
 * with the project); when one object would pass Argo's 200 templates or ArgoCD's object size, further
 * chunks go to `project-{name}-part-{n}` WorkflowTemplates, which the child Workflows reference.
 *
 * @throws when the project is invalid (duplicate ids, unknown dependencies, a cycle, a repository that is not
 * the project's), with a message that says what to change
 */
export class ProjectWorkflowTemplate extends Construct {
  /** The WorkflowTemplate to submit: `project-{name}`. */
  public readonly main: WorkflowTemplate;
  /** Every WorkflowTemplate of the project, the main one first. */
  public readonly templates: readonly WorkflowTemplate[];
  /** The tasks in the order they run, chunk by chunk. */
  public readonly chunks: readonly (readonly number[])[];
  /** The props converted once: service account name and durations in seconds. */
  private readonly settings: ReturnType<typeof checkProjectProps>;

  public constructor(scope: Construct, id: string, props: ProjectWorkflowTemplateProps) {
    super(scope, id);
    this.settings = checkProjectProps(props);
    const playParameters = props.playParameters ?? { [PlayParameters.taskType]: '' };
    const project = parseProject(props, Object.keys(playParameters));
    const ordered = chunkTasks(orderTasks(project.tasks), PROJECT_CHUNK_TASKS);
    this.chunks = ordered.map((tasks) => tasks.map((task) => task.id));
    const chunks = ordered.map((tasks, index) => chunkTemplate(index, tasks, project.parallelism));
    const name = dnsName(['project', project.name]);
    const helpers = projectTaskTemplates({
      repository: props.repository,
      playTemplate: props.playTemplate ?? PLAY_TEMPLATE_NAME,
      project: project.name,
      stages: props.stages.names,
      parameters: playParameters,
      runtimeImage: props.runtimeImage ?? DEFAULT_RUNTIME_IMAGE,
      playDeadlineSeconds: this.settings.playDeadlineSeconds,
    });
    const objects = this.packChunks(name, chunks, helpers, props);
    this.main = objects[0].template;
    this.main.addTemplate({
      name: MAIN_TEMPLATE,
      steps: objects.flatMap((object) => object.chunks.map((chunk) => [callChunk(chunk, object.template)])),
    });
    for (const template of runChunk(project.name)) this.main.addTemplate(template);
    this.templates = objects.map((object) => object.template);
  }

  /** Chunks into as few WorkflowTemplates as Argo's and ArgoCD's limits allow, in order. */
  private packChunks(
    name: string,
    chunks: readonly Chunk[],
    helpers: readonly Template[],
    props: ProjectWorkflowTemplateProps,
  ): { template: WorkflowTemplate; chunks: Chunk[] }[] {
    const objects: { template: WorkflowTemplate; chunks: Chunk[]; bytes: number }[] = [];
    const helperBytes = helpers.reduce((sum, template) => sum + jsonBytes(template), 0);
    // The main object also holds the steps that call every chunk (about 250 bytes each) and run-chunk.
    const mainReserve = 250 * chunks.length + 4096;
    for (const chunk of chunks) {
      let current = objects[objects.length - 1];
      const bytes = jsonBytes(chunk.template);
      const fits =
        current && current.bytes + bytes <= PROJECT_OBJECT_BUDGET_BYTES && current.template.templateNames.length + 3 <= MAX_TEMPLATES;
      if (!fits) {
        const partName = objects.length === 0 ? name : `${name}-part-${objects.length + 1}`;
        current = {
          template: this.newObject(partName, objects.length === 0, helpers, props),
          chunks: [],
          bytes: helperBytes + (objects.length === 0 ? mainReserve : 0),
        };
        objects.push(current);
      }
      current.template.addTemplate(chunk.template);
      current.chunks.push(chunk);
      current.bytes += bytes;
    }
    return objects;
  }

  private newObject(name: string, isMain: boolean, helpers: readonly Template[], props: ProjectWorkflowTemplateProps): WorkflowTemplate {
    // Every object is the template of Workflows: the project's (main) and its chunks' (any object).
    const spec: Omit<WorkflowSpec, 'templates'> = {
      ...(isMain ? { entrypoint: MAIN_TEMPLATE } : {}),
      serviceAccountName: this.settings.serviceAccountName,
      workflowMetadata: { labels: { [PlayLabels.workflowType]: WorkflowTypes.project } },
      ...workflowLifetime(this.settings),
      // The helper scripts run in these Workflows' pods: hardened, with a scratch /tmp.
      securityContext: HARDENED_POD,
      volumes: [SCRATCH_VOLUME],
    };
    return new WorkflowTemplate(this, isMain ? 'Main' : name, {
      name,
      namespace: props.namespace,
      labels: { [PlayLabels.workflowType]: WorkflowTypes.project },
      spec,
      templates: helpers,
    });
  }
}

const MAIN_TEMPLATE = 'project';
const RUN_CHUNK = 'run-chunk';
const CHUNK_INPUTS = { template: 'workflow-template', entrypoint: 'chunk' } as const;

function parseProject(props: ProjectWorkflowTemplateProps, declared: readonly string[]): ProjectConfig {
  const parsed = ProjectSchema.safeParse(props.project);
  if (!parsed.success) {
    throw new ProjectError(parsed.error.issues.map((issue) => `project ${props.project.name}: ${issue.path.join('.')}: ${issue.message}`));
  }
  const project = parsed.data;
  const problems: string[] = [];
  if (project.repository !== props.repository.name)
    problems.push(`project ${project.name}: repository ${project.repository} is not the repository given (${props.repository.name})`);
  project.tasks.forEach((task, index) => {
    for (const parameter of Object.keys(task.parameters).filter((name) => !declared.includes(name))) {
      problems.push(
        `project ${project.name}: tasks[${index}].parameters.${parameter}: the play declares no parameter ${parameter} (it has ${declared.join(', ')}); declare it under play.parameters`,
      );
    }
  });
  if (problems.length > 0) throw new ProjectError(problems);
  return project;
}

/** A DAG task name for a task id: task names may not start with a digit when depends is used. */
const taskName = (id: number): string => `task-${id}`;

function chunkTemplate(index: number, tasks: readonly OrderedTask[], parallelism: number): Chunk {
  const dagTasks: DagTask[] = tasks.map((task) => ({
    name: taskName(task.id),
    template: ProjectTemplates.runTask,
    depends: task.dependsOn.length > 0 ? task.dependsOn.map(taskName).join(' && ') : undefined,
    arguments: {
      parameters: [
        { name: PlayParameters.taskId, value: String(task.id) },
        ...Object.entries(task.parameters).map(([name, value]) => ({ name, value })),
      ],
    },
  }));
  if (dagTasks.length > MAX_DAG_TASKS) throw new Error(`chunk ${index + 1} has ${dagTasks.length} tasks; at most ${MAX_DAG_TASKS}`);
  const name = `chunk-${index + 1}`;
  return { name, template: { name, parallelism, dag: { tasks: dagTasks } } };
}

function callChunk(chunk: Chunk, holder: WorkflowTemplate): WorkflowStep {
  return {
    name: chunk.name,
    template: RUN_CHUNK,
    arguments: {
      parameters: [
        { name: CHUNK_INPUTS.template, value: holder.name },
        { name: CHUNK_INPUTS.entrypoint, value: chunk.name },
      ],
    },
  };
}

/** The templates of run-chunk's two steps. */
const CREATE_CHUNK = 'create-chunk';
const WAIT_CHUNK = 'wait-chunk';
/** The output of create-chunk and the input of wait-chunk: the chunk Workflow's name. */
const CHUNK_NAME = 'chunk-name';
/** How long the wait for a chunk may last: a chunk runs up to a hundred plays, many one after another. */
const CHUNK_WAIT_SECONDS = 30 * 24 * 3600;
/** Re-reads of the chunk after its waiting pod was lost (evicted, node drained): each reads the same chunk. */
const CHUNK_WAIT_RETRIES = 5;

/**
 * Runs one chunk as a child Workflow of the WorkflowTemplate that holds it, entered at the chunk's DAG, owned by
 * the project Workflow (deleting the project deletes its chunks), and waits for it to end. The create is not
 * retried (a second create would run the chunk twice; a re-run of the project resumes every task from its
 * record); the wait, which lasts as long as the chunk, is: a lost waiting pod reads the same chunk again
 * rather than failing the project while the chunk runs on.
 */
function runChunk(project: string): Template[] {
  const child = {
    apiVersion: ARGO_API_VERSION,
    kind: 'Workflow',
    metadata: {
      generateName: `${WorkflowVariables.name}-`,
      labels: { [PlayLabels.workflowType]: WorkflowTypes.project, [ProjectLabels.project]: project },
    },
    spec: { workflowTemplateRef: { name: inputParameter(CHUNK_INPUTS.template) }, entrypoint: inputParameter(CHUNK_INPUTS.entrypoint) },
  };
  const inputs = { parameters: [{ name: CHUNK_INPUTS.template }, { name: CHUNK_INPUTS.entrypoint }] };
  const run: Template = {
    name: RUN_CHUNK,
    inputs,
    steps: [
      [
        {
          name: 'create',
          template: CREATE_CHUNK,
          arguments: {
            parameters: [
              { name: CHUNK_INPUTS.template, value: inputParameter(CHUNK_INPUTS.template) },
              { name: CHUNK_INPUTS.entrypoint, value: inputParameter(CHUNK_INPUTS.entrypoint) },
            ],
          },
        },
      ],
      [{ name: 'wait', template: WAIT_CHUNK, arguments: { parameters: [{ name: CHUNK_NAME, value: stepOutput('create', CHUNK_NAME) }] } }],
    ],
  };
  const create: Template = {
    name: CREATE_CHUNK,
    inputs,
    activeDeadlineSeconds: 60 + IMAGE_PULL_ALLOWANCE_SECONDS,
    resource: { action: 'create', setOwnerReference: true, manifest: `${JSON.stringify(child, null, 2)}\n` },
    outputs: { parameters: [{ name: CHUNK_NAME, valueFrom: { jsonPath: '{.metadata.name}' } }] },
  };
  const wait: Template = {
    name: WAIT_CHUNK,
    inputs: { parameters: [{ name: CHUNK_NAME }] },
    activeDeadlineSeconds: CHUNK_WAIT_SECONDS,
    retryStrategy: sharedDeadlineRetry({ limit: CHUNK_WAIT_RETRIES, attemptSeconds: CHUNK_WAIT_SECONDS, backoffSeconds: 30 }),
    resource: {
      action: 'get',
      successCondition: 'status.phase == Succeeded',
      failureCondition: 'status.phase in (Failed,Error)',
      manifest: `${JSON.stringify({ apiVersion: ARGO_API_VERSION, kind: 'Workflow', metadata: { name: inputParameter(CHUNK_NAME) } }, null, 2)}\n`,
    },
  };
  return [run, create, wait];
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}
