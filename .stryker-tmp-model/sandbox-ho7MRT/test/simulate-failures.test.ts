/**
 * The simulator's failure steps and the example scenario of each failure (examples/scenarios/*), run as
 * `agent-play simulate --json` runs them: every outcome written at the top of a scenario is asserted here.
 */
// @ts-nocheck

import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../constructs/model/resolve-config';
import type { PlatformConfigInput } from '../constructs/model/config-types.generated';
import { runCli } from '../src/cli';
import type { Scenario, Step } from '../src/simulate/scenario';
import { simulate, type SimulationReport } from '../src/simulate/simulate';
import { pullRequestEvent, reviewEvent, type PullRequestShape } from './support/github-payloads';
import { synth } from './support/synth';

const REPO = '5dlabs/cto-play-test';
const task5: PullRequestShape = { repository: REPO, labels: ['task-5'], headRef: 'feature/task-5-implementation' };
const opened = (delivery: string, triggerFailures?: number): Step => ({
  github: 'pull_request',
  payload: pullRequestEvent('opened', task5),
  delivery,
  ...(triggerFailures === undefined ? {} : { triggerFailures }),
});
const task = { repository: REPO, task: 5 };
const github = (event: string, payload: Record<string, unknown>): Step => ({
  github: event,
  payload,
  delivery: `${event}-${Object.keys(payload).length}`,
});

async function run(scenario: Scenario, objects = synth().objects): Promise<SimulationReport> {
  return simulate({ config: resolveConfig({ env: {} }), objects }, scenario);
}

async function example(name: string): Promise<any> {
  let out = '';
  let err = '';
  const code = await runCli(['simulate', resolve(__dirname, '..', 'examples', 'scenarios', name, 'scenario.yaml'), '--json'], {
    out: (text) => (out += text),
    err: (text) => (err += text),
    env: {},
  });
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out);
}

const resumedGates = (report: any): string[] => report.steps.flatMap((step: any) => step.resumed.map((gate: any) => gate.gate));

describe('a failed trigger', () => {
  it('is retried while attempts are left (atLeastOnce, retryStrategy.steps)', async () => {
    const report = await run({ plays: [{ ...task, stage: 'waiting-pr-created' }], steps: [opened('a', 2)] });
    expect(report.steps[0].failedTriggers).toEqual([
      { sensor: 'gate-waiting-pr-created', trigger: 'resume-waiting-pr-created', failures: 2, lost: false },
    ]);
    expect(report.plays[0].stage).toBe('code-quality');
  });

  it('loses the event when every attempt fails', async () => {
    const report = await run({ plays: [{ ...task, stage: 'waiting-pr-created' }], steps: [opened('a', 3)] });
    expect(report.steps[0].failedTriggers?.[0].lost).toBe(true);
    expect(report.steps[0].recorded).toEqual([]);
    expect(report.plays[0].stage).toBe('waiting-pr-created');
  });

  it('is dropped on its first failure when the trigger lacks atLeastOnce, retryStrategy or not', async () => {
    const objects = synth().objects.map((object) =>
      object.kind !== 'Sensor'
        ? object
        : {
            ...object,
            spec: { ...object.spec, triggers: object.spec.triggers.map(({ atLeastOnce: _dropped, ...trigger }: any) => trigger) },
          },
    );
    const report = await run({ plays: [{ ...task, stage: 'waiting-pr-created' }], steps: [opened('a', 1)] }, objects);
    expect(report.steps[0].failedTriggers).toEqual([
      { sensor: 'gate-waiting-pr-created', trigger: 'resume-waiting-pr-created', failures: 1, lost: true },
    ]);
    expect(report.plays[0].stage).toBe('waiting-pr-created');
  });

  it('examples/scenarios/failed-trigger: two failures retried away, three lose the approval, the redelivery releases it', async () => {
    const report = await example('failed-trigger');
    expect(report.steps[0].failedTriggers).toEqual([
      { sensor: 'gate-waiting-pr-created', trigger: 'resume-waiting-pr-created', failures: 2, lost: false },
    ]);
    expect(report.steps[0].resumed).toEqual([{ ...task, gate: 'waiting-pr-created' }]);
    expect(report.steps[2].failedTriggers).toEqual([
      { sensor: 'gate-waiting-ready-for-qa', trigger: 'resume-waiting-ready-for-qa', failures: 3, lost: true },
    ]);
    expect(report.steps[2].resumed).toEqual([]);
    expect(report.steps[3].resumed).toEqual([{ ...task, gate: 'waiting-ready-for-qa' }]);
    expect(report.plays).toEqual([{ ...task, stage: 'testing' }]);
  });
});

describe('duplicate, late and early deliveries', () => {
  it('examples/scenarios/duplicate-delivery: one resume, the second delivery changes nothing', async () => {
    const report = await example('duplicate-delivery');
    expect(resumedGates(report)).toEqual(['waiting-pr-created']);
    expect(report.steps[1].recorded).toEqual([{ ...task, gate: 'waiting-pr-created' }]);
    expect(report.plays).toEqual([{ ...task, stage: 'code-quality' }]);
  });

  it('examples/scenarios/late-delivery: a late event is recorded and moves nothing', async () => {
    const report = await example('late-delivery');
    expect(report.steps[2].recorded).toEqual([{ ...task, gate: 'waiting-pr-created' }]);
    expect(report.steps[2].resumed).toEqual([]);
    expect(report.plays).toEqual([{ ...task, stage: 'waiting-ready-for-qa' }]);
  });

  it('examples/scenarios/early-delivery: each early event lets the play pass its gate on arrival', async () => {
    const report = await example('early-delivery');
    expect(resumedGates(report)).toEqual([]);
    expect(report.steps[0].recorded).toEqual([{ ...task, gate: 'waiting-ready-for-qa' }]);
    expect(report.steps[2].recorded).toEqual([{ ...task, gate: 'waiting-pr-merged' }]);
    expect(report.plays).toEqual([{ ...task, stage: 'completed' }]);
  });
});

describe('runs of a task', () => {
  it("examples/scenarios/rerun-from-scratch: the first run's release does not pass the new run's gate", async () => {
    const report = await example('rerun-from-scratch');
    expect(report.steps[3].resumed).toEqual([{ ...task, gate: 'waiting-pr-created' }]);
    expect(report.plays).toEqual([{ ...task, stage: 'code-quality' }]);
  });

  it('a restarted task waits at a gate its previous run had passed', async () => {
    const report = await run({
      plays: [{ ...task, stage: 'waiting-pr-created' }],
      steps: [opened('a'), { restart: task }, { agentDone: task }],
    });
    expect(report.plays).toEqual([{ ...task, stage: 'waiting-pr-created' }]);
  });

  it('examples/scenarios/deleted-play-resumed: the recreated play keeps the release that came while it was gone', async () => {
    const report = await example('deleted-play-resumed');
    expect(report.steps[1].recorded).toEqual([{ ...task, gate: 'waiting-pr-created' }]);
    expect(report.steps[1].resumed).toEqual([]);
    expect(report.plays).toEqual([{ ...task, stage: 'code-quality' }]);
  });

  it("a play recreated from a fresh run's state does not take the releases of the run before", async () => {
    const merged: Step = { github: 'pull_request', payload: pullRequestEvent('closed', task5, { merged: true }), delivery: 'merge' };
    // The first run is merged; the task runs again; its gate check clears the old records; it is deleted and recreated.
    const report = await run({
      plays: [{ ...task, stage: 'waiting-pr-merged' }],
      steps: [
        merged,
        { restart: task },
        { agentDone: task },
        opened('b'),
        { agentDone: task },
        { deletePlay: task },
        { resumeFromState: task },
        { agentDone: task },
      ],
    });
    expect(report.plays).toEqual([{ ...task, stage: 'waiting-ready-for-qa' }]);
    const last = await run({
      plays: [{ ...task, stage: 'waiting-pr-merged' }],
      steps: [
        merged,
        { restart: task },
        { agentDone: task },
        opened('b'),
        { agentDone: task },
        github('pull_request_review', reviewEvent('approved', '5DLabs-Cleo[bot]', task5)),
        { agentDone: task },
        { deletePlay: task },
        { resumeFromState: task },
      ],
    });
    expect(last.plays).toEqual([{ ...task, stage: 'waiting-pr-merged' }]);
  });

  it('refuses to recreate a play that still exists, in the step report', async () => {
    const report = await run({ plays: [{ ...task, stage: 'waiting-pr-created' }], steps: [{ resumeFromState: task }] });
    expect(report.steps[0].ignored).toBe(`task 5 of ${REPO} already has a play`);
  });
});

describe('a retried or evicted agent stage', () => {
  it('examples/scenarios/agent-retried: the new attempt cancels the stale CodeRun, never two live at once', async () => {
    const report = await example('agent-retried');
    expect(report.coderuns).toEqual([
      { ...task, stage: 'implementation', agent: 'rex', contextVersion: 1, phase: 'Cancelled' },
      { ...task, stage: 'implementation', agent: 'rex', contextVersion: 2, phase: 'Succeeded' },
    ]);
    expect(report.mostLiveCodeRuns).toBe(1);
    expect(report.plays).toEqual([{ ...task, stage: 'waiting-pr-created' }]);
  });

  it('fails the play past its retries and cancels its running CodeRuns', async () => {
    const retries = resolveConfig({ env: {} }).stages.find((stage) => stage.name === 'implementation')!;
    expect((retries as { retries: number }).retries).toBe(1);
    const report = await run({
      plays: [{ ...task, stage: 'implementation' }],
      steps: [{ agentFailed: { ...task, reason: 'evicted' } }, { agentFailed: { ...task, reason: 'evicted' } }, { agentDone: task }],
    });
    expect(report.plays).toEqual([{ ...task, stage: 'implementation', status: 'failed' }]);
    expect(report.coderuns.map((coderun) => [coderun.contextVersion, coderun.phase])).toEqual([
      [1, 'Cancelled'],
      [2, 'Cancelled'],
    ]);
    expect(report.steps[2].ignored).toMatch(/has failed/);
    expect(report.mostLiveCodeRuns).toBe(1);
  });

  it('resumes a failed play from its state with a first attempt of the failed stage', async () => {
    const failing: Step = { agentFailed: { ...task, reason: 'failed' } };
    const report = await run({
      plays: [{ ...task, stage: 'implementation' }],
      steps: [failing, failing, { deletePlay: task }, { resumeFromState: task }, { agentDone: task }],
    });
    expect(report.plays).toEqual([{ ...task, stage: 'waiting-pr-created' }]);
    expect(report.coderuns.map((coderun) => [coderun.contextVersion, coderun.phase])).toEqual([[1, 'Succeeded']]);
  });
});

describe('a quality gate under the failures', () => {
  it('does not let an early approval from an earlier run pass a restarted run', async () => {
    const approval: Step = {
      github: 'pull_request_review',
      payload: reviewEvent('approved', '5DLabs-Cleo[bot]', task5),
      delivery: 'approval',
    };
    const report = await run({
      plays: [{ ...task, stage: 'code-quality' }],
      steps: [approval, { restart: task }, { agentDone: task }, opened('b'), { agentDone: task }],
    });
    expect(report.plays).toEqual([{ ...task, stage: 'waiting-ready-for-qa' }]);
  });
});

describe('the workflow-name strategy', () => {
  it('records nothing for a pull request that names no task (no task-none record)', async () => {
    const inputs = { file: { events: { resume: 'workflow-name' } } as PlatformConfigInput, env: {} };
    const report = await simulate(
      { config: resolveConfig(inputs), objects: synth(inputs).objects },
      {
        plays: [{ ...task, stage: 'waiting-pr-created' }],
        steps: [{ github: 'pull_request', payload: pullRequestEvent('opened', { repository: REPO, headRef: 'fix-typo' }), delivery: 'x' }],
      },
    );
    expect(report.steps[0].sensors).toEqual(['gate-waiting-pr-created']);
    expect(report.steps[0].recorded).toEqual([]);
    expect(report.plays).toEqual([{ ...task, stage: 'waiting-pr-created' }]);
  });
});
