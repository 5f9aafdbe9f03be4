// @ts-nocheck
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { githubAppBotLogin } from '../constructs/model/naming';
import { Releases } from '../constructs/model/releases';
import { DEFAULT_MAX_ROUNDS, remediationPlan } from '../constructs/remediation/remediation';
import { REMEDIATOR_PARAMETERS, REMEDIATOR_TEMPLATE_NAME } from '../constructs/remediation/remediator-contract';
import { ConfigError, resolveConfig } from '../constructs/model/resolve-config';
import type { PlatformConfigInput } from '../constructs/model/config-types.generated';
import { ProblemsError } from '../constructs/model/problems-error';
import { StageMachineBuilder } from '../constructs/model/stage-machine-builder';
import { REMEDIATOR_GRANTS } from '../constructs/rbac/events-rbac';
import { loadScenario } from '../src/simulate/scenario';
import { githubEventData, runSensor } from '../src/simulate/sensor-runner';
import { simulate } from '../src/simulate/simulate';
import { formatTrace } from '../src/simulate/trace';
import { taskStatus } from '../src/state/task-status';
import { parseProgressRecord } from '../src/state/progress-record';
import { labeledEvent, reviewEvent } from './support/github-payloads';
import { synth, type K8sObject } from './support/synth';

const config = resolveConfig({ env: {} });
const platform = synth();
const REPOSITORY = config.repositories[0];
const SOURCE = { name: 'github', eventName: 'play' };
const remediate = platform.one('Sensor', 'remediate');
const staleWork = platform.one('Sensor', 'stale-work');
const remediator = platform.one('WorkflowTemplate', REMEDIATOR_TEMPLATE_NAME);
const bot = (agent: string): string => githubAppBotLogin(config.agents[agent].githubApp);

function scenario(name: string) {
  return simulate(
    { config, objects: platform.objects },
    loadScenario(resolve(__dirname, '..', 'examples', 'scenarios', name, 'scenario.yaml')),
  );
}

function fired(sensor: K8sObject, event: string, payload: Record<string, unknown>) {
  return runSensor(sensor, githubEventData(event, payload, 'delivery-1'), SOURCE).fired;
}

function argumentsOf(resource: Record<string, any>): Record<string, string> {
  return Object.fromEntries(resource.spec.arguments.parameters.map((parameter: any) => [parameter.name, parameter.value]));
}

describe('remediation config', () => {
  it('sends a task back from the gates after the quality and testing stages, by their agents, at most 3 rounds', async () => {
    const plan = remediationPlan(config.stages, config.agents, config.remediation);
    expect(config.remediation.maxRounds).toBe(DEFAULT_MAX_ROUNDS);
    expect(plan?.implementationStage).toBe('implementation');
    expect(plan?.routes).toEqual([
      { gate: 'waiting-ready-for-qa', conditions: [Releases.changesRequested({ by: ['cleo'] }), Releases.needsFixes({ by: ['cleo'] })] },
      { gate: 'waiting-pr-merged', conditions: [Releases.changesRequested({ by: ['tess'] }), Releases.needsFixes({ by: ['tess'] })] },
    ]);
    // The pull request stays open across rounds; every other gate's release belongs to its round.
    expect(plan?.pullRequestGate).toBe('waiting-pr-created');
    expect(plan?.roundGates).toEqual(['waiting-ready-for-qa', 'waiting-pr-merged']);
    expect(plan?.staleRestartStage).toBe('code-quality');
    expect(plan?.staleStages).toEqual(['code-quality', 'waiting-ready-for-qa', 'testing', 'waiting-pr-merged']);
  });

  it('refuses maxRounds out of range and a gate that sends tasks back with no implementation stage, at the path', async () => {
    expect(() => resolveConfig({ file: { remediation: { maxRounds: 0 } }, env: {} })).toThrow(/remediation\.maxRounds/);
    expect(() => resolveConfig({ file: { remediation: { maxRounds: 21 } }, env: {} })).toThrow(/remediation\.maxRounds/);
    const stages = [
      { name: 'code-quality', type: 'agent', agent: 'cleo' },
      {
        name: 'review',
        type: 'gate',
        release: [Releases.reviewed({ by: ['cleo'] })],
        remediate: [Releases.changesRequested({ by: ['cleo'] })],
      },
      { name: 'completed', type: 'end' },
    ];
    try {
      resolveConfig({ file: { stages } as PlatformConfigInput, env: {} });
      expect.unreachable('the config should be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(
        /stages\[1\]\.remediate: gate "review" sends tasks back, but no agent stage has implementation agents/,
      );
    }
  });

  it('refuses, used alone, a remediate condition that names an unknown agent or a meaningless field, at its path', async () => {
    const stages = config.stages.map((stage) =>
      stage.type === 'gate' && stage.name === 'waiting-ready-for-qa'
        ? {
            ...stage,
            remediate: [{ event: 'pull_request' as const, actions: ['opened'], reviewState: 'approved' as const, by: ['nobody'] }],
          }
        : stage,
    );
    const index = stages.findIndex((stage) => stage.name === 'waiting-ready-for-qa');
    try {
      remediationPlan(stages, config.agents);
      expect.unreachable('the plan should be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(ProblemsError);
      expect((error as ProblemsError).problems).toEqual([
        `stages[${index}].remediate[0].by[0]: unknown agent "nobody"; known: ${Object.keys(config.agents).join(', ')}`,
        `stages[${index}].remediate[0].reviewState: reviewState applies only to event pull_request_review: remove it, or set event: pull_request_review`,
      ]);
    }
  });

  it('lets a gate opt out with remediate: [] and a TypeScript stage machine set its own conditions', async () => {
    const stages = config.stages.map((stage) => (stage.type === 'gate' ? { ...stage, remediate: [] } : stage));
    expect(remediationPlan(stages, config.agents)).toBeUndefined();
    const quiet = synth({ file: { stages }, env: {} });
    expect(quiet.byKind('Sensor').map((sensor) => sensor.metadata.name)).not.toContain('remediate');
    const built = StageMachineBuilder.from(config.stages, { agents: Object.keys(config.agents) })
      .remove('waiting-pr-merged')
      .after('testing')
      .gate('waiting-pr-merged', Releases.merged(), { remediate: [Releases.changesRequested({ by: ['tess', 'cipher'] })] })
      .build();
    const plan = remediationPlan(built.stages, config.agents);
    expect(plan?.routes.at(-1)).toEqual({ gate: 'waiting-pr-merged', conditions: [Releases.changesRequested({ by: ['tess', 'cipher'] })] });
  });
});

describe('the remediate Sensor', () => {
  const changes = (reviewer: string) =>
    reviewEvent('changes_requested', reviewer, {
      repository: REPOSITORY.name,
      labels: ['task-5'],
      headRef: 'feature/task-5-implementation',
    });

  it('has one dependency and fires on changes requested by cleo or tess in the configured repositories, and on their needs-fixes label', async () => {
    expect(remediate.spec.dependencies).toHaveLength(1);
    expect(fired(remediate, 'pull_request_review', changes(bot('cleo')))).toHaveLength(1);
    expect(fired(remediate, 'pull_request_review', changes(bot('tess')))).toHaveLength(1);
    expect(
      fired(
        remediate,
        'pull_request',
        labeledEvent('needs-fixes', { repository: REPOSITORY.name, labels: ['task-5'], sender: bot('cleo') }),
      ),
    ).toHaveLength(1);
  });

  it('ignores a human reviewer, an approval, another label, another repository and a fork', async () => {
    expect(fired(remediate, 'pull_request_review', changes('octocat'))).toEqual([]);
    const approved = reviewEvent('approved', bot('cleo'), { repository: REPOSITORY.name, labels: ['task-5'] });
    expect(fired(remediate, 'pull_request_review', approved)).toEqual([]);
    expect(fired(remediate, 'pull_request', labeledEvent('ready-for-qa', { repository: REPOSITORY.name, sender: bot('cleo') }))).toEqual(
      [],
    );
    const elsewhere = reviewEvent('changes_requested', bot('cleo'), { repository: 'octo-org/other', labels: ['task-5'] });
    expect(fired(remediate, 'pull_request_review', elsewhere)).toEqual([]);
    const fork = reviewEvent('changes_requested', bot('cleo'), {
      repository: REPOSITORY.name,
      labels: ['task-5'],
      headRepository: 'evil/fork',
    });
    expect(fired(remediate, 'pull_request_review', fork)).toEqual([]);
  });

  it('starts the remediator (at least once) with the task, the reviewer, the reason and the delivery', async () => {
    const [trigger] = fired(remediate, 'pull_request_review', changes(bot('cleo')));
    expect(trigger.attempts).toBeGreaterThan(1);
    expect(trigger.resource.spec.workflowTemplateRef).toEqual({ name: REMEDIATOR_TEMPLATE_NAME });
    expect(argumentsOf(trigger.resource)).toMatchObject({
      kind: 'remediate',
      repository: REPOSITORY.name,
      'task-id': '5',
      sender: bot('cleo'),
      reason: 'changes requested',
      'event-id': 'delivery-1',
    });
    expect(Object.keys(argumentsOf(trigger.resource))).toEqual([...REMEDIATOR_PARAMETERS]);
  });
});

describe('the stale-work Sensor', () => {
  const push = (sender: string, ref = 'refs/heads/feature/task-5-implementation', deleted = false) => ({
    ref,
    deleted,
    after: 'abc123',
    repository: { full_name: REPOSITORY.name },
    sender: { login: sender },
  });

  it('fires on a push of a task branch by an implementation bot, with the task id from the branch', async () => {
    const [trigger] = fired(staleWork, 'push', push(bot('rex')));
    expect(argumentsOf(trigger.resource)).toMatchObject({
      kind: 'stale-work',
      'task-id': '5',
      sender: bot('rex'),
      reason: 'pushed abc123',
    });
    // Only the agents of the implementation stage push the task's work: blaze works in no stage here.
    expect(fired(staleWork, 'push', push(bot('blaze')))).toEqual([]);
  });

  it("ignores anyone else's push, another branch, and a branch deletion", async () => {
    expect(fired(staleWork, 'push', push(bot('cleo')))).toEqual([]);
    expect(fired(staleWork, 'push', push(bot('rex'), 'refs/heads/main'))).toEqual([]);
    expect(fired(staleWork, 'push', push(bot('rex'), undefined, true))).toEqual([]);
  });
});

describe('the remediator', () => {
  const templates = new Map<string, any>(remediator.spec.templates.map((template: any) => [template.name, template]));

  it('runs one at a time per task, with bounded retries, a deadline and least privilege', async () => {
    expect(templates.get('remediate').synchronization.mutexes[0].name).toBe('remediate-task-{{workflow.parameters.task-id}}');
    for (const template of templates.values()) if (template.container) expect(Number(template.retryStrategy.limit)).toBeLessThanOrEqual(3);
    expect(remediator.spec.activeDeadlineSeconds).toBeGreaterThan(0);
    const byResource = (a: any, b: any) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect([...platform.one('Role', remediator.spec.serviceAccountName).rules].sort(byResource)).toEqual(
      REMEDIATOR_GRANTS.map((grant) => ({
        apiGroups: [grant.apiGroup],
        resources: [grant.resource],
        ...(grant.resourceNames ? { resourceNames: grant.resourceNames } : {}),
        verbs: grant.verbs,
      })).sort(byResource),
    );
  });

  it('replaces or fails the play only after it has stopped, and only when decide says so', async () => {
    const [[decide], [stop], [replace, exhausted]] = templates.get('remediate').steps;
    expect(decide.template).toBe('decide');
    expect(stop.when).toContain("!= 'none'");
    expect(replace.when).toContain("== 'replace'");
    expect(exhausted.when).toContain("== 'exhaust'");
  });
});

describe('the remediation scenarios', () => {
  it('remediation: two rounds of requested changes, then approved and merged, every step in the trace and the record', async () => {
    const report = await scenario('remediation');
    expect(report.plays).toEqual([{ repository: REPOSITORY.name, task: 5, stage: 'completed', round: 3 }]);
    const rounds = report.steps.flatMap((step) => step.remediated ?? []);
    expect(rounds.map((entry) => [entry.outcome, entry.fromRound, entry.round, entry.stage])).toEqual([
      ['next-round', 1, 2, 'implementation'],
      ['next-round', 2, 3, 'implementation'],
    ]);
    // The first request came while cleo worked: her CodeRun was cancelled.
    expect(rounds[0].cancelled).toEqual(['cleo/code-quality']);
    const trace = formatTrace(report);
    expect(trace).toContain('sent back task 5 of 5dlabs/cto-play-test: round 2 at implementation');
    expect(trace).toContain('sent back task 5 of 5dlabs/cto-play-test: round 3 at implementation');
    expect(trace).toContain('5dlabs/cto-play-test task 5: completed, round 3');
  });

  it('rounds-exhausted: the third request for changes fails the play, and says why', async () => {
    const report = await scenario('rounds-exhausted');
    expect(report.plays).toEqual([
      {
        repository: REPOSITORY.name,
        task: 5,
        stage: 'code-quality',
        status: 'failed',
        round: 3,
        reason: 'remediation rounds exhausted: 3 of 3',
      },
    ]);
    expect(report.coderuns.at(-1)).toMatchObject({ stage: 'code-quality', agent: 'cleo', phase: 'Cancelled' });
  });

  it('stale-run-cancelled: a push by rex re-runs cleo in the same round; a push while rex works, or by anyone else, does nothing', async () => {
    const report = await scenario('stale-run-cancelled');
    expect(report.steps[0].remediated).toBeUndefined();
    expect(report.steps[3].sensors).toEqual([]);
    expect(report.steps[4].remediated).toEqual([
      expect.objectContaining({
        kind: 'stale-work',
        outcome: 're-run',
        fromRound: 1,
        round: 1,
        stage: 'code-quality',
        cancelled: ['cleo/code-quality'],
      }),
    ]);
    expect(report.plays).toEqual([{ repository: REPOSITORY.name, task: 5, stage: 'code-quality' }]);
    expect(report.coderuns.filter((run) => run.phase === 'Running')).toEqual([
      expect.objectContaining({ agent: 'cleo', stage: 'code-quality' }),
    ]);
  });

  it('remediation-duplicate-delivery: a redelivered request for changes starts no second round', async () => {
    const report = await scenario('remediation-duplicate-delivery');
    expect(report.steps.flatMap((step) => step.remediated ?? [])).toHaveLength(1);
    // The redelivered review is older than the round it started (its successor play): the remediator refuses it
    // by its time; a redelivered label event, which has no time, by the record's history of handled events.
    expect(report.steps[4].notes.join(' ')).toMatch(/belongs to an earlier round|handled already/);
    expect(report.plays).toEqual([{ repository: REPOSITORY.name, task: 5, stage: 'code-quality', round: 2 }]);
  });

  it('remediation-out-of-order: two requests at once start one round, a late one of round 1 changes nothing', async () => {
    const report = await scenario('remediation-out-of-order');
    expect(report.steps.flatMap((step) => step.remediated ?? [])).toHaveLength(1);
    expect(report.steps[3].notes.join(' ')).toContain('is at implementation (round 2)');
    expect(report.steps[5].notes.join(' ')).toContain('belongs to an earlier round');
    expect(report.plays).toEqual([{ repository: REPOSITORY.name, task: 5, stage: 'code-quality', round: 2 }]);
  });
});

describe('a remediator out of step with the plays (the pitfall remediator-stages catches)', () => {
  it('stops the play and has its successor refused, in the simulator', async () => {
    const objects: Record<string, any>[] = structuredClone([...platform.objects]);
    const broken = objects.find((object) => object.metadata.name === REMEDIATOR_TEMPLATE_NAME)!;
    for (const template of broken.spec.templates)
      for (const variable of template.container?.env ?? []) if (variable.name === 'IMPLEMENTATION_STAGE') variable.value = 'implement';
    const report = await simulate(
      { config, objects },
      loadScenario(resolve(__dirname, '..', 'examples', 'scenarios', 'remediation', 'scenario.yaml')),
    );
    expect(report.steps[2].remediated).toEqual([expect.objectContaining({ outcome: 'refused', stage: 'implement' })]);
    // The play was stopped and replaced; Argo refuses its successor's start stage, so the task stays failed.
    expect(report.plays).toEqual([expect.objectContaining({ stage: 'implement', status: 'failed', round: 2 })]);
  });
});

describe('agent-play status of a remediated task', () => {
  const record = {
    repository: REPOSITORY.name,
    task: '5',
    workflowName: 'play-play-test-task-5',
    startedAt: '2026-01-01T00:00:00Z',
    lastUpdated: '2026-01-01T00:09:00Z',
    stage: 'code-quality',
    status: 'failed',
    round: 3,
    reason: 'remediation rounds exhausted: 3 of 3',
    remediations: [
      {
        round: 2,
        kind: 'remediate',
        reason: 'round 2: changes requested by 5dlabs-cleo[bot]',
        reviewer: '5dlabs-cleo[bot]',
        url: 'u',
        eventId: 'd1',
        at: '2026-01-01T00:02:00Z',
      },
    ],
  };

  it('shows the round, the reason it failed and the history', async () => {
    const parsed = parseProgressRecord(JSON.stringify(record));
    if (!('record' in parsed)) throw new Error(parsed.problem);
    const status = taskStatus(
      { configMap: 'cm', key: '5dlabs.cto-play-test.task-5.json', task: '5', repository: REPOSITORY.name, record: parsed.record },
      new Date('2026-01-01T00:10:00Z'),
      { stuckAfter: 3600, gateStuckAfter: 86400 },
    );
    expect(status).toMatchObject({
      round: 3,
      reason: 'remediation rounds exhausted: 3 of 3',
      flag: 'failed: remediation rounds exhausted: 3 of 3',
    });
    expect(status.remediations).toEqual([expect.objectContaining({ round: 2, reviewer: '5dlabs-cleo[bot]' })]);
  });
});
