// @ts-nocheck
import type { Duration } from 'cdk8s';
import type { Construct } from 'constructs';
import {
  AgentSchema,
  DEFAULT_STAGE_RETRIES,
  DEFAULT_STAGE_TIMEOUT,
  MAX_STAGE_RETRIES,
  RepositorySchema,
  type AgentConfig,
  type RepositoryConfig,
} from '../model/config-shapes';
import { workflowParameter, workflowParameterExpression } from '../model/argo-expressions';
import { durationSeconds } from '../model/duration';
import { pinnedImageProblem } from '../model/image-reference';
import { dnsLabelProblem, workspaceOfAgent } from '../model/naming';
import { checkProp, durationProp, integerProblem, schemaProblem } from '../model/prop-checks';
import { type ServiceAccountRef, serviceAccountNameOf } from '../rbac/service-account-ref';
import { PlayLabels, WorkflowTypes } from '../model/labels';
import { CODERUN_TEMPLATE_NAME, PlayParameters, PlayTemplates } from '../model/play-contract';
import type { Parameter } from './argo-types';
import { cancelCodeRunsTemplate } from './cancel-coderuns';
import { ArgoValue, codeRunTemplates } from './coderun-manifest';
import { HARDENED_POD, SCRATCH_VOLUME } from './hardened-pod';
import { WorkflowTemplate } from './workflow-template';
import { DEFAULT_RUNTIME_IMAGE } from '../runtime/runtime-layout';

/** The parameters of a single agent run, with the names the original platform used. */
export const CodeRunParameters = {
  // The CodeRun manifest reads the task id by the play's parameter name, so both templates share it.
  taskId: PlayParameters.taskId,
  serviceId: 'service-id',
  repositoryUrl: 'repository-url',
  docsRepositoryUrl: 'docs-repository-url',
  docsProjectDirectory: 'docs-project-directory',
  docsBranch: 'docs-branch',
  workingDirectory: 'working-directory',
  githubApp: 'github-app',
  stage: 'stage',
  cliType: 'cli-type',
  cliModel: 'cli-model',
  cliMaxTokens: 'cli-max-tokens',
  cliTemperature: 'cli-temperature',
  continueSession: 'continue-session',
  overwriteMemory: 'overwrite-memory',
  taskRequirements: 'task-requirements',
  /**
   * The workspace claim the agent works in: the run holds the mutex of that name, the one the play's stages
   * hold, so that a standalone run and a play never work in one workspace at once.
   */
  workspaceClaim: 'workspace-claim',
} as const;

/** What `new CodeRunWorkflowTemplate(scope, id, props)` takes. */
export interface CodeRunWorkflowTemplateProps {
  /** The agent whose settings are the defaults; every CLI parameter has a non-empty default from it. */
  readonly defaultAgent: AgentConfig;
  /** The default agent's name in the registry: with its role, it names the default workspace claim. */
  readonly defaultAgentName: string;
  /** The repository whose settings are the defaults. */
  readonly defaultRepository: RepositoryConfig;
  /** The CLIs `cli-type` may name (Argo refuses any other value at submission). */
  readonly cliNames: readonly string[];
  /** The GitHub Apps `github-app` may name. */
  readonly githubApps: readonly string[];
  /**
   * The service account the run's pods use: its name, or a cdk8s-plus service account such as
   * `PlayRbac.serviceAccount`. It needs the CodeRun grants of `PlayRbac`.
   */
  readonly serviceAccountName: ServiceAccountRef;
  /**
   * The image of the runtime step that cancels a lost attempt's CodeRun (Node.js 20 or later), pinned.
   * @default DEFAULT_RUNTIME_IMAGE
   */
  readonly runtimeImage?: string;
  /** How long one attempt may run: a cdk8s `Duration` or text such as `4h`. @default 4h (DEFAULT_STAGE_TIMEOUT) */
  readonly timeout?: Duration | string;
  /** Retries of a failed run, from 0 (never) to 5. @default 1 (DEFAULT_STAGE_RETRIES) */
  readonly retries?: number;
  /** `metadata.name`, a DNS-1123 label. @default coderun */
  readonly name?: string;
  /** `metadata.namespace`. @default - the chart's namespace */
  readonly namespace?: string;
}

/** The props a coderun template checks before it builds anything, and the values it converts once. */
function checkCodeRunProps(props: CodeRunWorkflowTemplateProps) {
  const owner = `CodeRunWorkflowTemplate ${props.name ?? CODERUN_TEMPLATE_NAME}`;
  checkProp(owner, 'defaultAgent', props.defaultAgent?.githubApp, schemaProblem(AgentSchema, props.defaultAgent));
  checkProp(owner, 'defaultRepository', props.defaultRepository?.name, schemaProblem(RepositorySchema, props.defaultRepository));
  checkProp(
    owner,
    'cliNames',
    undefined,
    props.cliNames.includes(props.defaultAgent.cli)
      ? undefined
      : `do not include the default agent's CLI "${props.defaultAgent.cli}": add it`,
  );
  checkProp(
    owner,
    'githubApps',
    undefined,
    props.githubApps.includes(props.defaultAgent.githubApp)
      ? undefined
      : `do not include the default agent's GitHub App "${props.defaultAgent.githubApp}": add it`,
  );
  if (props.runtimeImage !== undefined) checkProp(owner, 'runtimeImage', props.runtimeImage, pinnedImageProblem(props.runtimeImage));
  if (props.namespace !== undefined) checkProp(owner, 'namespace', props.namespace, dnsLabelProblem(props.namespace));
  const retries = props.retries ?? DEFAULT_STAGE_RETRIES;
  checkProp(owner, 'retries', retries, integerProblem(retries, 0, MAX_STAGE_RETRIES));
  return {
    serviceAccountName: serviceAccountNameOf(owner, 'serviceAccountName', props.serviceAccountName),
    timeoutSeconds: durationProp(owner, 'timeout', props.timeout, DEFAULT_STAGE_TIMEOUT),
    retries,
  };
}

/**
 * A WorkflowTemplate that runs one agent: each attempt cancels the CodeRun a lost attempt left, creates its
 * own (owned by the Workflow, `contextVersion` = the attempt) and waits for it to succeed or fail, holding the
 * mutex of its workspace claim as a play's stage does. Every CLI parameter has a typed, non-empty default (the
 * CodeRun controller rejects an empty `cliConfig`), and `cli-type` and `github-app` are restricted to the
 * configured values.
 */
export class CodeRunWorkflowTemplate extends WorkflowTemplate {
  /**
   * @throws when a prop breaks a rule (an agent or repository the config would refuse, an image not pinned, an
   * illegal service account name, a timeout or retries out of range), naming the prop and what to change
   */
  public constructor(scope: Construct, id: string, props: CodeRunWorkflowTemplateProps) {
    const checked = checkCodeRunProps(props);
    const agent = props.defaultAgent;
    const repository = props.defaultRepository;
    const P = CodeRunParameters;
    const parameters: Parameter[] = [
      { name: P.taskId, description: 'The task id (digits)' },
      { name: P.serviceId, value: repository.service },
      { name: P.repositoryUrl, value: repository.name },
      { name: P.docsRepositoryUrl, value: repository.docsRepository ?? repository.name },
      { name: P.docsProjectDirectory, value: repository.docsProjectDirectory },
      { name: P.docsBranch, value: repository.docsBranch ?? repository.branch },
      { name: P.workingDirectory, value: repository.workingDirectory ?? repository.service },
      { name: P.githubApp, value: agent.githubApp, enum: props.githubApps },
      { name: P.stage, value: 'standalone' },
      { name: P.cliType, value: agent.cli, enum: props.cliNames },
      { name: P.cliModel, value: agent.model },
      { name: P.cliMaxTokens, value: String(agent.maxTokens) },
      { name: P.cliTemperature, value: String(agent.temperature) },
      { name: P.continueSession, value: 'false', enum: ['true', 'false'] },
      { name: P.overwriteMemory, value: 'false', enum: ['true', 'false'] },
      { name: P.taskRequirements, value: '' },
      { name: P.workspaceClaim, value: workspaceOfAgent(repository.service, props.defaultAgentName, agent.role) },
    ];
    super(scope, id, {
      name: props.name ?? CODERUN_TEMPLATE_NAME,
      namespace: props.namespace,
      labels: { [PlayLabels.workflowType]: WorkflowTypes.coderun },
      spec: {
        entrypoint: 'run-agent',
        serviceAccountName: checked.serviceAccountName,
        arguments: { parameters },
        workflowMetadata: {
          labels: { [PlayLabels.workflowType]: WorkflowTypes.coderun },
          labelsFrom: { [PlayLabels.taskId]: { expression: workflowParameterExpression(P.taskId) } },
        },
        activeDeadlineSeconds: durationSeconds('1d'),
        ttlStrategy: { secondsAfterSuccess: 300, secondsAfterFailure: durationSeconds('3h') },
        podGC: { strategy: 'OnPodCompletion' },
        securityContext: HARDENED_POD,
        volumes: [SCRATCH_VOLUME],
      },
    });
    this.addTemplate(cancelCodeRunsTemplate(PlayTemplates.cancelCodeRuns, props.runtimeImage ?? DEFAULT_RUNTIME_IMAGE));
    for (const template of codeRunTemplates({
      name: 'run-agent',
      generateName: 'coderun-',
      stage: workflowParameter(P.stage),
      timeoutSeconds: checked.timeoutSeconds,
      retries: checked.retries,
      cancelTemplate: PlayTemplates.cancelCodeRuns,
      synchronization: { mutexes: [{ name: workflowParameter(P.workspaceClaim) }] },
      spec: {
        taskId: ArgoValue.int(workflowParameter(P.taskId)),
        service: workflowParameter(P.serviceId),
        repositoryUrl: workflowParameter(P.repositoryUrl),
        docsRepositoryUrl: workflowParameter(P.docsRepositoryUrl),
        docsProjectDirectory: workflowParameter(P.docsProjectDirectory),
        docsBranch: workflowParameter(P.docsBranch),
        workingDirectory: workflowParameter(P.workingDirectory),
        model: workflowParameter(P.cliModel),
        githubApp: workflowParameter(P.githubApp),
        continueSession: ArgoValue.bool(workflowParameter(P.continueSession)),
        overwriteMemory: ArgoValue.bool(workflowParameter(P.overwriteMemory)),
        contextVersion: 1,
        taskRequirements: workflowParameter(P.taskRequirements),
        cliConfig: {
          cliType: workflowParameter(P.cliType),
          model: workflowParameter(P.cliModel),
          maxTokens: ArgoValue.int(workflowParameter(P.cliMaxTokens)),
          temperature: ArgoValue.float(workflowParameter(P.cliTemperature)),
        },
      },
    })) {
      this.addTemplate(template);
    }
  }
}
