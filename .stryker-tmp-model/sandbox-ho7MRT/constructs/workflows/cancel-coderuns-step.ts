/**
 * Cancels CodeRuns: deletes those of a label selector that have not finished, and waits until they are gone
 * (their finalizers done, their Jobs with them), within a time limit. A finished CodeRun (Succeeded or Failed)
 * is kept, with its status, for whoever looks into the play later; an unfinished one would keep working the
 * same branch and workspace as the attempt that replaces it. Run by each attempt of an agent stage before it
 * creates its own CodeRun, and by a play's exit handler unless the play succeeded.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { CodeRunPhases } from '../model/coderun-api';
import { explainApiError } from '../runtime/conflict-retry';
import { ApiResources, codeRunRef, isNotFound, type KubeObject } from '../runtime/kube-api';
import { count, StepEnv, text } from '../runtime/step-env';
import { runtimeStep, StepFailure, type StepContext } from '../runtime/runtime-step';

const env = new StepEnv({
  namespace: text('NAMESPACE'),
  /** A label selector, `key=value,...`. */
  selector: text('SELECTOR'),
  /** How long to wait for the deleted CodeRuns to be gone. */
  timeoutSeconds: count('TIMEOUT_SECONDS', 1),
});

/** Seconds between two looks at the deleted CodeRuns. */
const POLL_SECONDS = 2;

function unfinished(codeRun: KubeObject): boolean {
  const phase = (codeRun.status as { phase?: unknown } | undefined)?.phase;
  return phase !== CodeRunPhases.succeeded && phase !== CodeRunPhases.failed;
}

export const cancelCodeRunsStep = runtimeStep({
  name: 'cancel-coderuns',
  description: 'delete the unfinished CodeRuns of a label selector and wait until they are gone',
  env,
  outputs: ['cancelled'],
  async run(context, values) {
    let listed: KubeObject[];
    try {
      listed = await context.api.list(ApiResources.codeRuns, values.namespace, values.selector);
    } catch (error) {
      throw explainApiError(error, `listing the CodeRuns of ${values.selector}`);
    }
    const names = listed
      .filter(unfinished)
      .map((codeRun) => codeRun.metadata.name ?? '')
      .sort();
    if (names.length === 0) {
      context.log(`no unfinished CodeRun matches ${values.selector}`);
      return { cancelled: '' };
    }
    for (const name of names) await deleteCodeRun(context, values.namespace, name);
    await waitUntilGone(context, values.namespace, names, values.timeoutSeconds);
    context.log(`cancelled: ${names.join(' ')}`);
    return { cancelled: names.join(' ') };
  },
});

async function deleteCodeRun(context: StepContext, namespace: string, name: string): Promise<void> {
  try {
    await context.api.delete(codeRunRef(namespace, name), 'Background');
  } catch (error) {
    if (!isNotFound(error)) throw explainApiError(error, `deleting CodeRun ${name}`);
  }
}

async function exists(context: StepContext, namespace: string, name: string): Promise<boolean> {
  try {
    await context.api.get(codeRunRef(namespace, name));
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw explainApiError(error, `reading CodeRun ${name}`);
  }
}

async function waitUntilGone(context: StepContext, namespace: string, names: readonly string[], timeoutSeconds: number): Promise<void> {
  let remaining = [...names];
  for (let waited = 0; ; waited += POLL_SECONDS) {
    const still: string[] = [];
    for (const name of remaining) if (await exists(context, namespace, name)) still.push(name);
    remaining = still;
    if (remaining.length === 0) return;
    if (waited >= timeoutSeconds)
      throw new StepFailure(`CodeRuns ${remaining.join(', ')} are still there ${timeoutSeconds} s after their deletion (finalizers?)`);
    await context.sleep(POLL_SECONDS * 1000);
  }
}
