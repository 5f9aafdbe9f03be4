/**
 * The runtime program: `node runtime.cjs STEP`, run in the platform's pods from the runtime ConfigMap. It
 * reads the step's environment, runs the step against the API server with the pod's service account, and
 * writes each output to its file for Argo to read. A step's failure is one line on stderr and exit code 1;
 * a mistake in the step's environment (the template's) is exit code 2.
 */
// @ts-nocheck

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StepFailure, type AnyRuntimeStep, type StepContext } from '../constructs/runtime/runtime-step';
import { StepEnvError } from '../constructs/runtime/step-env';
import { OUTPUT_DIRECTORY_VARIABLE, RUNTIME_OUTPUT_DIRECTORY } from '../constructs/runtime/runtime-layout';
import { ApiError, type KubeApi } from '../constructs/runtime/kube-api';
import { InClusterApi, inClusterOptions } from './in-cluster-api';
import { RUNTIME_STEPS } from './steps';

/** The usage text: every step and what it does. */
export function usage(steps: readonly AnyRuntimeStep[]): string {
  const width = Math.max(...steps.map((step) => step.name.length));
  return `usage: node runtime.cjs STEP\n\nsteps:\n${steps.map((step) => `  ${step.name.padEnd(width)}  ${step.description}`).join('\n')}\n`;
}

/** Writes each output to its own file, each whole or not at all. */
export function writeOutputs(directory: string, outputs: Readonly<Record<string, string>>): void {
  mkdirSync(directory, { recursive: true });
  for (const [name, value] of Object.entries(outputs)) {
    const path = join(directory, name);
    writeFileSync(`${path}.partial`, value);
    renameSync(`${path}.partial`, path);
  }
}

/** What the program needs from its process, so that a test can give it another. */
export interface ProgramIo {
  readonly argv: readonly string[];
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly api: () => KubeApi;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly now?: () => Date;
  readonly sleep?: (milliseconds: number) => Promise<void>;
}

/** Runs the program; resolves to its exit code. */
export async function runProgram(io: ProgramIo, steps: readonly AnyRuntimeStep[] = RUNTIME_STEPS): Promise<number> {
  const [name, ...rest] = io.argv;
  const step = steps.find((candidate) => candidate.name === name);
  if (step === undefined || rest.length > 0) {
    io.err(name === undefined || name === '--help' ? usage(steps) : `unknown step "${[name, ...rest].join(' ')}"\n${usage(steps)}`);
    return name === '--help' ? 0 : 2;
  }
  let values: ReturnType<typeof step.env.read>;
  try {
    values = step.env.read(io.environment);
  } catch (error) {
    if (!(error instanceof StepEnvError)) throw error;
    io.err(`${step.name}: ${error.message}`);
    return 2;
  }
  let api: KubeApi;
  try {
    api = io.api();
  } catch (error) {
    // No service account mounted, or not in a pod: the cause in one line, not a stack.
    io.err(`${step.name}: cannot make the API client: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const context: StepContext = {
    api,
    now: io.now ?? (() => new Date()),
    sleep: io.sleep ?? ((milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds))),
    log: io.out,
  };
  try {
    const outputs = await step.run(context, values);
    writeOutputs(io.environment[OUTPUT_DIRECTORY_VARIABLE] ?? RUNTIME_OUTPUT_DIRECTORY, outputs);
    return 0;
  } catch (error) {
    if (error instanceof StepFailure || error instanceof ApiError) {
      io.err(`${step.name}: ${error.message}`);
      return 1;
    }
    io.err(`${step.name}: unexpected failure: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}

/* c8 ignore start: the process itself, run by the runtime bundle's tests */
// Stryker disable all: the process entry, never run in the tests' own process (the bundle's tests run it)
if (require.main === module) {
  runProgram({
    argv: process.argv.slice(2),
    environment: process.env,
    api: () => new InClusterApi(inClusterOptions(process.env)),
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(line.endsWith('\n') ? line : `${line}\n`),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`unexpected failure: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
// Stryker restore all
/* c8 ignore stop */
