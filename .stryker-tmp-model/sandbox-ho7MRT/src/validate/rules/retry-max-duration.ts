/**
 * A retry that can never happen. Argo counts `backoff.maxDuration` from the start of the first attempt and
 * gives up on a retry whose backoff would end past it; the same deadline cuts the pods of later attempts
 * (argo-workflows `workflow/controller/operator.go`, `processNodeRetries`, v3.7.9 and v4.1.2). So when
 * maxDuration is shorter than one attempt's `activeDeadlineSeconds` plus the first backoff, an attempt that
 * ran to its deadline is never retried, and a retry that does start is killed before its own deadline.
 * Without a `limit` Argo retries until maxDuration runs out (`processNodeRetries` caps retries only when
 * limit is set), so a missing limit is checked like any limit of one or more.
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { isArgoDuration } from './go-duration';
import { hasPlaceholder, isRecord, pathOf, templatesOf, workflowSpecOf, WORKFLOW_KINDS } from './argo-spec';

const UNIT_SECONDS: Readonly<Record<string, number>> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** Seconds in a duration as Argo's `ParseStringToDuration` reads it (bare integer = seconds), or undefined. */
export function argoDurationSeconds(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !isArgoDuration(text)) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  let seconds = 0;
  for (const [, amount, unit] of text.replace(/^[-+]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/g))
    seconds += Number(amount) * UNIT_SECONDS[unit];
  return text.startsWith('-') ? -seconds : seconds;
}

/** A whole number of seconds, as Argo takes `activeDeadlineSeconds` (an int or a numeric string). */
export function deadlineSeconds(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

export const retryMaxDurationRule: LintRule = {
  id: 'retry-max-duration',
  severity: 'warning',
  description: 'backoff.maxDuration leaves room for a retry after an attempt that ran to its activeDeadlineSeconds',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    return templatesOf(workflow).flatMap(({ template, name, at }): Violation[] => {
      const retry = template.retryStrategy;
      const unlimited = isRecord(retry) && (retry.limit === undefined || retry.limit === null);
      if (!isRecord(retry) || !isRecord(retry.backoff) || hasPlaceholder(retry.limit) || (!unlimited && Number(retry.limit) < 1)) return [];
      const maxDuration = argoDurationSeconds(retry.backoff.maxDuration);
      const deadline = deadlineSeconds(template.activeDeadlineSeconds);
      if (maxDuration === undefined || deadline === undefined) return [];
      const backoff = argoDurationSeconds(retry.backoff.duration) ?? 0;
      if (maxDuration >= deadline + backoff) return [];
      const path = pathOf(at, 'retryStrategy', 'backoff', 'maxDuration');
      const counted = "Argo counts maxDuration from the first attempt's start, image pull included";
      const fix = unlimited
        ? `raise it to at least ${2 * deadline + backoff}s for one retry at its full deadline (without a limit Argo retries until maxDuration runs out)`
        : `raise it to at least ${(Number(retry.limit) + 1) * deadline + backoff}s for ${Number(retry.limit)} retries at their full deadline, or drop it and let limit and activeDeadlineSeconds bound the retries`;
      const why =
        maxDuration < deadline
          ? `an attempt that runs longer than ${retry.backoff.maxDuration} is never retried, and a retry is killed at ${retry.backoff.maxDuration}`
          : `after an attempt that runs to its ${deadline}s deadline and a ${backoff}s backoff, no retry can start`;
      return [
        {
          path,
          message: `template "${name}": maxDuration ${retry.backoff.maxDuration} is shorter than activeDeadlineSeconds ${deadline}s plus the backoff: ${why} (${counted}); ${fix}`,
        },
      ];
    });
  },
};
