// @ts-nocheck
import type { Duration } from 'cdk8s';
import type { Construct } from 'constructs';
import {
  DEFAULT_KEEP_FAILED,
  DEFAULT_KEEP_SUCCEEDED,
  DEFAULT_PLAY_DEADLINE,
  ParameterNameSchema,
  ParameterValueSchema,
  type AgentConfig,
  type CliConfig,
} from '../model/config-shapes';
import { pinnedImageProblem } from '../model/image-reference';
import { dnsLabelProblem } from '../model/naming';
import { checkProp, durationProp, schemaProblem } from '../model/prop-checks';
import { type ServiceAccountRef, serviceAccountNameOf } from '../rbac/service-account-ref';
import { workflowOutput, WorkflowVariables } from '../model/argo-expressions';
import { playTemplateLabels } from '../model/play-workflow';
import { PlayLabels, WorkflowTypes } from '../model/labels';
import { FIRST_ROUND, PlayParameters, PLAY_TEMPLATE_NAME, PlayTemplates } from '../model/play-contract';
import type { AgentStage, StageMachine } from '../model/stage-machine';
import type { Template, WorkflowStep } from './argo-types';
import { cancelCodeRunsTemplate, CANCEL_SELECTOR_INPUT } from './cancel-coderuns';
import { PLAY_RUN_CODERUNS } from './coderun-manifest';
import { HARDENED_POD, SCRATCH_VOLUME } from './hardened-pod';
import { workflowLifetime } from './workflow-lifetime';
import { DEFAULT_AGENTS_CONFIGMAP } from '../config/agents-config-map';
import { DEFAULT_DIRECT_RESOURCES, type AgentResources, type ExecutionMode, type GithubEndpoints } from '../model/direct-execution';
import { checkDirectPlayProps } from './direct-agent-run';
import { WorkflowTemplate } from './workflow-template';
import { byCodeUnits } from '../model/code-unit-order';
import { DEFAULT_RUNTIME_IMAGE } from '../runtime/runtime-layout';
import { enterStageTemplate, recordExitTemplate } from '../progress/progress-templates';
import { gateTemplates } from '../gate/gate-templates';
import { agentRunTemplates, createsCodeRuns, type AgentRunContext } from './agent-run';
import { resolveRepositoryTemplate } from '../registry/resolve-template';
import { AgentOutputs } from '../registry/registry-layout';
import { parallelAgentsOf, playDag } from './play-dag';

/** What `new PlayWorkflowTemplate(scope, id, props)` takes. */
export interface PlayWorkflowTemplateProps {
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
  /**
   * The image the runtime steps run in (Node.js 20 or later: the runtime program is mounted from the runtime
   * ConfigMap, `RuntimeConfigMap`), pinned by tag or digest. @default DEFAULT_RUNTIME_IMAGE
   */
  readonly runtimeImage?: string;
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
  /**
   * The CLI each direct agent runs with in the repositories this template runs (a direct agent's CLI decides
   * its step's image): their registry entries must agree (`playGroups`). @default - each agent's registry CLI
   */
  readonly directClis?: Readonly<Record<string, string>>;
  /** Direct agents' container resources unless an agent sets its own. @default DEFAULT_DIRECT_RESOURCES */
  readonly directResources?: AgentResources;
  /** The agents ConfigMap direct agents mount their system prompt from. @default controller-agents */
  readonly agentsConfigMap?: string;
  /** Where direct agents reach GitHub: a GitHub Enterprise Server's API and git server URLs. @default github.com */
  readonly directGithub?: GithubEndpoints;
  /** `metadata.name`: the name the repositories' registry entries give as their play template. @default play */
  readonly name?: string;
  /** `metadata.namespace`. @default - the chart's namespace */
  readonly namespace?: string;
}

/**
 * The play of every repository of the platform (or of those whose direct agents run the same CLIs): the
 * repository is the play's `repository` parameter, and its first step reads what belongs to it from the
 * repository registry (`RepositoryRegistry`, `resolve-repository`), which every later step uses. Then the
 * stage machine as a DAG (`playDag`). Each stage is entered by a runtime step
 * that patches the Workflow's own `current-stage` and `previous-stage` labels, records the transition in
 * annotations and in the task's progress record; then an agent stage runs its agent (`agentRunTemplates`), a
 * gate suspends until its release (`gateTemplates`), and the end stage finishes the play. The `start-stage`
 * parameter skips every stage before it, so a play recreated from its progress record resumes where it
 * stopped. The exit handler records how the play ended and cancels the CodeRuns of a play that did not succeed.
 *
 * Its runtime steps mount the runtime ConfigMap (`RuntimeConfigMap`), and its first step reads the repository
 * registry: both must exist in the play's namespace.
 */
export class PlayWorkflowTemplate extends WorkflowTemplate {
  /** The stage machine this play runs. */
  public readonly stages: StageMachine;

  /**
   * @throws when a prop breaks a rule (an image not pinned, an illegal service account name or
   * parameter, a duration out of range, an agent or CLI missing from its registry), naming the prop and what to change
   */
  public constructor(scope: Construct, id: string, props: PlayWorkflowTemplateProps) {
    const stages = props.stages;
    const checked = checkPlayProps(props);
    for (const stage of stages.agentStages) assertAgentBound(stage, props);
    const name = props.name ?? PLAY_TEMPLATE_NAME;
    super(scope, id, {
      name,
      namespace: props.namespace,
      labels: { [PlayLabels.workflowType]: WorkflowTypes.play },
      spec: {
        entrypoint: PlayTemplates.main,
        onExit: PlayTemplates.exit,
        serviceAccountName: checked.serviceAccountName,
        arguments: {
          parameters: [
            { name: PlayParameters.repository, description: "The repository (owner/name), one of the platform's" },
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
        workflowMetadata: playTemplateLabels(),
        activeDeadlineSeconds: checked.deadlineSeconds,
        ...workflowLifetime(checked),
        securityContext: HARDENED_POD,
        volumes: [SCRATCH_VOLUME],
      },
    });
    this.stages = stages;

    const runtimeImage = props.runtimeImage ?? DEFAULT_RUNTIME_IMAGE;
    const context: AgentRunContext = {
      agents: props.agents,
      clis: props.clis,
      execution: props.execution,
      directClis: props.directClis ?? {},
      directResources: props.directResources ?? DEFAULT_DIRECT_RESOURCES,
      agentsConfigMap: props.agentsConfigMap ?? DEFAULT_AGENTS_CONFIGMAP,
      directGithub: props.directGithub,
      serviceAccountName: checked.serviceAccountName,
    };
    const progress = {
      parameters: [PlayParameters.taskType, ...Object.keys(props.parameters ?? {}).sort(byCodeUnits)],
      runtimeImage,
    };
    const agents = [...new Set(stages.agentStages.flatMap((stage) => stage.agents))];
    const resolve = resolveRepositoryTemplate({ playTemplate: name, agents, runtimeImage });
    this.addTemplate(playDag(stages, (agent) => workflowOutput(AgentOutputs.cli(agent)), resolve.name));
    this.addTemplate(resolve);
    this.addTemplate(enterStageTemplate(progress));
    for (const template of gateTemplates({ runtimeImage })) this.addTemplate(template);
    for (const stage of stages.agentStages) {
      for (const agent of parallelAgentsOf(stage)) {
        for (const template of agentRunTemplates(stage, agent, context)) this.addTemplate(template);
      }
    }
    const codeRuns = createsCodeRuns(stages.agentStages, context);
    this.addTemplate(exitHandler(codeRuns));
    if (codeRuns) this.addTemplate(cancelCodeRunsTemplate(PlayTemplates.cancelCodeRuns, runtimeImage));
    this.addTemplate(recordExitTemplate(progress));
  }
}

/** The props a play template checks before it builds anything, and the values it converts once. */
function checkPlayProps(props: PlayWorkflowTemplateProps) {
  const owner = `PlayWorkflowTemplate ${props.name ?? PLAY_TEMPLATE_NAME}`;
  if (props.name !== undefined) checkProp(owner, 'name', props.name, dnsLabelProblem(props.name));
  if (props.runtimeImage !== undefined) checkProp(owner, 'runtimeImage', props.runtimeImage, pinnedImageProblem(props.runtimeImage));
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
    const cli = props.directClis?.[name] ?? agent.cli;
    if (!props.clis[cli])
      throw new Error(
        `agent "${name}" is bound to CLI "${cli}", which is not in the CLI registry; add it to clis or bind one of: ${Object.keys(props.clis).join(', ')}`,
      );
  }
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
