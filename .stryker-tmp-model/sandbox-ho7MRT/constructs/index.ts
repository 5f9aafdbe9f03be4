/**
 * The library: typed constructs, and the pure model under them. Every type of these modules is exported;
 * the values are the public API listed here (helpers the constructs share among themselves stay inside),
 * guarded by test/public-api.test.ts.
 */
// @ts-nocheck

export type * from './model/naming';
export type * from './model/labels';
export type * from './model/duration';
export type * from './model/config-schema';
export type * from './model/default-config';
export type * from './model/resolve-config';
export type * from './model/stage-machine';
export type * from './model/stage-machine-builder';
export type * from './model/releases';
export type * from './model/play-contract';
export type * from './project/project';
export type * from './model/coderun-schema';
export type * from './model/task-id-template';
export type * from './workflows/argo-types';
export type * from './workflows/workflow-template';
export type * from './workflows/play-workflow-template';
export type * from './workflows/coderun-workflow-template';
export type * from './project/project-workflow-template';
export type * from './workflows/coderun-manifest';
export type * from './workflows/direct-agent-run';
export type * from './model/executors';
export type * from './model/direct-execution';
export type * from './crds/coderun-crd';
export type * from './storage/workspace-pvc';
export type * from './config/agents-config-map';
export type * from './rbac/play-rbac';
export type * from './rbac/scoped-service-account';
export type * from './rbac/service-account-ref';
export type * from './platform/agent-platform';
export type * from './events/argo-events-types';
export type * from './events/event-bus';
export type * from './events/github-event-source';
export type * from './gate/gate-sensor';
export type * from './resumer/play-resumer-template';
export type * from './remediation/remediation-sensor';
export type * from './remediation/play-remediator-template';
export type * from './remediation/remediation';
export type * from './remediation/remediator-contract';
export type * from './progress/progress-record';
export type * from './runtime/kube-api';
export type * from './runtime/runtime-step';
export type * from './runtime/step-env';

// The whole platform
export { AgentPlatform, PlatformCharts } from './platform/agent-platform';

// Configuration
export { AGENT_ROLES, DEFAULT_STAGE_RETRIES, DEFAULT_STAGE_TIMEOUT, RESUME_STRATEGIES } from './model/config-schema';
export { CodeRunSpecSchema, CodeRunStatusSchema, PlatformConfigSchema, RemediationSchema } from './model/public-schemas';
export type { Schema, SchemaIssue, SchemaResult } from './model/public-schemas';
export { DEFAULT_AGENTS, DEFAULT_CLIS, DEFAULT_CONFIG, DEFAULT_REPOSITORIES, DEFAULT_STAGES } from './model/default-config';
export { CLI_OVERRIDE_PREFIX, ConfigError, cliOverrideVariable, resolveConfig } from './model/resolve-config';
export { ProblemsError } from './model/problems-error';

// Stages and their releases
export { StageMachine } from './model/stage-machine';
export { StageMachineBuilder } from './model/stage-machine-builder';
export { Releases } from './model/releases';

// Constructs
export { MAX_TEMPLATES, WorkflowTemplate } from './workflows/workflow-template';
export { PlayWorkflowTemplate } from './workflows/play-workflow-template';
export { CodeRunParameters, CodeRunWorkflowTemplate } from './workflows/coderun-workflow-template';
export { ProjectWorkflowTemplate } from './project/project-workflow-template';
export { codeRunManifest } from './workflows/coderun-manifest';
export {
  AGENT_USER_ID,
  checkDirectPlayProps,
  DIRECT_GITHUB_APP_PATH,
  DIRECT_PROMPT_PATH,
  DIRECT_TMP_SIZE,
  DIRECT_WORKSPACE_PATH,
  directAgentTemplates,
  directAttemptTemplateName,
  GITHUB_API_URL,
  GITHUB_SERVER_URL,
} from './workflows/direct-agent-run';
export { DIRECT_AGENT_SCRIPT, DirectAgentEnv, GITHUB_TOKEN_PROGRAM, GitPrograms } from './workflows/direct-agent-script';
export { CodeRunCrd } from './crds/coderun-crd';
export { WorkspacePvc } from './storage/workspace-pvc';
export { AgentsConfigMap, DEFAULT_AGENTS_CONFIGMAP } from './config/agents-config-map';
export { PlayRbac } from './rbac/play-rbac';
export { ScopedServiceAccount } from './rbac/scoped-service-account';
export { EventBus } from './events/event-bus';
export { GithubEventSource } from './events/github-event-source';
export { GateSensor } from './gate/gate-sensor';
export { PlayResumerTemplate } from './resumer/play-resumer-template';
export { RemediationSensor } from './remediation/remediation-sensor';
export { PlayRemediatorTemplate } from './remediation/play-remediator-template';

// Remediation rounds
export {
  DEFAULT_MAX_ROUNDS,
  NEEDS_FIXES_LABEL,
  defaultRemediateConditions,
  remediationPlan,
  roundsExhaustedReason,
} from './remediation/remediation';
export { REMEDIATOR_TEMPLATE_NAME, RemediationKinds } from './remediation/remediator-contract';

// Names, labels and limits: what other tools need to find and read what the platform creates
export {
  githubAppBotLogin,
  githubAppSecretName,
  isDnsLabel,
  isDnsSubdomain,
  isLabelKey,
  isLabelValue,
  labelValue,
  MAX_LABEL_VALUE_LENGTH,
  MAX_NAME_LENGTH,
  parseRepository,
  repositoryLabelValue,
  workspacePvcName,
} from './model/naming';
export {
  ARGOCD_KEEP_ANNOTATIONS,
  ARGOCD_SYNC_OPTIONS_ANNOTATION,
  CodeRunLabels,
  COMMON_LABELS,
  PlayAnnotations,
  PlayLabels,
  PROGRESS_TRACKING_LABEL,
  ProjectLabels,
  WorkflowTypes,
  WorkspaceLabels,
} from './model/labels';
export { DURATION_PATTERN, durationSeconds, goDuration } from './model/duration';
export {
  BUILT_IN_PARAMETERS,
  CODERUN_TEMPLATE_NAME,
  gateNodeSelector,
  gateSensorName,
  PlayParameters,
  PlayTemplates,
  PLAY_TEMPLATE_NAME,
  playTemplateVariantName,
  playWorkflowName,
  ProgressStatuses,
  RESUMER_TEMPLATE_NAME,
} from './model/play-contract';
export { MAX_DAG_TASKS, ProjectError } from './project/project';
export {
  LEGACY_PROGRESS_SHARDS,
  PROGRESS_SHARDS,
  parseProgressKey,
  progressConfigMapOf,
  progressKeyOf,
  progressShardName,
  progressShardNames,
} from './progress/progress-layout';

// The runtime program the platform's steps run, and what a step is (for tools that run steps themselves)
export { RuntimeConfigMap, RUNTIME_LABEL } from './config/runtime-config-map';
export { REGISTRY_LABEL, RepositoryRegistry } from './registry/repository-registry';
export type { RepositoryRegistryProps } from './registry/repository-registry';
export { REGISTRY_SHARDS, registryConfigMapOf, registryKeyOf } from './registry/registry-layout';
export type { RegistryAgent, RegistryEntry } from './registry/registry-layout';
export { playGroups, registryEntry } from './registry/registry-entries';
export type { PlayGroup, RegistrySource } from './registry/registry-entries';
export { runtimeConfigMapName } from './runtime/runtime-config-map-name';
export { DEFAULT_RUNTIME_IMAGE, RUNTIME_FILE, RUNTIME_MOUNT_PATH } from './runtime/runtime-layout';
export { ApiError, ApiResources } from './runtime/kube-api';
export { StepFailure } from './runtime/runtime-step';
export { TASK_BRANCH_PATTERN, TASK_LABEL_PATTERN } from './model/task-id-template';

// Direct execution: the executor table, and what a direct agent reads
export { ArgumentPlaceholders, EXECUTOR_TABLE, EXECUTORS, executorOfCli } from './model/executors';
export {
  API_KEY_SECRET_KEY,
  agentHomeFolder,
  cliApiKeySecretName,
  DEFAULT_DIRECT_RESOURCES,
  DEFAULT_EXECUTION,
  directRefusal,
  EXECUTION_MODES,
  GITHUB_APP_SECRET_KEYS,
  MAX_DIRECT_SYSTEM_PROMPT_BYTES,
  taskStateFolder,
} from './model/direct-execution';

// The CodeRun custom resource
export {
  CODERUN_API_VERSION,
  CODERUN_GROUP,
  CODERUN_KIND,
  CODERUN_PLURAL,
  CODERUN_VERSION,
  CodeRunPhases,
  codeRunOpenApiSchema,
} from './model/coderun-schema';
