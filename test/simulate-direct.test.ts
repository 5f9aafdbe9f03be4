/**
 * Issue 15's "done when" in direct mode: a platform with Argo alone takes a task through two rounds of
 * requested changes to a merged pull request, and the simulator and `agent-play status` show every step as
 * direct execution (the play's own pods running the CLIs, no CodeRun). Coderun and mixed platforms keep
 * their wording; the mode and the CLI come from the config through constructs/model.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentExecution } from '../constructs/model/direct-execution';
import { resolveConfig } from '../constructs/model/resolve-config';
import type { PlatformConfigInput } from '../constructs/model/config-types.generated';
import { readConfigFile } from '../src/config/load-config';
import { simulatedProgressRecord } from '../src/simulate/progress-record';
import { loadScenario, type Scenario } from '../src/simulate/scenario';
import { simulate, type SimulationReport } from '../src/simulate/simulate';
import { formatTrace, reportJson } from '../src/simulate/trace';
import { parseProgressRecord } from '../src/state/progress-record';
import { taskStatus } from '../src/state/task-status';
import { synth } from './support/synth';

const SCENARIOS = resolve(__dirname, '..', 'examples', 'scenarios');
const REMEDIATION = loadScenario(resolve(SCENARIOS, 'remediation', 'scenario.yaml'));
const DIRECT_FILE = readConfigFile(resolve(SCENARIOS, 'remediation', 'direct.agent-play.yaml')) as Record<string, unknown>;

async function run(file: Record<string, unknown>, scenario: Scenario): Promise<SimulationReport> {
  const config = resolveConfig({ file, env: {} });
  return simulate({ config, objects: synth({ file, env: {} }).objects }, scenario);
}

/** The trace's blocks, one per step. */
function stepBlocks(trace: string): string[] {
  return trace.split(/^step \d+:\n/m).slice(1);
}

describe('the remediation scenario on a direct platform', () => {
  let report: SimulationReport;
  let trace: string;
  let REPOSITORY: string;
  beforeAll(async () => {
    report = await run(DIRECT_FILE, REMEDIATION);
    trace = formatTrace(report);
    REPOSITORY = report.plays[0].repository;
  });

  it('completes in round 3 with no CodeRun at all', async () => {
    expect(report.plays).toEqual([{ repository: REPOSITORY, task: 5, stage: 'completed', round: 3 }]);
    expect(report.coderuns).toEqual([]);
    expect(trace).toContain('direct agent pods (no CodeRuns):');
    // Only the sentences that say there is none name CodeRuns.
    const saysNone = trace.replace('direct agent pods (no CodeRuns):', '').replaceAll('(direct: no CodeRun to cancel)', '');
    expect(saysNone).not.toMatch(/coderun|contextVersion/i);
    expect(JSON.parse(reportJson(report)).coderuns).toEqual([]);
  });

  it('runs every agent attempt in a pod of the play, in every round', async () => {
    expect(report.pods.map((pod) => `${pod.round} ${pod.stage} ${pod.agent} ${pod.phase}`)).toEqual([
      '1 implementation rex Succeeded',
      '1 code-quality cleo Stopped',
      '2 implementation rex Succeeded',
      '2 code-quality cleo Succeeded',
      '3 implementation rex Succeeded',
      '3 code-quality cleo Succeeded',
      '3 testing tess Succeeded',
    ]);
    for (const round of [1, 2, 3])
      expect(trace).toMatch(new RegExp(`direct: rex runs \\w+ in the play's pod at implementation \\(round ${round},`));
    expect(stepBlocks(trace).filter((block) => block.includes('direct: '))).toHaveLength(report.steps.length - 1);
  });

  it('ends the running agent pod when the remediator stops the play (no CodeRun to cancel)', async () => {
    expect(report.steps[2].remediated).toEqual([
      expect.objectContaining({ outcome: 'next-round', cancelled: [], stoppedPods: ['cleo/code-quality'] }),
    ]);
    expect(report.steps[2].notes.join('\n')).toContain(
      "direct: cleo's pod at code-quality (round 1, attempt 1) Stopped: the play was stopped",
    );
    // In round 2 cleo had finished: the play stopped at the gate, with no pod running.
    expect(report.steps[5].remediated?.[0].stoppedPods).toBeUndefined();
  });

  it('starts each session once and resumes it in later rounds, a stopped pod keeping the session its CLI announced', async () => {
    const sessions = (agent: string) => report.pods.filter((pod) => pod.agent === agent).map((pod) => `${pod.round}:${pod.session}`);
    expect(sessions('rex')).toEqual(['1:started', '2:resumed', '3:resumed']);
    // Cleo's round-1 pod was stopped while her CLI worked; the script's TERM trap recorded the session the CLI
    // had announced, so rounds 2 and 3 resume it.
    expect(sessions('cleo')).toEqual(['1:started', '2:resumed', '3:resumed']);
    expect(sessions('tess')).toEqual(['3:started']);
    expect(trace).toContain("direct: rex runs cursor in the play's pod at implementation (round 2, attempt 1, session resumed)");
    expect(trace).toContain(
      "direct: cleo's pod at code-quality (round 1, attempt 1) Stopped: the play was stopped; its CLI had announced its new session, which the stopped script recorded: the next attempt resumes it",
    );
    expect(trace).not.toContain('never confirmed');
  });

  it('leaves a progress record that `agent-play status` shows at round 3, with the history', async () => {
    expect(report.progress).toHaveLength(1);
    const parsed = parseProgressRecord(JSON.stringify(simulatedProgressRecord(report.progress[0])));
    if (!('record' in parsed)) throw new Error(parsed.problem);
    const status = taskStatus(
      { configMap: 'cm', key: '5dlabs.cto-play-test.task-5.json', task: '5', repository: REPOSITORY, record: parsed.record },
      new Date('2026-01-01T00:11:00Z'),
      { stuckAfter: 3600, gateStuckAfter: 86400 },
    );
    expect(status).toMatchObject({ stage: 'completed', status: 'completed', round: 3, lastAgent: 'tess' });
    expect(status.remediations).toEqual([
      // Recorded by the remediator's replace step, in the step of the review, once the stopped play has ended.
      expect.objectContaining({ round: 2, kind: 'remediate', at: expect.stringMatching(/^2026-01-01T00:02:/) }),
      expect.objectContaining({ round: 3, kind: 'remediate', at: expect.stringMatching(/^2026-01-01T00:05:/) }),
    ]);
    expect(parsed.record.cliHistory.map((use) => `${use.agent}@${use.stage}`)).toEqual([
      'rex@implementation',
      'cleo@code-quality',
      'rex@implementation',
      'cleo@code-quality',
      'rex@implementation',
      'cleo@code-quality',
      'tess@testing',
    ]);
  });
});

describe('coderun and mixed platforms', () => {
  it('a coderun platform keeps its CodeRuns and says nothing of pods', async () => {
    const report = await run({}, REMEDIATION);
    expect(report.plays[0]).toMatchObject({ stage: 'completed', round: 3 });
    expect(report.pods).toEqual([]);
    expect(report.coderuns.length).toBeGreaterThan(0);
    expect(formatTrace(report)).not.toContain('direct:');
    expect(report.steps[2].remediated?.[0]).toMatchObject({ cancelled: ['cleo/code-quality'] });
    expect(report.steps[2].remediated?.[0].stoppedPods).toBeUndefined();
  });

  it('a mixed platform shows each agent by its mode', async () => {
    const report = await run({ execution: 'direct', agents: { tess: { execution: 'coderun' } } }, REMEDIATION);
    expect(report.plays[0]).toMatchObject({ stage: 'completed', round: 3 });
    expect(report.coderuns.map((run) => `${run.agent}/${run.stage}`)).toEqual(['tess/testing']);
    expect(new Set(report.pods.map((pod) => pod.agent))).toEqual(new Set(['rex', 'cleo']));
    const trace = formatTrace(report);
    expect(trace).toContain('coderuns:\n  task 5 testing tess contextVersion 1: Succeeded');
    expect(trace).not.toMatch(/direct: tess/);
  });

  it("takes the CLI from the repository's agentClis binding, through the model", async () => {
    const base = resolveConfig({ env: {} });
    const repositories = base.repositories.map((repository) => ({
      name: repository.name,
      service: repository.service,
      agentClis: { rex: 'codex' },
    }));
    const file = { execution: 'direct', repositories };
    const config = resolveConfig({ file: file as PlatformConfigInput, env: {} });
    expect(agentExecution(config, config.repositories[0], 'rex')).toEqual({ mode: 'direct', cli: 'codex' });
    const report = await run(file, REMEDIATION);
    expect(report.pods.filter((pod) => pod.agent === 'rex').map((pod) => pod.cli)).toEqual(['codex', 'codex', 'codex']);
  });
});

describe('retries of a direct agent', () => {
  const repository = resolveConfig({ env: {} }).repositories[0].name;
  const retried = async (reason: 'failed' | 'evicted'): Promise<SimulationReport> =>
    await run(
      { execution: 'direct' },
      {
        plays: [{ repository, task: 5, stage: 'implementation' }],
        steps: [{ agentFailed: { repository, task: 5, reason } }, { agentDone: { repository, task: 5 } }],
      },
    );

  it('a CLI that exited non-zero reported its session: the retry resumes it', async () => {
    const report = await retried('failed');
    expect(report.pods.map((pod) => `${pod.attempt}:${pod.session}:${pod.phase}`)).toEqual(['1:started:Failed', '2:resumed:Succeeded']);
    expect(report.steps[0].notes).toContain('attempt 1 of implementation failed; attempt 2 runs the CLI in a new pod of the play');
    expect(report.coderuns).toEqual([]);
  });

  it('an evicted pod took its CLI with it before it reported the session: the retry starts one', async () => {
    const report = await retried('evicted');
    expect(report.pods.map((pod) => `${pod.attempt}:${pod.session}:${pod.phase}`)).toEqual(['1:started:Evicted', '2:started:Succeeded']);
    expect(report.steps[0].notes.join('\n')).toContain('its new session was never confirmed, the next attempt starts one');
  });
});

describe('the direct-execution scenario (also run on the real controllers, docs/e2e.md)', () => {
  const folder = resolve(SCENARIOS, 'direct-execution');
  const file = readConfigFile(resolve(folder, 'direct.agent-play.yaml')) as Record<string, unknown>;

  it('starts each session once and resumes it: after a failed attempt, and in the next round', async () => {
    const report = await run(file, loadScenario(resolve(folder, 'scenario.yaml')));
    expect(report.plays).toEqual([{ repository: report.plays[0].repository, task: 5, stage: 'waiting-ready-for-qa', round: 2 }]);
    expect(report.coderuns).toEqual([]);
    expect(
      report.pods.map((pod) => `${pod.round} ${pod.stage} ${pod.agent}/${pod.cli} #${pod.attempt} ${pod.session} ${pod.phase}`),
    ).toEqual([
      '1 implementation rex/cursor #1 started Failed',
      '1 implementation rex/cursor #2 resumed Succeeded',
      '1 code-quality cleo/claude #1 started Succeeded',
      '2 implementation rex/cursor #1 resumed Succeeded',
      '2 code-quality cleo/claude #1 resumed Succeeded',
    ]);
  });
});
