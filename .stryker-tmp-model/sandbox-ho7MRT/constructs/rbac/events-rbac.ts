// @ts-nocheck
import type { ResumeStrategy } from '../model/config-shapes';
import { PROGRESS_GRANTS, TASK_RESULTS_GRANT } from './runtime-grants';
import type { Grant } from './scoped-service-account';

/**
 * What a gate Sensor's pod does, under either strategy: create resumer Workflows from the resumer's
 * WorkflowTemplate, nothing else. The Sensor faces the webhook; it never touches plays or records itself.
 * `create` cannot be narrowed by resourceNames (Kubernetes has no name before creation), so what a created
 * Workflow may run is pinned by an admission policy on its service account (docs/events.md).
 */
export function sensorGrants(_strategy: ResumeStrategy): Grant[] {
  return [{ apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['create'] }];
}

/**
 * What the resumer's step does: record the release in the task's progress record, list and read plays, put
 * the pull request on one and release its gate (both patches), and report task results.
 */
export const RESUMER_GRANTS: readonly Grant[] = [
  ...PROGRESS_GRANTS,
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['get', 'list', 'patch'] },
  TASK_RESULTS_GRANT,
];

/**
 * What the remediator's steps do: read and write the task's progress record, list and read plays, annotate
 * and stop one (`spec.shutdown`, a patch), delete it, wait until its pods are gone (list pods), create its
 * successor, and report task results. Play names come from events at run time, so `resourceNames` cannot
 * narrow them.
 */
export const REMEDIATOR_GRANTS: readonly Grant[] = [
  ...PROGRESS_GRANTS,
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['create', 'delete', 'get', 'list', 'patch'] },
  { apiGroup: '', resource: 'pods', verbs: ['list'] },
  TASK_RESULTS_GRANT,
];
