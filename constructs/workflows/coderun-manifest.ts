import { CODERUN_API_VERSION, CODERUN_KIND, CodeRunPhases, type CodeRunSpec } from '../model/coderun-schema';
import { CodeRunLabels, WorkflowTypes } from '../model/labels';
import { PlayParameters } from '../model/play-contract';
import type { RetryStrategy, Template } from './argo-types';

/**
 * An Argo reference (`{{workflow.parameters.task-id}}`) that stands for a number or a boolean in a CodeRun
 * spec. In the manifest text it is written bare, so that once Argo substitutes it, the CodeRun gets a
 * number where the CRD wants a number.
 */
export class ArgoReference {
  public constructor(public readonly expression: string) {
    if (!/^\{\{[^{}]+\}\}$/.test(expression)) throw new Error(`"${expression}" is not an Argo reference such as {{inputs.parameters.task-id}}`);
  }
}

type Referable<T> = { [K in keyof T]: T[K] extends number | boolean | undefined ? T[K] | ArgoReference : T[K] extends object | undefined ? Referable<T[K]> : T[K] };

/** A CodeRun spec in which numbers and booleans may be Argo references. */
export type CodeRunSpecTemplate = Referable<CodeRunSpec>;

export interface CodeRunManifestProps {
  /** The spec; strings may hold Argo references, numbers and booleans may be `ArgoReference`s. */
  readonly spec: CodeRunSpecTemplate;
  /** The stage the run belongs to (a label on the CodeRun). */
  readonly stage: string;
  /** Prefix of the generated name (Kubernetes appends 5 characters). */
  readonly generateName: string;
}

/**
 * The CodeRun manifest as the text of a resource template. JSON is YAML, and JSON string escaping keeps
 * every value a single scalar, so no value can change the manifest's structure.
 */
export function codeRunManifest(props: CodeRunManifestProps): string {
  const references: string[] = [];
  const manifest = {
    apiVersion: CODERUN_API_VERSION,
    kind: CODERUN_KIND,
    metadata: {
      generateName: props.generateName,
      labels: {
        [CodeRunLabels.taskId]: `{{workflow.parameters.${PlayParameters.taskId}}}`,
        [CodeRunLabels.service]: props.spec.service,
        [CodeRunLabels.githubApp]: props.spec.githubApp,
        [CodeRunLabels.workflowName]: '{{workflow.name}}',
        [CodeRunLabels.stage]: props.stage,
        [CodeRunLabels.workflowType]: WorkflowTypes.coderun,
      },
    },
    spec: props.spec,
  };
  const text = JSON.stringify(
    manifest,
    (_key, value: unknown) => {
      if (!(value instanceof ArgoReference)) return value;
      references.push(value.expression);
      return `\u0000${references.length - 1}\u0000`;
    },
    2,
  );
  return `${text.replace(/"\\u0000(\d+)\\u0000"/g, (_match, index: string) => references[Number(index)])}\n`;
}

export interface CodeRunTemplateProps extends CodeRunManifestProps {
  /** The template's name. */
  readonly name: string;
  /** How long one attempt may run, in seconds. */
  readonly timeoutSeconds: number;
  /** How many times a failed or lost run is retried with a fresh CodeRun. */
  readonly retries: number;
  readonly inputs?: Template['inputs'];
}

/**
 * A resource template that creates a CodeRun owned by the workflow and waits until its `status.phase` is
 * Succeeded or Failed. A retry creates a fresh CodeRun (the name is generated), bounded by `retries` and a
 * backoff capped below the attempt deadline.
 */
export function codeRunTemplate(props: CodeRunTemplateProps): Template {
  return {
    name: props.name,
    inputs: props.inputs,
    activeDeadlineSeconds: props.timeoutSeconds,
    retryStrategy: agentRetryStrategy(props.retries),
    resource: {
      action: 'create',
      setOwnerReference: true,
      successCondition: `status.phase == ${CodeRunPhases.succeeded}`,
      failureCondition: `status.phase == ${CodeRunPhases.failed}`,
      manifest: codeRunManifest(props),
    },
    outputs: { parameters: [{ name: 'coderun-name', valueFrom: { jsonPath: '{.metadata.name}' } }] },
  };
}

function agentRetryStrategy(retries: number): RetryStrategy {
  return { limit: String(retries), retryPolicy: 'Always', backoff: { duration: '1m', factor: 2, maxDuration: '30m' } };
}
