/**
 * Runs the runtime steps of the synthesized WorkflowTemplates, as Argo would run their pods: the template's
 * container names the step (`node runtime.cjs STEP`), its environment is the template's `env` with Argo's
 * simple references filled in (`{{workflow.name}}`, `{{workflow.parameters.X}}`, `{{inputs.parameters.X}}`,
 * `{{workflow.outputs.parameters.X}}` of an earlier step's global outputs, ...), and the step talks to the in-memory API with the grants of its Workflow's service account. So the
 * simulator runs what was generated, the step code the pods run included, and a template that passes a step
 * the wrong value, or a Role that lacks a grant, shows in a scenario.
 */
// @ts-nocheck

import type { StepContext, AnyRuntimeStep } from '../../constructs/runtime/runtime-step';
import { StepFailure } from '../../constructs/runtime/runtime-step';
import { ApiError } from '../../constructs/runtime/kube-api';
import { StepEnvError } from '../../constructs/runtime/step-env';
import { RUNTIME_STEPS } from '../../runtime/steps';
import { UnsupportedFeatureError } from './engine/unsupported';
import type { MemoryApiServer } from './memory-api';
import { roleAuthorizer } from './role-authorizer';

/** The values Argo fills into a template of a Workflow. */
export interface WorkflowScope {
  readonly name: string;
  readonly namespace: string;
  readonly uid: string;
  readonly parameters: Readonly<Record<string, string>>;
  /** The global output parameters set so far (`{{workflow.outputs.parameters.X}}`), by name. */
  readonly outputs?: Readonly<Record<string, string>>;
  /** `{{workflow.status}}`, in an exit handler. */
  readonly status?: string;
}

/** What a step did. */
export interface StepRun {
  readonly step: string;
  readonly outputs: Readonly<Record<string, string>>;
  /** Its log lines, then its failure, if it failed. */
  readonly log: readonly string[];
  /** Why it failed, after every attempt its retry strategy allows. */
  readonly failure?: string;
}

/** The simulated clock and what waiting does: the controllers move while a step waits. */
export interface SimulatedTime {
  now(): Date;
  /** Waits: the clock advances, then the model runs what the wait let happen. */
  sleep(milliseconds: number): Promise<void>;
}

const REFERENCE = /\{\{([^{}]*)\}\}/g;

/** `value` with every Argo reference filled in. @throws UnsupportedFeatureError for one the simulator does not know */
export function fillReferences(value: string, workflow: WorkflowScope, inputs: Readonly<Record<string, string>>, where: string): string {
  return value.replace(REFERENCE, (whole, inner: string) => {
    const reference = inner.trim();
    const known: Record<string, string | undefined> = {
      'workflow.name': workflow.name,
      'workflow.namespace': workflow.namespace,
      'workflow.uid': workflow.uid,
      'workflow.status': workflow.status,
    };
    if (reference in known && known[reference] !== undefined) return known[reference] as string;
    const parameter = /^workflow\.parameters\.(.+)$/.exec(reference)?.[1];
    if (parameter !== undefined && parameter in workflow.parameters) return workflow.parameters[parameter];
    const output = /^workflow\.outputs\.parameters\.(.+)$/.exec(reference)?.[1];
    if (output !== undefined && workflow.outputs !== undefined && output in workflow.outputs) return workflow.outputs[output];
    const input = /^inputs\.parameters\.(.+)$/.exec(reference)?.[1];
    if (input !== undefined && input in inputs) return inputs[input];
    throw new UnsupportedFeatureError(`${where}: the simulator cannot fill ${whole}`);
  });
}

/** Runs runtime steps of one synthesized platform. */
export class StepRunner {
  private readonly templates = new Map<string, Record<string, any>>();

  public constructor(
    private readonly objects: readonly Record<string, any>[],
    private readonly server: MemoryApiServer,
    private readonly time: SimulatedTime,
    private readonly steps: readonly AnyRuntimeStep[] = RUNTIME_STEPS,
  ) {
    for (const object of objects) if (object.kind === 'WorkflowTemplate') this.templates.set(object.metadata.name, object);
  }

  /** The synthesized WorkflowTemplate of that name. @throws UnsupportedFeatureError when there is none */
  public workflowTemplate(name: string): Record<string, any> {
    const template = this.templates.get(name);
    if (template === undefined) throw new UnsupportedFeatureError(`the platform has no WorkflowTemplate ${name}`);
    return template;
  }

  /**
   * A step's outputs under their global names (`outputs.parameters[].globalName` of its template), as Argo
   * adds them to the Workflow's outputs when the step succeeds.
   */
  public globalOutputs(workflowTemplate: string, template: string, outputs: Readonly<Record<string, string>>): Record<string, string> {
    const definition = (this.workflowTemplate(workflowTemplate).spec.templates ?? []).find((candidate: any) => candidate.name === template);
    const globals: Record<string, string> = {};
    for (const parameter of definition?.outputs?.parameters ?? [])
      if (typeof parameter.globalName === 'string' && parameter.name in outputs) globals[parameter.globalName] = outputs[parameter.name];
    return globals;
  }

  /** Whether the WorkflowTemplate has a template of that name. */
  public hasTemplate(workflowTemplate: string, template: string): boolean {
    return (this.templates.get(workflowTemplate)?.spec?.templates ?? []).some((candidate: any) => candidate.name === template);
  }

  /** Runs the runtime step of `template` in `workflowTemplate` for a Workflow, with its inputs. */
  public async run(
    workflowTemplate: string,
    template: string,
    workflow: WorkflowScope,
    inputs: Readonly<Record<string, string>> = {},
  ): Promise<StepRun> {
    const owner = this.workflowTemplate(workflowTemplate);
    const where = `${workflowTemplate}/${template}`;
    const definition = (owner.spec.templates ?? []).find((candidate: any) => candidate.name === template);
    const command: unknown = definition?.container?.command;
    const stepName = Array.isArray(command) && command[0] === 'node' ? command[2] : undefined;
    const step = this.steps.find((candidate) => candidate.name === stepName);
    if (step === undefined) throw new UnsupportedFeatureError(`${where} is not a runtime step the simulator knows`);
    const environment = Object.fromEntries(
      (definition.container.env ?? []).map((variable: any) => [
        variable.name,
        fillReferences(String(variable.value ?? ''), workflow, inputs, where),
      ]),
    );
    const attempts = 1 + Number(definition.retryStrategy?.limit ?? 0);
    const api = this.server.client(roleAuthorizer(this.objects, owner.spec.serviceAccountName, workflow.namespace));
    const log: string[] = [];
    const context: StepContext = { api, now: () => this.time.now(), sleep: (ms) => this.time.sleep(ms), log: (line) => log.push(line) };
    let values: unknown;
    try {
      values = step.env.read(environment);
    } catch (error) {
      if (error instanceof StepEnvError) return { step: step.name, outputs: {}, log, failure: `${where}: ${error.message}` };
      throw error;
    }
    let failure = '';
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        const outputs = await step.run(context, values as never);
        return { step: step.name, outputs, log };
      } catch (error) {
        if (!(error instanceof StepFailure || error instanceof ApiError)) throw error;
        failure = error.message;
        log.push(`attempt ${attempt} of ${attempts} failed: ${failure}`);
      }
    }
    return { step: step.name, outputs: {}, log, failure };
  }
}
