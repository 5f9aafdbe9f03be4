// @ts-nocheck
import { argoExpression, inputParameter, RETRIES, stepOutput, workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import { CODERUN_API_VERSION, CODERUN_KIND, CodeRunPhases, type CodeRunSpec } from '../model/coderun-schema';
import { CodeRunLabels, WorkflowTypes } from '../model/labels';
import { agentAttemptTemplateNames, CODERUN_ATTEMPT_INPUT, CODERUN_NAME_OUTPUT, PlayParameters } from '../model/play-contract';
import type { Template } from './argo-types';
import { CANCEL_CODERUNS_SECONDS, CANCEL_SELECTOR_INPUT } from './cancel-coderuns';
import { boundedRetry, IMAGE_PULL_ALLOWANCE_SECONDS, sharedDeadlineRetry } from './retry-policy';

/**
 * A value of a CodeRun spec that Argo computes when it runs the template: an expr-lang expression whose
 * result Argo writes JSON-encoded into the manifest (argo-workflows `util/template/expression_template.go`
 * marshals the result), so a number stays a number and no value can add a field.
 */
export class ArgoValue {
  /** A whole number from a reference such as `{{workflow.parameters.task-id}}`: anything else fails the step. */
  public static int(reference: string): ArgoValue {
    return new ArgoValue(`asInt(${referenceExpression(reference)})`);
  }

  /** A number from a reference: anything that does not parse as one fails the step. */
  public static float(reference: string): ArgoValue {
    return new ArgoValue(`asFloat(${referenceExpression(reference)})`);
  }

  /** A boolean from a reference whose value is `true` or `false`. */
  public static bool(reference: string): ArgoValue {
    return new ArgoValue(`${referenceExpression(reference)} == 'true'`);
  }

  /** Any expr-lang expression, e.g. `asInt(inputs.parameters['attempt']) + 1`. */
  public static expression(expression: string): ArgoValue {
    return new ArgoValue(expression);
  }

  private constructor(
    /** The expr-lang expression, without the `{{=` `}}` around it. */
    public readonly expression: string,
  ) {}

  /** The tag Argo replaces. */
  public get tag(): string {
    return argoExpression(this.expression);
  }
}

const REFERENCE = /^\{\{([A-Za-z][\w.-]*)\}\}$/;
const IDENTIFIER = /^[A-Za-z_]\w*$/;

/**
 * The expr-lang form of a simple Argo reference: `{{workflow.parameters.task-id}}` is
 * `workflow.parameters['task-id']` (names with `-` need the index form).
 *
 * @throws when the text is not one reference
 */
export function referenceExpression(reference: string): string {
  const match = REFERENCE.exec(reference);
  if (!match) throw new Error(`"${reference}" is not one Argo reference such as {{inputs.parameters.task-id}}`);
  const [first, ...rest] = match[1].split('.');
  return rest.reduce((expression, part) => (IDENTIFIER.test(part) ? `${expression}.${part}` : `${expression}['${part}']`), first);
}

/** A value, or (for numbers, booleans and objects) one Argo computes: an object from JSON, say. */
type Computed<T> = {
  [K in keyof T]: T[K] extends number | boolean | undefined
    ? T[K] | ArgoValue
    : T[K] extends object | undefined
      ? Computed<T[K]> | ArgoValue
      : T[K];
};

/** A CodeRun spec in which numbers and booleans may be computed by Argo. */
export type CodeRunSpecTemplate = Computed<CodeRunSpec>;

/** What `codeRunManifest` takes: the CodeRun's name, labels and spec, with Argo expressions where values come from parameters. */
export interface CodeRunManifestProps {
  /**
   * The spec. A string is either literal text or exactly one Argo reference (`{{workflow.parameters.x}}`),
   * which Argo writes JSON-quoted; numbers and booleans may be `ArgoValue`s.
   */
  readonly spec: CodeRunSpecTemplate;
  /** The stage the run belongs to (a label on the CodeRun): literal, or one Argo reference. */
  readonly stage: string;
  /** Prefix of the generated name (Kubernetes appends 5 characters): literal, or computed by Argo. */
  readonly generateName: string | ArgoValue;
  /** The remediation round (a `round` label on the CodeRun): literal, or one Argo reference. @default - no label */
  readonly round?: string;
}

/** The labels that say which play run, stage and agent a CodeRun belongs to; a new attempt cancels by them. */
function ownerLabels(stage: string, githubApp: string): Record<string, string> {
  return {
    [CodeRunLabels.workflowUid]: WorkflowVariables.uid,
    [CodeRunLabels.stage]: stage,
    [CodeRunLabels.githubApp]: githubApp,
  };
}

/** A label selector `key=value,...`; values here are literal or references Argo fills with label-safe text. */
export function labelSelector(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/**
 * The CodeRun manifest as the text of a resource template. Every value is JSON-encoded: literal text at
 * synth time, references by Argo at run time (`{{=toJson(...)}}`), numbers and booleans by `asInt`,
 * `asFloat` and comparisons; so no parameter value (a task id, a model name) can change the manifest's
 * structure.
 *
 * @throws when a string mixes text and `{{...}}`, which could not be encoded safely
 */
export function codeRunManifest(props: CodeRunManifestProps): string {
  const tags: string[] = [];
  const manifest = {
    apiVersion: CODERUN_API_VERSION,
    kind: CODERUN_KIND,
    metadata: {
      generateName: props.generateName,
      labels: {
        [CodeRunLabels.taskId]: workflowParameter(PlayParameters.taskId),
        [CodeRunLabels.service]: props.spec.service,
        [CodeRunLabels.workflowName]: WorkflowVariables.name,
        [CodeRunLabels.workflowType]: WorkflowTypes.coderun,
        ...ownerLabels(props.stage, props.spec.githubApp),
        ...(props.round === undefined ? {} : { [CodeRunLabels.round]: props.round }),
      },
    },
    spec: props.spec,
  };
  const placeholder = (tag: string): string => {
    tags.push(tag);
    return `\u0000${tags.length - 1}\u0000`;
  };
  const text = JSON.stringify(
    manifest,
    (_key, value: unknown) => {
      if (value instanceof ArgoValue) return placeholder(value.tag);
      if (typeof value === 'string' && value.includes('{{')) return placeholder(argoExpression(`toJson(${referenceExpression(value)})`));
      return value;
    },
    2,
  );
  return `${text.replace(/"\\u0000(\d+)\\u0000"/g, (_match, index: string) => tags[Number(index)])}\n`;
}

/** What the templates that create a CodeRun and wait for it take. */
export interface CodeRunTemplateProps extends CodeRunManifestProps {
  /** The name of the attempt's steps template; its parts are named from it (`agentAttemptTemplateNames`). */
  readonly name: string;
  /** How long the agent may work in one attempt, in seconds (the wait step's deadline, pulls aside). */
  readonly timeoutSeconds: number;
  /** How many times a failed or lost attempt is retried, each with a fresh CodeRun. */
  readonly retries: number;
  /** Inputs the create template declares, beyond the attempt. @default - none */
  readonly inputs?: Template['inputs'];
  /** Argo synchronization of the whole stage (e.g. a mutex on a shared workspace). @default - none */
  readonly synchronization?: Template['synchronization'];
  /** The template (of the same WorkflowTemplate) that cancels unfinished CodeRuns: `cancelCodeRunsTemplate`. */
  readonly cancelTemplate: string;
}

/** The deadline of the create step: a kubectl call after a possibly slow pull. */
const RESOURCE_STEP_SECONDS = 60 + IMAGE_PULL_ALLOWANCE_SECONDS;
/** The wait before the next attempt of an agent stage. */
const AGENT_BACKOFF_SECONDS = 60;
/**
 * Re-waits on the same CodeRun after the waiting pod itself was lost. Policy Always: an evicted pod is
 * Failed, not Error (argo-workflows `workflow/controller/operator.go`, `inferFailedReason` takes the pod's
 * message), so OnError would start a whole new attempt instead; a CodeRun that failed is read again twice,
 * quickly, before the attempt fails.
 */
const WAIT_RETRIES = 2;
const WAIT_BACKOFF_SECONDS = 10;

/**
 * The run of one agent in a stage, one CodeRun per attempt:
 *
 * 1. `cancel`: delete the unfinished CodeRuns a previous attempt of this stage and agent left (same play run
 *    by `workflow-uid`, same stage, same GitHub App), and wait until they are gone;
 * 2. `create`: create this attempt's CodeRun (owned by the Workflow) with `contextVersion` = the attempt
 *    number (Argo's `{{retries}}` + 1, valid in the template that carries the retryStrategy);
 * 3. `wait`: read it until `status.phase` is Succeeded or Failed (resource `get` with conditions). A lost
 *    waiting pod is retried on the same CodeRun within the same deadline; it never creates a second one.
 *
 * The retryStrategy sits on the steps template, so a failed, timed-out or lost attempt runs all three
 * again; its maxDuration covers every attempt at its full deadline (`boundedRetry`).
 */
export function codeRunTemplates(props: CodeRunTemplateProps): Template[] {
  const names = agentAttemptTemplateNames(props.name);
  const labels = ownerLabels(props.stage, props.spec.githubApp);
  const waitSeconds = props.timeoutSeconds + IMAGE_PULL_ALLOWANCE_SECONDS;
  const waitRetry = sharedDeadlineRetry({
    limit: WAIT_RETRIES,
    attemptSeconds: waitSeconds,
    backoffSeconds: WAIT_BACKOFF_SECONDS,
    retryPolicy: 'Always',
  });
  const attemptSeconds = CANCEL_CODERUNS_SECONDS + RESOURCE_STEP_SECONDS + Number.parseInt(waitRetry.backoff.maxDuration, 10);
  const attempt: Template = {
    name: props.name,
    inputs: props.inputs,
    retryStrategy: boundedRetry({ limit: props.retries, attemptSeconds, backoffSeconds: AGENT_BACKOFF_SECONDS }),
    synchronization: props.synchronization,
    steps: [
      [
        {
          name: 'cancel',
          template: props.cancelTemplate,
          arguments: { parameters: [{ name: CANCEL_SELECTOR_INPUT, value: labelSelector(labels) }] },
        },
      ],
      [{ name: 'create', template: names.create, arguments: { parameters: [{ name: CODERUN_ATTEMPT_INPUT, value: RETRIES }] } }],
      [
        {
          name: 'wait',
          template: names.wait,
          arguments: { parameters: [{ name: CODERUN_NAME_OUTPUT, value: stepOutput('create', CODERUN_NAME_OUTPUT) }] },
        },
      ],
    ],
    outputs: { parameters: [{ name: CODERUN_NAME_OUTPUT, valueFrom: { parameter: stepOutput('create', CODERUN_NAME_OUTPUT) } }] },
  };
  const spec = { ...props.spec, contextVersion: ArgoValue.expression(`asInt(inputs.parameters['${CODERUN_ATTEMPT_INPUT}']) + 1`) };
  const create: Template = {
    name: names.create,
    inputs: { parameters: [{ name: CODERUN_ATTEMPT_INPUT }] },
    activeDeadlineSeconds: RESOURCE_STEP_SECONDS,
    resource: { action: 'create', setOwnerReference: true, manifest: codeRunManifest({ ...props, spec }) },
    outputs: { parameters: [{ name: CODERUN_NAME_OUTPUT, valueFrom: { jsonPath: '{.metadata.name}' } }] },
  };
  const wait: Template = {
    name: names.wait,
    inputs: { parameters: [{ name: CODERUN_NAME_OUTPUT }] },
    activeDeadlineSeconds: waitSeconds,
    retryStrategy: waitRetry,
    resource: {
      action: 'get',
      successCondition: `status.phase == ${CodeRunPhases.succeeded}`,
      failureCondition: `status.phase == ${CodeRunPhases.failed}`,
      manifest: `${JSON.stringify({ apiVersion: CODERUN_API_VERSION, kind: CODERUN_KIND, metadata: { name: inputParameter(CODERUN_NAME_OUTPUT) } }, null, 2)}\n`,
    },
  };
  return [attempt, create, wait];
}

/** The selector of every CodeRun of this play run: the exit handler cancels those still working. */
export const PLAY_RUN_CODERUNS = labelSelector({ [CodeRunLabels.workflowUid]: WorkflowVariables.uid });
