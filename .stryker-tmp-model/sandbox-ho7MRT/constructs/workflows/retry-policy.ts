/**
 * Retries that mean what they say. Argo's `backoff.maxDuration` is counted from the start of the FIRST
 * attempt, image pull included, and the same deadline is handed to every retry's pod as its execution
 * deadline (argo-workflows `workflow/controller/operator.go`, `processNodeRetries`: `maxDurationDeadline =
 * firstChildNode.StartedAt + maxDuration`, "Backoff would exceed max duration limit", `opts.executionDeadline
 * = maxDurationDeadline`; the same in v3.7.9 and v4.1.2). A maxDuration shorter than one attempt's deadline
 * therefore means "never retry an attempt that ran long, and kill a retry early". Here the maxDuration is
 * sized from the attempt deadline, the number of attempts and the backoff, so every allowed attempt gets its
 * whole deadline.
 */
// @ts-nocheck

import type { RetryStrategy } from './argo-types';

/**
 * Seconds every pod's deadline allows for pulling its image on a slow or cold node: Kubernetes counts a pod's
 * `activeDeadlineSeconds` from the moment the kubelet accepts it, before the pull.
 */
export const IMAGE_PULL_ALLOWANCE_SECONDS = 300;

/** Seconds for the controller to notice a finished attempt and schedule the next (its requeue and resync). */
const CONTROLLER_LAG_SECONDS = 60;

export interface BoundedRetryProps {
  /** Retries after the first attempt; `0` is no retry (Argo's `limit: 0`). */
  readonly limit: number;
  /** The longest one attempt may take, in seconds (its deadline, pulls included). */
  readonly attemptSeconds: number;
  /** The wait before the first retry, in seconds; each later wait is `factor` times the one before. */
  readonly backoffSeconds: number;
  /** @default 2 */
  readonly factor?: number;
  /** @default Always */
  readonly retryPolicy?: RetryStrategy['retryPolicy'];
}

/** The seconds of every backoff wait: `backoffSeconds`, then `factor` times more before each later retry. */
function backoffWaitsSeconds(props: BoundedRetryProps): number {
  const factor = props.factor ?? 2;
  let waits = 0;
  for (let retry = 0; retry < props.limit; retry += 1) waits += props.backoffSeconds * factor ** retry;
  return waits;
}

/** The seconds all attempts need at most: each attempt's deadline, every backoff wait, and the controller's lag. */
export function retryBudgetSeconds(props: BoundedRetryProps): number {
  return (props.limit + 1) * (props.attemptSeconds + CONTROLLER_LAG_SECONDS) + backoffWaitsSeconds(props);
}

/**
 * A retry strategy whose maxDuration covers every attempt it allows, each to its full deadline.
 *
 * @throws when a number is negative or not whole
 */
export function boundedRetry(props: BoundedRetryProps): RetryStrategy {
  for (const [name, value] of Object.entries({
    limit: props.limit,
    attemptSeconds: props.attemptSeconds,
    backoffSeconds: props.backoffSeconds,
  })) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`retry ${name} must be a whole number of at least 0, got ${value}`);
  }
  return {
    limit: String(props.limit),
    retryPolicy: props.retryPolicy ?? 'Always',
    backoff: { duration: `${props.backoffSeconds}s`, factor: props.factor ?? 2, maxDuration: `${retryBudgetSeconds(props)}s` },
  };
}

/**
 * A retry strategy whose attempts share one deadline: maxDuration is one attempt's deadline plus the
 * backoffs, so a retry after a lost pod gets only what is left of it (the controller hands the remaining
 * time to the retry's pod as its deadline). For waiting steps, where a retry must not extend the wait.
 */
export function sharedDeadlineRetry(props: BoundedRetryProps): RetryStrategy {
  const strategy = boundedRetry(props);
  const maxDuration = retryBudgetSeconds({ ...props, limit: 0 }) + backoffWaitsSeconds(props);
  return { ...strategy, backoff: { ...strategy.backoff, maxDuration: `${maxDuration}s` } };
}
