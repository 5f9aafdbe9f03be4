/**
 * A pod that mounts a PersistentVolumeClaim without a deadline of its own. An agent's workspace claim is
 * ReadWriteOnce and the play guards it with a mutex, so a stuck agent pod without `activeDeadlineSeconds`
 * keeps the claim, and every other play of the repository waiting on the mutex, until the workflow's own
 * deadline: days for a play. The template's deadline becomes the pod's (argo-workflows
 * `workflow/controller/workflowpod.go`: `tmpl.ActiveDeadlineSeconds`, bounded by the workflow's deadline), and
 * the pod's volumes are the workflow's that it mounts plus the template's own (same file, `tmpl.Volumes`).
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { isRecord, listOf, pathOf, templatesOf, workflowSpecOf, WORKFLOW_KINDS, type Json } from './argo-spec';

/** The template types whose pod runs a container the template describes. */
const POD_TYPES = ['container', 'script', 'containerSet'] as const;

/** The names of the volumes a template's containers mount. */
function mountedNames(template: Json): Set<string> {
  const containers = [template.container, template.script, ...listOf(template.containerSet?.containers)].filter(isRecord);
  return new Set(
    containers.flatMap((container) => listOf(container.volumeMounts).flatMap((mount) => (isRecord(mount) ? [mount.name] : []))),
  );
}

/** The claims the pod mounts: the template's own PVC volumes and the workflow's that its containers mount. */
function mountedClaims(template: Json, workflowVolumes: readonly unknown[]): string[] {
  const mounted = mountedNames(template);
  return [...listOf(template.volumes), ...workflowVolumes]
    .filter((volume): volume is Json => isRecord(volume) && isRecord(volume.persistentVolumeClaim) && mounted.has(volume.name))
    .map((volume) => String(volume.persistentVolumeClaim.claimName));
}

export const claimPodDeadlineRule: LintRule = {
  id: 'claim-pod-deadline',
  severity: 'warning',
  description: 'a container, script or containerSet pod that mounts a PersistentVolumeClaim sets activeDeadlineSeconds',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    const workflowVolumes = listOf(workflow.spec.volumes);
    return templatesOf(workflow).flatMap(({ template, name, at }): Violation[] => {
      if (!POD_TYPES.some((type) => isRecord(template[type]))) return [];
      if (template.activeDeadlineSeconds !== undefined && template.activeDeadlineSeconds !== null) return [];
      const claims = mountedClaims(template, workflowVolumes);
      if (claims.length === 0) return [];
      return [
        {
          path: pathOf(at),
          message: `template "${name}": its pod mounts the claim ${claims.map((claim) => `"${claim}"`).join(', ')} but has no activeDeadlineSeconds: a stuck pod holds the ReadWriteOnce claim (and any mutex around it) until the workflow's own deadline; set activeDeadlineSeconds to the longest one attempt may run`,
        },
      ];
    });
  },
};
