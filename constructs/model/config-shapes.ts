/**
 * The shapes of the platform configuration (`agent-play.yaml`): each section and field with its type, its
 * default and its own rule, and the types a parsed configuration has. The rules between fields (references,
 * name collisions, stage rules) are in config-rules.ts; config-schema.ts joins the two.
 *
 * Pure: no cdk8s, no I/O.
 */
import { z } from 'zod';
import { DURATION_PATTERN, durationProblem } from './duration';
import { DEFAULT_AGENTS, DEFAULT_CLIS, DEFAULT_REPOSITORIES, DEFAULT_STAGES } from './default-config';
import { MAX_TASK_ID, parseRepository } from './naming';
import { DEFAULT_RUNTIME_IMAGE } from '../runtime/runtime-layout';
import { pinnedImageProblem } from './image-reference';
import { configMapKeyProblem, gitBranchProblem, webhookEndpointProblem } from './external-formats';
import { AgentResourcesSchema, DEFAULT_EXECUTION, DirectSchema, ExecutionSchema } from './direct-execution';
import { EXECUTORS } from './executors';
import { RELATIVE_PATH_PATTERN, relativePathProblem } from './relative-path';

const KEY = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const keyMessage = 'expected lower-case letters, digits and "-", starting with a letter';

/** A name that becomes part of Kubernetes names: an agent, a CLI, a stage, a service. */
const keyName = z.string().max(40).regex(KEY, { message: keyMessage });

const duration = z
  .string()
  .regex(DURATION_PATTERN, { message: 'expected a whole number and a unit, e.g. 90s, 30m, 4h, 7d' })
  .superRefine((text, ctx) => {
    const problem = DURATION_PATTERN.test(text) ? durationProblem(text) : undefined;
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * Argo reads `{{...}}` in any string of a template as an expression to substitute, so a config value that
 * reaches a template must not hold one: it would be replaced (or fail the workflow) instead of passed on.
 */
const TEMPLATE_EXPRESSION = /\{\{/;
const TEMPLATE_MESSAGE = 'holds "{{", which Argo would read as a template expression; remove it';

/** Every string inside `value` (keys too) that holds `{{`, at its path. */
function templateExpressionPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return TEMPLATE_EXPRESSION.test(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => templateExpressionPaths(item, [...path, index]));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    TEMPLATE_EXPRESSION.test(key) ? [[...path, key]] : templateExpressionPaths(item, [...path, key]),
  );
}

/** A refinement that reports what `problem` says of a value. */
const checkedBy =
  (problem: (value: string) => string | undefined) =>
  (value: string, context: z.RefinementCtx): void => {
    const message = problem(value);
    if (message !== undefined) context.addIssue({ code: 'custom', message });
  };

/**
 * A branch: the characters a template and a step carry as they are (no braces, quotes or spaces), in a name
 * git accepts (`git check-ref-format --branch`).
 */
const gitBranch = z
  .string()
  .regex(/^[A-Za-z0-9._/-]+$/, { message: 'expected a git branch name', abort: true })
  .superRefine(checkedBy(gitBranchProblem));

/** `owner/name` as GitHub spells it, checked by the one repository parser. */
const repositoryName = z.string().superRefine((name, ctx) => {
  try {
    parseRepository(name);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

/**
 * A folder inside a repository's checkout, which steps `cd` and clone into (relative-path.ts); the pattern is
 * for editors (the config's JSON Schema), the refinement says what is wrong.
 */
const folderInRepository = z
  .string()
  .superRefine((path, ctx) => {
    const problem = relativePathProblem(path);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ pattern: RELATIVE_PATH_PATTERN });

/** A text that is pasted into a YAML manifest as a quoted string: no quotes, backslashes or line breaks. */
const plainText = z
  .string()
  .min(1)
  .regex(/^[^"\\\n\r{}]*$/, { message: 'expected text without quotes, backslashes, braces or line breaks' });

/** A container image pinned by version or digest; `latest` is refused, since it changes under a running play. */
export const PinnedImageSchema = z.string().superRefine((image, ctx) => {
  const problem = pinnedImageProblem(image);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

/** A CLI of the registry (`clis.{name}`): the image its jobs run and the model settings it starts with. */
export const CliSchema = z.strictObject({
  /** The image the agent's job runs, pinned by version. */
  image: PinnedImageSchema,
  /** The model provider whose API key the CLI needs. */
  provider: plainText.optional(),
  /** The executor that runs this CLI in direct execution (executors.ts). @default the key, when it is an executor */
  executor: z.enum(EXECUTORS).optional(),
  /** Free-form settings passed to the CLI as `cliConfig.settings` (no `{{`: they reach the templates). */
  settings: z
    .record(z.string(), z.unknown())
    .default({})
    .superRefine((settings, ctx) => {
      for (const path of templateExpressionPaths(settings)) ctx.addIssue({ code: 'custom', path, message: TEMPLATE_MESSAGE });
    }),
});

/** The roles an agent may have; `implementation` agents share the repository workspace, every other role works in its own. */
export const AGENT_ROLES = ['implementation', 'quality', 'security', 'testing', 'docs', 'devops', 'review', 'integration'] as const;

/** An agent of the registry (`agents.{name}`): its GitHub App, role, CLI binding and system prompt. */
export const AgentSchema = z.strictObject({
  /** The GitHub App the agent acts as, e.g. `5DLabs-Cleo`. */
  githubApp: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,33}$/, { message: 'expected a GitHub App name, e.g. 5DLabs-Cleo' }),
  /** Implementation agents share the repository's workspace; every other role gets its own. */
  role: z.enum(AGENT_ROLES),
  /** The CLI (executor) the agent runs with: a key of `clis`. */
  cli: keyName,
  model: plainText,
  maxTokens: z.number().int().positive(),
  temperature: z.number().min(0).max(2),
  reasoningEffort: z.enum(['low', 'medium', 'high']).optional(),
  description: plainText.optional(),
  systemPrompt: z.string().min(1),
  /** How this agent's stages run. @default the platform's `execution` */
  execution: ExecutionSchema.optional(),
  /** Direct execution only: this agent's container resources, over the platform's `direct.resources`. @default - the platform's */
  resources: AgentResourcesSchema.optional(),
});

/** A repository the platform runs plays for (`repositories[]`): `{ name, service }` is a whole one. */
export const RepositorySchema = z.strictObject({
  /** `owner/name` as GitHub spells it. */
  name: repositoryName,
  /** The service: the key of the workspaces and of the CodeRuns. */
  service: keyName,
  /** The branch pull requests merge into. */
  branch: gitBranch.default('main'),
  /** Where the agents work inside the repository: a relative path without `..`. @default the service */
  workingDirectory: folderInRepository.optional(),
  /** The repository that holds the task documents. @default the repository itself */
  docsRepository: repositoryName.optional(),
  /** The folder of the task documents in the docs repository: a relative path without `..`. */
  docsProjectDirectory: folderInRepository.default('docs'),
  /** The branch of the docs repository. @default the branch */
  docsBranch: gitBranch.optional(),
  /** Agents that use another CLI in this repository than their registry binding, e.g. `{ rex: codex }`. */
  agentClis: z.record(keyName, keyName).default({}),
});

const ReleaseSchema = z.strictObject({
  /** The GitHub event (the `X-GitHub-Event` header). */
  event: z.enum(['pull_request', 'pull_request_review']),
  /** The event's actions that count (`body.action`). */
  actions: z.array(z.string().regex(/^[a-z_]+$/, { message: 'expected a GitHub action such as opened' })).min(1),
  /** For reviews: the review state that counts. */
  reviewState: z.enum(['approved', 'changes_requested', 'commented']).optional(),
  /** For `labeled`: the label that counts. */
  label: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, { message: 'expected a label name' })
    .optional(),
  /** For `closed`: whether the pull request must be merged. */
  merged: z.boolean().optional(),
  /** Agents whose bot must be the reviewer or sender; empty means anyone. */
  by: z.array(keyName).default([]),
});

const stageName = z.string().max(50).regex(KEY, { message: keyMessage });

/** A play parameter's name: what `when` conditions test and what a submission (or a project task) sets. */
export const ParameterNameSchema = z.string().max(63).regex(KEY, { message: keyMessage });

/** A play parameter's value, as a config, a project task or `agent-play resume --parameter` gives it. */
export const ParameterValueSchema = z
  .string()
  .regex(/^[^"\\\n\r{}']*$/, { message: 'expected a value without quotes, backslashes, braces or line breaks' });

/**
 * A condition on a stage: it runs only for tasks whose play parameter has one of these values, and is
 * skipped (not failed) for every other task.
 */
const WhenSchema = z.strictObject({
  /** A play parameter: `task-type`, or one declared in `play.parameters`. */
  parameter: ParameterNameSchema,
  /** The values for which the stage runs. */
  in: z.array(plainText).min(1),
});

/** How long one attempt of an agent may run, unless the stage says otherwise. */
export const DEFAULT_STAGE_TIMEOUT = '4h';
/** How many times a failed agent run is retried, unless the stage says otherwise. */
export const DEFAULT_STAGE_RETRIES = 1;
/** The most retries a stage may ask for: each retry reruns an agent for up to its timeout. */
export const MAX_STAGE_RETRIES = 5;
/** The most retries of a Sensor's trigger. */
export const MAX_TRIGGER_RETRIES = 10;
/** Retries of a Sensor's trigger unless the config says otherwise. */
export const DEFAULT_TRIGGER_RETRIES = 3;

const AgentStageSchema = z.strictObject({
  name: stageName,
  type: z.literal('agent'),
  /** The agent that works in this stage: a key of `agents`. Give either `agent` or `agents`. */
  agent: keyName.optional(),
  /** Several agents that work in this stage at once, each in its own run; the stage ends when all are done. */
  agents: z.array(keyName).min(1, { message: 'name the agents that work in this stage' }).optional(),
  /** How long one attempt of the agent may run. */
  timeout: duration.default(DEFAULT_STAGE_TIMEOUT),
  /** How many times a failed agent run is retried (0: never). */
  retries: z.number().int().min(0).max(MAX_STAGE_RETRIES).default(DEFAULT_STAGE_RETRIES),
  /** Run this stage only for some tasks. @default - every task */
  when: WhenSchema.optional(),
});

const GateStageSchema = z.strictObject({
  name: stageName,
  type: z.literal('gate'),
  /** The GitHub events that release the gate; any one of them does. */
  release: z.array(ReleaseSchema).min(1, { message: 'a gate needs at least one releasing event' }),
  /** Wait at this gate only for some tasks (e.g. the gate after a conditional stage). @default - every task */
  when: WhenSchema.optional(),
  /**
   * The GitHub events that send the task back to its implementation stage for another round (see
   * `remediation`); `[]` for none. @default - after a quality or testing stage: changes requested, or the
   * `needs-fixes` label, by its agents (`defaultRemediateConditions`)
   */
  remediate: z.array(ReleaseSchema).optional(),
});

const EndStageSchema = z.strictObject({
  name: stageName,
  type: z.literal('end'),
});

/** One stage of the play (`stages[]`): an agent stage, a gate released by GitHub events, or the end. */
export const StageSchema = z.discriminatedUnion('type', [AgentStageSchema, GateStageSchema, EndStageSchema]);

/** The size of a workspace PVC unless the config says otherwise. */
export const DEFAULT_WORKSPACE_SIZE = '10Gi';

/** The workspace PVCs (`workspace`): their size and storage class. */
export const WorkspaceSchema = z.strictObject({
  size: z
    .string()
    .regex(/^[1-9][0-9]*(Mi|Gi|Ti)$/, { message: 'expected a size such as 10Gi' })
    .default(DEFAULT_WORKSPACE_SIZE),
  storageClass: z.string().regex(KEY, { message: keyMessage }).optional(),
});

/** The longest a play may live unless the config says otherwise. */
export const DEFAULT_PLAY_DEADLINE = '7d';
/** How long a succeeded play (or project Workflow) is kept unless the config says otherwise. */
export const DEFAULT_KEEP_SUCCEEDED = '1d';
/** How long a failed play (or project Workflow) is kept unless the config says otherwise. */
export const DEFAULT_KEEP_FAILED = '3d';
/** The service account plays run as unless the config says otherwise. */
export const DEFAULT_PLAY_SERVICE_ACCOUNT = 'agent-play';

/** The play WorkflowTemplates (`play`): deadline, retention, service account and extra parameters. */
export const PlaySchema = z.strictObject({
  /** The longest a play may live, waits included; a play past it fails and is resumed from its state. */
  deadline: duration.default(DEFAULT_PLAY_DEADLINE),
  /** How long a finished play is kept. */
  keepSucceeded: duration.default(DEFAULT_KEEP_SUCCEEDED),
  keepFailed: duration.default(DEFAULT_KEEP_FAILED),
  /** The service account plays run as. */
  serviceAccount: keyName.default(DEFAULT_PLAY_SERVICE_ACCOUNT),
  /**
   * Extra play parameters and their defaults, which stage conditions (`when`) can test and a submission or
   * a project task can set. `task-type` always exists (default empty).
   */
  parameters: z.record(ParameterNameSchema, ParameterValueSchema).default({}),
});

/** Keys `images` no longer has: what replaced them, said where a config still sets them. */
const removedImage = (what: string) =>
  z.never({ error: `removed: ${what}; the runtime steps run in images.runtime (a Node.js image)` }).optional();

/** The platform's own images (`images`), each pinned by tag or digest. */
export const ImagesSchema = z.strictObject({
  /**
   * The image the runtime steps run in: any Node.js 20 or later image (the runtime program is mounted from the
   * runtime ConfigMap). The default is the official image, pinned.
   */
  runtime: PinnedImageSchema.default(DEFAULT_RUNTIME_IMAGE),
  kubectl: removedImage('the bash, kubectl and jq helper image is gone'),
  argo: removedImage('gates are released by the runtime program, not the Argo CLI'),
});

/** How a GitHub event finds the play to resume (seed 000; argo-semantics section 5). */
export const RESUME_STRATEGIES = ['label-selector', 'workflow-name'] as const;

/** The event side (`events`): the EventBus, the GitHub EventSource, the Sensors and the resumer. */
export const EventsSchema = z.strictObject({
  /**
   * `label-selector`: the sensor starts a small resumer Workflow that finds the play by its labels;
   * `workflow-name`: plays are named from repository and task id, and the resumer resumes that name.
   */
  resume: z.enum(RESUME_STRATEGIES).default('label-selector'),
  eventBus: z
    .strictObject({
      name: keyName.default('default'),
      /** Argo Events needs the EventBus in the namespace of the EventSource and the Sensors. @default the namespace */
      namespace: z.string().regex(KEY, { message: keyMessage }).optional(),
    })
    .prefault({}),
  eventSource: z
    .strictObject({
      name: keyName.default('github'),
      webhook: z
        .strictObject({
          endpoint: z.string().superRefine(checkedBy(webhookEndpointProblem)).default('/github/webhook'),
          port: z.number().int().min(1).max(65535).default(12000),
          /** The public URL GitHub posts to; needed only to let Argo Events create the hook itself. */
          url: z
            .string()
            .url()
            .regex(/^[^{}]*$/, { message: 'expected a URL without braces' })
            .optional(),
        })
        .prefault({}),
      /** The Secret and key holding the webhook secret that signs GitHub's deliveries (required by reference). */
      webhookSecret: z
        .strictObject({
          name: keyName.default('github-webhook-secret'),
          key: z.string().superRefine(checkedBy(configMapKeyProblem)).default('secret'),
        })
        .prefault({}),
      /** Listen to whole organisations instead of the configured repositories. @default - the repositories */
      organizations: z
        .array(z.string().regex(/^[A-Za-z0-9-]+$/, { message: 'expected a GitHub organisation' }))
        .min(1)
        .optional(),
    })
    .prefault({}),
  /** Trigger retries of each Sensor: bounded, with backoff. */
  triggerRetries: z.number().int().min(0).max(MAX_TRIGGER_RETRIES).default(DEFAULT_TRIGGER_RETRIES),
  sensorServiceAccount: keyName.default('agent-play-sensor'),
  resumerServiceAccount: keyName.default('agent-play-resumer'),
});

/** A project's task id: positive, and at most what a CodeRun's 32-bit `taskId` holds. */
const taskIdNumber = z
  .number()
  .int()
  .positive()
  .max(MAX_TASK_ID, { message: `expected a task id of at most ${MAX_TASK_ID} (a CodeRun's taskId is a 32-bit integer)` });

/** A task of a project (`projects[].tasks[]`): its id, the tasks it waits for, and its play parameters. */
export const ProjectTaskSchema = z.strictObject({
  /** The task id, as the play's `task-id` parameter. */
  id: taskIdNumber,
  /** Tasks that must finish (their plays succeed) before this one starts. @default none */
  dependsOn: z.array(taskIdNumber).default([]),
  /** Play parameters of this task, e.g. `{ task-type: backend }`. @default none */
  parameters: z.record(ParameterNameSchema, ParameterValueSchema).default({}),
});

/** A project (`projects[]`): the tasks of one repository, run in dependency order. */
export const ProjectSchema = z.strictObject({
  /** Names the project's WorkflowTemplate (`project-{name}`). */
  name: z
    .string()
    .max(40)
    .regex(/^[a-z]([-a-z0-9]*[a-z0-9])?$/, { message: 'expected lower-case letters, digits and "-", starting with a letter' }),
  /** The repository whose play runs each task (`owner/name`, one of the configured repositories). */
  repository: z.string(),
  /** How many child plays run at once; 1 runs them one after the other. @default 4 */
  parallelism: z.number().int().min(1).max(100).default(4),
  tasks: z.array(ProjectTaskSchema).min(1, { message: 'a project needs at least one task' }),
});

/** A project task, parsed: every default applied. */
export type ProjectTaskConfig = z.infer<typeof ProjectTaskSchema>;
/** A project, parsed: every default applied. */
export type ProjectConfig = z.infer<typeof ProjectSchema>;

/** How many rounds a task gets unless the config says otherwise: the first, and two remediations. */
export const DEFAULT_MAX_ROUNDS = 3;
/** The most rounds a config may allow: every round reruns the implementation and the reviews. */
export const MAX_ROUNDS_LIMIT = 20;
/** The platform's remediation settings (`remediation`). */
export const RemediationSchema = z.strictObject({
  /** The most rounds a task runs; a request for changes in the last round fails the play. */
  maxRounds: z.number().int().min(1).max(MAX_ROUNDS_LIMIT).default(DEFAULT_MAX_ROUNDS),
  /**
   * Cancel the quality and testing work of a round when the implementation agent's bot pushes to the task's
   * branch while the play is past the pull request gate, and run it again on the new commits.
   */
  cancelStaleWork: z.boolean().default(true),
});

/** The remediation settings, parsed. */
export type RemediationConfig = z.output<typeof RemediationSchema>;

/**
 * The shape of the whole platform configuration, field by field; `PlatformConfigSchema` (config-schema.ts) adds
 * the rules between fields (config-rules.ts).
 */
export const PlatformShapeSchema = z.strictObject({
  namespace: z.string().regex(KEY, { message: keyMessage }).max(63).default('agents'),
  repositories: z
    .array(RepositorySchema)
    .min(1)
    .prefault(DEFAULT_REPOSITORIES as never),
  agents: z.record(keyName, AgentSchema).prefault(DEFAULT_AGENTS as never),
  clis: z.record(keyName, CliSchema).prefault(DEFAULT_CLIS as never),
  stages: z.array(StageSchema).prefault(DEFAULT_STAGES as never),
  workspace: WorkspaceSchema.prefault({}),
  play: PlaySchema.prefault({}),
  images: ImagesSchema.prefault({}),
  events: EventsSchema.prefault({}),
  /** How agent stages run: `coderun` (a CodeRun for the controller) or `direct` (the CLI in the play's own step). */
  execution: ExecutionSchema.default(DEFAULT_EXECUTION),
  /** Direct execution: the default resources of every direct agent. */
  direct: DirectSchema.prefault({}),
  /** Remediation rounds: how many, and whether a push cancels stale reviews (docs/remediation.md). */
  remediation: RemediationSchema.prefault({}),
  /** Projects to run as project WorkflowTemplates. @default none */
  projects: z.array(ProjectSchema).default([]),
});

/** A platform configuration, parsed: every default applied and every cross-field rule checked. */
export type PlatformConfig = z.output<typeof PlatformShapeSchema>;
/** A platform configuration as a user writes it: every field optional where the schema has a default. */
export type PlatformConfigInput = z.input<typeof PlatformShapeSchema>;
/** An agent of the registry, parsed. */
export type AgentConfig = z.output<typeof AgentSchema>;
/** A CLI of the registry, parsed. */
export type CliConfig = z.output<typeof CliSchema>;
/** A repository, parsed: branch and docs defaults applied. */
export type RepositoryConfig = z.output<typeof RepositorySchema>;
/** A stage as the configuration writes it, parsed. */
export type StageConfig = z.output<typeof StageSchema>;
/** An agent stage as the configuration writes it (`agent` or `agents`), parsed. */
export type AgentStageConfig = z.output<typeof AgentStageSchema>;
/** A gate stage, parsed: the GitHub events that release it. */
export type GateStageConfig = z.output<typeof GateStageSchema>;
/** The end stage, parsed. */
export type EndStageConfig = z.output<typeof EndStageSchema>;
/** One GitHub event that releases a gate, parsed (see `Releases` for ready-made ones). */
export type ReleaseConfig = z.output<typeof ReleaseSchema>;
/** A stage condition: the stage runs only when a play parameter has one of these values. */
export type WhenConfig = z.output<typeof WhenSchema>;
/** The event side of the configuration, parsed. */
export type EventsConfig = z.output<typeof EventsSchema>;
/** One of `RESUME_STRATEGIES`. */
export type ResumeStrategy = (typeof RESUME_STRATEGIES)[number];
