/**
 * The part of the Argo Events v1alpha1 API (Sensor, EventSource) that our constructs emit, typed. The tests
 * validate every object built from these types against the upstream Argo Events JSON Schema.
 */
// @ts-nocheck


/** A data filter of a Sensor dependency: the event passes when the value at `path` matches. */
export interface DataFilter {
  readonly path: string;
  readonly type: 'string' | 'bool' | 'number';
  readonly value: readonly string[];
  readonly comparator?: '=' | '!=';
}

/** An expression filter of a Sensor dependency (govaluate), over named event fields. */
export interface ExprFilter {
  readonly expr: string;
  readonly fields: readonly { readonly name: string; readonly path: string }[];
}

/** A Sensor dependency: the events of one EventSource it waits for, and their filters. */
export interface EventDependency {
  readonly name: string;
  readonly eventSourceName: string;
  readonly eventName: string;
  readonly filters?: {
    readonly data?: readonly DataFilter[];
    readonly exprs?: readonly ExprFilter[];
    /** `or`: the expressions are alternatives, one must hold. @default and */
    readonly exprLogicalOperator?: 'and' | 'or';
  };
}

/** A trigger parameter: a value from the event written into the trigger's resource at `dest`. */
export interface TriggerParameter {
  readonly src: {
    readonly dependencyName: string;
    readonly dataKey?: string;
    readonly dataTemplate?: string;
    readonly value?: string;
  };
  readonly dest: string;
}

/** A Kubernetes object trigger: creates (or patches) an object built from the event. */
export interface K8sTrigger {
  readonly operation: 'create' | 'update' | 'patch' | 'delete';
  readonly source: { readonly resource: Record<string, unknown> };
  readonly parameters?: readonly TriggerParameter[];
  readonly patchStrategy?: 'application/merge-patch+json';
}

/** An Argo Workflow trigger: submits or resumes a Workflow. */
export interface ArgoWorkflowTrigger {
  readonly operation: 'submit' | 'resume';
  readonly source: { readonly resource: Record<string, unknown> };
  readonly parameters?: readonly TriggerParameter[];
  readonly args?: readonly string[];
}

/** How a failed trigger is retried. */
export interface TriggerBackoff {
  readonly steps: number;
  readonly duration: string;
  readonly factor: number;
  readonly jitter: number;
}

/** A Sensor trigger: what it does when its dependencies are met. */
export interface Trigger {
  readonly template: {
    readonly name: string;
    readonly conditions?: string;
    readonly k8s?: K8sTrigger;
    readonly argoWorkflow?: ArgoWorkflowTrigger;
  };
  readonly retryStrategy?: TriggerBackoff;
  /**
   * Wait for the trigger to succeed before acknowledging the event. Without it the trigger runs in a
   * goroutine and `retryStrategy` is never used (argo-events `pkg/sensors/listener.go`, `triggerActions`).
   */
  readonly atLeastOnce?: boolean;
}

/** What our Sensors and EventSources set of their pods (`spec.template`). */
export interface EventsPodTemplate {
  readonly serviceAccountName?: string;
  readonly securityContext: Record<string, unknown>;
  readonly container: { readonly securityContext: Record<string, unknown> };
}

/** The spec of a Sensor. */
export interface SensorSpec {
  readonly eventBusName: string;
  readonly template: EventsPodTemplate;
  readonly dependencies: readonly EventDependency[];
  readonly triggers: readonly Trigger[];
}
