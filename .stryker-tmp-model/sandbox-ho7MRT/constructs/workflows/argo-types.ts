/**
 * The part of the Argo Workflows v1alpha1 API that our templates use, typed. Field names and shapes follow
 * the upstream CRDs; the tests validate every object built from these types against those CRDs with
 * unknown fields rejected, so a field that is not Argo's cannot slip in.
 */
// @ts-nocheck


/** An Argo parameter: of a Workflow, a template input or output, or a task argument. */
export interface Parameter {
  readonly name: string;
  /** On an output: also a global output of the Workflow, `{{workflow.outputs.parameters.GLOBAL}}`. */
  readonly globalName?: string;
  readonly value?: string;
  readonly default?: string;
  readonly enum?: readonly string[];
  readonly description?: string;
  readonly valueFrom?: {
    readonly jsonPath?: string;
    /** On steps and DAG templates: the value of a reference such as {{steps.x.outputs.parameters.y}}. */
    readonly parameter?: string;
    readonly path?: string;
    readonly supplied?: Record<string, never>;
    readonly default?: string;
  };
}

/** The arguments of a Workflow, a DAG task or a step. */
export interface Arguments {
  readonly parameters?: readonly Parameter[];
}

/** The inputs a template declares. */
export interface Inputs {
  readonly parameters?: readonly Parameter[];
}

/** The outputs a template declares. */
export interface Outputs {
  readonly parameters?: readonly Parameter[];
}

/** How long to wait between retries of a template. */
export interface Backoff {
  /** Seconds or a Go duration; the wait before the first retry. */
  readonly duration: string;
  readonly factor: number;
  readonly maxDuration: string;
}

/** In Argo `limit: 0` means no retry at all; we always state a limit and a bounded backoff. */
export interface RetryStrategy {
  readonly limit: string;
  readonly retryPolicy: 'Always' | 'OnFailure' | 'OnError' | 'OnTransientError';
  readonly backoff: Backoff;
}

/** An environment variable of a container: a value, or a reference to a field or a Secret key. */
export interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: {
    readonly fieldRef?: { readonly fieldPath: string };
    readonly secretKeyRef?: { readonly name: string; readonly key: string };
  };
}

/** A container's security context. */
export interface SecurityContext {
  readonly runAsNonRoot?: boolean;
  readonly runAsUser?: number;
  readonly runAsGroup?: number;
  readonly allowPrivilegeEscalation?: boolean;
  readonly readOnlyRootFilesystem?: boolean;
  readonly capabilities?: { readonly drop: readonly string[] };
  readonly seccompProfile?: { readonly type: 'RuntimeDefault' };
}

/** A pod's security context. */
export interface PodSecurityContext {
  readonly runAsNonRoot?: boolean;
  readonly runAsUser?: number;
  readonly runAsGroup?: number;
  readonly fsGroup?: number;
  readonly seccompProfile?: { readonly type: 'RuntimeDefault' };
}

/** The resources a container requests and its limits. */
export interface ResourceRequirements {
  readonly requests?: Readonly<Record<string, string>>;
  readonly limits?: Readonly<Record<string, string>>;
}

/** Where a container mounts a volume. */
export interface VolumeMount {
  readonly name: string;
  readonly mountPath: string;
  readonly readOnly?: boolean;
}

/** A volume of the Workflow pods. */
export interface Volume {
  readonly name: string;
  readonly emptyDir?: { readonly medium?: string; readonly sizeLimit?: string };
  readonly persistentVolumeClaim?: { readonly claimName: string; readonly readOnly?: boolean };
  readonly configMap?: { readonly name: string; readonly items?: readonly { readonly key: string; readonly path: string }[] };
  readonly secret?: { readonly secretName: string; readonly defaultMode?: number };
}

/** The `script` of a template: an image and the source it runs. */
export interface ScriptTemplate {
  readonly image: string;
  readonly command: readonly string[];
  readonly source: string;
  /** The folder the script starts in. @default - the image's */
  readonly workingDir?: string;
  readonly env?: readonly EnvVar[];
  readonly securityContext?: SecurityContext;
  readonly resources?: ResourceRequirements;
  readonly volumeMounts?: readonly VolumeMount[];
}

/** The `container` of a template. */
export interface ContainerTemplate {
  readonly image: string;
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly env?: readonly EnvVar[];
  readonly securityContext?: SecurityContext;
  readonly resources?: ResourceRequirements;
  readonly volumeMounts?: readonly VolumeMount[];
}

/** The `resource` of a template: a Kubernetes object it creates, patches or waits on. */
export interface ResourceTemplate {
  readonly action: 'get' | 'create' | 'apply' | 'delete' | 'replace' | 'patch';
  readonly manifest?: string;
  readonly mergeStrategy?: 'strategic' | 'merge' | 'json';
  readonly flags?: readonly string[];
  readonly setOwnerReference?: boolean;
  readonly successCondition?: string;
  readonly failureCondition?: string;
}

/** A task of a DAG template. */
export interface DagTask {
  readonly name: string;
  readonly template?: string;
  readonly templateRef?: { readonly name: string; readonly template: string };
  readonly arguments?: Arguments;
  readonly depends?: string;
  readonly when?: string;
}

/** A step of a steps template. */
export interface WorkflowStep {
  readonly name: string;
  /** A template of this WorkflowTemplate; or set `templateRef`. */
  readonly template?: string;
  /** A template of another WorkflowTemplate. */
  readonly templateRef?: { readonly name: string; readonly template: string };
  readonly arguments?: Arguments;
  readonly when?: string;
  /** Go on when this step fails (or errors); the step's `status` tells the next steps what happened. */
  readonly continueOn?: { readonly failed?: boolean; readonly error?: boolean };
}

/** An Argo template: a DAG, steps, a script, a container, a resource or a suspend. */
export interface Template {
  readonly name: string;
  readonly inputs?: Inputs;
  readonly outputs?: Outputs;
  readonly metadata?: { readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> };
  readonly dag?: { readonly tasks: readonly DagTask[] };
  /** How many of a steps or DAG template's children run at once. Only on steps and dag. */
  readonly parallelism?: number;
  readonly steps?: readonly (readonly WorkflowStep[])[];
  readonly script?: ScriptTemplate;
  readonly container?: ContainerTemplate;
  readonly resource?: ResourceTemplate;
  readonly suspend?: { readonly duration?: string };
  readonly retryStrategy?: RetryStrategy;
  /** Only on leaf templates (Argo rejects it on dag and steps). */
  readonly activeDeadlineSeconds?: number;
  readonly volumes?: readonly Volume[];
  /** The pod's security context, over the workflow's. Only on leaf templates that run a pod. */
  readonly securityContext?: PodSecurityContext;
  /** A strategic merge patch (JSON or YAML text) applied to the pod spec after the controller builds it. */
  readonly podSpecPatch?: string;
  /** Argo's mutexes and semaphores: the template runs only while it holds them. */
  readonly synchronization?: Synchronization;
  /** Whether the pod's containers get the service account's token. @default - the workflow's, else true */
  readonly automountServiceAccountToken?: boolean;
  /** The service account of Argo's own executor containers (init, wait), when the pod's main container gets no token. */
  readonly executor?: { readonly serviceAccountName: string };
}

/** `synchronization` of a template or workflow (v3.6+ `mutexes`, a list). */
export interface Synchronization {
  readonly mutexes?: readonly { readonly name: string }[];
}

/** The labels and annotations every Workflow made from the template gets. */
export interface WorkflowMetadata {
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly labelsFrom?: Readonly<Record<string, { readonly expression: string }>>;
}

/** The spec of a Workflow or WorkflowTemplate. */
export interface WorkflowSpec {
  readonly entrypoint?: string;
  readonly onExit?: string;
  readonly serviceAccountName?: string;
  readonly arguments?: Arguments;
  readonly templates?: readonly Template[];
  readonly workflowMetadata?: WorkflowMetadata;
  readonly workflowTemplateRef?: { readonly name: string };
  /** How many pods of the whole workflow run at once. */
  readonly parallelism?: number;
  readonly activeDeadlineSeconds?: number;
  readonly ttlStrategy?: {
    readonly secondsAfterCompletion?: number;
    readonly secondsAfterSuccess?: number;
    readonly secondsAfterFailure?: number;
  };
  readonly podGC?: {
    readonly strategy: 'OnPodCompletion' | 'OnPodSuccess' | 'OnWorkflowCompletion' | 'OnWorkflowSuccess';
    readonly deleteDelayDuration?: string;
  };
  readonly securityContext?: PodSecurityContext;
  readonly volumes?: readonly Volume[];
}
