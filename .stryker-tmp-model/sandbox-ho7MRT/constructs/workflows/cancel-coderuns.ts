/**
 * The template that cancels CodeRuns (the runtime step `cancel-coderuns`): run by each attempt of an agent
 * stage before it creates its own CodeRun, and by a play's exit handler unless the play succeeded.
 */
// @ts-nocheck

import { inputParameter, WorkflowVariables } from '../model/argo-expressions';
import { runtimeStepTemplate } from '../runtime/runtime-step-template';
import type { Template } from './argo-types';
import { cancelCodeRunsStep } from './cancel-coderuns-step';
import { HELPER_DEADLINE_SECONDS } from './hardened-pod';
import { retryBudgetSeconds } from './retry-policy';

const CANCEL_RETRIES = 2;
const CANCEL_BACKOFF_SECONDS = 10;

/** How long one attempt waits for the deleted CodeRuns to be gone: the attempt's deadline, less room to start. */
const CANCEL_WAIT_SECONDS = HELPER_DEADLINE_SECONDS - 60;

/** The longest the cancel step takes, retries included: an agent attempt's budget counts it. */
export const CANCEL_CODERUNS_SECONDS = retryBudgetSeconds({
  limit: CANCEL_RETRIES,
  attemptSeconds: HELPER_DEADLINE_SECONDS,
  backoffSeconds: CANCEL_BACKOFF_SECONDS,
});

/** The input of the cancel template: a label selector (`key=value,...`). */
export const CANCEL_SELECTOR_INPUT = 'selector';

/** The template that cancels the unfinished CodeRuns of its `selector` input. */
export function cancelCodeRunsTemplate(name: string, runtimeImage: string): Template {
  return runtimeStepTemplate({
    name,
    step: cancelCodeRunsStep,
    image: runtimeImage,
    inputs: { parameters: [{ name: CANCEL_SELECTOR_INPUT }] },
    env: {
      namespace: WorkflowVariables.namespace,
      selector: inputParameter(CANCEL_SELECTOR_INPUT),
      timeoutSeconds: String(CANCEL_WAIT_SECONDS),
    },
    retry: { limit: CANCEL_RETRIES, backoffSeconds: CANCEL_BACKOFF_SECONDS },
    outputs: false,
  });
}
