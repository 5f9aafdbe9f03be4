/**
 * The spec of a short Workflow a Sensor starts for one event (the resumer, the remediator): parameters that
 * the trigger fills by name, a label that tells these runs apart from plays, a deadline, and clean-up of
 * the run and its pods, on restricted pods. One place, so the two cannot drift apart.
 */
// @ts-nocheck

import { PlayLabels } from '../model/labels';
import type { WorkflowSpec } from '../workflows/argo-types';
import { HARDENED_POD, SCRATCH_VOLUME } from '../workflows/hardened-pod';

/** What varies between the event helpers. */
export interface EventHelperSpecProps {
  /** The template the run starts at. */
  readonly entrypoint: string;
  readonly serviceAccountName: string;
  /** The parameters the Sensor's trigger sets, each empty by default. */
  readonly parameters: readonly string[];
  /** The `workflow-type` label of the template and of its runs. */
  readonly workflowType: string;
  /** The whole run's deadline. */
  readonly activeDeadlineSeconds: number;
}

/** The spec (without templates) of an event helper's WorkflowTemplate. */
export function eventHelperSpec(props: EventHelperSpecProps): Omit<WorkflowSpec, 'templates'> {
  return {
    entrypoint: props.entrypoint,
    serviceAccountName: props.serviceAccountName,
    arguments: { parameters: props.parameters.map((name) => ({ name, value: '' })) },
    workflowMetadata: { labels: { [PlayLabels.workflowType]: props.workflowType } },
    activeDeadlineSeconds: props.activeDeadlineSeconds,
    // A finished run is evidence for a while (a failed one longer), then it goes, with its pods.
    ttlStrategy: { secondsAfterSuccess: 300, secondsAfterFailure: 3600 },
    podGC: { strategy: 'OnPodCompletion' },
    securityContext: HARDENED_POD,
    volumes: [SCRATCH_VOLUME],
  };
}
