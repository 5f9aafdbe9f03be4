/**
 * The Argo template that runs one runtime step: a container of the runtime image that runs
 * `node /agent-play/runtime.cjs STEP` from the runtime ConfigMap, with the step's environment (written by the
 * step's own definition) and its outputs read from the files the program writes. Hardened like every helper:
 * not root, read-only root file system with a scratch `/tmp`, no capabilities, Argo's executor containers
 * hardened too, so the pod is admitted under `restricted` Pod Security.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { Template } from '../workflows/argo-types';
import { EXECUTOR_POD_SPEC_PATCH, HARDENED_CONTAINER, HELPER_DEADLINE_SECONDS, SCRATCH_MOUNT } from '../workflows/hardened-pod';
import { boundedRetry } from '../workflows/retry-policy';
import { runtimeConfigMapName } from './runtime-config-map-name';
import { outputPath, RUNTIME_FILE, RUNTIME_MOUNT_PATH } from './runtime-layout';
import type { EnvFields, EnvTemplateValues } from './step-env';
import type { RuntimeStep } from './runtime-step';

/** The volume of the runtime ConfigMap, declared by each template that runs a step. */
export const RUNTIME_VOLUME_NAME = 'agent-play-runtime';

/** How a failed step is retried: attempts after the first, and the first backoff. */
export interface StepRetry {
  readonly limit: number;
  readonly backoffSeconds: number;
}

/** What a runtime step's template takes. */
export interface RuntimeStepTemplateProps<F extends EnvFields, O extends string> {
  /** The template's name. */
  readonly name: string;
  readonly step: RuntimeStep<F, O>;
  /** The value of each of the step's variables: literal text or Argo references. */
  readonly env: EnvTemplateValues<F>;
  /** The runtime image (Node.js 20 or later), pinned. */
  readonly image: string;
  readonly inputs?: Template['inputs'];
  /** Retries of the step itself; each attempt gets its whole deadline (`boundedRetry`). @default - no retry */
  readonly retry?: StepRetry;
  /** One attempt's deadline. @default HELPER_DEADLINE_SECONDS (300) */
  readonly activeDeadlineSeconds?: number;
  /** Whether the outputs are declared as the template's output parameters. @default true */
  readonly outputs?: boolean;
}

/** The template that runs `props.step` (see the module comment). */
export function runtimeStepTemplate<F extends EnvFields, O extends string>(props: RuntimeStepTemplateProps<F, O>): Template {
  const deadline = props.activeDeadlineSeconds ?? HELPER_DEADLINE_SECONDS;
  const outputs = props.outputs === false || props.step.outputs.length === 0 ? undefined : props.step.outputs;
  return {
    name: props.name,
    inputs: props.inputs,
    ...(outputs ? { outputs: { parameters: outputs.map((name) => ({ name, valueFrom: { path: outputPath(name) } })) } } : {}),
    retryStrategy: props.retry
      ? boundedRetry({ limit: props.retry.limit, attemptSeconds: deadline, backoffSeconds: props.retry.backoffSeconds })
      : undefined,
    activeDeadlineSeconds: deadline,
    podSpecPatch: EXECUTOR_POD_SPEC_PATCH,
    volumes: [{ name: RUNTIME_VOLUME_NAME, configMap: { name: runtimeConfigMapName() } }],
    container: {
      image: props.image,
      command: ['node', `${RUNTIME_MOUNT_PATH}/${RUNTIME_FILE}`, props.step.name],
      env: [{ name: 'HOME', value: SCRATCH_MOUNT.mountPath }, ...props.step.env.vars(props.env)],
      securityContext: HARDENED_CONTAINER,
      resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
      volumeMounts: [SCRATCH_MOUNT, { name: RUNTIME_VOLUME_NAME, mountPath: RUNTIME_MOUNT_PATH, readOnly: true }],
    },
  };
}
