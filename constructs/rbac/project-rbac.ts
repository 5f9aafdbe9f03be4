import type { Grant } from './scoped-service-account';

/**
 * Exactly what a project's templates do: read the progress ConfigMaps (every run is a resume), create the
 * chunk Workflows, apply the child plays and watch them end, and let Argo's executor report task results.
 */
export const PROJECT_GRANTS: readonly Grant[] = [
  { apiGroup: '', resource: 'configmaps', verbs: ['get'] },
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['create', 'get', 'patch'] },
  // The chunk Workflows are owned by the project Workflow with blockOwnerDeletion (setOwnerReference).
  { apiGroup: 'argoproj.io', resource: 'workflows/finalizers', verbs: ['update'] },
  { apiGroup: 'argoproj.io', resource: 'workflowtaskresults', verbs: ['create', 'patch'] },
];

/** The service account project Workflows run as. */
export const PROJECT_SERVICE_ACCOUNT = 'agent-play-project';
