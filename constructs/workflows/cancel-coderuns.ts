/**
 * Cancelling CodeRuns: delete the ones of a selector that have not finished. A finished CodeRun (Succeeded or
 * Failed) is kept, with its status, for whoever looks into the play later; an unfinished one would keep
 * working the same branch and workspace as the attempt that replaces it. Deleting is how a CodeRun is
 * cancelled: the CodeRun controller's Job goes with it (owner reference).
 */
import { inputParameter, WorkflowVariables } from '../model/argo-expressions';
import { CODERUN_GROUP, CODERUN_PLURAL, CodeRunPhases } from '../model/coderun-schema';
import type { Template } from './argo-types';
import { HELPER_DEADLINE_SECONDS, hardenedScript } from './hardened-script';
import { retryBudgetSeconds } from './retry-policy';

const CANCEL_RETRIES = 2;
const CANCEL_BACKOFF_SECONDS = 10;

/** The longest the cancel step takes, retries included: an agent attempt's budget counts it. */
export const CANCEL_CODERUNS_SECONDS = retryBudgetSeconds({
  limit: CANCEL_RETRIES,
  attemptSeconds: HELPER_DEADLINE_SECONDS,
  backoffSeconds: CANCEL_BACKOFF_SECONDS,
});

/** The input of the cancel template: a label selector (`key=value,...`). */
export const CANCEL_SELECTOR_INPUT = 'selector';

/**
 * The bash of the cancel template. Environment: SELECTOR, NAMESPACE, CODERUNS (the resource), SUCCEEDED and
 * FAILED (the finished phases). `kubectl delete` waits until the CodeRuns are gone (their finalizers done),
 * within the template's deadline.
 */
export const CANCEL_CODERUNS_SCRIPT = String.raw`set -euo pipefail
listed="$(kubectl get "$CODERUNS" -n "$NAMESPACE" -l "$SELECTOR" -o json)"
unfinished="$(jq -r --arg succeeded "$SUCCEEDED" --arg failed "$FAILED" \
  '.items[] | select((.status.phase // "") as $phase | $phase != $succeeded and $phase != $failed) | .metadata.name' <<<"$listed")"
if [ -z "$unfinished" ]; then
  echo "no unfinished CodeRun matches $SELECTOR"
  exit 0
fi
mapfile -t names <<<"$unfinished"
kubectl delete "$CODERUNS" -n "$NAMESPACE" --ignore-not-found "${'$'}{names[@]}"
echo "cancelled: ${'$'}{names[*]}"
`;

/** The template that cancels the unfinished CodeRuns of its `selector` input. */
export function cancelCodeRunsTemplate(name: string, helperImage: string): Template {
  return hardenedScript({
    name,
    image: helperImage,
    source: CANCEL_CODERUNS_SCRIPT,
    inputs: { parameters: [{ name: CANCEL_SELECTOR_INPUT }] },
    env: [
      { name: 'SELECTOR', value: inputParameter(CANCEL_SELECTOR_INPUT) },
      { name: 'NAMESPACE', value: WorkflowVariables.namespace },
      { name: 'CODERUNS', value: `${CODERUN_PLURAL}.${CODERUN_GROUP}` },
      { name: 'SUCCEEDED', value: CodeRunPhases.succeeded },
      { name: 'FAILED', value: CodeRunPhases.failed },
    ],
    // hardenedScript sizes maxDuration from the deadline, to CANCEL_CODERUNS_SECONDS.
    retryStrategy: {
      limit: String(CANCEL_RETRIES),
      retryPolicy: 'Always',
      backoff: { duration: `${CANCEL_BACKOFF_SECONDS}s`, factor: 2, maxDuration: `${CANCEL_CODERUNS_SECONDS}s` },
    },
  });
}
