// @ts-nocheck
import type { PodSecurityContext, SecurityContext, Volume, VolumeMount } from './argo-types';

/** The user every helper pod runs as: not root, with no shell history or home of its own. */
export const HELPER_USER_ID = 65532;

/** The container security context of every helper: no root, no escalation, no capabilities. */
export const HARDENED_CONTAINER: SecurityContext = {
  runAsNonRoot: true,
  runAsUser: HELPER_USER_ID,
  runAsGroup: HELPER_USER_ID,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

/** The pod security context of every play pod (set once on the workflow spec). */
export const HARDENED_POD: PodSecurityContext = {
  runAsNonRoot: true,
  runAsUser: HELPER_USER_ID,
  runAsGroup: HELPER_USER_ID,
  fsGroup: HELPER_USER_ID,
  seccompProfile: { type: 'RuntimeDefault' },
};

/**
 * The container names Argo gives its own executor containers in a script or container pod: `init` (copies
 * argoexec, stages the script) and `wait` (collects outputs). The controller gives them the controller's
 * `executor.securityContext`, which is empty by default (argo-workflows `workflow/controller/workflowpod.go`,
 * `newExecContainer`; only resource templates get `common.MinimalCtrSC()`), so a namespace that enforces the
 * `restricted` Pod Security level refuses the pod.
 */
export const EXECUTOR_CONTAINERS = { init: 'init', wait: 'wait' } as const;

/**
 * The template `podSpecPatch` that hardens Argo's `init` and `wait` containers. The controller applies the
 * workflow's and then the template's podSpecPatch as a strategic merge patch on the finished pod spec
 * (`workflow/controller/workflowpod.go` `processPodSpecPatch`, `workflow/util/util.go` `ApplyPodSpecPatch`):
 * containers merge by name, so the patch adds only the security context to the two executor containers.
 * It is set on script and container templates only: a resource template's pod has no `wait` container, and a
 * patch naming one would add a container without an image. With the controller's beta `initlessPod` layout
 * (v4.1, off by default) there is no `init` container: set the controller's `executor.securityContext`
 * instead (docs/limits.md).
 */
export const EXECUTOR_POD_SPEC_PATCH = `${JSON.stringify({
  initContainers: [{ name: EXECUTOR_CONTAINERS.init, securityContext: executorContainer() }],
  containers: [{ name: EXECUTOR_CONTAINERS.wait, securityContext: executorContainer() }],
})}\n`;

/**
 * The hardened context without a read-only root file system: the controller leaves `init` and `wait`
 * writable even where it locks resource pods down (`newExecContainer`: "always set RO FS once #10787 is
 * fixed"), and `restricted` does not ask for it.
 */
function executorContainer(): SecurityContext {
  const { readOnlyRootFilesystem: _writable, ...context } = HARDENED_CONTAINER;
  return context;
}

/** A helper's deadline unless it says otherwise, in seconds: room for a slow pull and a few kubectl calls. */
export const HELPER_DEADLINE_SECONDS = 300;

/** A writable scratch folder: the root file system is read-only, and kubectl needs a home for its cache. */
export const SCRATCH_VOLUME: Volume = { name: 'scratch', emptyDir: { sizeLimit: '64Mi' } };
export const SCRATCH_MOUNT: VolumeMount = { name: SCRATCH_VOLUME.name, mountPath: '/tmp' };
