/**
 * The shapes of the platform configuration (`agent-play.yaml`): each section and field with its type, its
 * default and its own rule, and the types a parsed configuration has. The rules between fields (references,
 * name collisions, stage rules) are in config-rules.ts; config-schema.ts joins the two.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

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

/**
 * A container image pinned by version or digest; `latest` is refused, since it changes under a running play.
 * @internal zod's types stay out of the public declarations.
 */
export const PinnedImageSchema = z.string().superRefine((image, ctx) => {
  const problem = pinnedImageProblem(image);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * A CLI of the registry (`clis.{name}`): the image its jobs run and the model settings it starts with.
 * @internal zod's type stays out of the public declarations: `CliConfig` is its type.
 */
export const CliSchema = z.strictObject({
  image: PinnedImageSchema.describe("The image the agent's job runs, pinned by version or digest (`latest` is refused)."),
  provider: plainText.optional().describe('The model provider whose API key the CLI needs, e.g. anthropic. @default none'),
  executor: z
    .enum(EXECUTORS)
    .optional()
    .describe("The executor that runs this CLI in direct execution. @default the CLI's name, when it is an executor"),
  settings: z
    .record(z.string(), z.unknown())
    .default({})
    .superRefine((settings, ctx) => {
      for (const path of templateExpressionPaths(settings)) ctx.addIssue({ code: 'custom', path, message: TEMPLATE_MESSAGE });
    })
    .describe('Free-form settings passed to the CLI as `cliConfig.settings`; no `{{`, since they reach the templates.'),
});

/** The roles an agent may have; `implementation` agents share the repository workspace, every other role works in its own. */
export const AGENT_ROLES = ['implementation', 'quality', 'security', 'testing', 'docs', 'devops', 'review', 'integration'] as const;

/**
 * An agent of the registry (`agents.{name}`): its GitHub App, role, CLI binding and system prompt.
 * @internal zod's type stays out of the public declarations: `AgentConfig` is its type.
 */
export const AgentSchema = z.strictObject({
  githubApp: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,33}$/, { message: 'expected a GitHub App name, e.g. 5DLabs-Cleo' })
    .describe('The GitHub App the agent acts as, e.g. `5DLabs-Cleo`.'),
  role: z
    .enum(AGENT_ROLES)
    .describe("The agent's role: implementation agents share the repository's workspace; every other role gets its own."),
  cli: keyName.describe('The CLI (executor) the agent runs with: a key of `clis`.'),
  model: plainText.describe('The model the CLI runs, e.g. claude-sonnet-4.'),
  maxTokens: z.number().int().positive().describe('The largest response of the model, in tokens.'),
  temperature: z.number().min(0).max(2).describe('The sampling temperature, from 0 to 2.'),
  reasoningEffort: z
    .enum(['low', 'medium', 'high'])
    .optional()
    .describe("The model's reasoning effort, for CLIs that take one. @default the CLI's own"),
  description: plainText.optional().describe('What the agent does, for people reading the registry. @default none'),
  systemPrompt: z.string().min(1).describe("The agent's system prompt."),
  execution: ExecutionSchema.optional().describe("How this agent's stages run: coderun or direct. @default the platform's `execution`"),
  resources: AgentResourcesSchema.optional().describe(
    "Direct execution only: this agent's container resources, over the platform's `direct.resources`. @default the platform's",
  ),
});

/**
 * A repository the platform runs plays for (`repositories[]`): `{ name, service }` is a whole one.
 * @internal zod's type stays out of the public declarations: `RepositoryConfig` is its type.
 */
export const RepositorySchema = z.strictObject({
  name: repositoryName.describe('The repository, `owner/name` as GitHub spells it.'),
  service: keyName.describe('The service: the key of the workspaces and of the CodeRuns.'),
  branch: gitBranch.default('main').describe('The branch pull requests merge into.'),
  workingDirectory: folderInRepository
    .optional()
    .describe('Where the agents work inside the repository: a relative path without `..`. @default the service'),
  docsRepository: repositoryName.optional().describe('The repository that holds the task documents. @default the repository itself'),
  docsProjectDirectory: folderInRepository
    .default('docs')
    .describe('The folder of the task documents in the docs repository: a relative path without `..`.'),
  docsBranch: gitBranch.optional().describe('The branch of the docs repository. @default the branch'),
  agentClis: z
    .record(keyName, keyName)
    .default({})
    .describe('Agents that use another CLI in this repository than their registry binding, e.g. `{ rex: codex }`.'),
});

/**
 * One GitHub event that releases a gate (or sends a task back).
 * @internal zod's type stays out of the public declarations: `ReleaseConfig` is its type.
 */
export const ReleaseSchema = z.strictObject({
  event: z.enum(['pull_request', 'pull_request_review']).describe('The GitHub event (the `X-GitHub-Event` header).'),
  actions: z
    .array(z.string().regex(/^[a-z_]+$/, { message: 'expected a GitHub action such as opened' }))
    .min(1)
    .describe("The event's actions that count (`body.action`), e.g. opened, labeled, submitted, closed."),
  reviewState: z
    .enum(['approved', 'changes_requested', 'commented'])
    .optional()
    .describe('For reviews: the review state that counts. @default any state'),
  label: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, { message: 'expected a label name' })
    .optional()
    .describe('For `labeled`: the label that counts. @default any label'),
  merged: z.boolean().optional().describe('For `closed`: whether the pull request must be merged. @default either'),
  by: z.array(keyName).default([]).describe('Agents whose bot must be the reviewer or sender; empty means anyone.'),
});

const stageName = z.string().max(50).regex(KEY, { message: keyMessage });

/**
 * A play parameter's name: what `when` conditions test and what a submission (or a project task) sets.
 * @internal zod's types stay out of the public declarations.
 */
export const ParameterNameSchema = z.string().max(63).regex(KEY, { message: keyMessage });

/**
 * A play parameter's value, as a config, a project task or `agent-play resume --parameter` gives it.
 * @internal zod's types stay out of the public declarations.
 */
export const ParameterValueSchema = z
  .string()
  .regex(/^[^"\\\n\r{}']*$/, { message: 'expected a value without quotes, backslashes, braces or line breaks' });

/**
 * A condition on a stage: it runs only for tasks whose play parameter has one of these values, and is
 * skipped (not failed) for every other task.
 * @internal zod's type stays out of the public declarations: `WhenConfig` is its type.
 */
export const WhenSchema = z.strictObject({
  parameter: ParameterNameSchema.describe('A play parameter: `task-type`, or one declared in `play.parameters`.'),
  in: z.array(plainText).min(1).describe('The values for which the stage runs.'),
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

/**
 * An agent stage: one agent, or several at once, working on the task.
 * @internal zod's type stays out of the public declarations: `AgentStageConfig` is its type.
 */
export const AgentStageSchema = z.strictObject({
  name: stageName.describe("The stage's name, e.g. code-quality: the play's `current-stage` label while it runs."),
  type: z.literal('agent').describe('An agent stage.'),
  agent: keyName
    .optional()
    .describe('The agent that works in this stage: a key of `agents`. Give either `agent` or `agents`. @default - `agents`'),
  agents: z
    .array(keyName)
    .min(1, { message: 'name the agents that work in this stage' })
    .optional()
    .describe('Several agents that work in this stage at once, each in its own run; the stage ends when all are done. @default - `agent`'),
  timeout: duration.default(DEFAULT_STAGE_TIMEOUT).describe('How long one attempt of the agent may run, e.g. 90m or 4h.'),
  retries: z
    .number()
    .int()
    .min(0)
    .max(MAX_STAGE_RETRIES)
    .default(DEFAULT_STAGE_RETRIES)
    .describe('How many times a failed agent run is retried (0: never).'),
  when: WhenSchema.optional().describe('Run this stage only for some tasks. @default every task'),
});

/**
 * A gate: a suspend that only GitHub events release.
 * @internal zod's type stays out of the public declarations: `GateStageConfig` is its type.
 */
export const GateStageSchema = z.strictObject({
  name: stageName.describe("The gate's name, e.g. waiting-pr-created: its Sensor is `gate-{name}`."),
  type: z.literal('gate').describe('A gate.'),
  release: z
    .array(ReleaseSchema)
    .min(1, { message: 'a gate needs at least one releasing event' })
    .describe('The GitHub events that release the gate; any one of them does.'),
  when: WhenSchema.optional().describe(
    'Wait at this gate only for some tasks (e.g. the gate after a conditional stage). @default every task',
  ),
  remediate: z
    .array(ReleaseSchema)
    .optional()
    .describe(
      'The GitHub events that send the task back to its implementation stage for another round (see `remediation`); `[]` for none. @default after a quality or testing stage: changes requested, or the `needs-fixes` label, by its agents (`defaultRemediateConditions`)',
    ),
});

/**
 * The end of the play.
 * @internal zod's type stays out of the public declarations: `EndStageConfig` is its type.
 */
export const EndStageSchema = z.strictObject({
  name: stageName.describe("The end stage's name, e.g. completed."),
  type: z.literal('end').describe('The end stage.'),
});

/**
 * One stage of the play (`stages[]`): an agent stage, a gate released by GitHub events, or the end.
 * @internal zod's type stays out of the public declarations: `StageConfig` is its type.
 */
export const StageSchema = z.discriminatedUnion('type', [AgentStageSchema, GateStageSchema, EndStageSchema]);

/** The size of a workspace PVC unless the config says otherwise. */
export const DEFAULT_WORKSPACE_SIZE = '10Gi';

/**
 * The workspace PVCs (`workspace`): their size and storage class.
 * @internal zod's type stays out of the public declarations: `WorkspaceConfig` is its type.
 */
export const WorkspaceSchema = z.strictObject({
  size: z
    .string()
    .regex(/^[1-9][0-9]*(Mi|Gi|Ti)$/, { message: 'expected a size such as 10Gi' })
    .default(DEFAULT_WORKSPACE_SIZE)
    .describe('The size of each workspace PVC, e.g. 10Gi.'),
  storageClass: z
    .string()
    .regex(KEY, { message: keyMessage })
    .optional()
    .describe("The storage class of the workspace PVCs. @default the cluster's default storage class"),
});

/** The longest a play may live unless the config says otherwise. */
export const DEFAULT_PLAY_DEADLINE = '7d';
/** How long a succeeded play (or project Workflow) is kept unless the config says otherwise. */
export const DEFAULT_KEEP_SUCCEEDED = '1d';
/** How long a failed play (or project Workflow) is kept unless the config says otherwise. */
export const DEFAULT_KEEP_FAILED = '3d';
/** The service account plays run as unless the config says otherwise. */
export const DEFAULT_PLAY_SERVICE_ACCOUNT = 'agent-play';

/**
 * The play WorkflowTemplates (`play`): deadline, retention, service account and extra parameters.
 * @internal zod's type stays out of the public declarations: `PlayConfig` is its type.
 */
export const PlaySchema = z.strictObject({
  deadline: duration
    .default(DEFAULT_PLAY_DEADLINE)
    .describe('The longest a play may live, waits included; a play past it fails and is resumed from its state.'),
  keepSucceeded: duration.default(DEFAULT_KEEP_SUCCEEDED).describe('How long a succeeded play is kept.'),
  keepFailed: duration.default(DEFAULT_KEEP_FAILED).describe('How long a failed play is kept.'),
  serviceAccount: keyName.default(DEFAULT_PLAY_SERVICE_ACCOUNT).describe('The service account plays run as.'),
  parameters: z
    .record(ParameterNameSchema, ParameterValueSchema)
    .default({})
    .describe(
      'Extra play parameters and their defaults, which stage conditions (`when`) can test and a submission or a project task can set. `task-type` always exists (default empty).',
    ),
});

/** Keys `images` no longer has: what replaced them, said where a config still sets them. */
const removedImage = (what: string) =>
  z
    .never({ error: `removed: ${what}; the runtime steps run in images.runtime (a Node.js image)` })
    .optional()
    .describe(`Removed: ${what}. @default must be left out`);

/**
 * The platform's own images (`images`), each pinned by tag or digest.
 * @internal zod's type stays out of the public declarations: `ImagesConfig` is its type.
 */
export const ImagesSchema = z.strictObject({
  runtime: PinnedImageSchema.default(DEFAULT_RUNTIME_IMAGE).describe(
    'The image the runtime steps run in: any Node.js 20 or later image (the runtime program is mounted from the runtime ConfigMap). The default is the official image, pinned.',
  ),
  kubectl: removedImage('the bash, kubectl and jq helper image is gone'),
  argo: removedImage('gates are released by the runtime program, not the Argo CLI'),
});

/** How a GitHub event finds the play to resume (seed 000; argo-semantics section 5). */
export const RESUME_STRATEGIES = ['label-selector', 'workflow-name'] as const;

/**
 * The event side (`events`): the EventBus, the GitHub EventSource, the Sensors and the resumer.
 * @internal zod's type stays out of the public declarations: `EventsConfig` is its type.
 */
export const EventsSchema = z.strictObject({
  resume: z
    .enum(RESUME_STRATEGIES)
    .default('label-selector')
    .describe(
      'How a GitHub event finds its play: `label-selector` (a small resumer Workflow finds the play by its labels) or `workflow-name` (plays are named from repository and task id, and the resumer resumes that name).',
    ),
  eventBus: z
    .strictObject({
      name: keyName.default('default').describe('The name of the EventBus.'),
      namespace: z
        .string()
        .regex(KEY, { message: keyMessage })
        .optional()
        .describe('The namespace of the EventBus: it must be the one of the EventSource and the Sensors. @default the namespace'),
    })
    .prefault({})
    .describe('The EventBus the EventSource and the Sensors share.'),
  eventSource: z
    .strictObject({
      name: keyName.default('github').describe('The name of the GitHub EventSource.'),
      webhook: z
        .strictObject({
          endpoint: z
            .string()
            .superRefine(checkedBy(webhookEndpointProblem))
            .default('/github/webhook')
            .describe('The path GitHub posts its deliveries to.'),
          port: z.number().int().min(1).max(65535).default(12000).describe('The port the EventSource listens on.'),
          url: z
            .string()
            .url()
            .regex(/^[^{}]*$/, { message: 'expected a URL without braces' })
            .optional()
            .describe(
              'The public URL GitHub posts to; needed only to let Argo Events create the hook itself. @default none: the hook is made by hand',
            ),
        })
        .prefault({})
        .describe("The EventSource's webhook server."),
      webhookSecret: z
        .strictObject({
          name: keyName.default('github-webhook-secret').describe('The name of the Secret.'),
          key: z
            .string()
            .superRefine(checkedBy(configMapKeyProblem))
            .default('secret')
            .describe('The key of the webhook secret in the Secret.'),
        })
        .prefault({})
        .describe("The Secret and key holding the webhook secret that signs GitHub's deliveries (created by you, referenced here)."),
      organizations: z
        .array(z.string().regex(/^[A-Za-z0-9-]+$/, { message: 'expected a GitHub organisation' }))
        .min(1)
        .optional()
        .describe('Listen to whole organisations instead of the configured repositories. @default the repositories'),
    })
    .prefault({})
    .describe('The GitHub EventSource.'),
  triggerRetries: z
    .number()
    .int()
    .min(0)
    .max(MAX_TRIGGER_RETRIES)
    .default(DEFAULT_TRIGGER_RETRIES)
    .describe("Retries of each Sensor's trigger: bounded, with backoff."),
  sensorServiceAccount: keyName.default('agent-play-sensor').describe('The service account the Sensors run as.'),
  resumerServiceAccount: keyName.default('agent-play-resumer').describe('The service account the resumer runs as.'),
});

/** A project's task id: positive, and at most what a CodeRun's 32-bit `taskId` holds. */
const taskIdNumber = z
  .number()
  .int()
  .positive()
  .max(MAX_TASK_ID, { message: `expected a task id of at most ${MAX_TASK_ID} (a CodeRun's taskId is a 32-bit integer)` });

/**
 * A task of a project (`projects[].tasks[]`): its id, the tasks it waits for, and its play parameters.
 * @internal zod's type stays out of the public declarations: `ProjectTaskConfig` is its type.
 */
export const ProjectTaskSchema = z.strictObject({
  id: taskIdNumber.describe("The task id, as the play's `task-id` parameter."),
  dependsOn: z.array(taskIdNumber).default([]).describe('Tasks that must finish (their plays succeed) before this one starts.'),
  parameters: z
    .record(ParameterNameSchema, ParameterValueSchema)
    .default({})
    .describe('Play parameters of this task, e.g. `{ task-type: backend }`.'),
});

/**
 * A project (`projects[]`): the tasks of one repository, run in dependency order.
 * @internal zod's type stays out of the public declarations: `ProjectConfig` is its type.
 */
export const ProjectSchema = z.strictObject({
  name: z
    .string()
    .max(40)
    .regex(/^[a-z]([-a-z0-9]*[a-z0-9])?$/, { message: 'expected lower-case letters, digits and "-", starting with a letter' })
    .describe("The project's name: its WorkflowTemplate is `project-{name}`."),
  repository: z.string().describe('The repository whose play runs each task (`owner/name`, one of the configured repositories).'),
  parallelism: z.number().int().min(1).max(100).default(4).describe('How many child plays run at once; 1 runs them one after the other.'),
  tasks: z.array(ProjectTaskSchema).min(1, { message: 'a project needs at least one task' }).describe("The project's tasks."),
});

/** How many rounds a task gets unless the config says otherwise: the first, and two remediations. */
export const DEFAULT_MAX_ROUNDS = 3;
/** The most rounds a config may allow: every round reruns the implementation and the reviews. */
export const MAX_ROUNDS_LIMIT = 20;
/**
 * The platform's remediation settings (`remediation`).
 * @internal zod's type stays out of the public declarations: `RemediationConfig` is its type.
 */
export const RemediationSchema = z.strictObject({
  maxRounds: z
    .number()
    .int()
    .min(1)
    .max(MAX_ROUNDS_LIMIT)
    .default(DEFAULT_MAX_ROUNDS)
    .describe('The most rounds a task runs; a request for changes in the last round fails the play.'),
  cancelStaleWork: z
    .boolean()
    .default(true)
    .describe(
      "Cancel the quality and testing work of a round when the implementation agent's bot pushes to the task's branch while the play is past the pull request gate, and run it again on the new commits.",
    ),
});

/**
 * The shape of the whole platform configuration, field by field; `PlatformConfigSchema` (config-schema.ts) adds
 * the rules between fields (config-rules.ts).
 * @internal zod's type stays out of the public declarations: `PlatformConfig` is its type.
 */
export const PlatformShapeSchema = z.strictObject({
  namespace: z
    .string()
    .regex(KEY, { message: keyMessage })
    .max(63)
    .default('agents')
    .describe('The namespace of everything the platform runs: plays, Sensors, the EventSource, workspaces.'),
  repositories: z
    .array(RepositorySchema)
    .min(1)
    .prefault(DEFAULT_REPOSITORIES as never)
    .describe(
      'The repositories agents work on; `agentClis` binds an agent to another CLI in one repository only. @default one repository, `DEFAULT_REPOSITORIES`',
    ),
  agents: z
    .record(keyName, AgentSchema)
    .prefault(DEFAULT_AGENTS as never)
    .describe(
      'The agent registry, merged over the built-in agents entry by entry: add an agent (every field but the optional ones), or change some fields of a built-in one (`{ cleo: { cli: codex } }`). `AGENT_PLAY_CLI_<AGENT>=<cli>` in the environment rebinds an agent. @default the built-in agents, `DEFAULT_AGENTS`',
    ),
  clis: z
    .record(keyName, CliSchema)
    .prefault(DEFAULT_CLIS as never)
    .describe(
      'The CLI registry, merged over the built-in CLIs entry by entry: add a CLI, or change some fields of a built-in one. @default the built-in CLIs, `DEFAULT_CLIS`',
    ),
  stages: z
    .array(StageSchema)
    .prefault(DEFAULT_STAGES as never)
    .describe('The stage machine, in order: agent stages, gates released by GitHub events, and one end stage. @default `DEFAULT_STAGES`'),
  workspace: WorkspaceSchema.prefault({}).describe('The workspace PVCs agents keep their clones in: size and storage class.'),
  play: PlaySchema.prefault({}).describe(
    'How plays run: deadline, how long finished Workflows are kept, the service account, extra play parameters.',
  ),
  images: ImagesSchema.prefault({}).describe("The platform's own images."),
  events: EventsSchema.prefault({}).describe(
    'The GitHub side: the resume strategy, the EventBus, the EventSource webhook and its secret, trigger retries, the service accounts.',
  ),
  execution: ExecutionSchema.default(DEFAULT_EXECUTION).describe(
    "How agent stages run: `coderun` (a CodeRun for the CodeRun controller) or `direct` (the CLI in the play's own step); an agent may override it.",
  ),
  direct: DirectSchema.prefault({}).describe(
    'Direct execution: the default resources of every direct agent, and the GitHub they work with.',
  ),
  remediation: RemediationSchema.prefault({}).describe(
    'Remediation rounds: how many, and whether a push cancels stale reviews (docs/remediation.md).',
  ),
  projects: z.array(ProjectSchema).default([]).describe('Projects: tasks of one repository run as child plays in dependency order.'),
});

// The types: plain interfaces generated from these schemas (scripts/generate-config-types.ts), so that the
// library's declarations carry no zod type.
export type {
  AgentConfig,
  AgentConfigInput,
  AgentStageConfig,
  AgentStageConfigInput,
  CliConfig,
  CliConfigInput,
  EndStageConfig,
  EndStageConfigInput,
  EventsConfig,
  EventsConfigInput,
  GateStageConfig,
  GateStageConfigInput,
  ImagesConfig,
  ImagesConfigInput,
  PlatformConfig,
  PlatformConfigInput,
  PlayConfig,
  PlayConfigInput,
  ProjectConfig,
  ProjectConfigInput,
  ProjectTaskConfig,
  ProjectTaskConfigInput,
  ReleaseConfig,
  ReleaseConfigInput,
  RemediationConfig,
  RemediationConfigInput,
  RepositoryConfig,
  RepositoryConfigInput,
  StageConfig,
  StageConfigInput,
  WhenConfig,
  WhenConfigInput,
  WorkspaceConfig,
  WorkspaceConfigInput,
} from './config-types.generated';
/** One of `RESUME_STRATEGIES`. */
export type ResumeStrategy = (typeof RESUME_STRATEGIES)[number];
