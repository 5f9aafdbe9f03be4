/**
 * The play's check at a gate, beside the gate's suspend node: when a release of this run is recorded in the
 * task's progress record (an event that came before the play reached the gate), the play releases its own
 * gate; otherwise the suspend node waits for a resumer.
 *
 * The protocol that makes "no lost events" hold: whoever learns of a release records it first, then tries to
 * resume; the play labels itself as entering the gate, suspends, and only then reads the record (the suspend
 * node and this step start in one pass of the controller, suspend first: argo-workflows
 * `workflow/controller/steps.go`, `executeStepGroup`). Either this check sees the record, or the resumer sees
 * the suspend node waiting. When both act, the gate is released once and both succeed.
 *
 * Releases belong to one run of the task. A release counts when it was recorded at or after the play
 * Workflow was created; a play recreated from its progress record (annotated `resumed-from`) continues a run
 * and keeps every release, also those of an earlier layout's release ConfigMap. A fresh run removes the older
 * releases from the record, so that a play later recreated from this run's state cannot take them as its own.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { legacyReleaseConfigMapName, RESUMED_FROM_ANNOTATION } from '../model/play-contract';
import { configMapRef, isNotFound, workflowRef, type KubeObject } from '../runtime/kube-api';
import { backoffMilliseconds, explainApiError } from '../runtime/conflict-retry';
import { optionalText, StepEnv, taskId, text } from '../runtime/step-env';
import { runtimeStep, StepFailure, type StepContext } from '../runtime/runtime-step';
import { readRecord, updateRecord } from '../progress/progress-store';
import { releasedDuring, releasesBefore, withoutReleases, type ProgressRecord, type Release } from '../progress/progress-record';
import { releaseGate } from './gate-nodes';

const env = new StepEnv({
  namespace: text('NAMESPACE'),
  workflowName: text('WORKFLOW_NAME'),
  gate: text('GATE'),
  repository: text('REPOSITORY'),
  task: taskId('TASK_ID'),
  /** The repository's service: an earlier layout named the task's release ConfigMap by it (read only). */
  service: optionalText('SERVICE'),
});

/** How often the check looks again for the gate's suspend node when the play's status does not show it yet. */
const NODE_LOOKS = 5;

/** The gate check: `released` is `true` when the gate was released by a recorded release, else `false`. */
export const gateCheckStep = runtimeStep({
  name: 'gate-check',
  description: "a play's check at a gate: release its own gate when a release of this run is recorded",
  env,
  outputs: ['released'],
  async run(context, values) {
    const ref = workflowRef(values.namespace, values.workflowName);
    const play = await getPlay(context, ref.namespace, ref.name);
    const created = play.metadata.creationTimestamp ?? '';
    const resumed = (play.metadata.annotations?.[RESUMED_FROM_ANNOTATION] ?? '') !== '';
    const identity = { repository: values.repository, task: values.task };
    const stored = await readRecord(context, values.namespace, identity);
    if (stored.problem !== undefined) context.log(`${stored.configMap}: ${stored.problem}: read as holding no release`);
    const record = stored.record;
    if (record !== undefined && !resumed) await forgetEarlierRuns(context, values, record, created);
    const release =
      validRelease(record, values.gate, created, resumed) ??
      (resumed && values.service !== ''
        ? await legacyRelease(context, values.namespace, legacyReleaseConfigMapName(values.service, values.task), values.gate)
        : undefined);
    if (release === undefined) {
      context.log(`gate ${values.gate} has no release of this run yet: waiting for one`);
      return { released: 'false' };
    }
    context.log(`gate ${values.gate} was released before the play reached it (${release.prUrl || 'no pull request named'})`);
    await releaseOwnGate(context, ref, values.gate, release);
    return { released: 'true' };
  },
});

async function getPlay(context: StepContext, namespace: string, name: string): Promise<KubeObject> {
  try {
    return await context.api.get(workflowRef(namespace, name));
  } catch (error) {
    throw explainApiError(error, `reading play ${name}`);
  }
}

/** The gate's release, when it belongs to this run. */
function validRelease(record: ProgressRecord | undefined, gate: string, created: string, resumed: boolean): Release | undefined {
  const release = record?.releases?.[gate];
  return release !== undefined && (resumed || releasedDuring(release, created)) ? release : undefined;
}

/** Removes the releases recorded before this run started (a fresh run of the task). */
async function forgetEarlierRuns(
  context: StepContext,
  values: { namespace: string; repository: string; task: number },
  record: ProgressRecord,
  created: string,
): Promise<void> {
  if (releasesBefore(record, created).length === 0) return;
  let removed: string[] = [];
  await updateRecord(context, values.namespace, { repository: values.repository, task: values.task }, (before) => {
    removed = releasesBefore(before, created);
    return removed.length === 0 ? undefined : withoutReleases(before, removed);
  });
  if (removed.length > 0) context.log(`removed the releases of an earlier run of the task: ${removed.join(', ')}`);
}

/** A release the earlier layout recorded for the gate, for a play recreated from that layout's state. */
async function legacyRelease(context: StepContext, namespace: string, configMap: string, gate: string): Promise<Release | undefined> {
  if (configMap === '') return undefined;
  let object: KubeObject;
  try {
    object = await context.api.get(configMapRef(namespace, configMap));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw explainApiError(error, `reading ConfigMap ${configMap}`);
  }
  const value = (object.data as Record<string, unknown> | undefined)?.[gate];
  if (typeof value !== 'string') return undefined;
  context.log(`gate ${gate}: a release recorded in ${configMap} before the upgrade counts for this resumed play`);
  try {
    const parsed = JSON.parse(value) as Partial<Release>;
    return { prUrl: String(parsed.prUrl ?? ''), prNumber: String(parsed.prNumber ?? ''), releasedAt: String(parsed.releasedAt ?? '') };
  } catch {
    return { prUrl: '', prNumber: '', releasedAt: '' };
  }
}

/**
 * Releases the play's own gate. The suspend node was created in the same pass of the controller as this
 * step's pod, but the Workflow with it may be stored a moment after the pod starts: a gate with no node yet
 * is looked at again, with backoff, before the step fails (and Argo retries it).
 */
async function releaseOwnGate(context: StepContext, ref: ReturnType<typeof workflowRef>, gate: string, release: Release): Promise<void> {
  const message = `released by the play's gate check: ${release.prUrl || 'a recorded release'}`;
  for (let look = 1; look <= NODE_LOOKS; look += 1) {
    const state = await releaseGate(context, ref, gate, message);
    if (state === 'waiting') {
      context.log(`released gate ${gate}`);
      return;
    }
    if (state === 'released') {
      context.log(`gate ${gate} was released already (a resumer came first): nothing to do`);
      return;
    }
    if (look < NODE_LOOKS) await context.sleep(backoffMilliseconds(look));
  }
  throw new StepFailure(`gate ${gate} of play ${ref.name} has no suspend node after ${NODE_LOOKS} looks: the play is not at the gate`);
}
