// @ts-nocheck
import { TASK_RESULTS_GRANT, WORKFLOW_FINALIZERS_GRANT } from './runtime-grants';
import type { Grant } from './scoped-service-account';

/**
 * Exactly what a project's templates do: read the progress records (every run is a resume, and the wait
 * reads the task's record), create the chunk Workflows and the child plays, read Workflows (a resource step
 * watches its chunk, the wait looks at the task's play), and let Argo's executor report task results. No
 * `patch` on Workflows: a child play is created once, never applied over (the remediator's successor must
 * survive).
 */
export const PROJECT_GRANTS: readonly Grant[] = [
  { apiGroup: '', resource: 'configmaps', verbs: ['get'] },
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['create', 'get', 'watch'] },
  // The chunk Workflows are owned by the project Workflow with blockOwnerDeletion (setOwnerReference).
  WORKFLOW_FINALIZERS_GRANT,
  TASK_RESULTS_GRANT,
];

/** The service account project Workflows run as. */
export const PROJECT_SERVICE_ACCOUNT = 'agent-play-project';
