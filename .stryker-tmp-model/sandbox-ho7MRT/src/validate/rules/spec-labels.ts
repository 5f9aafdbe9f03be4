/**
 * Labels set inside Argo specs are checked by no schema: the workflow spec's `workflowMetadata.labels` (Argo
 * refuses an illegal value only when a Workflow runs), each template's `metadata.labels` (the pod's), the
 * labels a resource template's manifest sets, and those of the resources a Sensor trigger creates. Values
 * that are `{{...}}` placeholders are filled in later and left alone.
 *
 * A CronWorkflow has a second place: `spec.workflowMetadata`, beside its `workflowSpec`. The cron controller
 * copies its labels as they are into the metadata of each Workflow it creates (argo-workflows
 * `workflow/common/convert.go`, toWorkflow), so the API server refuses that Workflow, and no placeholder there
 * is ever filled in; `spec.workflowSpec.workflowMetadata` is applied later, once the Workflow runs, after its
 * placeholders are filled in (`workflow/controller/operator.go`, setExecWorkflow and updateWorkflowMetadata).
 */
// @ts-nocheck

import { ARGOCD_SYNC_OPTIONS_ANNOTATION } from '../../../constructs/model/labels';
import type { LintRule, Violation } from '../finding';
import { labelViolations } from '../metadata-checks';
import { hasPlaceholder, isRecord, templatesOf, workflowSpecOf, WORKFLOW_KINDS, type Json, type Path } from './argo-spec';
import { parseResourceManifest } from './resource-manifest';
import { triggersOf } from './sensor-spec';

/** The labels with placeholder keys or values left out. */
const concrete = (labels: unknown): unknown =>
  isRecord(labels)
    ? Object.fromEntries(Object.entries(labels).filter(([key, value]) => !hasPlaceholder(key) && !hasPlaceholder(value)))
    : labels;

const labelsAt = (labels: unknown, at: Path): Violation[] => labelViolations(concrete(labels), at);

/**
 * The labels a resource manifest sets, its YAML parsed with each placeholder replaced by a plain word (a
 * legal label value): what the placeholder becomes is not known here, the text around it is.
 */
function manifestLabels(manifest: unknown, at: Path): Violation[] {
  if (typeof manifest !== 'string') return [];
  return parseResourceManifest(manifest).values.flatMap((parsed) => {
    const value = parsed as Json | null;
    return isRecord(value)
      ? labelsAt(value.metadata?.labels, at).map((violation) => ({
          ...violation,
          message: `the manifest's metadata.labels: ${violation.message}`,
        }))
      : [];
  });
}

/** The labels a CronWorkflow gives each Workflow it creates, placeholders included: none is filled in. */
function cronWorkflowLabels(spec: unknown): Violation[] {
  const labels = isRecord(spec) && isRecord(spec.workflowMetadata) ? spec.workflowMetadata.labels : undefined;
  return labelViolations(labels, ['spec', 'workflowMetadata', 'labels']).map((violation) => ({
    ...violation,
    message: `${violation.message}: the CronWorkflow copies these labels as they are, placeholders unfilled, onto each Workflow it creates, and the API server refuses that Workflow`,
  }));
}

export const specLabelsRule: LintRule = {
  id: 'spec-labels',
  severity: 'error',
  description:
    "labels inside Argo specs (workflowMetadata, a CronWorkflow's own spec.workflowMetadata with its placeholders, which are never filled in, templates, resource manifests, Sensor trigger resources) have legal keys and values",
  kinds: [...WORKFLOW_KINDS, 'Sensor'],
  check: (target) => {
    if (target.kind === 'Sensor') {
      return triggersOf(target).flatMap(({ template, at }) =>
        (['k8s', 'argoWorkflow'] as const).flatMap((type) =>
          labelsAt(template[type]?.source?.resource?.metadata?.labels, [
            ...at,
            'template',
            type,
            'source',
            'resource',
            'metadata',
            'labels',
          ]),
        ),
      );
    }
    const violations = target.kind === 'CronWorkflow' ? cronWorkflowLabels(target.object.spec) : [];
    const workflow = workflowSpecOf(target);
    if (!workflow) return violations;
    violations.push(...labelsAt(workflow.spec.workflowMetadata?.labels, [...workflow.at, 'workflowMetadata', 'labels']));
    for (const { template, at } of templatesOf(workflow)) {
      violations.push(...labelsAt(template.metadata?.labels, [...at, 'metadata', 'labels']));
      violations.push(...manifestLabels(template.resource?.manifest, [...at, 'resource', 'manifest']));
    }
    return violations;
  },
};

/** Whether the ArgoCD sync options keep the object when it disappears from Git. */
const keepsOnPrune = (annotations: unknown): boolean => {
  const options = isRecord(annotations) ? annotations[ARGOCD_SYNC_OPTIONS_ANNOTATION] : undefined;
  return typeof options === 'string' && /(^|,)\s*Prune=false\s*(,|$)/.test(options);
};

export const pvcPruneProtectionRule: LintRule = {
  id: 'pvc-prune-protection',
  severity: 'warning',
  description: `a PersistentVolumeClaim carries ${ARGOCD_SYNC_OPTIONS_ANNOTATION}: Prune=false, so a sync never deletes the agents' work`,
  kinds: ['PersistentVolumeClaim'],
  check: (target) =>
    keepsOnPrune(target.object.metadata?.annotations)
      ? []
      : [
          {
            path: 'metadata.annotations',
            message: `no ${ARGOCD_SYNC_OPTIONS_ANNOTATION}: Prune=false: an ArgoCD sync that no longer finds this claim in Git deletes it and the work on it`,
          },
        ],
};
