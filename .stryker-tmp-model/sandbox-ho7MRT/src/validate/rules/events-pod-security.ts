/**
 * Sensor and EventSource pods under the `restricted` Pod Security Standard. Argo Events builds their
 * Deployments from `spec.template` (argo-events `pkg/reconciler/sensor/resource.go`,
 * `pkg/reconciler/eventsource/resource.go`) and adds no security context of its own, so in a namespace
 * that enforces `restricted` the pods are refused unless the template sets one.
 */
// @ts-nocheck

import { fieldPath, type LintRule, type Violation } from '../finding';
import { isRecord, listOf } from './argo-spec';
import { presentPath } from './present-path';

/** What `restricted` requires, as [path under spec.template, holds?, what to set]. */
function problems(template: Record<string, any>): [string, string][] {
  const pod = isRecord(template.securityContext) ? template.securityContext : {};
  const container = isRecord(template.container) && isRecord(template.container.securityContext) ? template.container.securityContext : {};
  const seccomp = (context: Record<string, any>) =>
    isRecord(context.seccompProfile) && ['RuntimeDefault', 'Localhost'].includes(context.seccompProfile.type);
  const found: [string, string][] = [];
  // A container's own setting overrides the pod's, a false runAsNonRoot or an Unconfined profile included.
  if ((container.runAsNonRoot ?? pod.runAsNonRoot) !== true)
    found.push(['securityContext.runAsNonRoot', 'runAsNonRoot: true (pod or container)']);
  if (!seccomp(container.seccompProfile === undefined ? pod : container))
    found.push(['securityContext.seccompProfile', 'seccompProfile.type: RuntimeDefault (pod or container)']);
  if (container.allowPrivilegeEscalation !== false)
    found.push(['container.securityContext.allowPrivilegeEscalation', 'container.securityContext.allowPrivilegeEscalation: false']);
  if (!listOf(isRecord(container.capabilities) ? container.capabilities.drop : undefined).includes('ALL'))
    found.push(['container.securityContext.capabilities.drop', 'container.securityContext.capabilities.drop: [ALL]']);
  if (container.privileged === true) found.push(['container.securityContext.privileged', 'container.securityContext.privileged: false']);
  return found;
}

export const eventsPodSecurityRule: LintRule = {
  id: 'events-pod-security',
  severity: 'warning',
  description:
    'Sensor and EventSource pods meet the restricted Pod Security Standard (spec.template security contexts), or a namespace enforcing it refuses them',
  kinds: ['Sensor', 'EventSource'],
  check: (target): Violation[] => {
    const spec = isRecord(target.object.spec) ? target.object.spec : {};
    const template = isRecord(spec.template) ? spec.template : {};
    const missing = problems(template);
    if (missing.length === 0) return [];
    return [
      {
        path: fieldPath(...presentPath(target.object, ['spec', 'template', ...missing[0][0].split('.')])),
        message: `the ${target.kind} pod is refused where the restricted Pod Security Standard is enforced: set ${missing.map(([, what]) => what).join(', ')} under spec.template`,
      },
    ];
  },
};
