/**
 * Label and annotation keys, defined once. Templates write them, sensors and resumers select by them,
 * the validator and the simulator read them: all from here.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/** Labels on every play Workflow. Values must be legal label values (see `naming.ts`). */
export const PlayLabels = {
  /** The task id, digits only. */
  taskId: 'task-id',
  /** The repository, encoded by `repositoryLabelValue` (`owner/name` itself is not a legal value). */
  repository: 'repository',
  /** What kind of workflow this is; a play is `play`. */
  workflowType: 'workflow-type',
  /** The stage the play is in now; patched on the Workflow at every transition. */
  currentStage: 'current-stage',
  /** The stage the play left last. */
  previousStage: 'previous-stage',
  /** The remediation round the play runs (digits, from 1). */
  round: 'round',
} as const;

/** Labels that tie a child play to the project that started it. */
export const ProjectLabels = {
  project: 'project',
} as const;

/** The `workflow-type` label values we emit. */
export const WorkflowTypes = {
  play: 'play',
  coderun: 'coderun',
  project: 'project',
} as const;

/** Annotations on a play Workflow: state that is not a legal label value (timestamps, JSON, URLs). */
export const PlayAnnotations = {
  /** The agent working in the current stage, empty at a gate. */
  currentAgent: 'agents.platform/current-agent',
  /** When the current stage was entered (RFC 3339). */
  stageEnteredAt: 'agents.platform/stage-entered-at',
  /** JSON list of `{stage, agent, enteredAt}`, oldest first. */
  stageHistory: 'agents.platform/stage-history',
  /** The repository as GitHub spells it (`owner/name`). */
  repository: 'agents.platform/repository',
  /** The pull request of the task, recorded when a gate is released. */
  prUrl: 'agents.platform/pr-url',
  prNumber: 'agents.platform/pr-number',
  /** Why this play's round started (set by the remediator on a successor), or why the play was stopped. */
  roundReason: 'agents.platform/round-reason',
  /** The GitHub delivery id (`X-GitHub-Delivery`) of the event a remediator made this play for. */
  remediationEvent: 'agents.platform/remediation-event',
} as const;

/** The label that marks a play-progress ConfigMap (the seeds' `play-tracking=true`). */
export const PROGRESS_TRACKING_LABEL = 'play-tracking';

/** Labels on the CodeRuns a play creates, so that a CodeRun can be traced back to its play and stage. */
export const CodeRunLabels = {
  taskId: 'task-id',
  service: 'service',
  githubApp: 'github-app',
  workflowName: 'workflow-name',
  stage: 'workflow-stage',
  workflowType: 'workflow-type',
  /** The uid of the play run: a new attempt, or the exit handler, cancels the CodeRuns of this run only. */
  workflowUid: 'workflow-uid',
  /** The remediation round of the play that created the CodeRun. */
  round: 'round',
} as const;

/** Labels on workspace PVCs, as the original controller set them. */
export const WorkspaceLabels = {
  app: 'app',
  component: 'component',
  service: 'service',
  agent: 'agent',
  workspaceType: 'workspace-type',
} as const;

/** ArgoCD's per-object sync options annotation. */
export const ARGOCD_SYNC_OPTIONS_ANNOTATION = 'argocd.argoproj.io/sync-options';

/** Annotations that keep ArgoCD from ever pruning or deleting an object (PVCs hold the agents' work). */
export const ARGOCD_KEEP_ANNOTATIONS: Readonly<Record<string, string>> = {
  [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'Prune=false,Delete=false',
};

/** Labels every object we emit carries. */
export const COMMON_LABELS: Readonly<Record<string, string>> = {
  'app.kubernetes.io/part-of': 'agent-play',
  'app.kubernetes.io/managed-by': 'cdk8s-agent-play',
};
