/**
 * The simulator's model of a project (src/simulate/project-model.ts): chunks run one after the other as
 * child Workflows, each a DAG of run-task steps (the runtime's own steps), watched by a retried resource get;
 * the evictChunkWatcher step; and the example scenario project-chunk-watcher-evicted, whose outcome written
 * at its top is asserted here (the same on the real controllers, docs/e2e.md).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { PlatformConfigInput, ProjectTaskConfigInput } from '../constructs/model/config-types.generated';
import { resolveConfig } from '../constructs/model/resolve-config';
import { UnsupportedFeatureError } from '../src/simulate/engine/unsupported';
import { conditionHolds, dependsOn, whenHolds } from '../src/simulate/project-model';
import { loadScenario, type Scenario, type Step } from '../src/simulate/scenario';
import { simulate, type SimulationReport } from '../src/simulate/simulate';
import { synth } from './support/synth';

const REPO = '5dlabs/cto-play-test';
const EXAMPLE = resolve(__dirname, '..', 'examples', 'scenarios', 'project-chunk-watcher-evicted');
const exampleConfig = parse(readFileSync(resolve(EXAMPLE, 'project.agent-play.yaml'), 'utf8')) as PlatformConfigInput;

/** The example's platform with another project: short plays (task-type `agent` runs the agent stage). */
function platformWith(tasks: ProjectTaskConfigInput[]) {
  const file = { ...exampleConfig, projects: [{ name: 'small', repository: REPO, parallelism: 2, tasks }] };
  return { config: resolveConfig({ env: {}, file }), objects: synth({ env: {}, file }).objects };
}

async function runSmall(tasks: ProjectTaskConfigInput[], steps: Step[]): Promise<SimulationReport> {
  return simulate(platformWith(tasks), { plays: [], projects: [{ name: 'small' }], steps });
}

const evict = (chunk = 1): Step => ({ evictChunkWatcher: { project: 'small', chunk } });
const agentDone: Step = { agentDone: { repository: REPO, task: 1 } };
const agentFailed: Step = { agentFailed: { repository: REPO, task: 1, reason: 'failed' } };
const THREE: ProjectTaskConfigInput[] = [{ id: 1, parameters: { 'task-type': 'agent' } }, { id: 2, dependsOn: [1] }, { id: 3 }];

describe('the example scenario project-chunk-watcher-evicted', () => {
  it('completes the project of 150 tasks: two watcher pods for chunk 1, one for chunk 2', async () => {
    const platform = { config: resolveConfig({ env: {}, file: exampleConfig }), objects: synth({ env: {}, file: exampleConfig }).objects };
    const report = await simulate(platform, loadScenario(resolve(EXAMPLE, 'scenario.yaml')));
    expect(report.projects).toEqual([
      {
        name: 'evicted-watcher',
        phase: 'Succeeded',
        chunksCompleted: 2,
        tasksCompleted: 150,
        chunks: [
          { chunk: 'chunk-1', phase: 'Succeeded', tasks: 100, tasksCompleted: 100, watcherPods: 2 },
          { chunk: 'chunk-2', phase: 'Succeeded', tasks: 50, tasksCompleted: 50, watcherPods: 1 },
        ],
      },
    ]);
    expect(report.steps[0].ignored).toBeUndefined();
    expect(report.plays).toHaveLength(150);
    expect(report.plays.every((play) => play.stage === 'completed' && play.status === undefined)).toBe(true);
    expect(report.coderuns).toEqual([
      { repository: REPO, task: 1, stage: 'implementation', agent: 'rex', contextVersion: 1, phase: 'Succeeded' },
    ]);
  });
});

describe('a project', () => {
  it('waits on a task whose play waits on its agent, and runs its dependents after it', async () => {
    const report = await runSmall(THREE, [agentDone]);
    expect(report.projects[0]).toMatchObject({ phase: 'Succeeded', chunksCompleted: 1, tasksCompleted: 3 });
    // Task 3 depends on nothing: it completed before task 1's agent finished; task 2 only after.
    const before = await runSmall(THREE, [evict()]);
    expect(before.projects[0]).toMatchObject({ phase: 'Running', tasksCompleted: 0 });
    expect(before.plays.map((play) => `${play.task} ${play.stage}`).sort()).toEqual(['1 implementation', '3 completed']);
  });

  it('skips a task whose progress record is completed (a re-run) and counts it completed', async () => {
    const platform = platformWith(THREE);
    const scenario: Scenario = { plays: [], projects: [{ name: 'small' }, { name: 'small' }], steps: [agentDone] };
    const report = await simulate(platform, scenario);
    // The second run of the project finds the first run's plays (AlreadyExists) and waits for their records.
    expect(report.projects.map((project) => project.phase)).toEqual(['Succeeded', 'Succeeded']);
    expect(report.plays).toHaveLength(3);
  });

  it('keeps its chunk watched after each eviction within the wait template retries', async () => {
    const report = await runSmall(THREE, [evict(), evict(), agentDone]);
    expect(report.projects[0].chunks[0]).toEqual({ chunk: 'chunk-1', phase: 'Succeeded', tasks: 3, tasksCompleted: 3, watcherPods: 3 });
    expect(report.projects[0].phase).toBe('Succeeded');
  });

  it('fails when its watcher is lost past the retries (limit 5), while the chunk runs on to its end', async () => {
    const report = await runSmall(THREE, [evict(), evict(), evict(), evict(), evict(), evict(), agentDone]);
    expect(report.projects[0]).toMatchObject({ phase: 'Failed', chunksCompleted: 0 });
    expect(report.projects[0].reason).toContain('past its retries');
    expect(report.projects[0].chunks[0].watcherPods).toBe(6);
    expect(report.steps[5].notes.join(' ')).toContain('the project failed');
    // The chunk Workflow is not the project's to stop: its plays complete.
    expect(report.plays.every((play) => play.stage === 'completed')).toBe(true);
  });

  it('refuses to evict a watcher no pod is: a chunk not started, a project that ended, an unknown project', async () => {
    const report = await runSmall(THREE, [evict(2), { evictChunkWatcher: { project: 'other', chunk: 1 } }, agentDone, evict()]);
    expect(report.steps[0].ignored).toBe('project small has 1 chunk(s), not 2');
    expect(report.steps[1].ignored).toBe("no Workflow of project other: list it under the scenario's projects");
    expect(report.steps[3].ignored).toBe('no pod watches chunk 1 of project small now (the project is Succeeded)');
  });

  it('fails with its chunk when a task fails: its dependents are omitted, the others run, each retried watcher reads Failed', async () => {
    const report = await runSmall(THREE, [agentFailed, agentFailed]);
    const [project] = report.projects;
    expect(project.phase).toBe('Failed');
    expect(project.reason).toBe('chunk-1: the chunk Workflow project-small-00001-00002 is Failed');
    // Task 3 completed; task 2 never started (omitted); task 1 failed.
    expect(project.chunks[0]).toEqual({ chunk: 'chunk-1', phase: 'Failed', tasks: 3, tasksCompleted: 1, watcherPods: 6 });
    expect(report.plays.map((play) => `${play.task} ${play.stage} ${play.status ?? ''}`).sort()).toEqual([
      '1 implementation failed',
      '3 completed ',
    ]);
  });

  it('is refused at the start when the platform has no such project', async () => {
    await expect(simulate(platformWith(THREE), { plays: [], projects: [{ name: 'missing' }], steps: [agentDone] })).rejects.toThrow(
      "the platform has no project missing (no WorkflowTemplate project-missing): add it to the config's projects",
    );
  });
});

describe('what the project model reads of the templates', () => {
  const workflow = { apiVersion: 'v1', kind: 'Workflow', metadata: { name: 'w' }, status: { phase: 'Failed' } };

  it('evaluates the resource conditions the platform writes, and refuses others', () => {
    expect(conditionHolds('status.phase == Succeeded', workflow, 'w')).toBe(false);
    expect(conditionHolds('status.phase in (Failed,Error)', workflow, 'w')).toBe(true);
    expect(conditionHolds('status.phase != Failed', workflow, 'w')).toBe(false);
    expect(conditionHolds(undefined, workflow, 'w')).toBe(false);
    expect(() => conditionHolds('status.phase > 3', workflow, 'w')).toThrow(UnsupportedFeatureError);
    expect(() => conditionHolds('status.phase in Failed', workflow, 'w')).toThrow(UnsupportedFeatureError);
  });

  it("evaluates a step's when once filled, and refuses an expression it cannot read", () => {
    expect(whenHolds("'start' == 'start'", 'w')).toBe(true);
    expect(whenHolds("'skip' == 'start'", 'w')).toBe(false);
    expect(whenHolds("'skip' != 'start'", 'w')).toBe(true);
    expect(() => whenHolds('{{=true}}', 'w')).toThrow(UnsupportedFeatureError);
  });

  it('reads depends as tasks joined by &&, and refuses other forms', () => {
    expect(dependsOn(undefined, 'w')).toEqual([]);
    expect(dependsOn('task-1 && task-2', 'w')).toEqual(['task-1', 'task-2']);
    expect(() => dependsOn('task-1.Failed', 'w')).toThrow(UnsupportedFeatureError);
    expect(() => dependsOn('task-1 || task-2', 'w')).toThrow(UnsupportedFeatureError);
  });
});

describe('a play whose start stage does not run for its parameters', () => {
  it('enters the next stage that does, as the play DAG skips it', async () => {
    const report = await simulate(platformWith(THREE), {
      plays: [{ repository: REPO, task: 9, stage: 'implementation', parameters: {} }],
      steps: [{ evictChunkWatcher: { project: 'small', chunk: 1 } }],
    });
    expect(report.plays).toEqual([{ repository: REPO, task: 9, stage: 'completed' }]);
    expect(report.coderuns).toEqual([]);
  });
});
