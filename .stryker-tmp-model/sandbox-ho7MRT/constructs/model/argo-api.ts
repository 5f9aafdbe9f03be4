/**
 * The API group and version of every Argo Workflows and Argo Events object we emit (Workflow,
 * WorkflowTemplate, Sensor, EventSource, EventBus all serve `argoproj.io/v1alpha1`).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

export const ARGO_API_VERSION = 'argoproj.io/v1alpha1';

/**
 * The label the workflow controller sets to "true" on a Workflow once it has completed, its exit handler
 * included (argo-workflows `workflow/common/common.go`, `LabelKeyCompleted`): a live play lacks it.
 */
export const ARGO_COMPLETED_LABEL = 'workflows.argoproj.io/completed';
