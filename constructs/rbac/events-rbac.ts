import type { ResumeStrategy } from '../model/config-schema';
import type { Grant } from './scoped-service-account';

/**
 * What a gate Sensor's pod does. `label-selector`: create resumer Workflows. `workflow-name`: the Argo CLI
 * resumes a play by name (get, update) and a merge patch records the release (get, create, patch).
 */
export function sensorGrants(strategy: ResumeStrategy): Grant[] {
  if (strategy === 'label-selector') return [{ apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['create'] }];
  return [
    { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['get', 'update'] },
    { apiGroup: '', resource: 'configmaps', verbs: ['create', 'get', 'patch'] },
  ];
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
