import { durationSeconds } from '../model/duration';
import type { EnvVar, PodSecurityContext, ScriptTemplate, SecurityContext, Template, Volume, VolumeMount } from './argo-types';
import { boundedRetry } from './retry-policy';

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

export interface HardenedScriptProps {
  readonly name: string;
  readonly image: string;
  /** Bash source. It must not contain `{{`: values reach it only through `env`. */
  readonly source: string;
  /** The values the script reads, as environment variables (these may hold `{{...}}` references). */
  readonly env: readonly EnvVar[];
  readonly inputs?: Template['inputs'];
  /**
   * Retries of the helper itself: the limit, policy and backoff are kept, and maxDuration is sized so that
   * every attempt gets its whole deadline (see `boundedRetry`). @default - no retry
   */
  readonly retryStrategy?: Template['retryStrategy'];
  /** A deadline for the helper. @default HELPER_DEADLINE_SECONDS (300) */
  readonly activeDeadlineSeconds?: number;
}

/**
 * A bash script template that runs hardened: not root, read-only root file system with a scratch `/tmp`,
 * all capabilities dropped, seccomp RuntimeDefault, Argo's executor containers hardened the same way (so the
 * pod is admitted under `restricted` Pod Security), small resource requests and a deadline.
 *
 * @throws when the source contains `{{`, which would let Argo paste a value into the shell text
 */
export function hardenedScript(props: HardenedScriptProps): Template {
  if (props.source.includes('{{')) {
    throw new Error(`script "${props.name}" contains "{{": pass values through env, never inside the script text`);
  }
  const script: ScriptTemplate = {
    image: props.image,
    command: ['bash'],
    source: props.source,
    env: [{ name: 'HOME', value: SCRATCH_MOUNT.mountPath }, ...props.env],
    securityContext: HARDENED_CONTAINER,
    resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    volumeMounts: [SCRATCH_MOUNT],
  };
  const deadline = props.activeDeadlineSeconds ?? HELPER_DEADLINE_SECONDS;
  return {
    name: props.name,
    inputs: props.inputs,
    retryStrategy: props.retryStrategy ? sizedRetry(props.retryStrategy, deadline) : undefined,
    activeDeadlineSeconds: deadline,
    podSpecPatch: EXECUTOR_POD_SPEC_PATCH,
    script,
  };
}

function sizedRetry(strategy: NonNullable<Template['retryStrategy']>, attemptSeconds: number): Template['retryStrategy'] {
  return boundedRetry({
    limit: Number(strategy.limit),
    attemptSeconds,
    backoffSeconds: durationSeconds(strategy.backoff.duration),
    factor: strategy.backoff.factor,
    retryPolicy: strategy.retryPolicy,
  });
}
