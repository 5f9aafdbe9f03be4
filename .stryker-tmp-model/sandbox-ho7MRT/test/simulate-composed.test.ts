/**
 * A composed platform end to end in the simulator: the Sensors synthesized for a security stage, its custom
 * gate and parallel testers resume the plays the way the stage machine says, for both resume strategies,
 * and a task the security stage does not apply to goes straight past it.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { Releases } from '../constructs/model/releases';
import { resolveConfig } from '../constructs/model/resolve-config';
import type { PlatformConfigInput } from '../constructs/model/config-types.generated';
import { StageMachine } from '../constructs/model/stage-machine';
import { StageMachineBuilder } from '../constructs/model/stage-machine-builder';
import type { Step } from '../src/simulate/scenario';
import { simulate, type SimulationReport } from '../src/simulate/simulate';
import { labeledEvent, pullRequestEvent, reviewEvent, type PullRequestShape } from './support/github-payloads';
import { synth } from './support/synth';

const REPO = '5dlabs/cto-play-test';
const CLEO = '5DLabs-Cleo[bot]';
const CIPHER = '5DLabs-Cipher[bot]';
const task = (id: number): PullRequestShape => ({ repository: REPO, labels: [`task-${id}`], headRef: `feature/task-${id}-work` });

function composedStages() {
  const defaults = resolveConfig({ env: {} });
  const backendOnly = { parameter: 'task-type', in: ['backend'] };
  return StageMachineBuilder.from(StageMachine.fromConfig(defaults), { agents: Object.keys(defaults.agents) })
    .after('code-quality')
    .agent('security', 'cipher', { when: backendOnly })
    .gate('waiting-security-approved', Releases.labeled('ready-for-security', { by: ['cipher'] }), { when: backendOnly })
    .replaceWithParallel('testing', ['tess', 'cipher'])
    .toStages();
}

async function run(strategy: string, steps: Step[], taskType: string): Promise<SimulationReport> {
  const file = { stages: composedStages(), events: { resume: strategy } };
  const platform = synth({ env: {}, file });
  const plays = [{ repository: REPO, task: 5, stage: 'implementation', parameters: { 'task-type': taskType } }];
  return simulate({ config: resolveConfig({ env: {}, file: file as PlatformConfigInput }), objects: platform.objects }, { plays, steps });
}

const github = (event: string, payload: Record<string, unknown>, delivery: string): Step => ({ github: event, payload, delivery });
const done: Step = { agentDone: { repository: REPO, task: 5 } };

describe.each(['label-selector', 'workflow-name'])('a composed platform, %s strategy', async (strategy) => {
  it('runs a backend task through the security stage, released by the label the security bot sets', async () => {
    const report = await run(
      strategy,
      [
        done,
        github('pull_request', pullRequestEvent('opened', task(5)), 'd1'),
        done,
        done,
        github('pull_request', labeledEvent('ready-for-security', { ...task(5), sender: CIPHER }), 'd2'),
        github('pull_request_review', reviewEvent('approved', CLEO, task(5)), 'd3'),
        done,
        github('pull_request', pullRequestEvent('closed', task(5), { merged: true }), 'd4'),
      ],
      'backend',
    );
    expect(report.steps.flatMap((step) => step.resumed).map((resume) => resume.gate)).toEqual([
      'waiting-pr-created',
      'waiting-security-approved',
      'waiting-ready-for-qa',
      'waiting-pr-merged',
    ]);
    expect(report.steps[4].sensors).toEqual(['gate-waiting-security-approved']);
    expect(report.plays[0].stage).toBe('completed');
  });

  it('ignores the label when someone other than the security bot sets it', async () => {
    const report = await run(
      strategy,
      [
        done,
        github('pull_request', pullRequestEvent('opened', task(5)), 'd1'),
        done,
        done,
        github('pull_request', labeledEvent('ready-for-security', { ...task(5), sender: 'octocat' }), 'd2'),
      ],
      'backend',
    );
    expect(report.steps[4].resumed).toEqual([]);
    expect(report.plays[0].stage).toBe('waiting-security-approved');
  });

  it('takes a frontend task from code quality straight to the QA gate', async () => {
    const report = await run(strategy, [done, github('pull_request', pullRequestEvent('opened', task(5)), 'd1'), done], 'frontend');
    expect(report.plays[0].stage).toBe('waiting-ready-for-qa');
  });
});
