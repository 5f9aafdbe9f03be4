/**
 * A trigger's `retryStrategy` works only with `atLeastOnce: true`. Without it the Sensor runs the trigger
 * in a goroutine and reports success at once, so the retry loop never sees a failure; a failed create or
 * resume is logged and the event is gone (argo-events `pkg/sensors/listener.go`, `triggerActions`).
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { isRecord, pathOf } from './argo-spec';
import { triggersOf } from './sensor-spec';

export const sensorTriggerAtLeastOnceRule: LintRule = {
  id: 'sensor-trigger-at-least-once',
  severity: 'warning',
  description: 'a trigger with a retryStrategy sets atLeastOnce: true, or Argo Events never retries it and drops the event on failure',
  kinds: ['Sensor'],
  check: (target) =>
    triggersOf(target).flatMap(({ trigger, name, at }): Violation[] =>
      isRecord(trigger.retryStrategy) && trigger.atLeastOnce !== true
        ? [
            {
              path: pathOf(at, 'atLeastOnce'),
              message: `trigger "${name}" has a retryStrategy but no atLeastOnce: true, so it is never retried and a failure loses the event`,
            },
          ]
        : [],
    ),
};
