/**
 * A gate's suspend node in a play Workflow's status, and its release, done the way `argo resume
 * --node-field-selector inputs.parameters.stage.value=GATE` does it (argo-workflows `workflow/util/util.go`,
 * `ResumeWorkflow` then `updateSuspendedNode`): every active suspend node (type `Suspend`, phase `Running`)
 * whose `stage` input is the gate gets phase `Succeeded`, a `finishedAt` and a message, in one write that
 * carries the resourceVersion it read (a merge patch of those fields only, so no field the controller keeps
 * in a node is lost), redone on a conflict. A gate whose node is found released already counts as released:
 * whoever released it first, the play's own check or a resumer, did what the other wanted.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { GATE_STAGE_INPUT, gateNodeSelector } from '../model/play-contract';
import { retryOnConflict } from '../runtime/conflict-retry';
import type { KubeObject, ObjectRef } from '../runtime/kube-api';
import { recordTime } from '../progress/progress-record';
import { StepFailure, type StepContext } from '../runtime/runtime-step';

/** A node of `status.nodes`, as far as the gate reads it. */
interface WorkflowNode {
  readonly type?: string;
  readonly phase?: string;
  readonly inputs?: { readonly parameters?: ReadonlyArray<{ readonly name?: string; readonly value?: unknown }> };
}

/** What a workflow's status says of a gate. */
export type GateState =
  /** A suspend node of the gate waits for its release. */
  | 'waiting'
  /** The gate's suspend node exists and no longer waits: released. */
  | 'released'
  /** No suspend node of the gate exists (yet): the play has not reached it, or its status is not stored yet. */
  | 'absent';

/** The node ids of the gate's suspend nodes, with whether each is active. */
export function gateNodes(workflow: KubeObject, gate: string): Array<{ readonly id: string; readonly active: boolean }> {
  const status = (workflow.status ?? {}) as Record<string, unknown>;
  if (status.offloadNodeStatusVersion || status.compressedNodes)
    throw new StepFailure(
      `workflow ${workflow.metadata.name} keeps its node status compressed or offloaded, which this step cannot read; resume it with \`argo resume --node-field-selector ${gateNodeSelector(gate)}\``,
    );
  const nodes = (status.nodes ?? {}) as Record<string, WorkflowNode>;
  return Object.entries(nodes)
    .filter(
      ([, node]) => node.type === 'Suspend' && (node.inputs?.parameters ?? []).some((p) => p.name === GATE_STAGE_INPUT && p.value === gate),
    )
    .map(([id, node]) => ({ id, active: node.phase === 'Running' }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What a workflow's status says of a gate (see `GateState`). */
export function gateState(workflow: KubeObject, gate: string): GateState {
  const nodes = gateNodes(workflow, gate);
  if (nodes.some((node) => node.active)) return 'waiting';
  return nodes.length > 0 ? 'released' : 'absent';
}

/**
 * Releases the gate's active suspend nodes of the workflow `ref`. Returns what the gate's state was when
 * the write went through: `waiting` (this call released it), `released` (someone had), `absent` (the play has
 * no node for the gate: nothing was written).
 *
 * @throws StepFailure when the API refuses or the workflow keeps changing
 */
export async function releaseGate(context: StepContext, ref: ObjectRef, gate: string, message: string): Promise<GateState> {
  return retryOnConflict(context, `releasing gate ${gate} of workflow ${ref.name}`, async () => {
    const workflow = await context.api.get(ref);
    const active = gateNodes(workflow, gate).filter((node) => node.active);
    if (active.length === 0) return gateState(workflow, gate);
    const finishedAt = recordTime(context.now());
    const nodes = Object.fromEntries(active.map((node) => [node.id, { phase: 'Succeeded', finishedAt, message }]));
    await context.api.mergePatch(ref, { metadata: { resourceVersion: workflow.metadata.resourceVersion }, status: { nodes } });
    return 'waiting';
  });
}
