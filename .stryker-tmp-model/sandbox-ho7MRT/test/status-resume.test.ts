/**
 * `agent-play status` and `agent-play resume`: state lives in the cluster's progress ConfigMaps, and every
 * run is a resume. The fixture looks like `kubectl get cm -l play-tracking=true -o yaml` output of the earlier,
 * per-repository layout (still read after an upgrade); one test writes its records with the runtime step the
 * plays run (against the in-memory API) so the format the commands read cannot drift from what plays write.
 */
// @ts-nocheck

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { PlayAnnotations, PlayLabels, PROGRESS_TRACKING_LABEL, WorkflowTypes } from '../constructs/model/labels';
import { isLabelValue, repositoryLabelValue } from '../constructs/model/naming';
import { PLAY_TEMPLATE_NAME, PlayParameters, playWorkflowName } from '../constructs/model/play-contract';
import { legacyProgressKey, progressConfigMapOf, progressKeyOf } from '../constructs/progress/progress-layout';
import { enterStageStep } from '../constructs/progress/progress-steps';
import { ApiResources } from '../constructs/runtime/kube-api';
import { MemoryApiServer } from '../src/simulate/memory-api';
import { validateArgoWorkflowsObject } from './support/argo-schemas';
import { runCapturing } from './support/run-cli';

const FIXTURE = resolve(__dirname, 'fixtures/state/progress-configmaps.yaml');
const STATE = readFileSync(FIXTURE, 'utf8');
const REPOSITORY = '5dlabs/cto-play-test';
const SERVICE = 'play-test';
/** The report's clock: 07:22 on the day of the fixture's latest records. */
const NOW = new Date('2026-11-23T07:22:00Z');

const status = (argv: string[], stdin = STATE) => runCapturing(['status', ...argv], { stdin, now: NOW });
const resume = (task: string, argv: string[] = [], stdin = STATE) =>
  runCapturing(['resume', '--repository', REPOSITORY, '--task', task, ...argv], { stdin });

/** The fixture with one task record replaced. */
function withRecord(task: string, change: (record: Record<string, any>) => unknown): string {
  const list = parse(STATE);
  const data = list.items[0].data;
  data[legacyProgressKey(task)] = JSON.stringify(change(JSON.parse(data[legacyProgressKey(task)])));
  return stringify(list);
}

describe('agent-play status', () => {
  it('lists every task, sorted by repository and task number, with its stage, status, last agent and update', () => {
    const run = status([]);
    expect(run.code).toBe(0);
    const rows = run.out.split('\n').filter((line) => /^\S+\s+\d+\s/.test(line));
    // Records written before remediation rounds are in round 1; an unreadable one has none.
    expect(rows.map((row) => row.split(/\s+/).slice(0, 6))).toEqual([
      [REPOSITORY, '5', 'implementation', 'in-progress', '1', 'rex'],
      [REPOSITORY, '6', 'waiting-pr-created', 'suspended', '1', 'rex'],
      [REPOSITORY, '7', 'completed', 'completed', '1', 'tess'],
      [REPOSITORY, '8', 'testing', 'failed', '1', 'tess'],
      [REPOSITORY, '9', 'testing', 'in-progress', '1', 'tess'],
      [REPOSITORY, '10', '?', 'unreadable', '-', '-'],
      ['octo-org/web', '3', 'code-quality', 'in-progress', '1', 'cleo'],
    ]);
    expect(run.out).toContain('play-play-test-task-5');
  });

  it('flags a stale agent stage, a failed play and an unreadable record, and not a fresh one or a completed one', () => {
    const run = status(['--format', 'json']);
    const tasks = JSON.parse(run.out).tasks as { repository: string; task: string; flag?: string; ageSeconds?: number }[];
    const flags = Object.fromEntries(tasks.map((task) => [`${task.repository}#${task.task}`, task.flag ?? null]));
    expect(flags).toEqual({
      [`${REPOSITORY}#5`]: 'stuck: no progress for 8h22m (more than 6h)',
      [`${REPOSITORY}#6`]: null,
      [`${REPOSITORY}#7`]: null,
      [`${REPOSITORY}#8`]: 'failed: resume it with agent-play resume',
      [`${REPOSITORY}#9`]: null,
      [`${REPOSITORY}#10`]: expect.stringMatching(/^unreadable record task-10\.json: not JSON/),
      'octo-org/web#3': null,
    });
    expect(tasks.find((task) => task.task === '9')?.ageSeconds).toBe(22 * 60);
  });

  it('takes its thresholds from the command line: a gate waits longer than an agent stage before it is flagged', () => {
    const tight = JSON.parse(status(['--format', 'json', '--stuck-after', '10m', '--gate-stuck-after', '1h']).out).tasks;
    const flagOf = (task: string) => tight.find((entry: { task: string }) => entry.task === task)?.flag;
    expect(flagOf('9')).toBe('stuck: no progress for 22m (more than 10m)');
    expect(flagOf('6')).toBe('waiting at the gate for 1h22m (more than 1h): is its event lost?');
    expect(status(['--stuck-after', 'soon']).err).toContain('--stuck-after: "soon" is not a duration');
  });

  it('exits 0 with flags (it is a report), 1 with --fail-on-stuck, 2 for input that is not progress state', () => {
    expect(status([]).code).toBe(0);
    expect(status(['--fail-on-stuck']).code).toBe(1);
    const healthy = stringify({ apiVersion: 'v1', kind: 'List', items: [parse(STATE).items[1]] });
    expect(status(['--fail-on-stuck'], healthy).code).toBe(0);
    const notState = status([], 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: other }\ndata: { a: b }\n');
    expect(notState.code).toBe(2);
    expect(notState.err).toContain(`standard input: no progress ConfigMap (kind ConfigMap labelled ${PROGRESS_TRACKING_LABEL}=true)`);
    expect(status([], 'items: [').code).toBe(2);
  });

  it('reads a file, a single ConfigMap and multi-document YAML as well as a List', () => {
    expect(runCapturing(['status', FIXTURE], { now: NOW }).out).toBe(status([]).out);
    const [first, second] = parse(STATE).items;
    const multi = `${stringify(first)}---\n${stringify(second)}`;
    expect(status([], multi).out).toBe(status([]).out);
    expect(status([], stringify(second)).out).toContain('octo-org/web');
  });
});

describe('agent-play resume', () => {
  it("prints the Workflow that recreates the play at its stored stage, with the play's name, labels and template", () => {
    const run = resume('5');
    expect(run.code, run.err).toBe(0);
    const workflow = parse(run.out);
    expect(workflow.metadata).toMatchObject({
      name: playWorkflowName(SERVICE, 5),
      namespace: 'agents',
      labels: {
        [PlayLabels.taskId]: '5',
        [PlayLabels.repository]: repositoryLabelValue(REPOSITORY),
        [PlayLabels.workflowType]: WorkflowTypes.play,
        [PlayLabels.currentStage]: 'implementation',
      },
      annotations: { [PlayAnnotations.repository]: REPOSITORY },
    });
    expect(workflow.spec).toEqual({
      workflowTemplateRef: { name: PLAY_TEMPLATE_NAME },
      arguments: {
        parameters: [
          { name: PlayParameters.repository, value: REPOSITORY },
          { name: PlayParameters.taskId, value: '5' },
          { name: PlayParameters.startStage, value: 'implementation' },
          { name: PlayParameters.round, value: '1' },
          { name: PlayParameters.taskType, value: '' },
        ],
      },
    });
    for (const value of Object.values(workflow.metadata.labels as Record<string, string>)) expect(isLabelValue(value)).toBe(true);
    expect(validateArgoWorkflowsObject(workflow)).toEqual([]);
    expect(resume('5').out).toBe(run.out);
  });

  it("resumes from the task's shard ConfigMap when the ConfigMap of the earlier layout also holds the task", () => {
    const list = parse(STATE);
    const legacy = list.items[0];
    const record = JSON.parse(legacy.data[legacyProgressKey('5')]);
    const shard = {
      ...legacy,
      metadata: { ...legacy.metadata, name: progressConfigMapOf(REPOSITORY, 5) },
      data: {
        [progressKeyOf(REPOSITORY, 5)]: JSON.stringify({ ...record, stage: 'code-quality', lastUpdated: '2026-11-23T07:00:00Z' }),
      },
    };
    for (const items of [
      [legacy, shard, ...list.items.slice(1)],
      [shard, legacy, ...list.items.slice(1)],
    ]) {
      const run = resume('5', [], stringify({ ...list, items }));
      expect(run.code, run.err).toBe(0);
      expect(parse(run.out).metadata.labels[PlayLabels.currentStage]).toBe('code-quality');
    }
  });

  it('resumes a play waiting at a gate at that gate, and a failed play at the stage that failed', () => {
    expect(parse(resume('6').out).spec.arguments.parameters[2]).toEqual({ name: PlayParameters.startStage, value: 'waiting-pr-created' });
    expect(parse(resume('8').out).metadata.labels[PlayLabels.currentStage]).toBe('testing');
  });

  it('refuses what it cannot resume faithfully, one line each, exit 2, printing nothing', () => {
    const refusals: [string, string[], string, RegExp][] = [
      ['7', [], STATE, /^task 7 of 5dlabs\/cto-play-test is completed \(stage completed\); nothing to resume$/],
      [
        '11',
        [],
        STATE,
        /^no progress record of task 11 of 5dlabs\/cto-play-test \(no key 5dlabs\.cto-play-test\.task-11\.json in play-progress-shard-\d+, nor in an earlier layout's ConfigMap\); recorded tasks of 5dlabs\/cto-play-test: 5, 6, 7, 8, 9, 10$/,
      ],
      ['10', [], STATE, /^the record of task 10 .* cannot be used: not JSON .*; fix or delete the key task-10\.json before resuming$/],
      [
        '5',
        [],
        withRecord('5', (record) => ({ ...record, stage: 'review' })),
        /at stage "review", which the configured stage machine does not have \(stages: implementation, .*\): resume with the configuration the play ran with$/,
      ],
      [
        '5',
        [],
        withRecord('5', (record) => ({ ...record, task: '6' })),
        /cannot be used: the record says task 6 but is stored under the key of task 5/,
      ],
      [
        '5',
        [],
        withRecord('5', (record) => ({ ...record, repository: 'octo-org/web' })),
        /cannot be used: the record says repository octo-org\/web but the ConfigMap is for 5dlabs\/cto-play-test/,
      ],
      ['5', [], withRecord('5', ({ status: _status, ...record }) => record), /cannot be used: status: /],
      [
        '5',
        [],
        withRecord('5', (record) => ({ ...record, lastUpdated: 'yesterday' })),
        /cannot be used: lastUpdated: expected an RFC 3339 time/,
      ],
      [
        '5',
        [],
        stringify({ apiVersion: 'v1', kind: 'List', items: [parse(STATE).items[1]] }),
        /^no progress record of task 5 of 5dlabs\/cto-play-test \(no key 5dlabs\.cto-play-test\.task-5\.json in play-progress-shard-\d+, nor in an earlier layout's ConfigMap\); recorded tasks of 5dlabs\/cto-play-test: none$/,
      ],
      ['5', ['--parameter', 'team=core'], STATE, /^--parameter team: the play declares no such parameter/],
      [
        '5',
        ['--parameter', 'constructor=x'],
        STATE,
        /--parameter constructor=x: "constructor" cannot be a parameter name \(JavaScript reserves it\); use a parameter the play template declares$/,
      ],
    ];
    for (const [task, argv, stdin, message] of refusals) {
      const run = resume(task, argv, stdin);
      expect(run.code, `${task} ${message}`).toBe(2);
      expect(run.out).toBe('');
      expect(run.err.trim()).toMatch(message);
    }
    expect(runCapturing(['resume', '--repository', 'octo-org/web', '--task', '3'], { stdin: STATE }).err).toMatch(
      /^repository octo-org\/web is not in the configuration/,
    );
    expect(runCapturing(['resume', '--task', '3'], { stdin: STATE }).err).toContain('--repository OWNER/NAME is required');
  });

  describe('with a conditional security stage (backend and API tasks only)', () => {
    const config = resolve(__dirname, 'fixtures/state/security-stage.yaml');
    const at = (stage: string, parameters?: Record<string, string>) =>
      withRecord('5', ({ parameters: _kept, ...record }) => ({ ...record, stage, ...(parameters ? { parameters } : {}) }));
    const resumeAt = (stdin: string, argv: string[] = []) => resume('5', ['--config', config, ...argv], stdin);

    it('passes the play parameters the record kept, so the play takes the same conditional stages', () => {
      const run = resumeAt(at('security', { 'task-type': 'backend' }));
      expect(run.code, run.err).toBe(0);
      expect(parse(run.out).spec.arguments.parameters).toEqual([
        { name: PlayParameters.repository, value: REPOSITORY },
        { name: PlayParameters.taskId, value: '5' },
        { name: PlayParameters.startStage, value: 'security' },
        { name: PlayParameters.round, value: '1' },
        { name: PlayParameters.taskType, value: 'backend' },
      ]);
    });

    it('refuses to recreate a play that would skip the stage it stopped in', () => {
      const run = resumeAt(at('security', { 'task-type': '' }));
      expect(run.code).toBe(2);
      expect(run.err).toContain(
        'stage security runs only when task-type is one of backend, api, but task-type is "": pass --parameter task-type=VALUE',
      );
      expect(resumeAt(at('security', { 'task-type': '' }), ['--parameter', 'task-type=api']).code).toBe(0);
    });

    it('asks for the parameters an older record did not keep when a conditional stage is ahead', () => {
      const old = at('code-quality');
      const refused = resumeAt(old);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain(
        'keeps no play parameters, and conditional stages are ahead: security (task-type); pass --parameter NAME=VALUE',
      );
      const resumed = resumeAt(old, ['--parameter', 'task-type=frontend']);
      expect(resumed.code, resumed.err).toBe(0);
      expect(parse(resumed.out).spec.arguments.parameters).toContainEqual({ name: PlayParameters.taskType, value: 'frontend' });
      expect(resumeAt(at('testing')).code).toBe(0);
    });
  });

  it('reads the records the runtime step of the plays writes', async () => {
    const server = new MemoryApiServer(() => new Date('2026-11-23T07:00:00Z'));
    const workflow = playWorkflowName(SERVICE, 12);
    server.put(ApiResources.workflows, {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Workflow',
      metadata: { name: workflow, namespace: 'agents' },
      spec: {},
    });
    const context = { api: server.client(), now: () => new Date('2026-11-23T07:00:00Z'), sleep: async () => {}, log: () => {} };
    const enter = (stage: string, previous: string, agent: string, status: string) =>
      enterStageStep.run(
        context,
        enterStageStep.env.read({
          NAMESPACE: 'agents',
          WORKFLOW_NAME: workflow,
          REPOSITORY,
          TASK_ID: '12',
          ROUND: '1',
          PARAMETER_NAMES: PlayParameters.taskType,
          PARAMETER_1: 'backend',
          STAGE: stage,
          PREVIOUS_STAGE: previous,
          AGENT: agent,
          CLI: agent ? 'claude' : '',
          STATUS: status,
        }),
      );
    await enter('implementation', '', 'rex', 'in-progress');
    await enter('waiting-pr-created', 'implementation', '', 'suspended');
    {
      const configMap = server.peek({ resource: ApiResources.configMaps, namespace: 'agents', name: progressConfigMapOf(REPOSITORY, 12) });
      expect(configMap?.metadata.labels?.[PROGRESS_TRACKING_LABEL]).toBe('true');
      const listed = stringify({ apiVersion: 'v1', kind: 'List', items: [configMap] });
      const report = JSON.parse(runCapturing(['status', '--format', 'json'], { stdin: listed, now: NOW }).out).tasks;
      expect(report).toEqual([
        expect.objectContaining({
          repository: REPOSITORY,
          task: '12',
          stage: 'waiting-pr-created',
          status: 'suspended',
          lastAgent: 'rex',
          workflowName: workflow,
        }),
      ]);
      expect(report[0].flag).toBeUndefined();
      const recreated = parse(runCapturing(['resume', '--repository', REPOSITORY, '--task', '12'], { stdin: listed }).out);
      expect(recreated.spec.arguments.parameters).toEqual([
        { name: PlayParameters.repository, value: REPOSITORY },
        { name: PlayParameters.taskId, value: '12' },
        { name: PlayParameters.startStage, value: 'waiting-pr-created' },
        { name: PlayParameters.round, value: '1' },
        { name: PlayParameters.taskType, value: 'backend' },
      ]);
    }
  });
});
