import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESUMER_PARAMETERS, type ResumerParameter } from '../constructs/events/play-resumer-template';
import { PlayAnnotations, PlayLabels, PROGRESS_TRACKING_LABEL, WorkflowTypes } from '../constructs/model/labels';
import { repositoryLabelValue } from '../constructs/model/naming';
import {
  GATE_STAGE_INPUT,
  FIRST_ROUND,
  PlayParameters,
  playTemplateName,
  playWorkflowName,
  releaseConfigMapName,
  RESUMED_FROM_ANNOTATION,
  RESUMER_TEMPLATE_NAME,
} from '../constructs/model/play-contract';
import { resolveConfig } from '../constructs/model/resolve-config';
import { NO_TASK } from '../constructs/model/task-id-template';
import {
  CHECK_RELEASE_SCRIPT,
  CONFIRM_RELEASED_SCRIPT,
  FIND_PLAY_SCRIPT,
  RELEASED_FILE,
  WORKFLOW_FILE,
} from '../constructs/workflows/release-scripts';
import { synthesizePlatform } from '../src/synth/synthesize';
import type { Step } from '../src/simulate/scenario';
import { simulate } from '../src/simulate/simulate';
import { pullRequestEvent } from './support/github-payloads';
import { FakeCluster, testWithFakeCluster, type KubeObject } from './support/fake-kubectl';
import { parseManifests, type K8sObject } from './support/synth';
import { runBash, type ScriptRun } from './support/run-bash';

/**
 * The two release scripts run for real: bash and the real jq, against the fake kubectl (see
 * `support/fake-kubectl.ts`), each with the environment its synthesized template gives it. Every assertion
 * is on the stored objects and on the files the scripts leave for Argo.
 *
 * The scripts write their outputs to fixed paths under /tmp (the pod's scratch volume). /tmp is shared by
 * every test running at once and this process has no private mount namespace, so each run gets the
 * script text with the literal `/tmp/` replaced by its own folder; the first test below checks that the
 * only /tmp paths in the scripts are those two output files, so the replacement redirects nothing else.
 * The templates' HOME (the scratch mount, /tmp) becomes that folder too.
 */

/** Argo's label on a finished Workflow (not ours: Argo sets it). */
const ARGO_COMPLETED_LABEL = 'workflows.argoproj.io/completed';
/** What `date -u +%Y-%m-%dT%H:%M:%SZ` prints. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** Longer than any run may take, on a loaded machine: a hung script is stopped. */
const RUN_TIMEOUT_MS = 10_000;

const CONFIG = resolveConfig({ env: {} });
const MANIFESTS = parseManifests(synthesizePlatform(CONFIG));
const REPOSITORY = CONFIG.repositories[0];
/** A repository the platform does not know: only its label value differs. */
const OTHER_REPOSITORY = `${REPOSITORY.name}-other`;
const GATES = CONFIG.stages.filter((stage) => stage.type === 'gate').map((stage) => stage.name);
const AGENT_STAGE = CONFIG.stages.find((stage) => stage.type === 'agent')!.name;
const [GATE, LATER_GATE] = GATES;

/** The one script template of `templateName` whose source is `source`. */
function scriptTemplate(templateName: string, source: string): any {
  const owner = MANIFESTS.find((object) => object.kind === 'WorkflowTemplate' && object.metadata.name === templateName);
  if (!owner) throw new Error(`no WorkflowTemplate ${templateName}`);
  const found = owner.spec.templates.filter((template: any) => template.script?.source === source);
  if (found.length !== 1) throw new Error(`${templateName} runs the script in ${found.length} templates, expected 1`);
  return { ...found[0], namespace: owner.metadata.namespace as string };
}

const PLAY_TEMPLATE: K8sObject = MANIFESTS.find(
  (object) => object.kind === 'WorkflowTemplate' && object.metadata.name === playTemplateName(REPOSITORY.service),
)!;
const CHECK_TEMPLATE = scriptTemplate(playTemplateName(REPOSITORY.service), CHECK_RELEASE_SCRIPT);
const FIND_TEMPLATE = scriptTemplate(RESUMER_TEMPLATE_NAME, FIND_PLAY_SCRIPT);
const CONFIRM_TEMPLATE = scriptTemplate(RESUMER_TEMPLATE_NAME, CONFIRM_RELEASED_SCRIPT);
/** When the plays of these tests were created: before every release they record. */
const PLAY_CREATED = '2026-01-01T00:00:00Z';
/** Plays and resumers run in the namespace of their templates (`{{workflow.namespace}}`). */
const NAMESPACE: string = FIND_TEMPLATE.namespace;

/**
 * A template's env with every `{{...}}` replaced as Argo would from `values`; an expression missing from
 * `values` fails the test, so a template that starts reading something new is noticed.
 */
function templateEnv(template: any, values: Readonly<Record<string, string>>, home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { name, value } of template.script.env as { name: string; value: string }[]) {
    env[name] = value.replace(/\{\{([^{}]*)\}\}/g, (_whole, expression: string) => {
      if (!(expression in values)) throw new Error(`${template.name}: no value for {{${expression}}} (env ${name})`);
      return values[expression];
    });
  }
  // The pod's scratch folder becomes the test's (see above); no other variable may point into /tmp.
  const intoTmp = Object.entries(env).filter(([name, value]) => name !== 'HOME' && value.includes('/tmp'));
  if (intoTmp.length > 0) throw new Error(`${template.name}: env points into /tmp: ${JSON.stringify(intoTmp)}`);
  if ('HOME' in env) env.HOME = home;
  return env;
}

/** A gate's event as its Sensor hands it to the resumer (see `resumerTrigger` in gate-sensor.ts). */
interface ReleaseEvent {
  readonly gate: string;
  /** The task id the Sensor read from the pull request: digits, or `none`. */
  readonly task: string;
  readonly prNumber: number;
  /** As GitHub spells it (`body.repository.full_name`); the platform's repository unless given. */
  readonly repository?: string;
  /** The play's name (`workflow-name` strategy); empty or absent under `label-selector`. */
  readonly play?: string;
}

const prUrl = (prNumber: number) => `https://github.com/${REPOSITORY.name}/pull/${prNumber}`;

function resumerArguments(event: ReleaseEvent): Record<ResumerParameter, string> {
  const repository = event.repository ?? REPOSITORY.name;
  return {
    gate: event.gate,
    repository,
    'repository-label': repositoryLabelValue(repository),
    'release-configmap': releaseConfigMapName(REPOSITORY.service, event.task),
    'task-id': event.task,
    'pr-url': prUrl(event.prNumber),
    'pr-number': String(event.prNumber),
    play: event.play ?? '',
  };
}

interface PlayOptions {
  readonly task: number;
  /** The `current-stage` label: the stage the play is in. */
  readonly stage: string;
  /** Distinguishes two plays of one task. */
  readonly suffix?: string;
  /** Argo has finished it. */
  readonly completed?: boolean;
  /** The play of another repository (with the same task id). */
  readonly repository?: string;
  /** At a gate, whether its suspend node is active yet. @default true */
  readonly suspended?: boolean;
  /** The exact name, as under the `workflow-name` strategy. @default a generated one */
  readonly name?: string;
}

/** The node status of a play whose gate `stage` has an active suspend node (as the controller stores it). */
function suspendedAt(stage: string): Record<string, unknown> {
  return {
    'play-x-1': {
      id: 'play-x-1',
      type: 'Suspend',
      phase: 'Running',
      templateName: 'await-release',
      inputs: { parameters: [{ name: GATE_STAGE_INPUT, value: stage }] },
    },
    'play-x-2': {
      id: 'play-x-2',
      type: 'Pod',
      phase: 'Succeeded',
      templateName: 'check-release',
      inputs: { parameters: [{ name: GATE_STAGE_INPUT, value: stage }] },
    },
  };
}

/**
 * A play Workflow as Argo creates it from the synthesized template's `workflowMetadata` (labels, labels
 * from parameters, annotations), started at `stage`: the `current-stage` label a play has once it entered
 * a stage is the one it would have been started with there.
 */
function playWorkflow(options: PlayOptions): KubeObject {
  const metadata = PLAY_TEMPLATE.spec.workflowMetadata;
  const parameters: Record<string, string> = {
    [PlayParameters.taskId]: String(options.task),
    [PlayParameters.startStage]: options.stage,
    [PlayParameters.round]: FIRST_ROUND,
  };
  const labels: Record<string, string> = { ...metadata.labels };
  for (const [key, { expression }] of Object.entries(metadata.labelsFrom as Record<string, { expression: string }>)) {
    const parameter = /^workflow\.parameters\['([^']+)'\]$/.exec(expression)?.[1];
    if (parameter === undefined || !(parameter in parameters)) throw new Error(`cannot evaluate label ${key}: ${expression}`);
    labels[key] = parameters[parameter];
  }
  if (options.repository) labels[PlayLabels.repository] = repositoryLabelValue(options.repository);
  if (options.completed) labels[ARGO_COMPLETED_LABEL] = 'true';
  const repository = options.repository ?? REPOSITORY.name;
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Workflow',
    metadata: {
      name:
        options.name ??
        `${PLAY_TEMPLATE.metadata.name}${options.repository ? '-other' : ''}-task-${options.task}-${options.suffix ?? 'x7k2p'}`,
      namespace: NAMESPACE,
      resourceVersion: '4711',
      creationTimestamp: PLAY_CREATED,
      labels,
      annotations: { ...metadata.annotations, [PlayAnnotations.repository]: repository },
    },
    spec: { workflowTemplateRef: { name: PLAY_TEMPLATE.metadata.name } },
    status: {
      phase: options.completed ? 'Succeeded' : 'Running',
      ...(GATES.includes(options.stage) && (options.suspended ?? true) ? { nodes: suspendedAt(options.stage) } : {}),
    },
  };
}

/** The release ConfigMap of a task, holding `data` (gate to record). */
function releaseRecord(task: number, data: Record<string, string>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: releaseConfigMapName(REPOSITORY.service, task), namespace: NAMESPACE },
    data,
  };
}

/** A Workflow like the play but labelled as a CodeRun. */
function codeRun(play: KubeObject): KubeObject {
  return { ...play, metadata: { ...play.metadata, labels: { ...play.metadata.labels, [PlayLabels.workflowType]: WorkflowTypes.coderun } } };
}

type Run = ScriptRun;

/** The play run a check runs in: when it was created, and whether it was recreated from its progress record. */
interface CheckedRun {
  readonly created?: string;
  readonly resumed?: boolean;
  /** The play's name. @default play-run-{task} */
  readonly name?: string;
}

/** One test's fake cluster, its private /tmp, and the scripts run against them. */
class Harness {
  public readonly cluster: FakeCluster;
  /** Stands for the pod's /tmp. */
  public readonly tmp: string;

  public constructor(folder: string) {
    this.cluster = FakeCluster.create(folder);
    this.tmp = join(this.cluster.root, 'pod-tmp');
    mkdirSync(this.tmp);
  }

  /** The check at a gate, as the play's `check-release` step runs it; must succeed. */
  public async checkRelease(gate: string, task: number, run: CheckedRun = {}): Promise<Run> {
    return this.succeed(await this.runCheckRelease(gate, task, run), `check-release ${gate} (task ${task})`);
  }

  /** Runs the check in the play `play-run-{task}`, which is created (as `run` says) unless it exists. */
  public runCheckRelease(gate: string, task: number, run: CheckedRun = {}): Promise<Run> {
    const name = run.name ?? `play-run-${task}`;
    if (!this.cluster.get('workflow', NAMESPACE, name)) {
      const play = playWorkflow({ task, stage: gate, name });
      play.metadata.creationTimestamp = run.created ?? PLAY_CREATED;
      if (run.resumed)
        play.metadata.annotations = { ...play.metadata.annotations, [RESUMED_FROM_ANNOTATION]: 'play-progress-x/task-5.json: stage x' };
      this.cluster.put(play);
    }
    const env = templateEnv(
      CHECK_TEMPLATE,
      {
        [`inputs.parameters.${GATE_STAGE_INPUT}`]: gate,
        [`workflow.parameters.${PlayParameters.taskId}`]: String(task),
        'workflow.namespace': NAMESPACE,
        'workflow.name': name,
      },
      this.tmp,
    );
    return this.run(CHECK_RELEASE_SCRIPT, env);
  }

  /** The resumer's `confirm` step after a failed resume of `play` at `gate`. */
  public runConfirm(gate: string, play: string): Promise<Run> {
    const env = templateEnv(
      CONFIRM_TEMPLATE,
      {
        'inputs.parameters.workflow': play,
        [`workflow.parameters.gate`]: gate,
        'workflow.namespace': NAMESPACE,
      },
      this.tmp,
    );
    return this.run(CONFIRM_RELEASED_SCRIPT, env);
  }

  /** The resumer's `find-play` step for an event; must succeed. */
  public async findPlay(event: ReleaseEvent): Promise<Run> {
    return this.succeed(await this.runFindPlay(event), `find-play ${event.gate} (task ${event.task})`);
  }

  public runFindPlay(event: ReleaseEvent): Promise<Run> {
    const values: Record<string, string> = { 'workflow.namespace': NAMESPACE };
    const args = resumerArguments(event);
    for (const name of RESUMER_PARAMETERS) values[`workflow.parameters.${name}`] = args[name];
    return this.run(FIND_PLAY_SCRIPT, templateEnv(FIND_TEMPLATE, values, this.tmp));
  }

  /** What check-release left in /tmp/released (undefined: no file). */
  public released(): string | undefined {
    return this.output(RELEASED_FILE);
  }

  /** What find-play left in /tmp/workflow (undefined: no file). */
  public workflowToResume(): string | undefined {
    return this.output(WORKFLOW_FILE);
  }

  public releaseConfigMap(task: number | string): KubeObject | undefined {
    return this.cluster.get('configmap', NAMESPACE, releaseConfigMapName(REPOSITORY.service, task));
  }

  /** The parsed record of a gate in the task's release ConfigMap. */
  public record(task: number, gate: string): any {
    const text = this.releaseConfigMap(task)?.data?.[gate];
    if (typeof text !== 'string') throw new Error(`no release of ${gate} is recorded for task ${task}`);
    return JSON.parse(text);
  }

  public put(play: KubeObject): KubeObject {
    this.cluster.put(play);
    return play;
  }

  public workflow(name: string): KubeObject {
    const stored = this.cluster.get('workflow', NAMESPACE, name);
    if (!stored) throw new Error(`Workflow ${name} is gone`);
    return stored;
  }

  /** The calls of one verb, e.g. `patch workflow`, as `VERB KIND NAME` with their exit codes. */
  public callsOf(verb: string): string[] {
    return this.cluster
      .calls()
      .filter((call) => call.args[0] === verb)
      .map((call) => `[${call.exitCode}] ${call.args.slice(0, 3).join(' ')}`);
  }

  private output(file: string): string | undefined {
    const path = this.redirect(file);
    return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  }

  private redirect(text: string): string {
    return text.replaceAll('/tmp/', `${this.tmp}/`);
  }

  private succeed(result: Run, what: string): Run {
    if (result.code !== 0) {
      const calls = this.cluster.calls().map((call) => `  [${call.exitCode}] kubectl ${call.args.join(' ')}`);
      throw new Error(
        `${what} ended with ${result.signal ?? `exit ${result.code}`}\n--- stderr\n${result.stderr}\n--- kubectl calls\n${calls.join('\n')}`,
      );
    }
    return result;
  }

  /**
   * Runs the script as the pod does (`bash -c`), with its /tmp redirected, only the given environment, and
   * the fake first on PATH. The outputs of an earlier run are removed first.
   */
  private run(script: string, vars: Record<string, string>): Promise<Run> {
    rmSync(this.redirect(RELEASED_FILE), { force: true });
    rmSync(this.redirect(WORKFLOW_FILE), { force: true });
    return runBash(this.redirect(script), this.cluster.scriptEnv(vars), RUN_TIMEOUT_MS);
  }
}

/** A test with its own harness; afterwards, no call the fake refused, and the temporary folder is gone. */
const cluster = testWithFakeCluster((folder) => new Harness(folder));

const timestamp = () => expect.stringMatching(RFC3339);

describe('release scripts text', () => {
  it('uses no /tmp path but its output file, so that redirecting /tmp/ redirects only that', () => {
    const tmpPaths = (script: string) => [...new Set(script.match(/\/tmp(?![A-Za-z0-9_.-])[^\s"'`;|&<>()]*/g) ?? [])];
    expect(RELEASED_FILE.startsWith('/tmp/')).toBe(true);
    expect(WORKFLOW_FILE.startsWith('/tmp/')).toBe(true);
    expect(tmpPaths(CHECK_RELEASE_SCRIPT)).toEqual([RELEASED_FILE]);
    expect(tmpPaths(FIND_PLAY_SCRIPT)).toEqual([WORKFLOW_FILE]);
    expect(tmpPaths(CONFIRM_RELEASED_SCRIPT)).toEqual([]);
  });

  it('takes every value from the environment, never from Argo templating', () => {
    expect(CHECK_RELEASE_SCRIPT).not.toContain('{{');
    expect(FIND_PLAY_SCRIPT).not.toContain('{{');
    expect(CONFIRM_RELEASED_SCRIPT).not.toContain('{{');
  });

  it('reads only variables that its template sets', () => {
    const read = (script: string) => [...new Set([...script.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]))];
    const set = (template: any) => template.script.env.map((variable: { name: string }) => variable.name);
    expect(read(CHECK_RELEASE_SCRIPT).filter((name) => !set(CHECK_TEMPLATE).includes(name))).toEqual([]);
    expect(read(FIND_PLAY_SCRIPT).filter((name) => !set(FIND_TEMPLATE).includes(name))).toEqual([]);
    expect(read(CONFIRM_RELEASED_SCRIPT).filter((name) => !set(CONFIRM_TEMPLATE).includes(name))).toEqual([]);
  });

  it('has gates to test with', () => {
    expect(GATES.length).toBeGreaterThanOrEqual(2);
  });
});

describe.concurrent('check-release script', () => {
  cluster('answers false when the task has no release ConfigMap', async ({ h }) => {
    await h.checkRelease(GATE, 5);
    expect(h.released()).toBe('false\n');
    expect(h.releaseConfigMap(5)).toBeUndefined();
  });

  cluster('answers false when the ConfigMap records other gates only', async ({ h }) => {
    h.cluster.put(
      releaseRecord(5, { [LATER_GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-01-02T03:04:05Z' }) }),
    );
    await h.checkRelease(GATE, 5);
    expect(h.released()).toBe('false\n');
  });

  cluster('answers true when the gate has a release recorded', async ({ h }) => {
    h.cluster.put(releaseRecord(5, { [GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-01-02T03:04:05Z' }) }));
    const run = await h.checkRelease(GATE, 5);
    expect(h.released()).toBe('true\n');
    expect(run.stdout).toContain(prUrl(9));
    // Another task's record is not this task's.
    await h.checkRelease(GATE, 6);
    expect(h.released()).toBe('false\n');
  });

  cluster('fails, answering nothing, when the ConfigMap cannot be read for another reason than NotFound', async ({ h }) => {
    h.cluster.put(releaseRecord(5, { [GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-01-02T03:04:05Z' }) }));
    h.cluster.forbid('get', 'configmap');

    const run = await h.runCheckRelease(GATE, 5);

    expect(run.signal).toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Forbidden');
    expect(h.released()).toBeUndefined();
    expect(h.callsOf('get')).toEqual(['[0] get workflow play-run-5', `[1] get configmap ${releaseConfigMapName(REPOSITORY.service, 5)}`]);
  });

  cluster('ignores a release of an earlier run of the task when the play starts afresh', async ({ h }) => {
    h.cluster.put(releaseRecord(5, { [GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-01-02T03:04:05Z' }) }));
    const run = await h.checkRelease(GATE, 5, { created: '2026-02-01T00:00:00Z' });
    expect(h.released()).toBe('false\n');
    expect(run.stdout).toContain('earlier run');
  });

  cluster('counts a release made in the second the play was created, and one without a time as old', async ({ h }) => {
    h.cluster.put(
      releaseRecord(5, {
        [GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-02-01T00:00:00Z' }),
        [LATER_GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9' }),
      }),
    );
    await h.checkRelease(GATE, 5, { created: '2026-02-01T00:00:00Z' });
    expect(h.released()).toBe('true\n');
    await h.checkRelease(LATER_GATE, 5);
    expect(h.released()).toBe('false\n');
  });

  cluster("removes the releases of earlier runs on a fresh run's check, and keeps those of this run", async ({ h }) => {
    const current = JSON.stringify({ prUrl: prUrl(10), prNumber: '10', releasedAt: '2026-02-02T00:00:00Z' });
    h.cluster.put(
      releaseRecord(5, {
        [GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-01-02T03:04:05Z' }),
        [LATER_GATE]: current,
      }),
    );
    const run = await h.checkRelease(GATE, 5, { created: '2026-02-01T00:00:00Z' });
    expect(h.released()).toBe('false\n');
    expect(h.releaseConfigMap(5)!.data).toEqual({ [LATER_GATE]: current });
    expect(run.stdout).toContain(`removed the releases of earlier runs: ${GATE}`);
  });

  cluster('counts a record that is not JSON as old, and removes it with the other old ones, named in order', async ({ h }) => {
    h.cluster.put(
      releaseRecord(5, {
        [LATER_GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-01-02T03:04:05Z' }),
        [GATE]: 'released, by hand',
      }),
    );
    const run = await h.checkRelease(GATE, 5, { created: '2026-02-01T00:00:00Z' });
    expect(h.released()).toBe('false\n');
    expect(run.stdout).toContain(`gate ${GATE} has a release from an earlier run of the task (released at ""`);
    expect(run.stdout).toContain(`removed the releases of earlier runs: ${[GATE, LATER_GATE].sort().join(', ')}`);
    expect(h.releaseConfigMap(5)!.data ?? {}).toEqual({});
  });

  cluster('skips the clean-up, losing no release, when the record changes between its read and its patch', async ({ h }) => {
    h.cluster.put(releaseRecord(5, { [GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-01-02T03:04:05Z' }) }));
    const fresh = JSON.stringify({ prUrl: prUrl(11), prNumber: '11', releasedAt: '2026-02-03T00:00:00Z' });
    h.cluster.interleave('configmap', NAMESPACE, releaseConfigMapName(REPOSITORY.service, 5), { data: { [LATER_GATE]: fresh } });
    const run = await h.checkRelease(GATE, 5, { created: '2026-02-01T00:00:00Z' });
    expect(run.stdout).toContain('left the releases of earlier runs');
    expect(h.releaseConfigMap(5)!.data[LATER_GATE]).toBe(fresh);
  });

  cluster('removes nothing for a play recreated from its progress record', async ({ h }) => {
    const old = JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-01-02T03:04:05Z' });
    h.cluster.put(releaseRecord(5, { [LATER_GATE]: old }));
    await h.checkRelease(GATE, 5, { created: '2026-02-01T00:00:00Z', resumed: true });
    expect(h.releaseConfigMap(5)!.data).toEqual({ [LATER_GATE]: old });
    expect(h.callsOf('patch')).toEqual([]);
  });

  cluster('keeps every release of its run when the play was recreated from its progress record', async ({ h }) => {
    h.cluster.put(releaseRecord(5, { [GATE]: JSON.stringify({ prUrl: prUrl(9), prNumber: '9', releasedAt: '2026-01-02T03:04:05Z' }) }));
    // Recreated after the event: the release came while no Workflow of the run existed.
    await h.checkRelease(GATE, 5, { created: '2026-02-01T00:00:00Z', resumed: true });
    expect(h.released()).toBe('true\n');
  });
});

describe.concurrent('find-play script', () => {
  cluster('does nothing for an event that names no task', async ({ h }) => {
    const play = h.put(playWorkflow({ task: 5, stage: GATE }));

    await h.findPlay({ gate: GATE, task: NO_TASK, prNumber: 42 });

    expect(h.workflowToResume()).toBe('');
    expect(h.releaseConfigMap(NO_TASK)).toBeUndefined();
    expect(h.cluster.calls()).toEqual([]);
    expect(h.workflow(play.metadata.name)).toEqual(play);
  });

  cluster('creates the labelled release ConfigMap on the first event of a task, and resumes nothing without a play', async ({ h }) => {
    await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });

    const configMap = h.releaseConfigMap(5)!;
    expect(configMap).toBeDefined();
    expect(configMap.metadata.namespace).toBe(NAMESPACE);
    expect(configMap.metadata.labels).toEqual({
      [PROGRESS_TRACKING_LABEL]: 'true',
      [PlayLabels.taskId]: '5',
      [PlayLabels.repository]: repositoryLabelValue(REPOSITORY.name),
    });
    expect(Object.keys(configMap.data)).toEqual([GATE]);
    expect(h.record(5, GATE)).toEqual({ prUrl: prUrl(42), prNumber: '42', releasedAt: timestamp() });
    expect(h.workflowToResume()).toBe('');
    // The patch found nothing to merge into; the create stored the record.
    expect(h.callsOf('patch')).toEqual([`[1] patch configmap ${releaseConfigMapName(REPOSITORY.service, 5)}`]);
    expect(h.callsOf('create')).toEqual(['[0] create -f -']);
  });

  cluster('merges a later gate into the record, keeping the earlier one', async ({ h }) => {
    await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });
    const first = h.releaseConfigMap(5)!.data[GATE];

    await h.findPlay({ gate: LATER_GATE, task: '5', prNumber: 42 });

    const configMap = h.releaseConfigMap(5)!;
    expect(Object.keys(configMap.data).sort()).toEqual([GATE, LATER_GATE].sort());
    expect(configMap.data[GATE]).toBe(first);
    expect(h.record(5, LATER_GATE)).toEqual({ prUrl: prUrl(42), prNumber: '42', releasedAt: timestamp() });
    expect(configMap.metadata.labels?.[PlayLabels.taskId]).toBe('5');
    expect(h.callsOf('create')).toEqual(['[0] create -f -']);
    expect(h.callsOf('patch').at(-1)).toBe(`[0] patch configmap ${releaseConfigMapName(REPOSITORY.service, 5)}`);
  });

  cluster('records the release but resumes no play that is at another stage', async ({ h }) => {
    const play = h.put(playWorkflow({ task: 5, stage: AGENT_STAGE }));

    const run = await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });

    expect(h.workflowToResume()).toBe('');
    expect(h.record(5, GATE).prUrl).toBe(prUrl(42));
    expect(h.workflow(play.metadata.name)).toEqual(play);
    expect(run.stdout).toContain(`"${AGENT_STAGE}"`);
  });

  cluster('records the PR on the play waiting at the gate and names it for resuming', async ({ h }) => {
    const play = h.put(playWorkflow({ task: 5, stage: GATE }));

    await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });

    expect(h.workflowToResume()).toBe(play.metadata.name);
    const stored = h.workflow(play.metadata.name);
    expect(stored.metadata.annotations).toEqual({
      ...play.metadata.annotations,
      [PlayAnnotations.prUrl]: prUrl(42),
      [PlayAnnotations.prNumber]: '42',
    });
    expect(stored.metadata.labels).toEqual(play.metadata.labels);
    expect(stored.metadata.resourceVersion).toBe('4712');
    // Recorded before the resume, so the play passes even if the resume misses it.
    expect(h.record(5, GATE)).toEqual({ prUrl: prUrl(42), prNumber: '42', releasedAt: timestamp() });
    const verbs = h.cluster.calls().map((call) => `${call.args[0]} ${call.args[1]}`);
    expect(verbs.indexOf('create -f')).toBeLessThan(verbs.indexOf('get workflows'));
  });

  cluster('ignores a completed play', async ({ h }) => {
    const done = h.put(playWorkflow({ task: 5, stage: GATE, completed: true, suffix: 'done1' }));

    await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });
    expect(h.workflowToResume()).toBe('');
    expect(h.workflow(done.metadata.name)).toEqual(done);

    // Beside the live play of the task, it does not count as a second one.
    const live = h.put(playWorkflow({ task: 5, stage: GATE, suffix: 'live1' }));
    await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });
    expect(h.workflowToResume()).toBe(live.metadata.name);
    expect(h.workflow(done.metadata.name)).toEqual(done);
  });

  cluster('resumes none of two live plays of one task', async ({ h }) => {
    const one = h.put(playWorkflow({ task: 5, stage: GATE, suffix: 'aaaaa' }));
    const two = h.put(playWorkflow({ task: 5, stage: GATE, suffix: 'bbbbb' }));

    const run = await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });

    expect(h.workflowToResume()).toBe('');
    expect(h.workflow(one.metadata.name)).toEqual(one);
    expect(h.workflow(two.metadata.name)).toEqual(two);
    expect(h.record(5, GATE).prUrl).toBe(prUrl(42));
    expect(run.stderr).toContain('2 live plays');
  });

  cluster('does not select the play of the same task id in another repository', async ({ h }) => {
    const other = h.put(playWorkflow({ task: 5, stage: GATE, repository: OTHER_REPOSITORY }));
    expect(other.metadata.labels?.[PlayLabels.repository]).not.toBe(repositoryLabelValue(REPOSITORY.name));

    await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });

    expect(h.workflowToResume()).toBe('');
    expect(h.workflow(other.metadata.name)).toEqual(other);
    expect(h.record(5, GATE).prUrl).toBe(prUrl(42));
  });

  cluster('selects the play of this task and repository among other Workflows at the gate', async ({ h }) => {
    const others = [
      h.put(playWorkflow({ task: 5, stage: GATE, repository: OTHER_REPOSITORY })),
      h.put(playWorkflow({ task: 6, stage: GATE })),
      // A CodeRun of the task carries its task id too, but is no play.
      h.put(codeRun(playWorkflow({ task: 5, stage: GATE, suffix: 'coder' }))),
    ];
    const play = h.put(playWorkflow({ task: 5, stage: GATE, suffix: 'right' }));

    await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });

    expect(h.workflowToResume()).toBe(play.metadata.name);
    expect(h.workflow(play.metadata.name).metadata.annotations?.[PlayAnnotations.prNumber]).toBe('42');
    for (const other of others) expect(h.workflow(other.metadata.name)).toEqual(other);
  });

  cluster('fails without looking for a play when the release cannot be recorded', async ({ h }) => {
    const play = h.put(playWorkflow({ task: 5, stage: GATE }));
    h.cluster.forbid('patch', 'configmap');
    h.cluster.forbid('create', 'configmap');

    const run = await h.runFindPlay({ gate: GATE, task: '5', prNumber: 42 });

    expect(run.signal).toBeNull();
    expect(run.code).not.toBe(0);
    expect(h.workflowToResume()).toBe('');
    expect(h.workflow(play.metadata.name)).toEqual(play);
    expect(h.callsOf('create')).toEqual(['[1] create -f -', '[1] create -f -', '[1] create -f -']);
    expect(h.callsOf('get')).toEqual([]);
    // Three attempts, backing off 1 s, then 2 s (the fake's sleep shortens them).
    expect(h.cluster.sleeps()).toEqual(['1', '2']);
  });

  cluster('fails, with the release recorded, when the plays cannot be listed', async ({ h }) => {
    h.put(playWorkflow({ task: 5, stage: GATE }));
    h.cluster.forbid('list', 'workflow');

    const run = await h.runFindPlay({ gate: GATE, task: '5', prNumber: 42 });

    expect(run.code).not.toBe(0);
    expect(h.workflowToResume()).toBe('');
    expect(h.record(5, GATE).prUrl).toBe(prUrl(42));
  });
});

describe.concurrent('find-play at the gate', () => {
  cluster('records but resumes nothing while the play is labelled at the gate without an active suspend node', async ({ h }) => {
    // Entered the gate's stage, not suspended yet (or already released by a duplicate delivery).
    const play = h.put(playWorkflow({ task: 5, stage: GATE, suspended: false }));

    const run = await h.findPlay({ gate: GATE, task: '5', prNumber: 42 });

    expect(h.workflowToResume()).toBe('');
    expect(h.record(5, GATE).prUrl).toBe(prUrl(42));
    expect(h.workflow(play.metadata.name)).toEqual(play);
    expect(run.stdout).toContain('no active suspend node');
  });

  cluster('finds the play by its name under the workflow-name strategy', async ({ h }) => {
    const name = playWorkflowName(REPOSITORY.service, 5);
    const play = h.put(playWorkflow({ task: 5, stage: GATE, name }));

    await h.findPlay({ gate: GATE, task: '5', prNumber: 42, play: name });

    expect(h.workflowToResume()).toBe(play.metadata.name);
    expect(h.callsOf('get')).toEqual([`[0] get workflow ${name}`]);
  });

  cluster('records and resumes nothing when the named play does not exist', async ({ h }) => {
    await h.findPlay({ gate: GATE, task: '5', prNumber: 42, play: playWorkflowName(REPOSITORY.service, 5) });

    expect(h.workflowToResume()).toBe('');
    expect(h.record(5, GATE).prUrl).toBe(prUrl(42));
  });
});

describe.concurrent('confirm-released script', () => {
  cluster('succeeds when the gate no longer waits (a duplicate delivery released it first)', async ({ h }) => {
    const play = h.put(playWorkflow({ task: 5, stage: GATE, suspended: false }));
    const run = await h.runConfirm(GATE, play.metadata.name);
    expect(run.code).toBe(0);
  });

  cluster('fails while the gate still waits, so a failed resume is not hidden', async ({ h }) => {
    const play = h.put(playWorkflow({ task: 5, stage: GATE }));
    const run = await h.runConfirm(GATE, play.metadata.name);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('still waits');
  });
});

describe.concurrent('no lost events', () => {
  cluster('a release recorded before the play reaches the gate lets it pass there', async ({ h }) => {
    // Plays and resumers run in one namespace, where the record is kept.
    expect(CHECK_TEMPLATE.namespace).toBe(NAMESPACE);
    // The event comes first: no play waits at the gate yet.
    h.put(playWorkflow({ task: 7, stage: AGENT_STAGE }));
    await h.findPlay({ gate: GATE, task: '7', prNumber: 77 });
    expect(h.workflowToResume()).toBe('');

    // The play and the resumer name the same ConfigMap: the check finds the record.
    await h.checkRelease(GATE, 7);
    expect(h.released()).toBe('true\n');
    // Only for that gate and that task.
    await h.checkRelease(LATER_GATE, 7);
    expect(h.released()).toBe('false\n');
    await h.checkRelease(GATE, 8);
    expect(h.released()).toBe('false\n');
  });
});

/**
 * The release protocol exists twice: in bash (the gate's check, the resumer's find and `argo resume`) and in
 * the simulator's model (src/simulate/play-model.ts, simulate.ts). The same scenarios run through both, and
 * both must give the same outcome after every step: where the play is, and how many gates the resumer
 * released. Bash's clock is the real one: a release is recorded now; a play started or recreated during a
 * scenario is created in the future, after every release (as a new run is after the releases before it).
 */
describe('the release protocol, in bash and in the simulator', () => {
  type ProtocolStep = 'release' | 'arrive' | 'restart' | 'deletePlay' | 'resumeFromState';
  interface Outcome {
    /** The play's stage; `none` while the task has no play. */
    readonly stage: string;
    /** Gates the resumer released in this step. */
    readonly resumed: number;
  }

  const TASK = 5;
  const FIRST = CONFIG.stages[0].name;
  const AFTER_GATE = CONFIG.stages[CONFIG.stages.findIndex((stage) => stage.name === GATE) + 1].name;
  const LATER_RUN_CREATED = '2099-01-01T00:00:00Z';

  const scenarios: Record<string, ProtocolStep[]> = {
    'early release: recorded before the play arrives, it passes on arrival': ['release', 'arrive'],
    'late release: the play waits, the resumer releases it': ['arrive', 'release'],
    'duplicate delivery: the second releases nothing': ['arrive', 'release', 'release'],
    "an old run's release: a new run ignores it and waits": ['release', 'restart', 'arrive'],
    'a resumed run keeps the release its run recorded': ['release', 'deletePlay', 'resumeFromState', 'arrive'],
    'a run recreated at the gate passes with the release recorded while no play existed': [
      'arrive',
      'deletePlay',
      'release',
      'resumeFromState',
    ],
  };

  it('starts where the scenarios assume: an agent stage, then the gate', () => {
    expect(FIRST).toBe(AGENT_STAGE);
    expect(CONFIG.stages[1].name).toBe(GATE);
  });

  function simulatorStep(step: ProtocolStep, index: number): Step {
    const task = { repository: REPOSITORY.name, task: TASK };
    switch (step) {
      case 'release':
        return {
          github: 'pull_request',
          payload: pullRequestEvent('opened', { repository: REPOSITORY.name, number: 42, labels: [`task-${TASK}`] }),
          delivery: `d-${index}`,
        };
      case 'arrive':
        return { agentDone: task };
      case 'restart':
        return { restart: task };
      case 'deletePlay':
        return { deletePlay: task };
      case 'resumeFromState':
        return { resumeFromState: task };
    }
  }

  function simulatorOutcomes(steps: readonly ProtocolStep[]): Outcome[] {
    const objects = MANIFESTS as Record<string, any>[];
    return steps.map((_step, index) => {
      // The report gives the plays at the end: run each prefix of the scenario.
      const report = simulate(
        { config: CONFIG, objects },
        { plays: [{ repository: REPOSITORY.name, task: TASK, stage: FIRST }], steps: steps.slice(0, index + 1).map(simulatorStep) },
      );
      const last = report.steps[index];
      expect(last.ignored === undefined || !last.ignored.startsWith('no sensor matched'), `step ${index}: ${last.ignored}`).toBe(true);
      const play = report.plays.find((candidate) => candidate.task === TASK);
      return { stage: play?.stage ?? 'none', resumed: last.resumed.length };
    });
  }

  /** The play as bash sees it: a Workflow in the fake cluster, moved as Argo moves it. */
  interface BashPlay {
    stage: string;
    waiting: boolean;
    readonly created: string;
    readonly resumed: boolean;
    readonly name: string;
  }

  async function bashOutcomes(h: Harness, steps: readonly ProtocolStep[]): Promise<Outcome[]> {
    let runs = 0;
    const start = (stage: string, created: string, resumed: boolean): BashPlay => ({
      stage,
      waiting: false,
      created,
      resumed,
      name: `play-run-${TASK}-${(runs += 1)}`,
    });
    let play: BashPlay | undefined = start(FIRST, PLAY_CREATED, false);
    let recorded = FIRST;
    const store = (current: BashPlay) => {
      const workflow = playWorkflow({ task: TASK, stage: current.stage, name: current.name, suspended: current.waiting });
      workflow.metadata.creationTimestamp = current.created;
      if (current.resumed)
        workflow.metadata.annotations = { ...workflow.metadata.annotations, [RESUMED_FROM_ANNOTATION]: `stage ${current.stage}` };
      h.put(workflow);
      recorded = current.stage;
    };
    const pass = (current: BashPlay) => {
      current.stage = AFTER_GATE;
      current.waiting = false;
      store(current);
    };
    // At the gate: the suspend node is active, and beside it the check looks for a recorded release.
    const enterGate = async (current: BashPlay) => {
      current.stage = GATE;
      current.waiting = true;
      store(current);
      await h.checkRelease(GATE, TASK, { name: current.name, created: current.created, resumed: current.resumed });
      if (h.released() === 'true\n') pass(current);
    };
    store(play);
    const outcomes: Outcome[] = [];
    for (const step of steps) {
      let resumed = 0;
      if (step === 'arrive') await enterGate(play!);
      if (step === 'release') {
        await h.findPlay({ gate: GATE, task: String(TASK), prNumber: 42 });
        // `argo resume` of the named play: it releases the gate only while its suspend node is active.
        if (play && h.workflowToResume() === play.name && play.waiting) {
          pass(play);
          resumed = 1;
        }
      }
      if (step === 'deletePlay' || step === 'restart') {
        h.cluster.delete('workflow', NAMESPACE, play!.name);
        play = undefined;
      }
      if (step === 'restart') {
        play = start(FIRST, LATER_RUN_CREATED, false);
        store(play);
      }
      if (step === 'resumeFromState') {
        play = start(recorded, LATER_RUN_CREATED, true);
        if (recorded === GATE) await enterGate(play);
        else store(play);
      }
      outcomes.push({ stage: play?.stage ?? 'none', resumed });
    }
    return outcomes;
  }

  for (const [name, steps] of Object.entries(scenarios)) {
    cluster(name, async ({ h }) => {
      const simulated = simulatorOutcomes(steps);
      expect(await bashOutcomes(h, steps)).toEqual(simulated);
    });
  }

  it('have the outcomes the protocol promises', () => {
    const stages = (steps: ProtocolStep[]) => simulatorOutcomes(steps).map((outcome) => `${outcome.stage}/${outcome.resumed}`);
    expect(stages(scenarios['early release: recorded before the play arrives, it passes on arrival'])).toEqual([
      `${FIRST}/0`,
      `${AFTER_GATE}/0`,
    ]);
    expect(stages(scenarios['late release: the play waits, the resumer releases it'])).toEqual([`${GATE}/0`, `${AFTER_GATE}/1`]);
    expect(stages(scenarios['duplicate delivery: the second releases nothing'])).toEqual([
      `${GATE}/0`,
      `${AFTER_GATE}/1`,
      `${AFTER_GATE}/0`,
    ]);
    expect(stages(scenarios["an old run's release: a new run ignores it and waits"])).toEqual([`${FIRST}/0`, `${FIRST}/0`, `${GATE}/0`]);
    expect(stages(scenarios['a resumed run keeps the release its run recorded'])).toEqual([
      `${FIRST}/0`,
      'none/0',
      `${FIRST}/0`,
      `${AFTER_GATE}/0`,
    ]);
    expect(stages(scenarios['a run recreated at the gate passes with the release recorded while no play existed'])).toEqual([
      `${GATE}/0`,
      'none/0',
      'none/0',
      `${AFTER_GATE}/0`,
    ]);
  });
});
