import { progressConfigMapName, progressConfigMapNames } from '../model/naming';
import type { Grant } from './scoped-service-account';

/**
 * Exactly what a project's templates do: read the progress ConfigMaps of the projects' repositories (every
 * run is a resume, and the wait reads the task's record; the earlier single ConfigMap too, for records
 * written before the shards), create the chunk Workflows and the child plays, read Workflows (a resource
 * step watches its chunk, the wait looks at the task's play), and let Argo's executor report task results.
 * No `patch` on Workflows: a child play is created once, never applied over (the remediator's successor
 * must survive).
 */
export function projectGrants(repositories: readonly string[]): readonly Grant[] {
  const names = [...new Set(repositories)]
    .sort()
    .flatMap((repository) => [...progressConfigMapNames(repository), progressConfigMapName(repository)]);
  return [
    { apiGroup: '', resource: 'configmaps', verbs: ['get'], resourceNames: names },
    { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['create', 'get'] },
    // The chunk Workflows are owned by the project Workflow with blockOwnerDeletion (setOwnerReference).
    { apiGroup: 'argoproj.io', resource: 'workflows/finalizers', verbs: ['update'] },
    { apiGroup: 'argoproj.io', resource: 'workflowtaskresults', verbs: ['create', 'patch'] },
  ];
}

/** The service account project Workflows run as. */
export const PROJECT_SERVICE_ACCOUNT = 'agent-play-project';
