import type { ResumeStrategy } from '../model/config-schema';
import type { Grant } from './scoped-service-account';

/**
 * What a gate Sensor's pod does, under either strategy: create resumer Workflows from the resumer's
 * WorkflowTemplate, nothing else. The Sensor faces the webhook; it never touches plays or records itself.
 * `create` cannot be narrowed by resourceNames (Kubernetes has no name before creation), so what a
 * created Workflow may run is pinned by the controller (`templateReferencing: Secure`) and an admission
 * policy on its service account (docs/events.md).
 */
export function sensorGrants(_strategy: ResumeStrategy): Grant[] {
  return [{ apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['create'] }];
}

/**
 * What the resumer does: record the release (merge patch, or create on first use), list and read plays,
 * annotate one with its PR (patch), resume it (`argo resume` updates the Workflow), and report task results.
 */
export const RESUMER_GRANTS: readonly Grant[] = [
  { apiGroup: '', resource: 'configmaps', verbs: ['create', 'get', 'patch'] },
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['get', 'list', 'patch', 'update'] },
  { apiGroup: 'argoproj.io', resource: 'workflowtaskresults', verbs: ['create', 'patch'] },
];

/**
 * What the remediator does: read and write the task's progress record and release record (get, patch), list
 * and read plays, annotate and stop one (`spec.shutdown`, a patch), delete it and create its successor, and
 * report task results. Play and record names come from events at run time, so `resourceNames` cannot narrow
 * them; the remediator never creates ConfigMaps (the play's progress script does).
 */
export const REMEDIATOR_GRANTS: readonly Grant[] = [
  { apiGroup: '', resource: 'configmaps', verbs: ['get', 'patch'] },
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['create', 'delete', 'get', 'list', 'patch'] },
  { apiGroup: 'argoproj.io', resource: 'workflowtaskresults', verbs: ['create', 'patch'] },
];
