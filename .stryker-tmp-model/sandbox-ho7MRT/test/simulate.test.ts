// @ts-nocheck
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { resolveConfig, type ConfigInputs } from '../constructs/model/resolve-config';
import { runCli, type Io } from '../src/cli';
import type { Scenario, Step } from '../src/simulate/scenario';
import { simulate, type SimulationReport } from '../src/simulate/simulate';
import { labeledEvent, pullRequestEvent, reviewEvent, type PullRequestShape } from './support/github-payloads';
import { synth } from './support/synth';
import { useScratchDirs } from './support/scratch-dir';

const REPO = '5dlabs/cto-play-test';
const CLEO = '5DLabs-Cleo[bot]';
const task5: PullRequestShape = { repository: REPO, labels: ['task-5'], headRef: 'feature/task-5-implementation' };

async function run(scenario: Scenario, inputs: ConfigInputs = {}): Promise<SimulationReport> {
  const platform = synth({ env: {}, ...inputs });
  return simulate({ config: resolveConfig({ env: {}, ...inputs }), objects: platform.objects }, scenario);
}

const github = (event: string, payload: Record<string, unknown>, delivery?: string): Step => ({
  github: event,
  payload,
  delivery: delivery ?? `d-${Math.abs(JSON.stringify(payload).length)}`,
});
const done = (task = 5, repository = REPO): Step => ({ agentDone: { repository, task } });
const stageOf = (report: SimulationReport, task = 5, repository = REPO): string | undefined =>
  report.plays.find((play) => play.task === task && play.repository === repository)?.stage;

/** The whole default flow, for a strategy. */
function happyPath(): Step[] {
  return [
    done(),
    github('pull_request', pullRequestEvent('opened', task5)),
    done(),
    github('pull_request_review', reviewEvent('approved', CLEO, task5)),
    done(),
    github('pull_request', pullRequestEvent('closed', task5, { merged: true })),
  ];
}

describe.each(['label-selector', 'workflow-name'] as const)('the %s strategy', async (strategy) => {
  const inputs: ConfigInputs = { file: { events: { resume: strategy } } };
  const start = (stage = 'implementation') => [{ repository: REPO, task: 5, stage }];

  it('takes a play from implementation to completed, each event resuming its own gate', async () => {
    const report = await run({ plays: start(), steps: happyPath() }, inputs);
    expect(stageOf(report)).toBe('completed');
    expect(report.steps.flatMap((step) => step.resumed)).toEqual([
      { repository: REPO, task: 5, gate: 'waiting-pr-created' },
      { repository: REPO, task: 5, gate: 'waiting-ready-for-qa' },
      { repository: REPO, task: 5, gate: 'waiting-pr-merged' },
    ]);
    expect(report.steps[1].sensors).toEqual(['gate-waiting-pr-created']);
  });

  it('keeps an event that arrives before the gate, and passes the gate on arrival', async () => {
    const report = await run({ plays: start(), steps: [github('pull_request', pullRequestEvent('opened', task5)), done()] }, inputs);
    expect(report.steps[0].resumed).toEqual([]);
    expect(report.steps[0].recorded).toEqual([{ repository: REPO, task: 5, gate: 'waiting-pr-created' }]);
    expect(stageOf(report)).toBe('code-quality');
  });

  it('releases the QA gate on the ready-for-qa label from the quality bot', async () => {
    const report = await run(
      { plays: start('waiting-ready-for-qa'), steps: [github('pull_request', labeledEvent('ready-for-qa', { ...task5, sender: CLEO }))] },
      inputs,
    );
    expect(stageOf(report)).toBe('testing');
  });

  it.each([
    ['another repository', github('pull_request', pullRequestEvent('opened', { ...task5, repository: 'octo-org/other' }))],
    ['a fork', github('pull_request', pullRequestEvent('opened', { ...task5, headRepository: 'mallory/cto-play-test' }))],
    ['another base branch', github('pull_request', pullRequestEvent('opened', { ...task5, baseRef: 'release' }))],
  ])('ignores a pull request from %s', async (_case, step) => {
    const report = await run({ plays: start('waiting-pr-created'), steps: [step] }, inputs);
    expect(report.steps[0].sensors).toEqual([]);
    expect(report.steps[0].ignored).toMatch(/^no sensor matched: /);
    expect(stageOf(report)).toBe('waiting-pr-created');
  });

  it.each([
    ['an approval by a human', reviewEvent('approved', 'octocat', task5)],
    ['a comment review by the quality bot', reviewEvent('commented', CLEO, task5)],
  ])('does not release the QA gate on %s', async (_case, payload) => {
    const report = await run({ plays: start('waiting-ready-for-qa'), steps: [github('pull_request_review', payload)] }, inputs);
    expect(report.steps[0].resumed).toEqual([]);
    expect(stageOf(report)).toBe('waiting-ready-for-qa');
  });

  it('does not release the QA gate on a ready-for-qa label set by a human', async () => {
    const report = await run(
      {
        plays: start('waiting-ready-for-qa'),
        steps: [github('pull_request', labeledEvent('ready-for-qa', { ...task5, sender: 'octocat' }))],
      },
      inputs,
    );
    expect(stageOf(report)).toBe('waiting-ready-for-qa');
  });

  it('does not release the merge gate when the pull request is closed without merging', async () => {
    const report = await run(
      { plays: start('waiting-pr-merged'), steps: [github('pull_request', pullRequestEvent('closed', task5, { merged: false }))] },
      inputs,
    );
    expect(report.steps[0].sensors).toEqual([]);
    expect(stageOf(report)).toBe('waiting-pr-merged');
  });

  it('resumes only the task the pull request names', async () => {
    const plays = [
      { repository: REPO, task: 5, stage: 'waiting-pr-created' },
      { repository: REPO, task: 6, stage: 'waiting-pr-created' },
    ];
    const report = await run(
      { plays, steps: [github('pull_request', pullRequestEvent('opened', { repository: REPO, labels: ['task-6'] }))] },
      inputs,
    );
    expect(stageOf(report, 5)).toBe('waiting-pr-created');
    expect(stageOf(report, 6)).toBe('code-quality');
  });

  it('reads the task from the branch when no task label is set', async () => {
    const report = await run(
      {
        plays: start('waiting-pr-created'),
        steps: [github('pull_request', pullRequestEvent('opened', { repository: REPO, headRef: 'feature/task-5-implementation' }))],
      },
      inputs,
    );
    expect(stageOf(report)).toBe('code-quality');
  });

  it('is not moved twice by a duplicate delivery', async () => {
    const opened = pullRequestEvent('opened', task5);
    const report = await run(
      { plays: start('waiting-pr-created'), steps: [github('pull_request', opened, 'same'), github('pull_request', opened, 'same')] },
      inputs,
    );
    expect(report.steps[0].resumed).toHaveLength(1);
    expect(report.steps[1].resumed).toEqual([]);
    expect(stageOf(report)).toBe('code-quality');
  });

  it('never releases another gate, nor moves a play backwards, on a merge while it waits at the first gate', async () => {
    const report = await run(
      { plays: start('waiting-pr-created'), steps: [github('pull_request', pullRequestEvent('closed', task5, { merged: true }))] },
      inputs,
    );
    expect(report.steps[0].sensors).toEqual(['gate-waiting-pr-merged']);
    expect(report.steps[0].resumed).toEqual([]);
    expect(stageOf(report)).toBe('waiting-pr-created');
  });

  it('keeps the same task id in two repositories apart', async () => {
    const twoRepos: ConfigInputs = {
      file: {
        events: { resume: strategy },
        repositories: [
          { name: 'octo-org/payments', service: 'payments' },
          { name: 'octo-org/web', service: 'web' },
        ],
      },
    };
    const plays = [
      { repository: 'octo-org/payments', task: 5, stage: 'waiting-pr-created' },
      { repository: 'octo-org/web', task: 5, stage: 'waiting-pr-created' },
    ];
    const report = await run(
      { plays, steps: [github('pull_request', pullRequestEvent('opened', { repository: 'octo-org/web', labels: ['task-5'] }))] },
      twoRepos,
    );
    expect(stageOf(report, 5, 'octo-org/payments')).toBe('waiting-pr-created');
    expect(stageOf(report, 5, 'octo-org/web')).toBe('code-quality');
  });
});

describe('two repositories sharing the play template', () => {
  const inputs: ConfigInputs = {
    file: {
      repositories: [
        { name: 'octo-org/payments', service: 'payments', agentClis: { rex: 'codex' } },
        { name: 'octo-org/web', service: 'web', branch: 'develop' },
      ],
    },
  };
  const shape = (repository: string, baseRef: string): PullRequestShape => ({
    repository,
    labels: ['task-7'],
    headRef: 'feature/task-7-implementation',
    baseRef,
  });
  const plays = [
    { repository: 'octo-org/payments', task: 7, stage: 'implementation' },
    { repository: 'octo-org/web', task: 7, stage: 'implementation' },
  ];

  it('runs one task of each at once, each with its own settings, each to completed', async () => {
    const platform = synth({ env: {}, ...inputs });
    expect(platform.byKind('WorkflowTemplate').filter((object) => object.metadata.labels?.['workflow-type'] === 'play')).toHaveLength(1);
    const flow = (repository: string, base: string): Step[] => [
      done(7, repository),
      github('pull_request', pullRequestEvent('opened', shape(repository, base))),
      done(7, repository),
      github('pull_request_review', reviewEvent('approved', CLEO, shape(repository, base))),
      done(7, repository),
      github('pull_request', pullRequestEvent('closed', shape(repository, base), { merged: true })),
    ];
    const payments = flow('octo-org/payments', 'main');
    const web = flow('octo-org/web', 'develop');
    // Interleaved: both plays are live at every step.
    const steps = payments.flatMap((step, index) => [step, web[index]]);
    const report = await run({ plays, steps }, inputs);
    expect(stageOf(report, 7, 'octo-org/payments')).toBe('completed');
    expect(stageOf(report, 7, 'octo-org/web')).toBe('completed');
    const history = (repository: string) => report.progress.find((record) => record.repository === repository && record.task === 7);
    // Each play entered its stages with its repository's CLI of rex, from the registry.
    expect(JSON.stringify(history('octo-org/payments'))).toContain('codex');
    expect(report.coderuns.filter((run) => run.repository === 'octo-org/web')).toHaveLength(3);
  });

  it("ignores a pull request into another branch than the repository's", async () => {
    const report = await run(
      {
        plays: [{ repository: 'octo-org/web', task: 7, stage: 'waiting-pr-created' }],
        steps: [github('pull_request', pullRequestEvent('opened', shape('octo-org/web', 'main')))],
      },
      inputs,
    );
    expect(report.steps[0].recorded).toEqual([]);
    expect(report.steps[0].notes.join('\n')).toContain('the pull request merges into main, not into develop');
    expect(stageOf(report, 7, 'octo-org/web')).toBe('waiting-pr-created');
  });
});

describe('the simulator', () => {
  it('runs the sensors committed in dist-manifests/', async () => {
    const committed = ['gate-sensors.yaml', 'remediation.yaml'].flatMap((file) =>
      parseAllDocuments(readFileSync(resolve(__dirname, '..', 'dist-manifests', file), 'utf8'))
        .map((document) => document.toJS())
        .filter((object) => object.kind === 'Sensor'),
    );
    expect(synth().byKind('Sensor')).toEqual(committed);
  });

  it('records nothing for a pull request that names no task', async () => {
    const report = await run({
      plays: [{ repository: REPO, task: 5, stage: 'waiting-pr-created' }],
      steps: [github('pull_request', pullRequestEvent('opened', { repository: REPO, headRef: 'fix-typo' }))],
    });
    expect(report.steps[0].recorded).toEqual([]);
    expect(report.steps[0].resumed).toEqual([]);
  });
});

describe('agent-play simulate', () => {
  const scratch = useScratchDirs('agent-play-sim-');

  function io(): Io & { text: () => { out: string; err: string } } {
    let out = '';
    let err = '';
    return { out: (text) => (out += text), err: (text) => (err += text), env: {}, text: () => ({ out, err }) };
  }

  function scenarioFolder(scenario: string, payloads: Record<string, unknown>): string {
    const folder = scratch();
    mkdirSync(join(folder, 'payloads'));
    for (const [name, payload] of Object.entries(payloads)) writeFileSync(join(folder, 'payloads', name), JSON.stringify(payload));
    writeFileSync(join(folder, 'scenario.yaml'), scenario);
    return folder;
  }

  const scenario = `plays:
  - { repository: ${REPO}, task: 5, stage: implementation }
steps:
  - github: pull_request
    payload: payloads/pr-opened.json
  - agentDone: { repository: ${REPO}, task: 5 }
`;

  it('prints the report as JSON in the documented shape', async () => {
    const folder = scenarioFolder(scenario, { 'pr-opened.json': pullRequestEvent('opened', task5) });
    const streams = io();
    expect(await runCli(['simulate', join(folder, 'scenario.yaml'), '--json'], streams)).toBe(0);
    const report = JSON.parse(streams.text().out);
    expect(report.plays).toEqual([{ repository: REPO, task: 5, stage: 'code-quality' }]);
    expect(report.steps[0]).toEqual({
      index: 0,
      sensors: ['gate-waiting-pr-created'],
      resumed: [],
      recorded: [{ repository: REPO, task: 5, gate: 'waiting-pr-created' }],
      ignored: expect.any(String),
    });
    expect(report.steps[1]).toEqual({ index: 1, sensors: [], resumed: [], recorded: [] });
  });

  it('prints a readable trace without --json', async () => {
    const folder = scenarioFolder(scenario, { 'pr-opened.json': pullRequestEvent('opened', task5) });
    const streams = io();
    expect(await runCli(['simulate', join(folder, 'scenario.yaml')], streams)).toBe(0);
    expect(streams.text().out).toContain('sensor gate-waiting-pr-created fired');
    expect(streams.text().out).toContain(`${REPO} task 5: code-quality`);
  });

  it.each([
    ['a missing payload', scenario, {}, /steps\[0\]\.payload: cannot read payloads\/pr-opened\.json \(ENOENT\)$/],
    [
      'a payload that is not JSON',
      scenario,
      { 'pr-opened.json': '{' },
      /steps\[0\]\.payload: payloads\/pr-opened\.json (is not JSON|must hold a JSON object)/,
    ],
    ['a step of no known kind', 'steps:\n  - deploy: now\n', {}, /steps\[0\]: expected a step \{ github, payload \}, \{ agentDone \}/],
    [
      'a play at an unknown stage',
      `plays: [{ repository: ${REPO}, task: 5, stage: review }]\nsteps: [{ agentDone: { repository: ${REPO}, task: 5 } }]\n`,
      {},
      /unknown stage "review"/,
    ],
  ])('rejects %s in one line with exit 2', async (_case, text, payloads: Record<string, unknown>, message) => {
    const folder = scenarioFolder(text, payloads);
    if (typeof (payloads as Record<string, unknown>)['pr-opened.json'] === 'string')
      writeFileSync(join(folder, 'payloads', 'pr-opened.json'), '{');
    const streams = io();
    expect(await runCli(['simulate', join(folder, 'scenario.yaml')], streams)).toBe(2);
    expect(streams.text().err.trimEnd().split('\n')).toHaveLength(1);
    expect(streams.text().err.trimEnd()).toMatch(message);
  });
});

describe('examples/scenarios/happy-path', () => {
  it('takes task 5 to completed, recording the early pull request and ignoring the human approval', async () => {
    let out = '';
    const code = await runCli(['simulate', resolve(__dirname, '..', 'examples', 'scenarios', 'happy-path', 'scenario.yaml'), '--json'], {
      out: (text) => (out += text),
      err: () => undefined,
      env: {},
    });
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.plays).toEqual([{ repository: REPO, task: 5, stage: 'completed' }]);
    expect(report.steps[0].recorded).toEqual([{ repository: REPO, task: 5, gate: 'waiting-pr-created' }]);
    expect(report.steps[3].sensors).toEqual([]);
    expect(report.steps.flatMap((step: any) => step.resumed.map((gate: any) => gate.gate))).toEqual([
      'waiting-ready-for-qa',
      'waiting-pr-merged',
    ]);
  });
});
