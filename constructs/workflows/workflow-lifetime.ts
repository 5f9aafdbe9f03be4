/**
 * How long a finished Workflow and its pods are kept, shared by the play and the project templates: a
 * succeeded Workflow a day, a failed one three days (time to read it), a pod not at all once it has ended.
 *
 * No `deleteDelayDuration`: the workflow controller queues a delayed pod deletion by namespace and pod name,
 * and deletes whatever pod has that name when the delay ends (`deletePod` in argo-workflows
 * `workflow/controller/pod/queue.go`, no UID precondition). A play replaced under its own name (a remediation
 * round, `agent-play resume`) makes its pods under its predecessor's pod names, so a delayed deletion of a
 * predecessor's pod killed the successor's running pod of that name (seen on the real controllers: a round's
 * CodeRun created twice). Deleted at once, a predecessor's pods are gone before the remediator, which waits
 * for them, creates the successor.
 */
import { durationSeconds } from '../model/duration';
import type { WorkflowSpec } from './argo-types';

/** The retention the template's props ask for, else the defaults above. */
export function workflowLifetime(keep: {
  readonly keepSucceededSeconds?: number;
  readonly keepFailedSeconds?: number;
}): Pick<WorkflowSpec, 'ttlStrategy' | 'podGC'> {
  return {
    ttlStrategy: {
      secondsAfterSuccess: keep.keepSucceededSeconds ?? durationSeconds('1d'),
      secondsAfterFailure: keep.keepFailedSeconds ?? durationSeconds('3d'),
    },
    podGC: { strategy: 'OnPodCompletion' },
  };
}
