import { describe, expect, it } from 'vitest';
import { PlayAnnotations, PROGRESS_TRACKING_LABEL } from '../constructs/model/labels';
import { PROGRESS_SHARDS, progressConfigMapName, progressConfigMapOf, progressTaskKey } from '../constructs/model/naming';
import { PROGRESS_SCRIPT } from '../constructs/workflows/progress-script';
import { FakeCluster, testWithFakeCluster, type KubeObject } from './support/fake-kubectl';
import { synth } from './support/synth';
import { runBash, type ScriptRun } from './support/run-bash';

/**
 * The progress script run for real: bash and the real jq, against a fake kubectl that keeps the objects
 * as JSON files (see `support/fake-kubectl.ts`). Every assertion is on the stored objects.
 */

const NAMESPACE = 'agents';
const REPOSITORY = '5dlabs/cto-play-test';
const BRANCH = 'main';
/** The shard ConfigMap of task 5's record (and of task 69's: the same shard). */
const CONFIGMAP = progressConfigMapOf(REPOSITORY, 5);
/** A task whose record shares task 5's ConfigMap. */
const SAME_SHARD = 5 + PROGRESS_SHARDS;
/** What `date -u +%Y-%m-%dT%H:%M:%SZ` prints; any RFC 3339 timestamp would do. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const timestamp = () => expect.stringMatching(RFC3339);
/** No run may take longer: a hung or failing script must not stall the suite. */
const RUN_TIMEOUT_MS = 8_000;

const workflowName = (task: number) => `play-play-test-task-${task}`;

/** The Workflow of a task's play, as Argo would have created it. */
function playWorkflow(task: number): KubeObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: {
      name: workflowName(task),
      namespace: NAMESPACE,
      resourceVersion: '4711',
      labels: { 'agents.platform/task-id': String(task) },
      annotations: { [PlayAnnotations.repository]: REPOSITORY },
    },
    spec: { workflowTemplateRef: { name: 'play-play-test' } },
    status: { phase: 'Running' },
  };
}

interface Enter {
  readonly task: number;
  readonly stage: string;
  readonly previous: string;
  readonly agent: string;
  readonly cli: string;
  readonly status: string;
}

interface Exit {
  readonly task: number;
  /** The `current-stage` label when the play ended. */
  readonly stage: string;
  readonly workflowStatus: string;
}

/** The environment the play's templates give the script (see `ProgressEnvironment`). */
function common(task: number): Record<string, string> {
  return {
    TASK_ID: String(task),
    WORKFLOW_NAME: workflowName(task),
    NAMESPACE,
    REPOSITORY,
    BRANCH,
    PROGRESS_CONFIGMAP: progressConfigMapName(REPOSITORY),
    PROGRESS_SHARDS: String(PROGRESS_SHARDS),
    PROGRESS_KEY: progressTaskKey(task),
    TRACKING_LABEL: PROGRESS_TRACKING_LABEL,
    HISTORY_ANNOTATION: PlayAnnotations.stageHistory,
    ENTERED_AT_ANNOTATION: PlayAnnotations.stageEnteredAt,
    // The play parameters stage conditions test, as the template passes them.
    PARAMETER_NAMES: 'task-type team',
    PARAMETER_1: 'backend',
    PARAMETER_2: '',
    // The remediation round, from the play's round parameter.
    ROUND: '2',
  };
}

function enterEnv(event: Enter): Record<string, string> {
  return {
    EVENT: 'enter',
    STAGE: event.stage,
    PREVIOUS_STAGE: event.previous,
    AGENT: event.agent,
    CLI: event.cli,
    STATUS: event.status,
    WORKFLOW_STATUS: '',
    ...common(event.task),
  };
}

function exitEnv(event: Exit): Record<string, string> {
  return {
    EVENT: 'exit',
    STAGE: event.stage,
    PREVIOUS_STAGE: '',
    AGENT: '',
    CLI: '',
    STATUS: '',
    WORKFLOW_STATUS: event.workflowStatus,
    ...common(event.task),
  };
}

type Run = ScriptRun;

/** One test's fake cluster (holding the Workflows of tasks 5 and 6), and the script run against it. */
class Harness {
  public readonly cluster: FakeCluster;

  public constructor(folder: string) {
    this.cluster = FakeCluster.create(folder);
    this.cluster.put(playWorkflow(5));
    this.cluster.put(playWorkflow(6));
    this.cluster.put(playWorkflow(SAME_SHARD));
  }

  /** Runs the script as the enter step would, whatever its exit code. */
  public attemptEnter(event: Enter): Promise<Run> {
    return this.runScript(enterEnv(event));
  }

  /** Runs the script as the enter step would; `env` replaces what the template would give. */
  public enter(event: Enter, env: Record<string, string> = {}): Promise<Run> {
    return this.run({ ...enterEnv(event), ...env });
  }

  public exit(event: Exit): Promise<Run> {
    return this.run(exitEnv(event));
  }

  /**
   * Creates the progress ConfigMap as an earlier play of the repository did. The tests of what follows the
   * first record start from it, so that they do not depend on the creation, which the first test covers.
   */
  public seedProgressConfigMap(): void {
    this.cluster.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: CONFIGMAP, namespace: NAMESPACE, labels: { [PROGRESS_TRACKING_LABEL]: 'true' } },
      data: { repository: REPOSITORY, branch: BRANCH, 'started-at': '2026-01-02T03:04:05Z' },
    });
  }

  /** The shard ConfigMap that holds the record of `task` (task 5's by default). */
  public progressConfigMap(task = 5): KubeObject {
    const name = progressConfigMapOf(REPOSITORY, task);
    const configMap = this.cluster.get('configmap', NAMESPACE, name);
    if (!configMap) throw new Error(`ConfigMap ${name} was not created`);
    return configMap;
  }

  /** The task's progress record, parsed from its key of its shard ConfigMap. */
  public record(task: number): any {
    const text = this.progressConfigMap(task).data?.[progressTaskKey(task)];
    if (typeof text !== 'string') throw new Error(`the ConfigMap has no ${progressTaskKey(task)}`);
    return JSON.parse(text);
  }

  public workflow(task: number): KubeObject {
    const stored = this.cluster.get('workflow', NAMESPACE, workflowName(task));
    if (!stored) throw new Error(`Workflow ${workflowName(task)} is gone`);
    return stored;
  }

  /** The parsed stage history annotation of the task's Workflow. */
  public history(task: number): any[] {
    return JSON.parse(this.workflow(task).metadata.annotations?.[PlayAnnotations.stageHistory] ?? 'null');
  }

  /** The exit codes of the `kubectl patch KIND NAME` calls, in order. */
  public patchExitCodes(kind: string, name: string): number[] {
    return this.cluster
      .calls()
      .filter((call) => call.args[0] === 'patch' && call.args[1] === kind && call.args[2] === name)
      .map((call) => call.exitCode);
  }

  /** Runs the script and fails the test, with everything needed to see why, unless it exits 0. */
  private async run(vars: Record<string, string>): Promise<Run> {
    const result = await this.runScript(vars);
    if (result.code !== 0) {
      const calls = this.cluster.calls().map((call) => `  [${call.exitCode}] kubectl ${call.args.join(' ')}`);
      throw new Error(
        `progress script ${vars.EVENT} ${vars.STAGE} (task ${vars.TASK_ID}) ended with ${result.signal ?? `exit ${result.code}`}` +
          `\n--- stderr\n${result.stderr}\n--- kubectl calls\n${calls.join('\n')}`,
      );
    }
    return result;
  }

  /** Runs the script as the pod does (`bash -c`), with only the given environment and the fake first on PATH. */
  private runScript(vars: Record<string, string>): Promise<Run> {
    return runBash(PROGRESS_SCRIPT, this.cluster.scriptEnv({ HOME: this.cluster.root, ...vars }), RUN_TIMEOUT_MS);
  }
}

/** A test with its own harness; afterwards, no call the fake refused, and the temporary folder is gone. */
const play = testWithFakeCluster((folder) => new Harness(folder));

const IMPLEMENTATION: Enter = { task: 5, stage: 'implementation', previous: '', agent: 'rex', cli: 'cursor', status: 'in-progress' };
const PR_GATE: Enter = { task: 5, stage: 'waiting-pr-created', previous: 'implementation', agent: '', cli: '', status: 'suspended' };

// Concurrent: every test has its own fake cluster.
describe.concurrent('progress script', () => {
  // Guards a bug this test found: `label` is a jq keyword, and jq before 1.7 cannot read a variable named
  // `$label`, so the ConfigMap was never created. The script now names it `$tracking`.
  play('creates the labelled progress ConfigMap and the task record when the first stage is entered', async ({ h }) => {
    expect(h.cluster.get('configmap', NAMESPACE, CONFIGMAP)).toBeUndefined();

    await h.enter(IMPLEMENTATION);

    const configMap = h.progressConfigMap();
    expect(configMap.metadata.labels).toEqual({ [PROGRESS_TRACKING_LABEL]: 'true' });
    expect(Object.keys(configMap.data).sort()).toEqual([
      'branch',
      'current-task-id',
      'last-updated',
      'repository',
      'stage',
      'started-at',
      'status',
      'task-5.json',
      'workflow-name',
    ]);
    expect(configMap.data).toMatchObject({
      repository: REPOSITORY,
      branch: BRANCH,
      'started-at': timestamp(),
      'current-task-id': '5',
      'workflow-name': workflowName(5),
      status: 'in-progress',
      stage: 'implementation',
      'last-updated': timestamp(),
    });

    const task = h.record(5);
    expect(task).toMatchObject({
      repository: REPOSITORY,
      task: '5',
      workflowName: workflowName(5),
      startedAt: timestamp(),
      lastUpdated: timestamp(),
      stage: 'implementation',
      status: 'in-progress',
      lastAgent: 'rex',
      parameters: { 'task-type': 'backend', team: '' },
      round: 2,
    });
    expect(task.cliHistory).toEqual([{ stage: 'implementation', agent: 'rex', cli: 'cursor', at: timestamp() }]);
    expect(task.stageResults).toBeUndefined();

    const annotations = h.workflow(5).metadata.annotations ?? {};
    expect(h.history(5)).toEqual([{ stage: 'implementation', agent: 'rex', enteredAt: timestamp() }]);
    expect(annotations[PlayAnnotations.stageEnteredAt]).toMatch(RFC3339);
    expect(annotations[PlayAnnotations.stageEnteredAt]).toBe(h.history(5)[0].enteredAt);
    // A merge patch: what was there stays.
    expect(annotations[PlayAnnotations.repository]).toBe(REPOSITORY);
    expect(h.workflow(5).metadata.labels).toEqual(playWorkflow(5).metadata.labels);
    expect(h.workflow(5).status).toEqual({ phase: 'Running' });
    // Each written once, with the version it read.
    expect(h.patchExitCodes('workflow', workflowName(5))).toEqual([0]);
    expect(h.patchExitCodes('configmap', CONFIGMAP)).toEqual([0]);
    expect(
      h.cluster
        .calls()
        .find((call) => call.args[0] === 'patch')
        ?.args.join(' '),
    ).toContain('"resourceVersion":"4711"');
  });

  play('keeps the play parameters as given: none is an empty object, and of two values for one name the later', async ({ h }) => {
    h.seedProgressConfigMap();
    await h.enter(IMPLEMENTATION, { PARAMETER_NAMES: '', PARAMETER_1: 'ignored' });
    expect(h.record(5).parameters).toEqual({});
    await h.enter(IMPLEMENTATION, {
      PARAMETER_NAMES: 'team task-type team',
      PARAMETER_1: 'web',
      PARAMETER_2: 'backend',
      PARAMETER_3: 'it\'s "ops"',
    });
    expect(h.record(5).parameters).toEqual({ team: 'it\'s "ops"', 'task-type': 'backend' });
  });

  play('records a gate after an agent stage: the agent stage succeeded and the last agent stays', async ({ h }) => {
    h.seedProgressConfigMap();
    await h.enter(IMPLEMENTATION);
    const startedAt = h.record(5).startedAt;

    await h.enter(PR_GATE);

    const task = h.record(5);
    expect(task).toMatchObject({ stage: 'waiting-pr-created', status: 'suspended', lastAgent: 'rex', startedAt });
    expect(task.stageResults).toEqual({ implementation: { result: 'succeeded', finishedAt: timestamp() } });
    // A gate has no agent: nothing is added to the CLI history.
    expect(task.cliHistory).toEqual([{ stage: 'implementation', agent: 'rex', cli: 'cursor', at: timestamp() }]);
    expect(h.progressConfigMap().data).toMatchObject({
      repository: REPOSITORY,
      'started-at': '2026-01-02T03:04:05Z',
      status: 'suspended',
      stage: 'waiting-pr-created',
    });

    expect(h.history(5)).toEqual([
      { stage: 'implementation', agent: 'rex', enteredAt: timestamp() },
      { stage: 'waiting-pr-created', agent: '', enteredAt: timestamp() },
    ]);
    expect(h.workflow(5).metadata.annotations?.[PlayAnnotations.stageEnteredAt]).toBe(h.history(5)[1].enteredAt);
  });

  play('keeps the record of every task of one repository, tasks of one shard side by side', async ({ h }) => {
    h.seedProgressConfigMap();
    await h.enter(IMPLEMENTATION);
    await h.enter({ ...IMPLEMENTATION, task: SAME_SHARD, agent: 'blaze', cli: 'claude' });

    const five = h.record(5);
    const other = h.record(SAME_SHARD);
    expect(five).toMatchObject({
      task: '5',
      workflowName: workflowName(5),
      stage: 'implementation',
      status: 'in-progress',
      lastAgent: 'rex',
    });
    expect(five.cliHistory).toEqual([{ stage: 'implementation', agent: 'rex', cli: 'cursor', at: timestamp() }]);
    expect(other).toMatchObject({
      task: String(SAME_SHARD),
      workflowName: workflowName(SAME_SHARD),
      stage: 'implementation',
      status: 'in-progress',
      lastAgent: 'blaze',
    });
    expect(other.cliHistory).toEqual([{ stage: 'implementation', agent: 'blaze', cli: 'claude', at: timestamp() }]);
    // The summary keys follow the last write.
    expect(h.progressConfigMap().data).toMatchObject({ 'current-task-id': String(SAME_SHARD), 'workflow-name': workflowName(SAME_SHARD) });
    // Each play records on its own Workflow only.
    expect(h.history(5)).toEqual([{ stage: 'implementation', agent: 'rex', enteredAt: timestamp() }]);
    expect(h.history(SAME_SHARD)).toEqual([{ stage: 'implementation', agent: 'blaze', enteredAt: timestamp() }]);
  });

  play("writes a task of another shard to its own ConfigMap, never to task 5's", async ({ h }) => {
    h.seedProgressConfigMap();
    await h.enter({ ...IMPLEMENTATION, task: 6 });

    expect(progressConfigMapOf(REPOSITORY, 6)).not.toBe(CONFIGMAP);
    expect(h.record(6)).toMatchObject({ task: '6', stage: 'implementation' });
    expect(h.progressConfigMap(6).metadata.labels).toEqual({ [PROGRESS_TRACKING_LABEL]: 'true' });
    expect(h.progressConfigMap().data?.['task-6.json']).toBeUndefined();
    expect(h.patchExitCodes('configmap', CONFIGMAP)).toEqual([]);
  });

  play('refuses a task id that is not digits before any kubectl call', async ({ h }) => {
    for (const taskId of ['5; kubectl delete cm --all', '12a', '', '99999999999']) {
      const result = await h.attemptEnter({ ...IMPLEMENTATION, task: taskId as unknown as number });
      expect(result.code, taskId).toBe(2);
      expect(result.stderr).toContain('is not a task id');
    }
    expect(h.cluster.calls()).toEqual([]);
  });

  play('retries a ConfigMap patch that meets a conflict, keeping the write that caused it', async ({ h }) => {
    h.seedProgressConfigMap();
    // Between task 5's read and its patch, the pod of a task of the same shard writes its own record.
    const other = JSON.stringify({
      repository: REPOSITORY,
      task: String(SAME_SHARD),
      workflowName: workflowName(SAME_SHARD),
      stage: 'implementation',
      status: 'in-progress',
    });
    h.cluster.interleave('configmap', NAMESPACE, CONFIGMAP, {
      data: { [progressTaskKey(SAME_SHARD)]: other, 'current-task-id': String(SAME_SHARD) },
    });

    await h.enter(IMPLEMENTATION);

    // The first patch carried the version read before the other task wrote: a conflict, then a fresh read and a retry.
    expect(h.patchExitCodes('configmap', CONFIGMAP)).toEqual([1, 0]);
    const reads = h.cluster.calls().filter((call) => call.args[0] === 'get' && call.args[1] === 'configmap' && call.args.includes('json'));
    expect(reads).toHaveLength(2);
    expect(h.record(5)).toMatchObject({ task: '5', stage: 'implementation', status: 'in-progress', lastAgent: 'rex' });
    expect(h.progressConfigMap().data).toMatchObject({ [progressTaskKey(SAME_SHARD)]: other, 'current-task-id': '5' });
    // The seed, the other task's write, task 5's retried write.
    expect(h.progressConfigMap().metadata.resourceVersion).toBe('3');
    // One back-off of a second before the retry (the fake's sleep shortens it).
    expect(h.cluster.sleeps()).toEqual(['1']);
  });

  play('retries a Workflow patch that meets a conflict without recording the stage twice', async ({ h }) => {
    h.seedProgressConfigMap();
    // The workflow controller updates the Workflow between the script's read and its patch.
    h.cluster.interleave('workflow', NAMESPACE, workflowName(5), { status: { phase: 'Running', progress: '1/7' } });

    await h.enter(IMPLEMENTATION);

    expect(h.patchExitCodes('workflow', workflowName(5))).toEqual([1, 0]);
    expect(h.cluster.sleeps()).toEqual(['1']);
    expect(h.history(5)).toEqual([{ stage: 'implementation', agent: 'rex', enteredAt: timestamp() }]);
    expect(h.workflow(5).status).toEqual({ phase: 'Running', progress: '1/7' });
    expect(h.record(5).stage).toBe('implementation');
  });

  play('records a failed play as failed in the stage it was in', async ({ h }) => {
    h.seedProgressConfigMap();
    await h.enter({ task: 5, stage: 'code-quality', previous: 'waiting-pr-created', agent: 'cleo', cli: 'claude', status: 'in-progress' });
    const workflowBefore = h.workflow(5);

    await h.exit({ task: 5, stage: 'code-quality', workflowStatus: 'Failed' });

    const task = h.record(5);
    expect(task).toMatchObject({ stage: 'code-quality', status: 'failed', lastAgent: 'cleo' });
    expect(task.stageResults).toEqual({
      'waiting-pr-created': { result: 'succeeded', finishedAt: timestamp() },
      'code-quality': { result: 'failed', finishedAt: timestamp() },
    });
    expect(h.progressConfigMap().data).toMatchObject({ status: 'failed', stage: 'code-quality', 'current-task-id': '5' });
    // The exit handler leaves the Workflow alone.
    expect(h.workflow(5)).toEqual(workflowBefore);
  });

  play('leaves a play that succeeded after its end stage completed', async ({ h }) => {
    h.seedProgressConfigMap();
    await h.enter({ task: 5, stage: 'completed', previous: 'waiting-pr-merged', agent: '', cli: '', status: 'completed' });

    await h.exit({ task: 5, stage: 'completed', workflowStatus: 'Succeeded' });

    const task = h.record(5);
    expect(task).toMatchObject({ stage: 'completed', status: 'completed', lastUpdated: timestamp() });
    expect(task.stageResults).toEqual({ 'waiting-pr-merged': { result: 'succeeded', finishedAt: timestamp() } });
    expect(h.progressConfigMap().data).toMatchObject({ status: 'completed', stage: 'completed' });
    expect(h.history(5).map((entry) => entry.stage)).toEqual(['completed']);
  });
});

describe('progress script text', () => {
  it('takes every value from the environment, never from Argo templating', () => {
    expect(PROGRESS_SCRIPT).not.toContain('{{');
  });

  it('is given every play parameter a stage condition may test, by name and value', () => {
    const play = synth().one('WorkflowTemplate', 'play-play-test');
    for (const template of play.spec.templates.filter((candidate: any) => candidate.script?.source === PROGRESS_SCRIPT)) {
      expect(template.script.env).toEqual(
        expect.arrayContaining([
          { name: 'PARAMETER_NAMES', value: 'task-type' },
          { name: 'PARAMETER_1', value: '{{workflow.parameters.task-type}}' },
        ]),
      );
    }
  });

  it('reads only variables that both the enter and the exit templates set', () => {
    const read = new Set([...PROGRESS_SCRIPT.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]));
    const play = synth().one('WorkflowTemplate', 'play-play-test');
    const scripts = play.spec.templates.filter((template: any) => template.script?.source === PROGRESS_SCRIPT);
    expect(scripts.length).toBe(2);
    for (const template of scripts) {
      const names = template.script.env.map((variable: { name: string }) => variable.name);
      expect(
        [...read].filter((name) => !names.includes(name)),
        `variables ${template.name} does not set`,
      ).toEqual([]);
    }
  });
});
