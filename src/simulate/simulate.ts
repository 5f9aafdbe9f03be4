/**
 * The offline simulator: GitHub deliveries go through the Sensors we synthesize (their real filters and
 * trigger parameters), and what the triggers do is applied to a model of the plays.
 */
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { PlayLabels, WorkflowTypes } from '../../constructs/model/labels';
import { GATE_STAGE_INPUT, RESUMER_TEMPLATE_NAME } from '../../constructs/model/play-contract';
import { RESUMER_PARAMETERS, type ResumerParameter } from '../../constructs/events/play-resumer-template';
import { UnsupportedFeatureError } from './engine/unsupported';
import { PlayModel, type PlayView } from './play-model';
import type { Scenario, Step } from './scenario';
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
  /** What each trigger did, in words, for the readable trace. */
  readonly notes: string[];
}

export interface SimulationReport {
  readonly plays: PlayView[];
  readonly steps: StepReport[];
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
  const sensors = platform.objects.filter((object) => object.kind === 'Sensor');
  const eventSource = platform.objects.find((object) => object.kind === 'EventSource');
  if (!eventSource) throw new Error('the platform has no EventSource: nothing would deliver GitHub events');
  const source = { name: eventSource.metadata.name as string, eventName: Object.keys(eventSource.spec.github)[0] };
  for (const play of scenario.plays) model.addPlay(play.repository, play.task, play.stage, play.parameters);
  const steps = scenario.steps.map((step, index) => runStep(model, sensors, source, step, index));
  return { plays: model.views(), steps };
}

function runStep(model: PlayModel, sensors: readonly Record<string, any>[], source: { name: string; eventName: string }, step: Step, index: number): StepReport {
  const report: StepReport = { index, sensors: [], resumed: [], recorded: [], notes: [] };
  if ('agentDone' in step) {
    const play = model.find(step.agentDone.repository, step.agentDone.task);
    if (!play) report.ignored = `no play for task ${step.agentDone.task} of ${step.agentDone.repository}`;
    else {
      try {
        model.agentDone(play);
        report.notes.push(`the agent of task ${play.task} finished; the play is now at ${play.stage}`);
      } catch (error) {
        report.ignored = (error as Error).message;
      }
    }
    return report;
  }
  const data = githubEventData(step.github, step.payload, step.delivery);
  const runs: SensorRun[] = sensors.map((sensor) => runSensor(sensor, data, source));
  for (const run of runs.filter((candidate) => candidate.fired.length > 0)) {
    report.sensors.push(run.sensor);
    for (const trigger of run.fired) execute(model, trigger, report);
  }
  if (report.sensors.length === 0) report.ignored = `no sensor matched: ${runs.map(describeMiss).join('; ')}`;
  else if (report.resumed.length === 0) report.ignored = `nothing resumed: ${report.notes.join('; ')}`;
  return report;
}

function describeMiss(run: SensorRun): string {
  return `${run.sensor} (${run.misses.map((miss) => miss.reason).filter((reason, index, all) => all.indexOf(reason) === index).join(' | ')})`;
}

function execute(model: PlayModel, trigger: FiredTrigger, report: StepReport): void {
  const resource = trigger.resource;
  if (trigger.kind === 'k8s' && trigger.operation === 'create' && resource.kind === 'Workflow' && resource.spec?.workflowTemplateRef?.name === RESUMER_TEMPLATE_NAME) {
    runResumer(model, argumentsOf(resource), report);
  } else if (trigger.kind === 'k8s' && trigger.operation === 'patch' && resource.kind === 'ConfigMap') {
    recordFromPatch(model, resource, report);
  } else if (trigger.kind === 'argoWorkflow' && trigger.operation === 'resume') {
    resumeByName(model, resource.metadata?.name, trigger.args, report);
  } else {
    throw new UnsupportedFeatureError(`trigger ${trigger.name}: ${trigger.kind} ${trigger.operation} of ${resource.kind} is not simulated`);
  }
}

function argumentsOf(workflow: Record<string, any>): Record<ResumerParameter, string> {
  const given = new Map<string, string>((workflow.spec.arguments?.parameters ?? []).map((parameter: any) => [parameter.name, String(parameter.value ?? '')]));
  return Object.fromEntries(RESUMER_PARAMETERS.map((name) => [name, given.get(name) ?? ''])) as Record<ResumerParameter, string>;
}

/** What the resumer Workflow does with its arguments (the find-play script, then argo resume). */
function runResumer(model: PlayModel, args: Record<ResumerParameter, string>, report: StepReport): void {
  const gate = args.gate;
  if (!/^[0-9]+$/.test(args['task-id'])) {
    report.notes.push(`resumer for ${gate}: the event names no task`);
    return;
  }
  const task = Number(args['task-id']);
  model.record(args['release-configmap'], gate);
  report.recorded.push({ repository: args.repository, task, gate });
  const plays = model.selectByLabels({
    [PlayLabels.taskId]: String(task),
    [PlayLabels.repository]: args['repository-label'],
    [PlayLabels.workflowType]: WorkflowTypes.play,
  });
  if (plays.length !== 1) {
    report.notes.push(plays.length === 0 ? `resumer for ${gate}: no live play for task ${task}; the release waits` : `resumer for ${gate}: ${plays.length} live plays match; resuming none`);
    return;
  }
  const [play] = plays;
  if (play.stage !== gate) {
    report.notes.push(`resumer for ${gate}: the play of task ${task} is at ${play.stage}; it passes ${gate} on arrival`);
    return;
  }
  if (model.resume(play, gate)) report.resumed.push({ repository: play.repository, task, gate });
}

function recordFromPatch(model: PlayModel, configMap: Record<string, any>, report: StepReport): void {
  const name: string = configMap.metadata.name;
  const owner = model.releaseOwner(name);
  for (const [gate, value] of Object.entries(configMap.data ?? {})) {
    if (value === '') continue;
    model.record(name, gate);
    if (owner) report.recorded.push({ ...owner, gate });
    else report.notes.push(`recorded ${gate} in ${name}, which belongs to no task`);
  }
}

function resumeByName(model: PlayModel, name: string | undefined, args: readonly string[], report: StepReport): void {
  const selector = nodeSelector(args);
  const prefix = `inputs.parameters.${GATE_STAGE_INPUT}.value=`;
  if (!selector.startsWith(prefix)) throw new UnsupportedFeatureError(`node field selector "${selector}" is not simulated`);
  const gate = selector.slice(prefix.length);
  const play = name ? model.byName(name) : undefined;
  if (play && model.resume(play, gate)) report.resumed.push({ repository: play.repository, task: play.task, gate });
  else report.notes.push(`argo resume ${name ?? '?'}: no suspended ${gate} node (the trigger fails and retries, then gives up)`);
}

function nodeSelector(args: readonly string[]): string {
  const index = args.indexOf('--node-field-selector');
  if (index < 0 || args.length !== 2) throw new UnsupportedFeatureError(`argo resume arguments ${JSON.stringify(args)} are not simulated`);
  return args[index + 1];
}
