/**
 * Whether the Argo Workflows controller runs a failed node again, read from its template's `retryStrategy` the
 * way the controller reads it (argo-workflows v4.0.5 `workflow/controller/operator.go`, `processNodeRetries`):
 *
 * - no retryStrategy: never;
 * - the policy (`RetryPolicyActual`, `pkg/apis/workflow/v1alpha1/workflow_types.go`: `OnFailure` when unset)
 *   says which phase of the last child is retried: `Always` both, `OnFailure` a Failed one, `OnError` an Error
 *   one, `OnTransientError` only one whose message is a transient API error (`util/errors/errors.go`), which no
 *   failure the simulator models is (an evicted pod, a failed CodeRun);
 * - `limit` is the number of retries: after the n-th failed child, the node is retried while n <= limit
 *   (no limit: always).
 *
 * Time is not modelled (backoff, maxDuration): a scenario's retries come long before any deadline. A retry
 * `expression` is not evaluated: the simulator refuses it rather than guess.
 */
import { UnsupportedFeatureError } from './engine/unsupported';

/** The phase Argo gives a node that did not succeed: Failed (the program failed, the pod was evicted) or Error. */
export type FailedPhase = 'Failed' | 'Error';

interface RetryStrategyFields {
  readonly limit?: string | number;
  readonly retryPolicy?: string;
  readonly expression?: string;
}

/**
 * Whether the node of `template` is run again after its `failures`-th child ended `phase`.
 * @param where names the template for an error
 * @throws UnsupportedFeatureError on a retry expression, an unknown policy or a limit that is no whole number
 */
export function retriedAfter(
  template: { readonly retryStrategy?: RetryStrategyFields },
  failures: number,
  phase: FailedPhase,
  where: string,
): boolean {
  const strategy = template.retryStrategy;
  if (strategy === undefined) return false;
  if (strategy.expression !== undefined && strategy.expression !== '')
    throw new UnsupportedFeatureError(`${where}: a retryStrategy expression is not simulated`);
  if (!policyRetries(strategy.retryPolicy ?? 'OnFailure', phase, where)) return false;
  const limit = retryLimit(strategy.limit, where);
  return limit === undefined || failures <= limit;
}

function policyRetries(policy: string, phase: FailedPhase, where: string): boolean {
  switch (policy) {
    case 'Always':
      return true;
    case 'OnFailure':
      return phase === 'Failed';
    case 'OnError':
      return phase === 'Error';
    case 'OnTransientError':
      return false;
    default:
      throw new UnsupportedFeatureError(`${where}: retryPolicy ${policy} is not one Argo knows`);
  }
}

function retryLimit(limit: string | number | undefined, where: string): number | undefined {
  if (limit === undefined) return undefined;
  const value = typeof limit === 'number' ? limit : /^\d+$/.test(limit) ? Number(limit) : Number.NaN;
  if (!Number.isInteger(value) || value < 0)
    throw new UnsupportedFeatureError(`${where}: retryStrategy.limit ${JSON.stringify(limit)} is not a whole number`);
  return value;
}
