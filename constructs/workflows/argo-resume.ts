import { WorkflowVariables } from '../model/argo-expressions';
import { gateNodeSelector } from '../model/play-contract';
import type { Template } from './argo-types';
import { EXECUTOR_POD_SPEC_PATCH, HARDENED_CONTAINER, SCRATCH_MOUNT } from './hardened-script';
import { boundedRetry } from './retry-policy';

export interface ArgoResumeTemplateProps {
  readonly name: string;
  /** The Argo CLI image, the controller's version. */
  readonly argoImage: string;
  /** The Workflow to resume (may be a `{{...}}` expression). */
  readonly workflow: string;
  /** The gate whose suspend node is released (may be a `{{...}}` expression). */
  readonly gate: string;
  readonly inputs?: Template['inputs'];
}

/**
 * `argo resume` of one gate: the node selector matches only the active suspend node whose `stage` input
 * is the gate (argo-workflows `workflow/util/util.go`, `updateSuspendedNode`). Retried for a short while:
 * the node may not be stored yet when the pod starts, and a conflicting update is retried by the CLI.
 */
/** One `argo resume` attempt: the CLI answers in seconds; the rest is room for pulling its image. */
const RESUME_ATTEMPT_SECONDS = 120;

export function argoResumeTemplate(props: ArgoResumeTemplateProps): Template {
  return {
    name: props.name,
    inputs: props.inputs,
    activeDeadlineSeconds: RESUME_ATTEMPT_SECONDS,
    // Argo's init and wait containers get no security context of their own (restricted Pod Security).
    podSpecPatch: EXECUTOR_POD_SPEC_PATCH,
    retryStrategy: boundedRetry({ limit: 6, attemptSeconds: RESUME_ATTEMPT_SECONDS, backoffSeconds: 5 }),
    container: {
      image: props.argoImage,
      // Named, so the kubelet need not ask the registry for the image's entrypoint (the CLI image's is `argo`).
      command: ['argo'],
      args: ['resume', props.workflow, '--namespace', WorkflowVariables.namespace, '--node-field-selector', gateNodeSelector(props.gate)],
      // The CLI may keep a cache in its home; the root file system is read-only.
      env: [{ name: 'HOME', value: SCRATCH_MOUNT.mountPath }],
      volumeMounts: [SCRATCH_MOUNT],
      securityContext: HARDENED_CONTAINER,
      resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    },
  };
}
