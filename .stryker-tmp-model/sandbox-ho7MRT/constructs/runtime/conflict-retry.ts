/**
 * How a runtime step retries a read-modify-write that lost a race, and how it words the API errors it does
 * not retry. A 409 on a write that carried the resourceVersion it read means someone wrote in between: read
 * again and redo it. A 403 is never a race: the step's service account lacks a grant, and the step says so.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { ApiError, HttpStatus, isConflict } from './kube-api';
import { StepFailure, type StepContext } from './runtime-step';

/** Attempts of a read-modify-write before the step gives up. */
export const CONFLICT_ATTEMPTS = 5;

/** The wait before attempt `attempt + 1` (1 s, 2 s, 4 s, 8 s). */
export function backoffMilliseconds(attempt: number): number {
  return 1000 * 2 ** (attempt - 1);
}

/**
 * Runs `attempt` until it does not fail with a conflict, at most `CONFLICT_ATTEMPTS` times, backing off
 * between tries. Any other error is passed on at once, worded by `explainApiError`.
 *
 * @throws StepFailure when every attempt conflicted, or for a 403
 */
export async function retryOnConflict<T>(context: StepContext, what: string, attempt: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConflict(error)) throw explainApiError(error, what);
      if (tried >= CONFLICT_ATTEMPTS)
        throw new StepFailure(`${what}: the object changed under every one of ${CONFLICT_ATTEMPTS} attempts (409 Conflict); giving up`);
      context.log(`${what}: the object changed meanwhile (409 Conflict); reading it again`);
      await context.sleep(backoffMilliseconds(tried));
    }
  }
}

/**
 * An API error as one line that says what was being done and what the server answered; a 403 also says that
 * the service account lacks the grant (never "changed meanwhile"). Other errors pass through unchanged.
 */
export function explainApiError(error: unknown, what: string): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.status === HttpStatus.forbidden)
    return new StepFailure(`${what}: forbidden (403): the step's service account lacks this grant: ${error.message}`);
  return new StepFailure(`${what}: ${error.status} ${error.reason}: ${error.message}`);
}
