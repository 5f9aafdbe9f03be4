/**
 * The offline simulator: GitHub deliveries go through the Sensors we synthesize (their real filters and
 * trigger parameters), and what the triggers do is applied to a model of the plays.
 */
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { playSelectorLabels } from '../../constructs/model/play-workflow';
import { RESUMER_TEMPLATE_NAME } from '../../constructs/model/play-contract';
import { RESUMER_PARAMETERS, type ResumerParameter } from '../../constructs/model/resumer-contract';
import { REMEDIATOR_TEMPLATE_NAME } from '../../constructs/model/remediator-contract';
import { remediatorSettings, runRemediator, type RemediationReport, type RemediatorSettings } from './remediator-model';
import { UnsupportedFeatureError } from './engine/unsupported';
import { PlayModel, type AgentPodView, type CodeRunView, type Play, type PlayView } from './play-model';
import type { SimulatedProgress } from './progress-record';
import type { GithubStep, Scenario, Step } from './scenario';
import { githubEventData, runSensor, type FiredTrigger, type SensorRun } from './sensor-runner';

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
  /** What each trigger did, in words, for the readable trace. */
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
  /** Every CodeRun the plays created, in order. */
  readonly coderuns: CodeRunView[];
  /** The most CodeRuns of one play, stage and agent that were live at once (the design keeps it at 1). */
  readonly mostLiveCodeRuns: number;
  /** Every pod in which a direct agent ran its CLI, in order (none on a coderun platform). */
  readonly pods: AgentPodView[];
  /** Each task's progress record as the plays left it (what `agent-play status` reads). */
  readonly progress: SimulatedProgress[];
}

/** What the simulator runs: the Sensors and the EventSource of a synthesized platform. */
export interface SimulatedPlatform {
  readonly config: PlatformConfig;
  readonly objects: readonly Record<string, any>[];
}

/**
 * Runs a scenario.
 *
 * @throws Error when the scenario names a play or stage the platform does not have
 * @throws UnsupportedFeatureError when a Sensor uses a feature the simulator does not implement
 */
export function simulate(platform: SimulatedPlatform, scenario: Scenario): SimulationReport {
  const model = new PlayModel(platform.config);
  const plan = remediatorSettings(platform.objects);
  const sensors = platform.objects.filter((object) => object.kind === 'Sensor');
  const eventSource = platform.objects.find((object) => object.kind === 'EventSource');
  if (!eventSource) throw new Error('the platform has no EventSource: nothing would deliver GitHub events');
  const source = { name: eventSource.metadata.name as string, eventName: Object.keys(eventSource.spec.github)[0] };
  for (const play of scenario.plays) model.addPlay(play.repository, play.task, play.stage, play.parameters);
  // What direct agents did before step 0 belongs to no step; step 0 shows it first.
  const before = model.takeNotes();
  const steps = scenario.steps.map((step, index) => {
    model.at(index);
    const report = runStep({ model, plan }, sensors, source, step, index);
    if (index === 0) report.notes.unshift(...before);
    return report;
  });
  return {
    plays: model.views(),
    steps,
    coderuns: model.codeRunViews(),
    mostLiveCodeRuns: model.mostLiveCodeRuns,
    pods: model.podViews(),
    progress: model.progressRecords(),
  };
}

/** A step that acts on one task's play rather than on GitHub; returns what happened, in words. */
function runTaskStep(model: PlayModel, step: Exclude<Step, GithubStep>): string {
  if ('agentDone' in step) {
    const play = requirePlay(model, step.agentDone.repository, step.agentDone.task);
    model.agentDone(play);
    return `the agent of task ${play.task} finished; the play is now at ${play.stage}`;
  }
  if ('agentFailed' in step) {
    const { repository, task, reason } = step.agentFailed;
    return model.agentFailed(requirePlay(model, repository, task), reason);
  }
  if ('deletePlay' in step) {
    model.deletePlay(step.deletePlay.repository, step.deletePlay.task);
    return `the play of task ${step.deletePlay.task} was deleted; its progress record stays`;
  }
  if ('resumeFromState' in step) {
    const play = model.resumeFromState(step.resumeFromState.repository, step.resumeFromState.task);
    return `task ${play.task} was recreated from its progress record; the play is now at ${play.stage}`;
  }
  const play = model.restart(step.restart.repository, step.restart.task);
  return `task ${play.task} was started again from ${play.stage}, a new run`;
}

function requirePlay(model: PlayModel, repository: string, task: number): Play {
  const play = model.find(repository, task);
  if (!play) throw new StepRefused(`no play for task ${task} of ${repository}`);
  return play;
}

/** A task step that cannot happen in the state the scenario is in: reported, not thrown. */
class StepRefused extends Error {}

function runStep(
  context: SimulationContext,
  sensors: readonly Record<string, any>[],
  source: { name: string; eventName: string },
  step: Step,
  index: number,
): StepReport {
  const model = context.model;
  const report: StepReport = { index, sensors: [], resumed: [], recorded: [], notes: [] };
  if (!('github' in step)) {
    try {
      report.notes.push(runTaskStep(model, step), ...model.takeNotes());
    } catch (error) {
      if (error instanceof UnsupportedFeatureError) throw error;
      report.ignored = (error as Error).message;
    }
    return report;
  }
  const data = githubEventData(step.github, step.payload, step.delivery);
  const runs: SensorRun[] = sensors.map((sensor) => runSensor(sensor, data, source));
  const failures = step.triggerFailures ?? 0;
  for (const run of runs.filter((candidate) => candidate.fired.length > 0)) {
    report.sensors.push(run.sensor);
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
      execute(context, trigger, report);
      report.notes.push(...model.takeNotes());
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

/** The model, and what the synthesized remediator runs by (none when the platform has no remediator). */
interface SimulationContext {
  readonly model: PlayModel;
  readonly plan: RemediatorSettings | undefined;
}

function execute(context: SimulationContext, trigger: FiredTrigger, report: StepReport): void {
  const resource = trigger.resource;
  const created = trigger.kind === 'k8s' && trigger.operation === 'create' && resource.kind === 'Workflow';
  const template = resource.spec?.workflowTemplateRef?.name;
  if (created && template === RESUMER_TEMPLATE_NAME) {
    runResumer(context.model, argumentsOf(resource), report);
  } else if (created && template === REMEDIATOR_TEMPLATE_NAME && context.plan !== undefined) {
    const outcome = runRemediator(context.model, context.plan, resource, report.notes);
    if (outcome !== undefined) report.remediated = [...(report.remediated ?? []), outcome];
  } else {
    throw new UnsupportedFeatureError(
      `trigger ${trigger.name}: ${trigger.kind} ${trigger.operation} of ${resource.kind} is not simulated (our Sensors only create the resumer and the remediator)`,
    );
  }
}

function argumentsOf(workflow: Record<string, any>): Record<ResumerParameter, string> {
  const given = new Map<string, string>(
    (workflow.spec.arguments?.parameters ?? []).map((parameter: any) => [parameter.name, String(parameter.value ?? '')]),
  );
  return Object.fromEntries(RESUMER_PARAMETERS.map((name) => [name, given.get(name) ?? ''])) as Record<ResumerParameter, string>;
}

/**
 * What the resumer Workflow does with its arguments (`FIND_PLAY_SCRIPT`, then `argo resume`, then
 * `confirm`): record, find the live play (by name under `workflow-name`, else by labels), resume it only
 * when its suspend node at the gate is active.
 */
function runResumer(model: PlayModel, args: Record<ResumerParameter, string>, report: StepReport): void {
  const gate = args.gate;
  if (!/^[0-9]+$/.test(args['task-id'])) {
    report.notes.push(`resumer for ${gate}: the event names no task`);
    return;
  }
  const task = Number(args['task-id']);
  model.record(args['release-configmap'], gate);
  report.recorded.push({ repository: args.repository, task, gate });
  const plays =
    args.play !== ''
      ? [model.byName(args.play)].filter((play): play is Play => play !== undefined)
      : model.selectByLabels(playSelectorLabels(String(task), args['repository-label']));
  if (plays.length !== 1) {
    report.notes.push(
      plays.length === 0
        ? `resumer for ${gate}: no live play for task ${task}; the release waits`
        : `resumer for ${gate}: ${plays.length} live plays match; resuming none`,
    );
    return;
  }
  const [play] = plays;
  if (play.stage !== gate) {
    report.notes.push(`resumer for ${gate}: the play of task ${task} is at ${play.stage}; it passes ${gate} on arrival if it gets there`);
    return;
  }
  if (model.resume(play, gate)) report.resumed.push({ repository: play.repository, task, gate });
  else report.notes.push(`resumer for ${gate}: the play of task ${task} has no active suspend node at ${gate}; nothing to resume`);
}
