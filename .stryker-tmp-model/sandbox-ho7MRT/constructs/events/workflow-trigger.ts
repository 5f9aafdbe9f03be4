// @ts-nocheck
import { ARGO_API_VERSION } from '../model/argo-api';
import { DEFAULT_TRIGGER_RETRIES } from '../model/config-shapes';
import { generateNamePrefix } from '../model/naming';
import type { Trigger, TriggerParameter } from './argo-events-types';

/** What a Sensor trigger that starts a Workflow from a WorkflowTemplate needs. */
export interface WorkflowTriggerProps {
  /** The trigger's name, also the prefix of the Workflows it creates. */
  readonly name: string;
  /** Where the Workflows are created. @default the Sensor's namespace */
  readonly namespace?: string;
  /** The WorkflowTemplate the Workflows run. */
  readonly workflowTemplate: string;
  /** The Workflow's arguments as written; `parameters` fill them in from the event. */
  readonly arguments: readonly { readonly name: string; readonly value: string }[];
  readonly parameters: readonly TriggerParameter[];
  /** Retries of a failed creation. @default DEFAULT_TRIGGER_RETRIES */
  readonly retries?: number;
}

/**
 * A trigger that creates one Workflow of `workflowTemplate` per event (the resumer's and the remediator's
 * Sensors): a k8s `create`, so that the Sensor needs to create Workflows and nothing else; retried with
 * backoff; `atLeastOnce`, so that an event whose trigger failed is delivered again rather than acknowledged
 * (argo-events `pkg/sensors/listener.go`).
 */
export function workflowTrigger(props: WorkflowTriggerProps): Trigger {
  return {
    template: {
      name: props.name,
      k8s: {
        operation: 'create',
        source: {
          resource: {
            apiVersion: ARGO_API_VERSION,
            kind: 'Workflow',
            metadata: { generateName: generateNamePrefix(props.name), namespace: props.namespace },
            spec: { workflowTemplateRef: { name: props.workflowTemplate }, arguments: { parameters: props.arguments } },
          },
        },
        parameters: props.parameters,
      },
    },
    retryStrategy: { steps: props.retries ?? DEFAULT_TRIGGER_RETRIES, duration: '5s', factor: 2, jitter: 0.1 },
    atLeastOnce: true,
  };
}
