/**
 * The successor of a play the remediator replaces: the play as `playWorkflow()` built it (name, labels,
 * annotations, template reference, arguments), starting at another stage and possibly in the next round. What
 * the controller and the play added while it ran (`workflows.argoproj.io/*` labels, the previous stage, the
 * stage history) is left behind; the successor is marked as continuing the task's run (it keeps the releases
 * that still hold) and as made for one event (a retried step never replaces it again).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { PlayAnnotations, PlayLabels } from '../model/labels';
import { PlayParameters, RESUMED_FROM_ANNOTATION } from '../model/play-contract';
import type { KubeObject } from '../runtime/kube-api';

/** The annotations a successor keeps from its play (besides those it is given). */
export const KEPT_ANNOTATIONS: readonly string[] = [PlayAnnotations.repository, PlayAnnotations.prUrl, PlayAnnotations.prNumber];

/** What makes a successor. */
export interface SuccessorProps {
  readonly startStage: string;
  readonly round: number;
  /** Where it continues from, for the `resumed-from` annotation. */
  readonly resumedFrom: string;
  /** Why its round started. */
  readonly reason: string;
  /** The event it was made for. */
  readonly eventId: string;
}

interface Parameter {
  readonly name: string;
  readonly value?: unknown;
}

function argumentsOf(play: KubeObject): Parameter[] {
  const spec = (play.spec ?? {}) as { arguments?: { parameters?: Parameter[] } };
  return [...(spec.arguments?.parameters ?? [])];
}

/** The play's arguments with the start stage and round set; a round missing is put after the start stage. */
function successorArguments(play: KubeObject, props: SuccessorProps): Parameter[] {
  const round = String(props.round);
  const parameters = argumentsOf(play).map((parameter) => {
    if (parameter.name === PlayParameters.startStage) return { ...parameter, value: props.startStage };
    if (parameter.name === PlayParameters.round) return { ...parameter, value: round };
    return parameter;
  });
  if (parameters.some((parameter) => parameter.name === PlayParameters.round)) return parameters;
  const at = parameters.findIndex((parameter) => parameter.name === PlayParameters.startStage);
  parameters.splice(at + 1, 0, { name: PlayParameters.round, value: round });
  return parameters;
}

/** The successor Workflow of `play` (see the module comment). */
export function successorOf(play: KubeObject, props: SuccessorProps): KubeObject {
  const labels = Object.fromEntries(
    Object.entries(play.metadata.labels ?? {}).filter(
      ([key]) => !key.startsWith('workflows.argoproj.io/') && key !== PlayLabels.previousStage,
    ),
  );
  const annotations = Object.fromEntries(Object.entries(play.metadata.annotations ?? {}).filter(([key]) => KEPT_ANNOTATIONS.includes(key)));
  const spec = (play.spec ?? {}) as { workflowTemplateRef?: unknown };
  return {
    apiVersion: play.apiVersion,
    kind: play.kind,
    metadata: {
      name: play.metadata.name,
      namespace: play.metadata.namespace,
      labels: { ...labels, [PlayLabels.currentStage]: props.startStage, [PlayLabels.round]: String(props.round) },
      annotations: {
        ...annotations,
        [RESUMED_FROM_ANNOTATION]: props.resumedFrom,
        [PlayAnnotations.roundReason]: props.reason,
        [PlayAnnotations.remediationEvent]: props.eventId,
      },
    },
    spec: { workflowTemplateRef: spec.workflowTemplateRef, arguments: { parameters: successorArguments(play, props) } },
  };
}
