/**
 * The Workflow that recreates a task's play at the stage its progress record holds: the same name
 * (`playWorkflowName`, on which the workflow-name resume strategy relies), the labels a play carries, the
 * play WorkflowTemplate of the repository's service (so the same workspace claims, whose names come from
 * service and agent only), `start-stage` set to the stored stage, so every stage before it is skipped, and
 * the play parameters it kept (so it takes the same conditional stages). Anything that would make the play
 * start anywhere else, or skip a stage it should take, is refused with the reason.
 */
// @ts-nocheck

import type { PlatformConfig, RepositoryConfig } from '../../constructs/model/config-schema';
import { progressConfigMapOf, progressKeyOf } from '../../constructs/progress/progress-layout';
import { PlayParameters, ProgressStatuses, RESUMED_FROM_ANNOTATION } from '../../constructs/model/play-contract';
import { playWorkflow } from '../../constructs/model/play-workflow';
import { playTemplateOf } from '../../constructs/registry/registry-entries';
import { stageCondition } from '../../constructs/model/stage-behaviour';
import { StageMachine } from '../../constructs/model/stage-machine';
import type { ProgressConfigMap, TaskEntry } from './progress-state';
import { readingOrder } from './record-location';
import { ProblemsError } from '../../constructs/model/problems-error';

/** Why a play cannot be resumed; one problem, reported as unusable input. */
export class ResumeError extends ProblemsError {
  public constructor(message: string) {
    super([message]);
    this.name = 'ResumeError';
  }
}

/** Annotation on the recreated Workflow: which record it was made from (the play's gates read it too). */
export { RESUMED_FROM_ANNOTATION } from '../../constructs/model/play-contract';

export interface ResumeRequest {
  readonly repository: string;
  readonly task: string;
  /** Play parameters that override the record's (or stand in for a record that keeps none), e.g. `task-type`. */
  readonly parameters: Readonly<Record<string, string>>;
}

function repositoryOf(config: PlatformConfig, name: string): RepositoryConfig {
  const repository = config.repositories.find((candidate) => candidate.name === name);
  if (!repository)
    throw new ResumeError(
      `repository ${name} is not in the configuration (repositories: ${config.repositories.map((candidate) => candidate.name).join(', ')}): pass the --config the platform was synthesized from`,
    );
  return repository;
}

function entryOf(configMaps: readonly ProgressConfigMap[], request: ResumeRequest): TaskEntry {
  // The record the runtime reads (record-location.ts): the task's shard first, then the earlier layouts'
  // ConfigMaps; a play resumed from an earlier layout's record writes its shard from its first stage on.
  const shard = progressConfigMapOf(request.repository, Number(request.task));
  const key = progressKeyOf(request.repository, Number(request.task));
  const order = readingOrder(request.repository, Number(request.task));
  const rank = (entry: TaskEntry): number => (order.includes(entry.configMap) ? order.indexOf(entry.configMap) : order.length);
  const sameRepository = (entry: TaskEntry): boolean => entry.repository?.toLowerCase() === request.repository.toLowerCase();
  const entries = configMaps.flatMap((configMap) => configMap.entries).filter(sameRepository);
  const ordered = [...entries].sort((a, b) => rank(a) - rank(b));
  const entry =
    ordered.find((candidate) => candidate.task === request.task) ??
    // A record under a key that spells the task another way (task-007.json): its problem says so.
    ordered.find((candidate) => /^\d+$/.test(candidate.task) && Number(candidate.task) === Number(request.task));
  if (!entry) {
    const recorded = [...new Set(entries.map((candidate) => candidate.task))].sort((a, b) => Number(a) - Number(b));
    throw new ResumeError(
      `no progress record of task ${request.task} of ${request.repository} (no key ${key} in ${shard}, nor in an earlier layout's ConfigMap); recorded tasks of ${request.repository}: ${recorded.join(', ') || 'none'}`,
    );
  }
  if (!entry.record)
    throw new ResumeError(
      `the record of task ${request.task} in ConfigMap ${entry.configMap} cannot be used: ${entry.problem}; fix or delete the key ${entry.key} before resuming`,
    );
  return entry;
}

/**
 * The play parameters of the recreated play: the record's, overridden by those given on the command line,
 * restricted to what the play declares. A record without parameters (written before they were kept) cannot
 * say which conditional stages the task takes: it is refused when a conditional stage is still ahead and its
 * parameter is not given.
 */
function playParameters(
  machine: StageMachine,
  config: PlatformConfig,
  stage: string,
  stored: Readonly<Record<string, string>> | undefined,
  given: Readonly<Record<string, string>>,
): Record<string, string> {
  const declared = new Set([PlayParameters.taskType, ...Object.keys(config.play.parameters)]);
  for (const name of Object.keys(given)) {
    if (!declared.has(name))
      throw new ResumeError(
        `--parameter ${name}: the play declares no such parameter (it has ${[...declared].join(', ')}; task-id and start-stage come from the record)`,
      );
  }
  const chosen = Object.fromEntries(Object.entries({ ...stored, ...given }).filter(([name]) => declared.has(name)));
  if (stored === undefined) {
    const unknown = machine.stagesFrom(stage).flatMap((ahead) => {
      const when = stageCondition(ahead);
      return when && !(when.parameter in chosen) ? [`${ahead.name} (${when.parameter})`] : [];
    });
    if (unknown.length > 0)
      throw new ResumeError(
        `the record of this task keeps no play parameters, and conditional stages are ahead: ${unknown.join(', ')}; pass --parameter NAME=VALUE for each (an empty value is allowed) so the play takes the stages it should`,
      );
  }
  const values: Record<string, string> = { [PlayParameters.taskType]: '', ...config.play.parameters, ...chosen };
  if (!machine.runsFor(stage, values)) {
    const when = stageCondition(machine.get(stage));
    throw new ResumeError(
      `stage ${stage} runs only when ${when?.parameter} is one of ${when?.in.join(', ')}, but ${when?.parameter} is "${values[when?.parameter ?? ''] ?? ''}": pass --parameter ${when?.parameter}=VALUE, or the play would skip the stage it stopped in`,
    );
  }
  return Object.fromEntries(Object.entries(chosen).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The Workflow manifest that recreates the task's play.
 * @throws ResumeError when the state is missing, unreadable or does not fit the configured stage machine,
 * and when the play has nothing left to do
 */
export function resumeWorkflow(
  configMaps: readonly ProgressConfigMap[],
  config: PlatformConfig,
  request: ResumeRequest,
): Record<string, unknown> {
  const repository = repositoryOf(config, request.repository);
  const entry = entryOf(configMaps, request);
  const record = entry.record as NonNullable<TaskEntry['record']>;
  const machine = StageMachine.fromConfig(config);
  if (record.status === ProgressStatuses.completed)
    throw new ResumeError(`task ${request.task} of ${request.repository} is completed (stage ${record.stage}); nothing to resume`);
  if (!machine.has(record.stage))
    throw new ResumeError(
      `the record of task ${request.task} is at stage "${record.stage}", which the configured stage machine does not have (stages: ${machine.names.join(', ')}): resume with the configuration the play ran with`,
    );
  const round = record.round ?? 1;
  if (round > config.remediation.maxRounds)
    throw new ResumeError(
      `the record of task ${request.task} is in round ${round}, more than the ${config.remediation.maxRounds} rounds the configuration allows (remediation.maxRounds): resume with the configuration the play ran with`,
    );
  const stage = machine.get(record.stage);
  if (stage.type === 'end')
    throw new ResumeError(`task ${request.task} of ${request.repository} reached its end stage ${stage.name}; nothing to resume`);
  const parameters = playParameters(machine, config, stage.name, record.parameters, request.parameters);
  return playWorkflow({
    service: repository.service,
    template: playTemplateOf({ ...config, stageAgents: machine.agents }, repository.name),
    namespace: config.namespace,
    task: record.task,
    repository: repository.name,
    stage: stage.name,
    // The round the record is in: a resumed play continues it (and a remediated task does not start over).
    round: String(record.round ?? 1),
    parameters: Object.entries(parameters).map(([name, value]) => ({ name, value })),
    extraAnnotations: {
      [RESUMED_FROM_ANNOTATION]: `${entry.configMap}/${entry.key}: stage ${record.stage}, status ${record.status}, round ${record.round ?? 1}, last updated ${record.lastUpdated}`,
    },
  });
}
