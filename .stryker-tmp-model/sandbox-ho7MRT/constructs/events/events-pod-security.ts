/**
 * The pod template every Sensor and EventSource gets, so that their Deployments are admitted in a
 * namespace that enforces the `restricted` Pod Security Standard. Argo Events builds those pods from
 * `spec.template` (argo-events `pkg/reconciler/sensor/resource.go` and
 * `pkg/reconciler/eventsource/resource.go`): `template.securityContext` becomes the pod's, and
 * `template.container.securityContext` the main container's. Both reconcilers mount an emptyDir at /tmp,
 * and the image (`scratch` plus one static binary, argo-events `Dockerfile`) writes nowhere else, so the
 * root file system can be read-only. The image has no USER, so the user id is set here.
 */
// @ts-nocheck

import type { EventsPodTemplate } from './argo-events-types';

/** The uid Argo Events' own install manifests run the controller as. */
export const EVENTS_USER_ID = 9731;

export function restrictedEventsPodTemplate(serviceAccountName?: string): EventsPodTemplate {
  return {
    ...(serviceAccountName === undefined ? {} : { serviceAccountName }),
    securityContext: {
      runAsNonRoot: true,
      runAsUser: EVENTS_USER_ID,
      runAsGroup: EVENTS_USER_ID,
      fsGroup: EVENTS_USER_ID,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    container: {
      securityContext: {
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      },
    },
  };
}
