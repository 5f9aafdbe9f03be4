/**
 * The names the world outside this repository relies on, written out literally. Selectors in running
 * Sensors, `argo resume --node-field-selector`, kubectl scripts, dashboards, ArgoCD and the clusters of
 * users all match these exact strings: renaming one in constructs/model would compile, pass every test that
 * reads the constant, and break every cluster. Changing a line here is a breaking change to announce.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { RESUMER_GATE_PARAMETER, RESUMER_WORKFLOW_TYPE } from '../constructs/resumer/play-resumer-template';
import { CODERUN_GROUP, CODERUN_KIND, CODERUN_PLURAL, CODERUN_VERSION } from '../constructs/model/coderun-schema';
import {
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
} from '../constructs/model/labels';
import { githubAppBotLogin, repositoryLabelValue, workspacePvcName } from '../constructs/model/naming';
import { legacyProgressConfigMapBase, progressConfigMapOf, progressKeyOf } from '../constructs/progress/progress-layout';
import {
  CODERUN_TEMPLATE_NAME,
  GATE_STAGE_INPUT,
  gateNodeSelector,
  PLAY_TEMPLATE_NAME,
  PlayParameters,
  playWorkflowName,
  ProgressStatuses,
  RESUMER_TEMPLATE_NAME,
} from '../constructs/model/play-contract';
import { REGISTRY_LABEL } from '../constructs/registry/repository-registry';
import { registryConfigMapOf, registryKeyOf } from '../constructs/registry/registry-layout';
import { TASK_BRANCH_PATTERN, TASK_LABEL_PATTERN } from '../constructs/model/task-id-template';

describe('label keys that selectors match', () => {
  it('on play Workflows', () => {
    expect(PlayLabels).toEqual({
      taskId: 'task-id',
      repository: 'repository',
      workflowType: 'workflow-type',
      currentStage: 'current-stage',
      previousStage: 'previous-stage',
      round: 'round',
    });
    expect(ProjectLabels).toEqual({ project: 'project' });
    expect(WorkflowTypes).toEqual({ play: 'play', coderun: 'coderun', project: 'project' });
    expect(RESUMER_WORKFLOW_TYPE).toBe('resumer');
  });

  it('on CodeRuns, workspace PVCs, progress ConfigMaps and every object', () => {
    expect(CodeRunLabels).toEqual({
      taskId: 'task-id',
      service: 'service',
      githubApp: 'github-app',
      workflowName: 'workflow-name',
      stage: 'workflow-stage',
      workflowType: 'workflow-type',
      workflowUid: 'workflow-uid',
      round: 'round',
    });
    expect(WorkspaceLabels).toEqual({
      app: 'app',
      component: 'component',
      service: 'service',
      agent: 'agent',
      workspaceType: 'workspace-type',
    });
    expect(PROGRESS_TRACKING_LABEL).toBe('play-tracking');
    expect(COMMON_LABELS).toEqual({ 'app.kubernetes.io/part-of': 'agent-play', 'app.kubernetes.io/managed-by': 'cdk8s-agent-play' });
  });
});

describe('annotation keys', () => {
  it('on play Workflows', () => {
    expect(PlayAnnotations).toEqual({
      currentAgent: 'agents.platform/current-agent',
      stageEnteredAt: 'agents.platform/stage-entered-at',
      stageHistory: 'agents.platform/stage-history',
      repository: 'agents.platform/repository',
      prUrl: 'agents.platform/pr-url',
      prNumber: 'agents.platform/pr-number',
      roundReason: 'agents.platform/round-reason',
      remediationEvent: 'agents.platform/remediation-event',
    });
  });

  it('that keep ArgoCD from pruning or deleting the work', () => {
    expect(ARGOCD_SYNC_OPTIONS_ANNOTATION).toBe('argocd.argoproj.io/sync-options');
    expect(ARGOCD_KEEP_ANNOTATIONS).toEqual({ 'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false' });
  });
});

describe('parameters and template names that submitters and resumers pass', () => {
  it('play parameters', () => {
    expect(PlayParameters).toEqual({
      repository: 'repository',
      taskId: 'task-id',
      startStage: 'start-stage',
      taskRequirements: 'task-requirements',
      taskType: 'task-type',
      round: 'round',
    });
    expect(ProgressStatuses).toEqual({ inProgress: 'in-progress', suspended: 'suspended', completed: 'completed', failed: 'failed' });
  });

  it('how a resume addresses a gate', () => {
    expect(GATE_STAGE_INPUT).toBe('stage');
    expect(gateNodeSelector('waiting-pr-created')).toBe('inputs.parameters.stage.value=waiting-pr-created');
    expect(RESUMER_TEMPLATE_NAME).toBe('play-resumer');
    // `argo submit --from workflowtemplate/play -p repository=... -p task-id=...`
    expect(PLAY_TEMPLATE_NAME).toBe('play');
    expect(RESUMER_GATE_PARAMETER).toBe('gate');
    expect(CODERUN_TEMPLATE_NAME).toBe('coderun');
  });

  it('where the plays of a repository find its settings (the registry every play reads first)', () => {
    expect(registryConfigMapOf('acme/web')).toBe('play-repositories-43');
    expect(registryConfigMapOf('5dlabs/cto-play-test')).toBe('play-repositories-6');
    expect(registryKeyOf('Acme/Web')).toBe('acme.web');
    expect(REGISTRY_LABEL).toBe('agents.platform/repository-registry');
  });

  it('the CodeRun resource the controller watches', () => {
    expect([CODERUN_GROUP, CODERUN_VERSION, CODERUN_KIND, CODERUN_PLURAL]).toEqual(['agents.platform', 'v1', 'CodeRun', 'coderuns']);
  });
});

describe('object names derived from a task, and the GitHub conventions', () => {
  it('workspaces, progress records and play Workflows', () => {
    expect(workspacePvcName('cto', 'rex', true)).toBe('workspace-cto');
    expect(workspacePvcName('cto', 'cleo', false)).toBe('workspace-cto-cleo');
    // Progress records live in a fixed set of shared shards, keyed by repository and task; the seeds' per-repository
    // ConfigMap is still read (never written), for plays recreated after an upgrade.
    expect(progressConfigMapOf('5dlabs/cto', 7)).toMatch(/^play-progress-shard-\d+$/);
    expect(progressKeyOf('5dlabs/cto', 7)).toBe('5dlabs.cto.task-7.json');
    expect(legacyProgressConfigMapBase('5dlabs/cto')).toBe('play-progress-5dlabs-cto');
    expect(playWorkflowName('cto', 7)).toBe('play-cto-task-7');
    expect(repositoryLabelValue('5dlabs/cto')).toBe('5dlabs.cto');
  });

  it('task labels, branches and bot logins', () => {
    // `task-N` and `feature/task-N-...` with N in its one form (no leading zero, at most 2147483647): the
    // runtime reads no other, so a Sensor that took `task-0005` recorded a task no play ever read.
    const id =
      '(?:0|[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]{1}|214748364[0-6]|2147483647)';
    expect(TASK_LABEL_PATTERN).toBe(`^task-${id}$`);
    expect(TASK_BRANCH_PATTERN).toBe(`^feature/task-(${id})(-.*)?$`);
    expect(githubAppBotLogin('5DLabs-Cleo')).toBe('5dlabs-cleo[bot]');
  });
});
