import type { EnvVar, PodSecurityContext, ScriptTemplate, SecurityContext, Template, Volume, VolumeMount } from './argo-types';

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
  /** Bounded retries of the helper itself. */
  readonly retryStrategy?: Template['retryStrategy'];
  /** A deadline for the helper. @default 300 seconds */
  readonly activeDeadlineSeconds?: number;
}

/**
 * A bash script template that runs hardened: not root, read-only root file system with a scratch `/tmp`,
 * all capabilities dropped, seccomp RuntimeDefault, small resource requests and a deadline.
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
  return {
    name: props.name,
    inputs: props.inputs,
    retryStrategy: props.retryStrategy,
    activeDeadlineSeconds: props.activeDeadlineSeconds ?? 300,
    script,
  };
}
