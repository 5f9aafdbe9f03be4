import { Construct } from 'constructs';
import type { AgentConfig, CliConfig, RepositoryConfig } from '../model/config-schema';
import { durationSeconds } from '../model/duration';
import { PlayAnnotations, PlayLabels, PROGRESS_TRACKING_LABEL, WorkflowTypes } from '../model/labels';
import { progressConfigMapName, progressTaskKey, repositoryLabelValue } from '../model/naming';
import {
  agentRunTemplateName,
  enterTaskName,
  GATE_STAGE_INPUT,
  PlayParameters,
  playTemplateName,
  PlayTemplates,
  releaseConfigMapName,
  stageTaskName,
} from '../model/play-contract';
import type { AgentStage, Stage, StageMachine } from '../model/stage-machine';
import type { DagTask, EnvVar, Template } from './argo-types';
import { ArgoReference, codeRunTemplate } from './coderun-manifest';
import { HARDENED_POD, hardenedScript, SCRATCH_VOLUME } from './hardened-script';
import { PROGRESS_SCRIPT } from './progress-script';
import { CHECK_RELEASE_SCRIPT, RELEASED_FILE } from './release-scripts';
import { WorkflowTemplate } from './workflow-template';

export interface PlayWorkflowTemplateProps {
  /** The repository whose tasks this play runs. */
  readonly repository: RepositoryConfig;
  /** The stages, in order. */
  readonly stages: StageMachine;
  /** The agent registry; every agent a stage names must be in it. */
  readonly agents: Readonly<Record<string, AgentConfig>>;
  /** The CLI registry; every agent's CLI must be in it. */
  readonly clis: Readonly<Record<string, CliConfig>>;
  /** The service account the play's pods run as (see `PlayRbac`). */
  readonly serviceAccountName: string;
  /** Image with bash, kubectl and jq for the progress helper, pinned by version. */
  readonly helperImage: string;
  /** The longest a play may run, waits included, in seconds. @default 7 days */
  readonly deadlineSeconds?: number;
  /** How long a succeeded play is kept, in seconds. @default 1 day */
  readonly keepSucceededSeconds?: number;
  /** How long a failed play is kept, in seconds. @default 3 days */
  readonly keepFailedSeconds?: number;
  /** `metadata.name`. @default `play-{service}` */
  readonly name?: string;
  /** `metadata.namespace`. @default - the chart's namespace */
  readonly namespace?: string;
}

/** The status a task's progress record shows while the play is in a stage of this type. */
const STATUS_BY_STAGE_TYPE: Readonly<Record<Stage['type'], string>> = {
  agent: 'in-progress',
  gate: 'suspended',
  end: 'completed',
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

  public constructor(scope: Construct, id: string, props: PlayWorkflowTemplateProps) {
    const stages = props.stages;
    for (const stage of stages.agentStages) assertAgentBound(stage, props.agents, props.clis);
    const deadline = props.deadlineSeconds ?? durationSeconds('7d');
    super(scope, id, {
      name: props.name ?? playTemplateName(props.repository.service),
      namespace: props.namespace,
      labels: { [PlayLabels.workflowType]: WorkflowTypes.play },
      spec: {
        entrypoint: PlayTemplates.main,
        onExit: PlayTemplates.exit,
        serviceAccountName: props.serviceAccountName,
        arguments: {
          parameters: [
            { name: PlayParameters.taskId, description: 'The task id (digits)' },
            { name: PlayParameters.startStage, value: stages.first.name, enum: stages.names, description: 'The stage to start at' },
            { name: PlayParameters.taskRequirements, value: '', description: 'Base64 requirements.yaml of the task' },
          ],
        },
        workflowMetadata: {
          labels: {
            [PlayLabels.workflowType]: WorkflowTypes.play,
            [PlayLabels.repository]: repositoryLabelValue(props.repository.name),
          },
          labelsFrom: {
            [PlayLabels.taskId]: { expression: `workflow.parameters['${PlayParameters.taskId}']` },
            [PlayLabels.currentStage]: { expression: `workflow.parameters['${PlayParameters.startStage}']` },
          },
          annotations: { [PlayAnnotations.repository]: props.repository.name },
        },
        activeDeadlineSeconds: deadline,
        ttlStrategy: {
          secondsAfterSuccess: props.keepSucceededSeconds ?? durationSeconds('1d'),
          secondsAfterFailure: props.keepFailedSeconds ?? durationSeconds('3d'),
        },
        podGC: { strategy: 'OnPodCompletion', deleteDelayDuration: '5m' },
        securityContext: HARDENED_POD,
        volumes: [SCRATCH_VOLUME],
      },
    });
    this.stages = stages;
    this.repository = structuredClone(props.repository);

    const progress = new ProgressEnvironment(props.repository);
    this.addTemplate(mainDag(stages, props.agents));
    this.addTemplate(enterStageSteps());
    this.addTemplate(setStageLabels());
    this.addTemplate(hardenedScript({
      name: PlayTemplates.recordProgress,
      image: props.helperImage,
      source: PROGRESS_SCRIPT,
      inputs: { parameters: ENTER_INPUTS.map((name) => ({ name })) },
      env: progress.forEnter(),
      retryStrategy: { limit: '2', retryPolicy: 'Always', backoff: { duration: '10s', factor: 2, maxDuration: '2m' } },
    }));
    for (const template of gateTemplates(props.repository, props.helperImage)) this.addTemplate(template);
    for (const stage of stages.agentStages) this.addTemplate(agentRun(stage, props));
    this.addTemplate(hardenedScript({
      name: PlayTemplates.exit,
      image: props.helperImage,
      source: PROGRESS_SCRIPT,
      env: progress.forExit(),
      retryStrategy: { limit: '2', retryPolicy: 'Always', backoff: { duration: '10s', factor: 2, maxDuration: '2m' } },
    }));
  }
}

function assertAgentBound(stage: AgentStage, agents: Readonly<Record<string, AgentConfig>>, clis: Readonly<Record<string, CliConfig>>): void {
  const agent = agents[stage.agent];
  if (!agent) throw new Error(`stage "${stage.name}" names agent "${stage.agent}", which is not in the agent registry; known: ${Object.keys(agents).join(', ')}`);
  if (!clis[agent.cli]) throw new Error(`agent "${stage.agent}" is bound to CLI "${agent.cli}", which is not in the CLI registry; known: ${Object.keys(clis).join(', ')}`);
}

/** The inputs of the enter-stage template, in the order the progress script reads them. */
const ENTER_INPUTS = ['stage', 'previous-stage', 'agent', 'cli', 'status'] as const;
/** The inputs the label patch needs. */
const LABEL_INPUTS = ['stage', 'previous-stage', 'agent'] as const;

function input(name: (typeof ENTER_INPUTS)[number]): string {
  return `{{inputs.parameters.${name}}}`;
}

/** The expression that is true when the play starts at or before stage `index`: earlier stages are done. */
function startsAtOrBefore(stages: StageMachine, stage: Stage): string {
  const names = stages.names.slice(0, stages.indexOf(stage.name) + 1).map((name) => `'${name}'`);
  return `{{=workflow.parameters['${PlayParameters.startStage}'] in [${names.join(', ')}]}}`;
}

function mainDag(stages: StageMachine, agents: Readonly<Record<string, AgentConfig>>): Template {
  const tasks: DagTask[] = [];
  let previousTask: string | undefined;
  for (const stage of stages.stages) {
    const when = startsAtOrBefore(stages, stage);
    const previous = stages.previous(stage.name);
    const agentName = stage.type === 'agent' ? stage.agent : '';
    tasks.push({
      name: enterTaskName(stage.name),
      template: PlayTemplates.enterStage,
      depends: previousTask,
      when,
      arguments: {
        parameters: [
          { name: 'stage', value: stage.name },
          { name: 'previous-stage', value: previous?.name ?? '' },
          { name: 'agent', value: agentName },
          { name: 'cli', value: stage.type === 'agent' ? agents[stage.agent].cli : '' },
          { name: 'status', value: STATUS_BY_STAGE_TYPE[stage.type] },
        ],
      },
    });
    previousTask = enterTaskName(stage.name);
    if (stage.type === 'end') continue;
    tasks.push({
      name: stageTaskName(stage.name),
      template: stage.type === 'agent' ? agentRunTemplateName(stage.name) : PlayTemplates.gate,
      depends: previousTask,
      when,
      arguments: stage.type === 'gate' ? { parameters: [{ name: GATE_STAGE_INPUT, value: stage.name }] } : undefined,
    });
    previousTask = stageTaskName(stage.name);
  }
  return { name: PlayTemplates.main, dag: { tasks } };
}

function enterStageSteps(): Template {
  const passThrough = (names: readonly (typeof ENTER_INPUTS)[number][]) => ({ parameters: names.map((name) => ({ name, value: input(name) })) });
  return {
    name: PlayTemplates.enterStage,
    inputs: { parameters: ENTER_INPUTS.map((name) => ({ name })) },
    steps: [
      [{ name: 'set-labels', template: PlayTemplates.setStageLabels, arguments: passThrough(LABEL_INPUTS) }],
      [{ name: 'record', template: PlayTemplates.recordProgress, arguments: passThrough(ENTER_INPUTS) }],
    ],
  };
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
    retryStrategy: { limit: '3', retryPolicy: 'Always', backoff: { duration: '5s', factor: 2, maxDuration: '1m' } },
    activeDeadlineSeconds: 120,
    resource: { action: 'patch', mergeStrategy: 'merge', flags: ['workflow', '{{workflow.name}}'], manifest: `${manifest}\n` },
  };
}

/**
 * A gate: first look for a release recorded before the play got here (an early event), and suspend only
 * when there is none. The suspend node carries the gate's name in its `stage` input, so a resume with
 * `gateNodeSelector(stage)` releases exactly this gate.
 */
function gateTemplates(repository: RepositoryConfig, helperImage: string): Template[] {
  const stage = `{{inputs.parameters.${GATE_STAGE_INPUT}}}`;
  const gate: Template = {
    name: PlayTemplates.gate,
    inputs: { parameters: [{ name: GATE_STAGE_INPUT }] },
    steps: [
      [{ name: 'check', template: PlayTemplates.checkRelease, arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: stage }] } }],
      [{
        name: 'await',
        template: PlayTemplates.awaitRelease,
        when: '{{steps.check.outputs.parameters.released}} == false',
        arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: stage }] },
      }],
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
        { name: 'NAMESPACE', value: '{{workflow.namespace}}' },
        { name: 'RELEASE_CONFIGMAP', value: releaseConfigMapName(repository.service, `{{workflow.parameters.${PlayParameters.taskId}}}`) },
      ],
      retryStrategy: { limit: '3', retryPolicy: 'Always', backoff: { duration: '5s', factor: 2, maxDuration: '1m' } },
    }),
    outputs: { parameters: [{ name: 'released', valueFrom: { path: RELEASED_FILE } }] },
  };
  const awaitRelease: Template = { name: PlayTemplates.awaitRelease, inputs: { parameters: [{ name: GATE_STAGE_INPUT }] }, suspend: {} };
  return [gate, check, awaitRelease];
}

function agentRun(stage: AgentStage, props: PlayWorkflowTemplateProps): Template {
  const agent = props.agents[stage.agent];
  const cli = props.clis[agent.cli];
  const repository = props.repository;
  const settings = { ...cli.settings, ...(agent.reasoningEffort ? { reasoningEffort: agent.reasoningEffort } : {}) };
  return codeRunTemplate({
    name: agentRunTemplateName(stage.name),
    generateName: `${repository.service}-${stage.name}-`.slice(0, 50),
    stage: stage.name,
    timeoutSeconds: durationSeconds(stage.timeout),
    retries: stage.retries,
    spec: {
      taskId: new ArgoReference(`{{workflow.parameters.${PlayParameters.taskId}}}`),
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
      taskRequirements: `{{workflow.parameters.${PlayParameters.taskRequirements}}}`,
      env: { WORKFLOW_STAGE: stage.name, WORKFLOW_NAME: '{{workflow.name}}', TASK_ID: `{{workflow.parameters.${PlayParameters.taskId}}}` },
      cliConfig: {
        cliType: agent.cli,
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
  public constructor(private readonly repository: RepositoryConfig) {}

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
      { name: 'STAGE', value: `{{workflow.labels.${PlayLabels.currentStage}}}` },
      { name: 'PREVIOUS_STAGE', value: '' },
      { name: 'AGENT', value: '' },
      { name: 'CLI', value: '' },
      { name: 'STATUS', value: '' },
      { name: 'WORKFLOW_STATUS', value: '{{workflow.status}}' },
      ...this.common(),
    ];
  }

  private common(): EnvVar[] {
    return [
      { name: 'TASK_ID', value: `{{workflow.parameters.${PlayParameters.taskId}}}` },
      { name: 'WORKFLOW_NAME', value: '{{workflow.name}}' },
      { name: 'NAMESPACE', value: '{{workflow.namespace}}' },
      { name: 'REPOSITORY', value: this.repository.name },
      { name: 'BRANCH', value: this.repository.branch },
      { name: 'PROGRESS_CONFIGMAP', value: progressConfigMapName(this.repository.name) },
      { name: 'PROGRESS_KEY', value: progressTaskKey(`{{workflow.parameters.${PlayParameters.taskId}}}`) },
      { name: 'TRACKING_LABEL', value: PROGRESS_TRACKING_LABEL },
      { name: 'HISTORY_ANNOTATION', value: PlayAnnotations.stageHistory },
      { name: 'ENTERED_AT_ANNOTATION', value: PlayAnnotations.stageEnteredAt },
    ];
  }
}
