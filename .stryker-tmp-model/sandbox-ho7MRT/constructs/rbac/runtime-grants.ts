/**
 * The grants the runtime steps of every kind of Workflow share: the progress records, and the task results
 * Argo's executor reports.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { progressShardNames } from '../progress/progress-layout';
import type { Grant } from './scoped-service-account';

/**
 * Patch on the progress ConfigMaps, by name: the only ConfigMaps a runtime step may change, so no step can
 * rewrite the agents ConfigMap and its system prompts. A fixed set, whatever the number of repositories.
 */
export function progressShardGrant(): Grant {
  return { apiGroup: '', resource: 'configmaps', verbs: ['patch'], resourceNames: progressShardNames() };
}

/**
 * What the runtime steps read and make: the progress ConfigMaps (`create` cannot be narrowed by name, and it
 * cannot change an object that exists; `get` reads a record, also where an earlier layout kept it), and
 * patches of the progress ConfigMaps only.
 */
export const PROGRESS_GRANTS: readonly Grant[] = [{ apiGroup: '', resource: 'configmaps', verbs: ['create', 'get'] }, progressShardGrant()];

/** Argo's executor reports a step's outputs as a WorkflowTaskResult. */
export const TASK_RESULTS_GRANT: Grant = { apiGroup: 'argoproj.io', resource: 'workflowtaskresults', verbs: ['create', 'patch'] };

/**
 * A Workflow that sets an owner reference on what it creates (a CodeRun, a chunk Workflow) makes itself the
 * controller with blockOwnerDeletion (argo-workflows `workflow/controller/operator.go`,
 * `metav1.NewControllerRef`); where the OwnerReferencesPermissionEnforcement admission plugin is on
 * (OpenShift, hardened clusters), that needs update on the owner's finalizers.
 */
export const WORKFLOW_FINALIZERS_GRANT: Grant = { apiGroup: 'argoproj.io', resource: 'workflows/finalizers', verbs: ['update'] };
