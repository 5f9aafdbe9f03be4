/**
 * How long a finished Workflow and its pods are kept, shared by the play and the project templates: a
 * succeeded Workflow a day, a failed one three days (time to read it), pods a few minutes after they end.
 */
// @ts-nocheck

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
    podGC: { strategy: 'OnPodCompletion', deleteDelayDuration: '5m' },
  };
}
