/**
 * The runtime program's own behaviour (`runProgram`, given its process as an argument): usage, exit codes
 * (0 done or --help, 1 a step failure in one line, 2 a mistake in the arguments or the step's environment),
 * the context it gives a step, and the outputs written each to its own file.
 */
// @ts-nocheck

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../constructs/runtime/kube-api';
import { OUTPUT_DIRECTORY_VARIABLE, outputPath, RUNTIME_OUTPUT_DIRECTORY } from '../../constructs/runtime/runtime-layout';
import { type AnyRuntimeStep, runtimeStep, StepFailure } from '../../constructs/runtime/runtime-step';
import { StepEnv, text } from '../../constructs/runtime/step-env';
import { InClusterApi, inClusterOptions } from '../../runtime/in-cluster-api';
import { type ProgramIo, runProgram, usage, writeOutputs } from '../../runtime/main';
import { RUNTIME_STEPS } from '../../runtime/steps';
import { MemoryApiServer } from '../../src/simulate/memory-api';
import { useScratchDirs } from '../support/scratch-dir';

const scratch = useScratchDirs('runtime-main-');

interface Run {
  readonly code: number;
  readonly out: string[];
  readonly err: string[];
  readonly apis: number;
}

async function run(
  argv: string[],
  environment: Record<string, string> = {},
  steps?: readonly AnyRuntimeStep[],
  io: Partial<ProgramIo> = {},
): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  let apis = 0;
  const code = await runProgram(
    {
      argv,
      environment,
      api: () => {
        apis += 1;
        return new MemoryApiServer().client();
      },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      ...io,
    },
    steps,
  );
  return { code, out, err, apis };
}

/** A step that does what `behave` says with its context. */
function probe(behave: (context: Parameters<AnyRuntimeStep['run']>[0], value: string) => Promise<Record<string, string>>): AnyRuntimeStep {
  return runtimeStep({
    name: 'probe',
    description: 'a test step',
    env: new StepEnv({ value: text('VALUE') }),
    outputs: ['first', 'second'],
    run: async (context, values) => (await behave(context, values.value)) as { first: string; second: string },
  });
}

describe('usage', () => {
  it('lists every step with its description, names padded to one column', () => {
    const text = usage(RUNTIME_STEPS);
    expect(text.startsWith('usage: node runtime.cjs STEP\n\nsteps:\n')).toBe(true);
    expect(text.endsWith('\n')).toBe(true);
    for (const step of RUNTIME_STEPS) expect(text).toContain(`  ${step.name.padEnd(21)}  ${step.description}\n`);
    expect(Math.max(...RUNTIME_STEPS.map((step) => step.name.length))).toBe(21);
  });

  it('names every runtime step once', () => {
    const names = RUNTIME_STEPS.map((step) => step.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([
      'resolve-repository',
      'enter-stage',
      'record-exit',
      'gate-check',
      'resume-gate',
      'cancel-coderuns',
      'remediation-decide',
      'remediation-stop',
      'remediation-replace',
      'remediation-exhausted',
      'project-find-start',
      'project-start-play',
      'project-wait-play',
    ]);
  });
});

describe('runProgram', () => {
  it('prints the usage and exits 0 for --help, 2 without a step', async () => {
    const help = await run(['--help']);
    expect(help).toEqual({ code: 0, out: [], err: [usage(RUNTIME_STEPS)], apis: 0 });
    const none = await run([]);
    expect(none).toEqual({ code: 2, out: [], err: [usage(RUNTIME_STEPS)], apis: 0 });
  });

  it('refuses an unknown step, or anything after the step, with exit 2', async () => {
    expect(await run(['gate'])).toEqual({ code: 2, out: [], err: [`unknown step "gate"\n${usage(RUNTIME_STEPS)}`], apis: 0 });
    expect((await run(['gate-check', 'extra'])).err[0]).toMatch(/^unknown step "gate-check extra"\n/);
  });

  it('exits 2 with one line naming the variable when the environment is wrong, before any API call', async () => {
    const result = await run(['gate-check'], {
      NAMESPACE: 'agents',
      WORKFLOW_NAME: 'w',
      GATE: 'review',
      REPOSITORY: 'o/r',
      TASK_ID: '010',
    });
    expect(result.code).toBe(2);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/^gate-check: TASK_ID: expected a task id/);
    expect(result.err[0]).not.toContain('\n');
    expect(result.apis).toBe(0);
  });

  it('passes on an error of an environment read that is not an environment mistake', async () => {
    const bug = new TypeError('a bug in a reader');
    const broken = {
      ...probe(async () => ({})),
      env: {
        read: () => {
          throw bug;
        },
      },
    } as unknown as AnyRuntimeStep;
    await expect(run(['probe'], {}, [broken])).rejects.toBe(bug);
  });

  it('writes each output to its own file in AGENT_PLAY_OUTPUTS and exits 0, logging to stdout', async () => {
    const directory = join(scratch(), 'outputs', 'nested');
    const step = probe(async (context, value) => {
      context.log(`value ${value}`);
      return { first: value, second: '' };
    });
    const result = await run(['probe'], { VALUE: 'a b\nc', [OUTPUT_DIRECTORY_VARIABLE]: directory }, [step]);
    expect(result).toEqual({ code: 0, out: ['value a b\nc'], err: [], apis: 1 });
    expect(readdirSync(directory).sort()).toEqual(['first', 'second']);
    expect(readFileSync(join(directory, 'first'), 'utf8')).toBe('a b\nc');
    expect(readFileSync(join(directory, 'second'), 'utf8')).toBe('');
  });

  it('runs a real step and writes its output where Argo reads it', async () => {
    const directory = scratch();
    const result = await run(['resume-gate'], {
      NAMESPACE: 'agents',
      GATE: 'review',
      REPOSITORY: 'o/r',
      TASK_ID: '',
      STRATEGY: 'label-selector',
      [OUTPUT_DIRECTORY_VARIABLE]: directory,
    });
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(/^the event names no task/);
    expect(readFileSync(join(directory, 'play'), 'utf8')).toBe('');
    expect(readFileSync(join(directory, 'recorded'), 'utf8')).toBe('false');
  });

  it('writes the outputs to the pod output folder by default', () => {
    expect(OUTPUT_DIRECTORY_VARIABLE).toBe('AGENT_PLAY_OUTPUTS');
    expect(RUNTIME_OUTPUT_DIRECTORY).toBe('/tmp/outputs');
    expect(outputPath('released')).toBe('/tmp/outputs/released');
  });

  it('exits 1 with one line for a step failure or an API error, writing no output', async () => {
    const directory = join(scratch(), 'never');
    const failing = await run(['probe'], { VALUE: 'x', [OUTPUT_DIRECTORY_VARIABLE]: directory }, [
      probe(async () => {
        throw new StepFailure('gate review of play p has no suspend node');
      }),
    ]);
    expect(failing).toEqual({ code: 1, out: [], err: ['probe: gate review of play p has no suspend node'], apis: 1 });
    expect(new StepFailure('x').name).toBe('StepFailure');
    const api = await run(['probe'], { VALUE: 'x', [OUTPUT_DIRECTORY_VARIABLE]: directory }, [
      probe(async () => {
        throw new ApiError(500, 'InternalError', 'etcd');
      }),
    ]);
    expect(api.code).toBe(1);
    expect(api.err).toEqual(['probe: etcd']);
    expect(existsSync(directory)).toBe(false);
  });

  it('exits 1 with one line, running nothing, when it cannot make the API client (no service account mounted)', async () => {
    let ran = false;
    const step = probe(async () => {
      ran = true;
      return { first: '', second: '' };
    });
    const missing = "ENOENT: no such file or directory, open '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt'";
    const result = await run(['probe'], { VALUE: 'x' }, [step], {
      api: () => {
        throw new Error(missing);
      },
    });
    expect(result).toEqual({ code: 1, out: [], err: [`probe: cannot make the API client: ${missing}`], apis: 0 });
    expect(ran).toBe(false);
    const outside = await run(['probe'], { VALUE: 'x' }, [step], { api: () => new InClusterApi(inClusterOptions({})) });
    expect(outside.code).toBe(1);
    expect(outside.err).toEqual([
      'probe: cannot make the API client: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set: not running in a pod',
    ]);
    const thrown = await run(['probe'], { VALUE: 'x' }, [step], {
      api: () => {
        throw 'no token';
      },
    });
    expect(thrown.err).toEqual(['probe: cannot make the API client: no token']);
    expect(ran).toBe(false);
  });

  it('exits 1 with the stack of an unexpected error', async () => {
    const result = await run(['probe'], { VALUE: 'x' }, [
      probe(async () => {
        throw new TypeError('a bug');
      }),
    ]);
    expect(result.code).toBe(1);
    expect(result.err[0]).toMatch(/^probe: unexpected failure: TypeError: a bug\n\s+at /);
    const thrown = await run(['probe'], { VALUE: 'x' }, [
      probe(async () => {
        throw 'text';
      }),
    ]);
    expect(thrown.err).toEqual(['probe: unexpected failure: text']);
  });

  it("gives the step the program's clock and sleep, or the real ones", async () => {
    const slept: number[] = [];
    const fixed = new Date('2026-01-01T00:00:00Z');
    const step = probe(async (context) => {
      await context.sleep(5);
      return { first: context.now().toISOString(), second: '' };
    });
    const directory = scratch();
    await run(['probe'], { VALUE: 'x', [OUTPUT_DIRECTORY_VARIABLE]: directory }, [step], {
      now: () => fixed,
      sleep: async (milliseconds) => {
        slept.push(milliseconds);
      },
    });
    expect(slept).toEqual([5]);
    expect(readFileSync(join(directory, 'first'), 'utf8')).toBe('2026-01-01T00:00:00.000Z');
    const before = Date.now();
    await run(['probe'], { VALUE: 'x', [OUTPUT_DIRECTORY_VARIABLE]: directory }, [step]);
    const written = Date.parse(readFileSync(join(directory, 'first'), 'utf8'));
    expect(written).toBeGreaterThanOrEqual(before + 4);
    expect(written).toBeLessThanOrEqual(Date.now());
  });
});

describe('writeOutputs', () => {
  it('writes each value whole, leaving no partial file, and replaces an earlier one', () => {
    const directory = join(scratch(), 'a', 'b');
    writeOutputs(directory, { released: 'false' });
    writeOutputs(directory, { released: 'true', other: 'x' });
    expect(readdirSync(directory).sort()).toEqual(['other', 'released']);
    expect(readFileSync(join(directory, 'released'), 'utf8')).toBe('true');
  });
});
