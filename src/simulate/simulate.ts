/**
 * The offline simulator: GitHub deliveries go through the Sensors we synthesize (their real filters and
 * trigger parameters); the Workflows their triggers create, and the plays, run in a model of Argo's controller
 * (`argo-model.ts`) against an in-memory API, and every step of the platform's runtime protocol runs the
 * runtime program's own code.
 */
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { ApiResources } from '../../constructs/runtime/kube-api';
import { PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { resumeWorkflow } from '../state/resume-plan';
import { progressConfigMaps } from '../state/progress-state';
import { ArgoModel, StepRefused, type CodeRunView, type PlayView, type RemediationReport } from './argo-model';
import { ProjectStepRefused, type ProjectView } from './project-model';
import type { AgentPodView } from './direct-agents';
import { UnsupportedFeatureError } from './engine/unsupported';
import { MemoryApiServer } from './memory-api';
import type { SimulatedProgress } from './progress-record';
import { roleAuthorizer } from './role-authorizer';
import type { GithubStep, Scenario, Step } from './scenario';
import { githubEventData, runSensor, type FiredTrigger, type SensorRun } from './sensor-runner';
import { SimulatedClock } from './sim-clock';
import type { KubeObject } from '../../constructs/runtime/kube-api';

export type { CodeRunView, PlayView, RemediationReport } from './argo-model';
export type { AgentPodView } from './direct-agents';
export type { ChunkView, ProjectView } from './project-model';

export interface GateRef {
  readonly repository: string;
  readonly task: number;
  readonly gate: string;
}

export interface StepReport {
  readonly index: number;
  /** The Sensors whose triggers fired. */
  readonly sensors: string[];
  readonly resumed: GateRef[];
  readonly recorded: GateRef[];
  /** Why the step resumed nothing, when it did not. */
  ignored?: string;
  /** Triggers that failed (`triggerFailures`): how often, and whether the event was lost. Absent when none failed. */
  failedTriggers?: FailedTrigger[];
  /** What remediators did: a task sent back, its stale work re-run, or its rounds exhausted. Absent when none acted. */
  remediated?: RemediationReport[];
  /** What each trigger and step did, in words, for the readable trace. */
  readonly notes: string[];
}

export interface FailedTrigger {
  readonly sensor: string;
  readonly trigger: string;
  /** Attempts that failed. */
  readonly failures: number;
  /** All its attempts failed: Argo Events logs the error and the event is gone. */
  readonly lost: boolean;
}

export interface SimulationReport {
  readonly plays: PlayView[];
  readonly steps: StepReport[];
  /** Every CodeRun the plays created, in order (a deleted play's go with it). */
  readonly coderuns: CodeRunView[];
  /** The most CodeRuns of one play, stage and agent that were live at once (the design keeps it at 1). */
  readonly mostLiveCodeRuns: number;
  /** Every pod in which a direct agent ran its CLI, in order (none on a coderun platform). */
  readonly pods: AgentPodView[];
  /** Each task's progress record as the plays left it (what `agent-play status` reads). */
  readonly progress: SimulatedProgress[];
  /** Every project submitted: its phase, its chunks (tasks completed, watcher pods) and its tasks completed. */
  readonly projects: ProjectView[];
}

/** What the simulator runs: the Sensors, the EventSource, the templates and the RBAC of a synthesized platform. */
export interface SimulatedPlatform {
  readonly config: PlatformConfig;
  readonly objects: readonly Record<string, any>[];
}

/** The world of one simulation: the clock, the API, the controllers, the Sensors. */
interface Simulation {
  readonly platform: SimulatedPlatform;
  readonly clock: SimulatedClock;
  readonly server: MemoryApiServer;
  readonly model: ArgoModel;
  readonly sensors: readonly Record<string, any>[];
  /** The EventSource; a platform without gates has none, and then no GitHub step can be delivered. */
  readonly source?: { name: string; eventName: string };
}

/**
 * Runs a scenario.
 *
 * @throws Error when the scenario names a play or stage the platform does not have
 * @throws UnsupportedFeatureError when a Sensor or template uses a feature the simulator does not implement
 */
export async function simulate(platform: SimulatedPlatform, scenario: Scenario): Promise<SimulationReport> {
  const eventSource = platform.objects.find((object) => object.kind === 'EventSource');
  if (!eventSource && scenario.steps.some((step) => 'github' in step))
    throw new Error('the platform has no EventSource: nothing would deliver GitHub events');
  const clock = new SimulatedClock();
  const server = new MemoryApiServer(() => clock.now());
  // What ArgoCD would have applied before any play runs: the ConfigMaps the steps read (the repository
  // registry above all).
  for (const object of platform.objects) if (object.kind === 'ConfigMap') server.put(ApiResources.configMaps, object as KubeObject);
  const simulation: Simulation = {
    platform,
    clock,
    server,
    model: new ArgoModel(platform.config, platform.objects, server, clock),
    sensors: platform.objects.filter((object) => object.kind === 'Sensor'),
    ...(eventSource ? { source: { name: eventSource.metadata.name as string, eventName: Object.keys(eventSource.spec.github)[0] } } : {}),
  };
  for (const play of scenario.plays) {
    try {
      await simulation.model.submitPlay(play.repository, play.task, play.stage, play.parameters);
    } catch (error) {
      throw error instanceof StepRefused ? new Error(error.message) : error;
    }
  }
  for (const project of scenario.projects ?? []) {
    try {
      await simulation.model.projects.submit(project.name);
    } catch (error) {
      throw error instanceof ProjectStepRefused ? new Error(error.message) : error;
    }
    await simulation.model.operate();
  }
  // What happened before step 0 belongs to no step; step 0 shows it first.
  const before = simulation.model.takeNotes();
  const steps: StepReport[] = [];
  for (const [index, step] of scenario.steps.entries()) {
    clock.at(index);
    const report = await runStep(simulation, step, index);
    if (index === 0) report.notes.unshift(...before);
    steps.push(report);
  }
  return {
    plays: simulation.model.views(),
    steps,
    coderuns: simulation.model.codeRunViews(),
    mostLiveCodeRuns: simulation.model.mostLiveCodeRuns,
    pods: simulation.model.direct.views(),
    progress: progressOf(server),
    projects: simulation.model.projects.views(),
  };
}

/** A step that acts on the cluster rather than through GitHub (mostly on one task's play); returns what happened, in words. */
async function runTaskStep(simulation: Simulation, step: Exclude<Step, GithubStep>): Promise<string> {
  const model = simulation.model;
  if ('reapplyTemplates' in step) return model.reapplyTemplates();
  if ('evictChunkWatcher' in step) {
    const said = model.projects.evictWatcher(step.evictChunkWatcher.project, step.evictChunkWatcher.chunk);
    await model.operate();
    return said;
  }
  if ('agentDone' in step) return model.agentDone(step.agentDone.repository, step.agentDone.task);
  if ('agentFailed' in step) {
    const { repository, task, reason } = step.agentFailed;
    return model.agentFailed(repository, task, reason);
  }
  if ('deletePlay' in step) {
    await model.deletePlay(step.deletePlay.repository, step.deletePlay.task);
    return `the play of task ${step.deletePlay.task} was deleted; its progress record stays`;
  }
  if ('resumeFromState' in step) return resumeFromState(simulation, step.resumeFromState.repository, step.resumeFromState.task);
  await model.restart(step.restart.repository, step.restart.task);
  return `task ${step.restart.task} was started again from ${model.stages.first.name}, a new run`;
}

/**
 * `agent-play resume`: the Workflow the command prints from the task's progress records, as `kubectl get cm -l
 * play-tracking=true` lists them, created as a user would create it.
 */
async function resumeFromState(simulation: Simulation, repository: string, task: number): Promise<string> {
  const { model, server, platform } = simulation;
  const config = model.repositoryConfig(repository);
  const live = model.playOf(config.name, task);
  if (live !== undefined && live.phase === 'Running') throw new StepRefused(`task ${task} of ${config.name} already has a play`);
  const tracked = server.all(ApiResources.configMaps).filter((object) => object.metadata.labels?.[PROGRESS_TRACKING_LABEL] === 'true');
  let workflow: Record<string, unknown>;
  try {
    workflow = resumeWorkflow(progressConfigMaps(tracked), platform.config, {
      repository: config.name,
      task: String(task),
      parameters: {},
    });
  } catch (error) {
    throw new StepRefused((error as Error).message);
  }
  if (live !== undefined) await model.deletePlay(config.name, task);
  await model.createWorkflow(workflow as unknown as KubeObject);
  return `task ${task} was recreated from its progress record; the play is now at ${model.playOf(config.name, task)?.stage}`;
}

async function runStep(simulation: Simulation, step: Step, index: number): Promise<StepReport> {
  const model = simulation.model;
  const report: StepReport = { index, sensors: [], resumed: [], recorded: [], notes: [] };
  if (!('github' in step)) {
    try {
      report.notes.push(await runTaskStep(simulation, step), ...model.takeNotes());
    } catch (error) {
      if (!(error instanceof StepRefused || error instanceof ProjectStepRefused)) throw error;
      report.notes.push(...model.takeNotes());
      report.ignored = error.message;
    }
    return report;
  }
  const data = githubEventData(step.github, step.payload, step.delivery);
  const source = simulation.source;
  if (source === undefined) throw new Error('the platform has no EventSource: nothing would deliver GitHub events');
  const runs: SensorRun[] = simulation.sensors.map((sensor) => runSensor(sensor, data, source));
  const failures = step.triggerFailures ?? 0;
  for (const run of runs.filter((candidate) => candidate.fired.length > 0)) {
    report.sensors.push(run.sensor);
    const sensor = simulation.sensors.find((candidate) => candidate.metadata?.name === run.sensor);
    for (const trigger of run.fired) {
      if (failures > 0) {
        const lost = failures >= trigger.attempts;
        report.failedTriggers ??= [];
        report.failedTriggers.push({ sensor: run.sensor, trigger: trigger.name, failures: Math.min(failures, trigger.attempts), lost });
        report.notes.push(
          lost
            ? `trigger ${trigger.name} failed ${Math.min(failures, trigger.attempts)} of ${trigger.attempts} attempts: the event is lost`
            : `trigger ${trigger.name} failed ${failures} time(s) and succeeded on a retry (atLeastOnce)`,
        );
        if (lost) continue;
      }
      await execute(simulation, sensor, trigger);
      report.notes.push(...model.takeNotes());
      for (const outcome of model.takeOutcomes()) {
        if (outcome.kind === 'recorded') report.recorded.push({ repository: outcome.repository, task: outcome.task, gate: outcome.gate });
        else if (outcome.kind === 'resumed')
          report.resumed.push({ repository: outcome.repository, task: outcome.task, gate: outcome.gate });
        else report.remediated = [...(report.remediated ?? []), outcome.report];
      }
    }
  }
  if (report.sensors.length === 0) report.ignored = `no sensor matched: ${runs.map(describeMiss).join('; ')}`;
  else if (report.resumed.length === 0 && report.remediated === undefined) report.ignored = `nothing resumed: ${report.notes.join('; ')}`;
  return report;
}

function describeMiss(run: SensorRun): string {
  return `${run.sensor} (${run.misses
    .map((miss) => miss.reason)
    .filter((reason, index, all) => all.indexOf(reason) === index)
    .join(' | ')})`;
}

/** What a fired trigger does: create its Workflow with the Sensor's service account, which the controller runs. */
async function execute(simulation: Simulation, sensor: Record<string, any> | undefined, trigger: FiredTrigger): Promise<void> {
  const resource = trigger.resource;
  if (!(trigger.kind === 'k8s' && trigger.operation === 'create' && resource.kind === 'Workflow'))
    throw new UnsupportedFeatureError(
      `trigger ${trigger.name}: ${trigger.kind} ${trigger.operation} of ${resource.kind} is not simulated (our Sensors only create Workflows)`,
    );
  const namespace = resource.metadata?.namespace ?? sensor?.metadata?.namespace ?? simulation.platform.config.namespace;
  const serviceAccount = sensor?.spec?.template?.serviceAccountName ?? '';
  const client = simulation.server.client(roleAuthorizer(simulation.platform.objects, serviceAccount, namespace));
  await simulation.model.createWorkflow({ ...resource, metadata: { ...resource.metadata, namespace } } as KubeObject, client);
}

/** Every task's progress record in the API, by repository and task. */
function progressOf(server: MemoryApiServer): SimulatedProgress[] {
  const tracked = server.all(ApiResources.configMaps).filter((object) => object.metadata.labels?.[PROGRESS_TRACKING_LABEL] === 'true');
  return progressConfigMaps(tracked)
    .flatMap((configMap) => configMap.entries)
    .flatMap((entry) =>
      entry.record === undefined
        ? []
        : [
            {
              repository: entry.record.repository,
              task: Number(entry.task),
              workflowName: entry.record.workflowName,
              record: entry.record,
            },
          ],
    )
    .sort((a, b) => (a.repository < b.repository ? -1 : a.repository > b.repository ? 1 : a.task - b.task));
}
