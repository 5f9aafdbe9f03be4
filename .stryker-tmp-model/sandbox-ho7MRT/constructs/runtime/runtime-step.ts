/**
 * A runtime step: one action of the platform's runtime protocol (enter a stage, check a gate, resume a gate,
 * decide a remediation, ...), run in a pod by the runtime program (`runtime/main.ts`), in the simulator
 * against an in-memory API, and in the tests against fakes that answer with any status code.
 *
 * Pure: no cdk8s, no I/O. Everything a step does to the world goes through its `StepContext`.
 */
// @ts-nocheck

import type { KubeApi } from './kube-api';
import type { EnvFields, EnvValues, StepEnv } from './step-env';

/** What a step may use: the API, the clock, a way to wait, and a log. */
export interface StepContext {
  readonly api: KubeApi;
  /** The current time. */
  now(): Date;
  /** Waits `milliseconds` (in the simulator, the controllers move meanwhile). */
  sleep(milliseconds: number): Promise<void>;
  /** One line for the step's log. */
  log(line: string): void;
}

/** A step's outputs: Argo output parameters, by name. */
export type StepOutputs<O extends string> = { readonly [K in O]: string };

/** One step of the runtime program. */
export interface RuntimeStep<F extends EnvFields, O extends string = never> {
  /** The step's name: the runtime program's argument, e.g. `node runtime.cjs gate-check`. */
  readonly name: string;
  /** What the step does, for the program's usage text. */
  readonly description: string;
  /** Its environment, which the template writes and the step reads. */
  readonly env: StepEnv<F>;
  /** The names of its outputs (each becomes an Argo output parameter read from a file). */
  readonly outputs: readonly O[];
  run(context: StepContext, env: EnvValues<F>): Promise<StepOutputs<O>>;
}

/** A step of any environment and outputs, as registries hold them. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds steps of every environment
export type AnyRuntimeStep = RuntimeStep<any, string>;

/**
 * A step failed for a reason worth one line (a permission missing, a deadline passed, an object that is not
 * what it should be): the runtime program prints the message and exits 1, without a stack trace.
 */
export class StepFailure extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'StepFailure';
  }
}

/** Declares a step, so that its types are inferred from its environment and outputs. */
export function runtimeStep<F extends EnvFields, O extends string = never>(step: RuntimeStep<F, O>): RuntimeStep<F, O> {
  return step;
}
