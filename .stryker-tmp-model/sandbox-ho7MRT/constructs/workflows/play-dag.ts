/**
 * The play's main DAG: the repository's settings resolved (`resolve-repository`), then the stage machine as DAG
 * tasks. Each stage is entered by a task that runs
 * `enter-stage` (labels, history, progress record); then an agent stage runs its agent (one task per agent of
 * a parallel stage), a gate runs the gate, and the end stage is only entered. The `start-stage` parameter skips
 * every stage before it, so a play recreated from its progress record resumes where it stopped; a stage's
 * condition (`when`) skips it for the tasks it does not apply to.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { argoExpression, workflowParameterExpression } from '../model/argo-expressions';
import {
  agentRunTemplateName,
  enterTaskName,
  GATE_STAGE_INPUT,
  PlayParameters,
  PlayTemplates,
  ProgressStatuses,
  stageTaskName,
  type ProgressStatus,
} from '../model/play-contract';
import { onStage, stageAgents, stageCondition } from '../model/stage-behaviour';
import type { AgentStage, Stage, StageMachine } from '../model/stage-machine';
import type { DagTask, Template } from './argo-types';

/** The status a task's progress record shows while the play is in a stage of this type. */
const STATUS_BY_STAGE_TYPE: Readonly<Record<Stage['type'], ProgressStatus>> = {
  agent: ProgressStatuses.inProgress,
  gate: ProgressStatuses.suspended,
  end: ProgressStatuses.completed,
};

/** A list literal of strings for expr-lang. */
function listLiteral(values: readonly string[]): string {
  return `[${values.map((value) => `'${value}'`).join(', ')}]`;
}

/**
 * When a stage's tasks run: the play starts at or before it (earlier stages are done otherwise), and the task
 * satisfies the stage's condition, if it has one.
 */
function stageWhen(stages: StageMachine, stage: Stage): string {
  const startsAtOrBefore = `${workflowParameterExpression(PlayParameters.startStage)} in ${listLiteral(stages.names.slice(0, stages.indexOf(stage.name) + 1))}`;
  const when = stageCondition(stage);
  const condition = when ? ` && ${workflowParameterExpression(when.parameter)} in ${listLiteral(when.in)}` : '';
  return argoExpression(`${startsAtOrBefore}${condition}`);
}

/**
 * The stage a play was in before `stage`: the nearest earlier stage that ran for this task. Skipped
 * conditional stages are passed over at run time, so labels and progress never name a stage that did not
 * happen.
 */
function previousStageValue(stages: StageMachine, stage: Stage): string {
  const earlier = stages.stagesBefore(stage.name);
  const nearest = earlier[earlier.length - 1];
  if (nearest === undefined) return '';
  if (stageCondition(nearest) === undefined) return nearest.name;
  let expression = "''";
  for (const candidate of earlier) {
    const when = stageCondition(candidate);
    expression = when
      ? `(${workflowParameterExpression(when.parameter)} in ${listLiteral(when.in)} ? '${candidate.name}' : ${expression})`
      : `'${candidate.name}'`;
  }
  return argoExpression(expression);
}

/** The agents of a parallel stage, or `[undefined]` for a stage with one agent (whose run keeps the stage's name). */
export function parallelAgentsOf(stage: AgentStage): (string | undefined)[] {
  return stage.agents.length > 1 ? [...stage.agents] : [undefined];
}

/** The DAG tasks that do a stage's work: one agent run (or one per parallel agent), or the gate; none for the end. */
function workTasks(stage: Stage, depends: string, when: string): DagTask[] | undefined {
  return onStage<DagTask[] | undefined>(stage, {
    agent: (agentStage) =>
      parallelAgentsOf(agentStage).map((agent) => ({
        name: stageTaskName(agentStage.name, agent),
        template: agentRunTemplateName(agentStage.name, agent),
        depends,
        when,
      })),
    gate: (gate) => [
      {
        name: stageTaskName(gate.name),
        template: PlayTemplates.gate,
        depends,
        when,
        arguments: { parameters: [{ name: GATE_STAGE_INPUT, value: gate.name }] },
      },
    ],
    end: () => undefined,
  });
}

/** The DAG task that resolves the play's repository: the first task, on which every other depends. */
export const RESOLVE_TASK = 'resolve';

/**
 * The main DAG of a play: the repository resolved first, then the stages.
 *
 * @param cliOf the CLI an agent runs with in the play's repository (a reference to the resolved value), which
 * the progress record keeps
 * @param resolveTemplate the template that resolves the repository
 */
export function playDag(stages: StageMachine, cliOf: (agent: string) => string, resolveTemplate: string): Template {
  const tasks: DagTask[] = [{ name: RESOLVE_TASK, template: resolveTemplate }];
  let previousTasks: string[] = [RESOLVE_TASK];
  for (const stage of stages.stages) {
    const when = stageWhen(stages, stage);
    const agents = stageAgents(stage);
    tasks.push({
      name: enterTaskName(stage.name),
      template: PlayTemplates.enterStage,
      depends: previousTasks.length > 0 ? previousTasks.join(' && ') : undefined,
      when,
      arguments: {
        parameters: [
          { name: 'stage', value: stage.name },
          { name: 'previous-stage', value: previousStageValue(stages, stage) },
          { name: 'agent', value: agents.join(',') },
          { name: 'cli', value: agents.map(cliOf).join(',') },
          { name: 'status', value: STATUS_BY_STAGE_TYPE[stage.type] },
        ],
      },
    });
    const work = workTasks(stage, enterTaskName(stage.name), when);
    if (work === undefined) continue;
    tasks.push(...work);
    previousTasks = work.map((task) => task.name);
  }
  return { name: PlayTemplates.main, dag: { tasks } };
}
