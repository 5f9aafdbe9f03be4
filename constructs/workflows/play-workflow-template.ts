import type { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import {
  DEFAULT_KEEP_FAILED,
  DEFAULT_KEEP_SUCCEEDED,
  DEFAULT_PLAY_DEADLINE,
  ParameterNameSchema,
  ParameterValueSchema,
  RepositorySchema,
  type AgentConfig,
  type CliConfig,
  type RepositoryConfig,
} from '../model/config-schema';
import { durationSeconds } from '../model/duration';
import { pinnedImageProblem } from '../model/image-reference';
import { dnsLabelProblem, isDnsLabel } from '../model/naming';
import { checkProp, durationProp, schemaProblem } from '../model/prop-checks';
import { type ServiceAccountRef, serviceAccountNameOf } from '../rbac/service-account-ref';
import {
  argoExpression,
  inputParameter,
  stepOutput,
  workflowLabel,
  workflowParameter,
  workflowParameterExpression,
  WorkflowVariables,
} from '../model/argo-expressions';
import { playTemplateLabels } from '../model/play-workflow';
import { onStage, stageAgents, stageCondition } from '../model/stage-behaviour';
import { PlayAnnotations, PlayLabels, PROGRESS_TRACKING_LABEL, WorkflowTypes } from '../model/labels';
import { progressConfigMapName, workspaceOfAgent } from '../model/naming';
import {
  agentRunTemplateName,
  enterTaskName,
  FIRST_ROUND,
  GATE_STAGE_INPUT,
  GateTemplates,
  PlayParameters,
  playTemplateName,
  PlayTemplates,
  releaseConfigMapName,
  RESUMED_FROM_ANNOTATION,
  stageTaskName,
  ProgressStatuses,
  type ProgressStatus,
} from '../model/play-contract';
import type { AgentStage, Stage, StageMachine } from '../model/stage-machine';
import type { DagTask, EnvVar, Template, WorkflowStep } from './argo-types';
import { cancelCodeRunsTemplate, CANCEL_SELECTOR_INPUT } from './cancel-coderuns';
import { ArgoValue, codeRunTemplates, PLAY_RUN_CODERUNS } from './coderun-manifest';
import { HARDENED_POD, hardenedScript, SCRATCH_VOLUME } from './hardened-script';
import { boundedRetry } from './retry-policy';
import { PROGRESS_SCRIPT, progressRecordEnv } from './progress-script';
import { CHECK_RELEASE_SCRIPT, RELEASED_FILE } from './release-scripts';
import { argoResumeTemplate } from './argo-resume';
import { argoCliImage } from '../model/argo-images';
import { workflowLifetime } from './workflow-lifetime';
import { DEFAULT_AGENTS_CONFIGMAP } from '../config/agents-config-map';
import {
  agentCliOf,
  DEFAULT_DIRECT_RESOURCES,
  executionOf,
  resourcesOf,
  type AgentResources,
  type ExecutionMode,
  type GithubEndpoints,
} from '../model/direct-execution';
import { checkDirectPlayProps, directAgentTemplates } from './direct-agent-run';
import { WorkflowTemplate } from './workflow-template';
import { byCodeUnits } from '../model/code-unit-order';

/** What `new PlayWorkflowTemplate(scope, id, props)` takes. */
export interface PlayWorkflowTemplateProps {
  /** The repository whose tasks this play runs. */
  readonly repository: RepositoryConfig;
  /** The stages, in order. */
  readonly stages: StageMachine;
  /** The agent registry; every agent a stage names must be in it. */
  readonly agents: Readonly<Record<string, AgentConfig>>;
  /** The CLI registry; every agent's CLI must be in it. */
  readonly clis: Readonly<Record<string, CliConfig>>;
  /**
   * The service account the play's pods run as: its name, or a cdk8s-plus service account such as
   * `PlayRbac.serviceAccount`. It needs the grants of `PlayRbac`.
   */
  readonly serviceAccountName: ServiceAccountRef;
  /** Image with bash, kubectl and jq for the progress helper, pinned by tag or digest (never `latest`). */
  readonly helperImage: string;
  /** The Argo CLI image a gate resumes itself with, the controller's version, pinned. @default argoCliImage() */
  readonly argoImage?: string;
  /** The longest a play may run, waits included: a cdk8s `Duration` or text such as `7d`. @default 7d */
  readonly deadline?: Duration | string;
  /** How long a succeeded play is kept: a cdk8s `Duration` or text such as `1d`. @default 1d */
  readonly keepSucceeded?: Duration | string;
  /** How long a failed play is kept: a cdk8s `Duration` or text such as `3d`. @default 3d */
  readonly keepFailed?: Duration | string;
  /**
   * Extra play parameters and their defaults, which stage conditions (`when`) may test; `task-type` always
   * exists. @default - none
   */
  readonly parameters?: Readonly<Record<string, string>>;
  /**
   * How agent stages run: `coderun` creates a CodeRun per attempt for the CodeRun controller; `direct` runs the
   * agent's CLI in a step of the play (`directAgentTemplates`). An agent's own `execution` wins. @default coderun
   */
  readonly execution?: ExecutionMode;
  /** Direct agents' container resources unless an agent sets its own. @default DEFAULT_DIRECT_RESOURCES */
  readonly directResources?: AgentResources;
  /** The agents ConfigMap direct agents mount their system prompt from. @default controller-agents */
  readonly agentsConfigMap?: string;
  /** Where direct agents reach GitHub: a GitHub Enterprise Server's API and git server URLs. @default github.com */
  readonly directGithub?: GithubEndpoints;
  /** `metadata.name`. @default `play-{service}` */
  readonly name?: string;
  /** `metadata.namespace`. @default - the chart's namespace */
  readonly namespace?: string;
}

/** The status a task's progress record shows while the play is in a stage of this type. */
const STATUS_BY_STAGE_TYPE: Readonly<Record<Stage['type'], ProgressStatus>> = {
  agent: ProgressStatuses.inProgress,
  gate: ProgressStatuses.suspended,
  end: ProgressStatuses.completed,
};

/**
 * The play of one repository: the stage machine as a DAG. Each stage is entered by a task that patches the
 * Workflow's own `current-stage` and `previous-stage` labels (resource patch, merge) and records the
 * transition in annotations and in the task's progress record; then an agent stage runs its CodeRun, a gate
 * suspends until a resume names it, and the end stage finishes the play. The `start-stage` parameter skips
 * every stage before it, so a play recreated from its progress record resumes where it stopped.
 */
export class PlayWorkflowTemplate extends WorkflowTemplate {
  /** The stage machine this play runs. */
  public readonly stages: StageMachine;
  /** The repository this play works on. */
  public readonly repository: RepositoryConfig;

  /**
   * @throws when a prop breaks a rule (the repository, an image not pinned, an illegal service account name or
   * parameter, a duration out of range, an agent or CLI missing from its registry), naming the prop and what to change
   */
  public constructor(scope: Construct, id: string, props: PlayWorkflowTemplateProps) {
    const stages = props.stages;
    const checked = checkPlayProps(props);
    for (const stage of stages.agentStages) assertAgentBound(stage, props);
    super(scope, id, {
      name: props.name ?? playTemplateName(props.repository.service),
      namespace: props.namespace,
      labels: { [PlayLabels.workflowType]: WorkflowTypes.play },
      spec: {
        entrypoint: PlayTemplates.main,
        onExit: PlayTemplates.exit,
        serviceAccountName: checked.serviceAccountName,
        arguments: {
          parameters: [
            { name: PlayParameters.taskId, description: 'The task id (digits)' },
            { name: PlayParameters.startStage, value: stages.first.name, enum: stages.names, description: 'The stage to start at' },
            { name: PlayParameters.taskRequirements, value: '', description: 'Base64 requirements.yaml of the task' },
            { name: PlayParameters.taskType, value: '', description: 'The kind of task; stage conditions (when) test it' },
            { name: PlayParameters.round, value: FIRST_ROUND, description: 'The remediation round, from 1' },
            ...Object.entries(props.parameters ?? {})
              .sort(([a], [b]) => byCodeUnits(a, b))
              .map(([name, value]) => ({ name, value })),
          ],
        },
        workflowMetadata: {
          ...playTemplateLabels(props.repository.name),
          annotations: { [PlayAnnotations.repository]: props.repository.name },
        },
        activeDeadlineSeconds: checked.deadlineSeconds,
        ...workflowLifetime(checked),
        securityContext: HARDENED_POD,
        volumes: [SCRATCH_VOLUME],
      },
    });
    this.stages = stages;
    this.repository = structuredClone(props.repository);

    const progress = new ProgressEnvironment(props.repository, [PlayParameters.taskType, ...Object.keys(props.parameters ?? {}).sort()]);
    this.addTemplate(mainDag(stages, props));
    this.addTemplate(enterStageSteps());
    this.addTemplate(setStageLabels());
    this.addTemplate(
      hardenedScript({
        name: PlayTemplates.recordProgress,
        image: props.helperImage,
        source: PROGRESS_SCRIPT,
        inputs: { parameters: ENTER_INPUTS.map((name) => ({ name })) },
        env: progress.forEnter(),
        retryStrategy: { limit: '2', retryPolicy: 'Always', backoff: { duration: '10s', factor: 2, maxDuration: '2m' } },
      }),
    );
    for (const template of gateTemplates(props.repository, props.helperImage, props.argoImage ?? argoCliImage()))
      this.addTemplate(template);
    for (const stage of stages.agentStages) {
      for (const agent of parallelAgentsOf(stage)) {
        for (const template of agentRun(stage, agent, props)) this.addTemplate(template);
      }
    }
    const codeRuns = createsCodeRuns(props);
    this.addTemplate(exitHandler(codeRuns));
    if (codeRuns) this.addTemplate(cancelCodeRunsTemplate(PlayTemplates.cancelCodeRuns, props.helperImage));
    this.addTemplate(
      hardenedScript({
        name: PlayTemplates.recordExit,
        image: props.helperImage,
        source: PROGRESS_SCRIPT,
        env: progress.forExit(),
        retryStrategy: { limit: '2', retryPolicy: 'Always', backoff: { duration: '10s', factor: 2, maxDuration: '2m' } },
      }),
    );
  }
}

/** The props a play template checks before it builds anything, and the values it converts once. */
function checkPlayProps(props: PlayWorkflowTemplateProps) {
  const service = props.repository?.service;
  const owner = `PlayWorkflowTemplate ${props.name ?? (isDnsLabel(service ?? '') ? playTemplateName(service) : service)}`;
  checkProp(owner, 'repository', props.repository?.name, schemaProblem(RepositorySchema, props.repository));
  checkProp(owner, 'helperImage', props.helperImage, pinnedImageProblem(props.helperImage));
  if (props.argoImage !== undefined) checkProp(owner, 'argoImage', props.argoImage, pinnedImageProblem(props.argoImage));
  if (props.namespace !== undefined) checkProp(owner, 'namespace', props.namespace, dnsLabelProblem(props.namespace));
  for (const [name, value] of Object.entries(props.parameters ?? {})) {
    checkProp(owner, 'parameters', name, schemaProblem(ParameterNameSchema, name));
    checkProp(owner, `parameters.${name}`, value, schemaProblem(ParameterValueSchema, value));
  }
  checkDirectPlayProps(owner, props);
  return {
    serviceAccountName: serviceAccountNameOf(owner, 'serviceAccountName', props.serviceAccountName),
    deadlineSeconds: durationProp(owner, 'deadline', props.deadline, DEFAULT_PLAY_DEADLINE),
    keepSucceededSeconds: durationProp(owner, 'keepSucceeded', props.keepSucceeded, DEFAULT_KEEP_SUCCEEDED),
    keepFailedSeconds: durationProp(owner, 'keepFailed', props.keepFailed, DEFAULT_KEEP_FAILED),
  };
}

function assertAgentBound(stage: AgentStage, props: PlayWorkflowTemplateProps): void {
  for (const name of stage.agents) {
    const agent = props.agents[name];
    if (!agent)
      throw new Error(
        `stage "${stage.name}" names agent "${name}", which is not in the agent registry; add it to agents or name one of: ${Object.keys(props.agents).join(', ')}`,
      );
    const cli = cliOf(name, props);
    if (!props.clis[cli])
      throw new Error(
        `agent "${name}" is bound to CLI "${cli}", which is not in the CLI registry; add it to clis or bind one of: ${Object.keys(props.clis).join(', ')}`,
      );
  }
}

/** The CLI an agent runs with in this repository: the repository's own binding, else the registry's. */
function cliOf(agent: string, props: PlayWorkflowTemplateProps): string {
  return agentCliOf(agent, props.agents[agent], props.repository);
}

/** The inputs of the enter-stage template, in the order the progress script reads them. */
const ENTER_INPUTS = ['stage', 'previous-stage', 'agent', 'cli', 'status'] as const;
/** The inputs the label patch needs. */
const LABEL_INPUTS = ['stage', 'previous-stage', 'agent'] as const;

function input(name: (typeof ENTER_INPUTS)[number]): string {
  return inputParameter(name);
}

/** A list literal of strings for expr-lang. */
function listLiteral(values: readonly string[]): string {
  return `[${values.map((value) => `'${value}'`).join(', ')}]`;
}

/**
 * When a stage's tasks run: the play starts at or before it (earlier stages are done otherwise), and the
 * task satisfies the stage's condition, if it has one.
 */
function stageWhen(stages: StageMachine, stage: Stage): string {
  const startsAtOrBefore = `${workflowParameterExpression(PlayParameters.startStage)} in ${listLiteral(stages.names.slice(0, stages.indexOf(stage.name) + 1))}`;
  const when = stageCondition(stage);
  const condition = when ? ` && ${workflowParameterExpression(when.parameter)} in ${listLiteral(when.in)}` : '';
  return argoExpression(`${startsAtOrBefore}${condition}`);
}

/**
 * The stage a play was in before `stage`: the nearest earlier stage that ran for this task. Skipped
 * conditional stages are passed over at run time, so labels and progress never name a stage that did
 * not happen.
 */
function previousStageValue(stages: StageMachine, stage: Stage): string {
  const earlier = stages.stagesBefore(stage.name);
  const nearest = earlier[earlier.length - 1];
  if (nearest === undefined) return '';
  if (stageCondition(nearest) === undefined) return nearest.name;
  let expression = "''";
  for (const candidate of earlier) {
    const when = stageCondition(candidate);
    expression = when
      ? `(${workflowParameterExpression(when.parameter)} in ${listLiteral(when.in)} ? '${candidate.name}' : ${expression})`
      : `'${candidate.name}'`;
  }
  return argoExpression(expression);
}

/**
 * The DAG tasks that do a stage's work: one agent run (or one per parallel agent), or the gate; none for the
 * end stage, which only is entered.
 */
function workTasks(stage: Stage, depends: string, when: string): DagTask[] | undefined {
  return onStage<DagTask[] | undefined>(stage, {
    agent: (agentStage) =>
      parallelAgentsOf(agentStage).map((agent) => ({
        name: stageTaskName(agentStage.name, agent),
        template: agentRunTemplateName(agentStage.name, agent),
        depends,
        when,
      })),
    gate: (gate) => [
      {
        name: stageTaskName(gate.name),
        template: PlayTemplates.gate,
        depends,
        when,
        arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: gate.name }] },
      },
    ],
    end: () => undefined,
  });
}

/** The agents of a parallel stage, or `[undefined]` for a stage with one agent (whose run keeps the stage's name). */
function parallelAgentsOf(stage: AgentStage): (string | undefined)[] {
  return stage.agents.length > 1 ? [...stage.agents] : [undefined];
}

function mainDag(stages: StageMachine, props: PlayWorkflowTemplateProps): Template {
  const tasks: DagTask[] = [];
  let previousTasks: string[] = [];
  for (const stage of stages.stages) {
    const when = stageWhen(stages, stage);
    const agents = stageAgents(stage);
    tasks.push({
      name: enterTaskName(stage.name),
      template: PlayTemplates.enterStage,
      depends: previousTasks.length > 0 ? previousTasks.join(' && ') : undefined,
      when,
      arguments: {
        parameters: [
          { name: 'stage', value: stage.name },
          { name: 'previous-stage', value: previousStageValue(stages, stage) },
          { name: 'agent', value: agents.join(',') },
          { name: 'cli', value: agents.map((agent) => cliOf(agent, props)).join(',') },
          { name: 'status', value: STATUS_BY_STAGE_TYPE[stage.type] },
        ],
      },
    });
    const work = workTasks(stage, enterTaskName(stage.name), when);
    if (work === undefined) continue;
    tasks.push(...work);
    previousTasks = work.map((task) => task.name);
  }
  return { name: PlayTemplates.main, dag: { tasks } };
}

function enterStageSteps(): Template {
  const passThrough = (names: readonly (typeof ENTER_INPUTS)[number][]) => ({
    parameters: names.map((name) => ({ name, value: input(name) })),
  });
  return {
    name: PlayTemplates.enterStage,
    inputs: { parameters: ENTER_INPUTS.map((name) => ({ name })) },
    steps: [
      [{ name: 'set-labels', template: PlayTemplates.setStageLabels, arguments: passThrough(LABEL_INPUTS) }],
      [{ name: 'record', template: PlayTemplates.recordProgress, arguments: passThrough(ENTER_INPUTS) }],
    ],
  };
}

/** The label patch's deadline: one kubectl call after a possibly slow pull of the executor image. */
const SET_LABELS_SECONDS = 360;

/** Whether any agent of the play runs on the CodeRun path (a play of direct agents only creates none). */
function createsCodeRuns(props: PlayWorkflowTemplateProps): boolean {
  return props.stages.agentStages.some((stage) =>
    stage.agents.some((name) => executionOf(props.agents[name], props.execution) === 'coderun'),
  );
}

/**
 * The exit handler: record how the play ended, then, unless it succeeded, cancel its CodeRuns that may still
 * be working (a stopped, failed or timed-out play leaves no agent behind). Argo runs the exit handler on
 * stop and on failure, not on terminate (argo-workflows `pkg/apis/workflow/v1alpha1/workflow_types.go`,
 * `ShutdownStrategy.ShouldExecute`). A play whose agents all run direct has no CodeRun to cancel: its agent
 * pods end with the play.
 */
function exitHandler(codeRuns: boolean): Template {
  return {
    name: PlayTemplates.exit,
    steps: [[{ name: 'record', template: PlayTemplates.recordExit }], ...(codeRuns ? [cancelStep()] : [])],
  };
}

function cancelStep(): WorkflowStep[] {
  return [
    {
      name: 'cancel-coderuns',
      template: PlayTemplates.cancelCodeRuns,
      when: `'${WorkflowVariables.status}' != Succeeded`,
      arguments: { parameters: [{ name: CANCEL_SELECTOR_INPUT, value: PLAY_RUN_CODERUNS }] },
    },
  ];
}

/** Patches the play's own labels the way Argo supports it: a resource patch with the merge strategy. */
function setStageLabels(): Template {
  const manifest = JSON.stringify(
    {
      metadata: {
        labels: { [PlayLabels.currentStage]: input('stage'), [PlayLabels.previousStage]: input('previous-stage') },
        annotations: { [PlayAnnotations.currentAgent]: input('agent') },
      },
    },
    null,
    2,
  );
  return {
    name: PlayTemplates.setStageLabels,
    inputs: { parameters: LABEL_INPUTS.map((name) => ({ name })) },
    retryStrategy: boundedRetry({ limit: 3, attemptSeconds: SET_LABELS_SECONDS, backoffSeconds: 5 }),
    activeDeadlineSeconds: SET_LABELS_SECONDS,
    resource: { action: 'patch', mergeStrategy: 'merge', flags: ['workflow', WorkflowVariables.name], manifest: `${manifest}\n` },
  };
}

/**
 * A gate: suspend, and beside the suspend node look for a release recorded before (an early event); when
 * there is one, the play resumes its own gate. The suspend node carries the gate's name in its `stage`
 * input, so a resume with `gateNodeSelector(stage)` releases exactly this gate.
 *
 * The two run side by side, suspend first: the controller starts the steps of one group in order in one
 * pass (argo-workflows `workflow/controller/steps.go`, `executeStepGroup`), so the suspend node exists before
 * the check's pod runs. A resumer records before it resumes, the check reads after the node exists: either
 * the check sees the record, or the resumer finds the active suspend node. No event is lost in between,
 * which a check followed by a suspend could not promise (a resume in that gap finds no suspend node).
 */
function gateTemplates(repository: RepositoryConfig, helperImage: string, argoImage: string): Template[] {
  const stage = inputParameter(GATE_STAGE_INPUT);
  const stageArgument = { parameters: [{ name: GATE_STAGE_INPUT, value: stage }] };
  const gate: Template = {
    name: PlayTemplates.gate,
    inputs: { parameters: [{ name: GATE_STAGE_INPUT }] },
    steps: [
      [
        { name: 'await', template: PlayTemplates.awaitRelease, arguments: stageArgument },
        { name: 'check', template: GateTemplates.checkAndRelease, arguments: stageArgument },
      ],
    ],
  };
  const checkAndRelease: Template = {
    name: GateTemplates.checkAndRelease,
    inputs: { parameters: [{ name: GATE_STAGE_INPUT }] },
    steps: [
      [{ name: 'check', template: PlayTemplates.checkRelease, arguments: stageArgument }],
      [
        {
          name: 'release',
          template: GateTemplates.releaseOwnGate,
          when: `${stepOutput('check', 'released')} == true`,
          arguments: stageArgument,
        },
      ],
    ],
  };
  const check: Template = {
    ...hardenedScript({
      name: PlayTemplates.checkRelease,
      image: helperImage,
      source: CHECK_RELEASE_SCRIPT,
      inputs: { parameters: [{ name: GATE_STAGE_INPUT }] },
      env: [
        { name: 'STAGE', value: stage },
        { name: 'NAMESPACE', value: WorkflowVariables.namespace },
        { name: 'WORKFLOW_NAME', value: WorkflowVariables.name },
        { name: 'RESUMED_ANNOTATION', value: RESUMED_FROM_ANNOTATION },
        { name: 'RELEASE_CONFIGMAP', value: releaseConfigMapName(repository.service, workflowParameter(PlayParameters.taskId)) },
      ],
      retryStrategy: { limit: '3', retryPolicy: 'Always', backoff: { duration: '5s', factor: 2, maxDuration: '1m' } },
    }),
    outputs: { parameters: [{ name: 'released', valueFrom: { path: RELEASED_FILE } }] },
  };
  const releaseOwnGate = argoResumeTemplate({
    name: GateTemplates.releaseOwnGate,
    argoImage,
    inputs: { parameters: [{ name: GATE_STAGE_INPUT }] },
    workflow: WorkflowVariables.name,
    gate: stage,
  });
  const awaitRelease: Template = { name: PlayTemplates.awaitRelease, inputs: { parameters: [{ name: GATE_STAGE_INPUT }] }, suspend: {} };
  return [gate, checkAndRelease, check, releaseOwnGate, awaitRelease];
}

/**
 * The run of one agent of a stage; `parallelAgent` is set in a parallel stage. It holds a mutex named after
 * the agent's workspace claim while it runs (retries included): claims are ReadWriteOnce, so two plays of
 * the repository (parallel tasks) never work in one workspace at once; they take turns.
 */
function agentRun(stage: AgentStage, parallelAgent: string | undefined, props: PlayWorkflowTemplateProps): Template[] {
  const agentName = parallelAgent ?? stage.agents[0];
  const agent = props.agents[agentName];
  const cliName = cliOf(agentName, props);
  const cli = props.clis[cliName];
  const repository = props.repository;
  if (executionOf(agent, props.execution) === 'direct')
    return directAgentTemplates({
      name: agentRunTemplateName(stage.name, parallelAgent),
      stage: stage.name,
      agentName,
      agent,
      cliName,
      cli,
      repository,
      timeoutSeconds: durationSeconds(stage.timeout),
      retries: stage.retries,
      resources: resourcesOf(props.directResources ?? DEFAULT_DIRECT_RESOURCES, agent.resources),
      agentsConfigMap: props.agentsConfigMap ?? DEFAULT_AGENTS_CONFIGMAP,
      github: props.directGithub,
    });
  const settings = { ...cli.settings, ...(agent.reasoningEffort ? { reasoningEffort: agent.reasoningEffort } : {}) };
  return codeRunTemplates({
    name: agentRunTemplateName(stage.name, parallelAgent),
    generateName: `${[repository.service, stage.name, parallelAgent].filter(Boolean).join('-')}-`.slice(0, 50),
    stage: stage.name,
    round: workflowParameter(PlayParameters.round),
    timeoutSeconds: durationSeconds(stage.timeout),
    retries: stage.retries,
    synchronization: { mutexes: [{ name: workspaceOfAgent(repository.service, agentName, agent.role) }] },
    cancelTemplate: PlayTemplates.cancelCodeRuns,
    spec: {
      taskId: ArgoValue.int(workflowParameter(PlayParameters.taskId)),
      service: repository.service,
      repositoryUrl: repository.name,
      docsRepositoryUrl: repository.docsRepository ?? repository.name,
      docsProjectDirectory: repository.docsProjectDirectory,
      docsBranch: repository.docsBranch ?? repository.branch,
      workingDirectory: repository.workingDirectory ?? repository.service,
      model: agent.model,
      githubApp: agent.githubApp,
      continueSession: true,
      overwriteMemory: false,
      contextVersion: 1,
      taskRequirements: workflowParameter(PlayParameters.taskRequirements),
      env: {
        WORKFLOW_STAGE: stage.name,
        WORKFLOW_NAME: WorkflowVariables.name,
        TASK_ID: workflowParameter(PlayParameters.taskId),
        ROUND: workflowParameter(PlayParameters.round),
      },
      cliConfig: {
        cliType: cliName,
        model: agent.model,
        maxTokens: agent.maxTokens,
        temperature: agent.temperature,
        ...(Object.keys(settings).length > 0 ? { settings } : {}),
      },
    },
  });
}

/** The environment of the progress script: names from the single sources, values from the play. */
class ProgressEnvironment {
  /**
   * @param parameters the play parameters stage conditions may test (task-type and the declared ones): the
   * record keeps their values, so that a play recreated from it takes the same conditional stages
   */
  public constructor(
    private readonly repository: RepositoryConfig,
    private readonly parameters: readonly string[],
  ) {}

  public forEnter(): EnvVar[] {
    return [
      { name: 'EVENT', value: 'enter' },
      { name: 'STAGE', value: input('stage') },
      { name: 'PREVIOUS_STAGE', value: input('previous-stage') },
      { name: 'AGENT', value: input('agent') },
      { name: 'CLI', value: input('cli') },
      { name: 'STATUS', value: input('status') },
      { name: 'WORKFLOW_STATUS', value: '' },
      ...this.common(),
    ];
  }

  public forExit(): EnvVar[] {
    return [
      { name: 'EVENT', value: 'exit' },
      { name: 'STAGE', value: workflowLabel(PlayLabels.currentStage) },
      { name: 'PREVIOUS_STAGE', value: '' },
      { name: 'AGENT', value: '' },
      { name: 'CLI', value: '' },
      { name: 'STATUS', value: '' },
      { name: 'WORKFLOW_STATUS', value: WorkflowVariables.status },
      ...this.common(),
    ];
  }

  private common(): EnvVar[] {
    return [
      { name: 'TASK_ID', value: workflowParameter(PlayParameters.taskId) },
      { name: 'WORKFLOW_NAME', value: WorkflowVariables.name },
      { name: 'NAMESPACE', value: WorkflowVariables.namespace },
      { name: 'REPOSITORY', value: this.repository.name },
      { name: 'BRANCH', value: this.repository.branch },
      ...progressRecordEnv(progressConfigMapName(this.repository.name), workflowParameter(PlayParameters.taskId)),
      { name: 'ROUND', value: workflowParameter(PlayParameters.round) },
      { name: 'TRACKING_LABEL', value: PROGRESS_TRACKING_LABEL },
      { name: 'HISTORY_ANNOTATION', value: PlayAnnotations.stageHistory },
      { name: 'ENTERED_AT_ANNOTATION', value: PlayAnnotations.stageEnteredAt },
      { name: 'PARAMETER_NAMES', value: this.parameters.join(' ') },
      ...this.parameters.map((name, index) => ({ name: `PARAMETER_${index + 1}`, value: workflowParameter(name) })),
    ];
  }
}
