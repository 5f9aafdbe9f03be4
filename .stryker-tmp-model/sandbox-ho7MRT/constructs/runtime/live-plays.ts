/**
 * The live plays of a task, as the resumer and the remediator find them: the play of the given name (the
 * `workflow-name` strategy), or the plays with the task's labels (`label-selector`), without those Argo has
 * completed (labelled `workflows.argoproj.io/completed: "true"`, set once the exit handler has run).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { ARGO_COMPLETED_LABEL } from '../model/argo-api';
import { repositoryLabelValue } from '../model/naming';
import { playSelectorLabels } from '../model/play-workflow';
import { explainApiError } from './conflict-retry';
import { ApiResources, isNotFound, selectorOf, workflowRef, type KubeObject } from './kube-api';
import type { StepContext } from './runtime-step';

/** How the event helpers find a task's play: by its labels, or by its name (derived from the service). */
export const PLAY_STRATEGIES = ['label-selector', 'workflow-name'] as const;

/** One of `PLAY_STRATEGIES`. */
export type PlayStrategy = (typeof PLAY_STRATEGIES)[number];

/** Which plays are the task's. */
export interface TaskPlays {
  readonly namespace: string;
  /** `owner/name`. */
  readonly repository: string;
  readonly task: number;
  /** The play's name under the `workflow-name` strategy; empty under `label-selector`. */
  readonly playName: string;
}

/** Whether Argo has completed the Workflow (its exit handler included). */
export function isCompleted(workflow: KubeObject): boolean {
  return workflow.metadata.labels?.[ARGO_COMPLETED_LABEL] === 'true';
}

/** The task's live plays, in name order. @throws StepFailure on an API error (a missing named play is none) */
export async function livePlays(context: StepContext, plays: TaskPlays): Promise<KubeObject[]> {
  if (plays.playName !== '') {
    try {
      const play = await context.api.get(workflowRef(plays.namespace, plays.playName));
      return isCompleted(play) ? [] : [play];
    } catch (error) {
      if (isNotFound(error)) return [];
      throw explainApiError(error, `reading play ${plays.playName}`);
    }
  }
  const selector = selectorOf(playSelectorLabels(String(plays.task), repositoryLabelValue(plays.repository)));
  try {
    const listed = await context.api.list(ApiResources.workflows, plays.namespace, selector);
    return listed.filter((play) => !isCompleted(play)).sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  } catch (error) {
    throw explainApiError(error, `listing the plays of ${selector}`);
  }
}
