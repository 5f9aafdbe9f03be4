/**
 * A resource template that creates (or applies) an object and waits on it in the same step, through
 * `successCondition`/`failureCondition`, for longer than an hour. The step's one `argoexec resource` pod runs
 * the action and then polls the object until a condition holds (argo-workflows
 * `cmd/argoexec/commands/resource.go`: `ExecResource` then `WaitResource`, `workflow/executor/resource.go`), so
 * the pod lives as long as the object it watches. When that pod is lost (an eviction, a node drain), the step
 * fails while the object keeps running.
 *
 * A retryStrategy does not save a `create`: the retry runs the whole step again, and `kubectl create` of the
 * same name fails with AlreadyExists (with `generateName` it makes a second object). An `apply` is idempotent,
 * so a retried apply re-applies the same manifest and waits again: an apply is reported only without a
 * retryStrategy (the template's or the workflow's). The fix is two steps: create the object, then a resource
 * `get` with the conditions and a retryStrategy, which a lost pod only restarts.
 *
 * How long the wait may last is the template's `activeDeadlineSeconds`, else the workflow's. Only a wait that
 * may last more than an hour is reported: a pod that lives for hours or days (a chunk Workflow, an agent run)
 * will meet a node drain, while a Job of minutes rarely does and costs minutes to run again. A wait with no
 * deadline at all is not reported, since nothing says how long it lasts; Argo's own examples wait for short
 * Jobs that way (`examples/k8s-jobs.yaml`).
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { isRecord, pathOf, templatesOf, workflowSpecOf, WORKFLOW_KINDS, type Json, type TemplateAt } from './argo-spec';
import { deadlineSeconds } from './retry-max-duration';

const CONDITIONS = ['successCondition', 'failureCondition'] as const;

/** A wait longer than this may meet a node drain or an eviction: one hour. */
export const LONG_WAIT_SECONDS = 3600;

const present = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

function waitViolation({ template, name, at }: TemplateAt, spec: Json): Violation[] {
  const resource = template.resource;
  if (!isRecord(resource) || !CONDITIONS.some((condition) => present(resource[condition]))) return [];
  const deadline = deadlineSeconds(template.activeDeadlineSeconds ?? spec.activeDeadlineSeconds);
  if (deadline === undefined || deadline <= LONG_WAIT_SECONDS) return [];
  const retried = isRecord(spec.retryStrategy) || isRecord(template.retryStrategy);
  if (resource.action === 'create')
    return [
      {
        path: pathOf(at, 'resource', 'action'),
        message: `resource template "${name}" creates its object and waits up to ${deadline}s for its condition in the same pod: that one argoexec pod watches the object for its whole life (workflow/executor/resource.go, WaitResource), and a lost pod (eviction, node drain) fails the step while the object keeps running; a retry does not help (it creates again: AlreadyExists, or a second object with generateName). Create in one step, then wait with a resource get that has the conditions and a retryStrategy`,
      },
    ];
  if (resource.action === 'apply' && !retried)
    return [
      {
        path: pathOf(at, 'resource', 'action'),
        message: `resource template "${name}" applies its object and waits up to ${deadline}s for its condition in the same pod, with no retryStrategy: a lost pod (eviction, node drain) fails the step while the object keeps running (workflow/executor/resource.go, WaitResource); add a retryStrategy (a retried apply re-applies the same manifest and waits again), or apply, then wait with a retried resource get`,
      },
    ];
  return [];
}

export const resourceCreateWaitRule: LintRule = {
  id: 'resource-create-wait',
  severity: 'warning',
  description:
    'a resource create (or an apply without retries) does not wait over an hour for successCondition/failureCondition in the same step: one lost pod fails it',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    return templatesOf(workflow).flatMap((template) => waitViolation(template, workflow.spec));
  },
};
