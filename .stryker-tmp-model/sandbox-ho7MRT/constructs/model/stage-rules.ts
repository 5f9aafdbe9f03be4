/**
 * The rules a stage list must follow, shared by the config schema (which reports them at a path) and the
 * stage machine (which throws them at construction).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { AgentStageConfig, ReleaseConfig, StageConfig, WhenConfig } from './config-shapes';
import { CONDITION_PARAMETERS, stageTaskName } from './play-contract';
import { onStageOf } from './stage-behaviour';

/**
 * A stage as a stage machine accepts it: as the config schema gives it, or as a stage machine returns it
 * (an agent stage with `agents` resolved), so one machine's stages can build another.
 */
export type StageDefinition =
  | (Readonly<Omit<AgentStageConfig, 'agent' | 'agents'>> & { readonly agent?: string; readonly agents?: readonly string[] })
  // Every other type of the config as it is, so that a new one reaches each dispatch below.
  | Readonly<Exclude<StageConfig, AgentStageConfig>>;

/** A broken rule, at the path (inside the stage list) of the field to change. */
export interface StageProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** Two DAG tasks per stage must fit in Argo's 200 tasks per DAG, with room for the play's own tasks. */
export const MAX_STAGES = 90;

/**
 * Every problem of a stage list; empty when the list is a valid stage machine.
 *
 * @param agentNames the agents of the registry
 * @param parameterNames the play parameters a stage condition may test
 */
export function stageProblems(
  stages: readonly StageDefinition[],
  agentNames: readonly string[],
  parameterNames: readonly string[] = CONDITION_PARAMETERS,
): StageProblem[] {
  return [
    ...shapeProblems(stages),
    ...parallelNameProblems(stages),
    ...stages.flatMap((stage, index) => [
      ...stageReferenceProblems(stage, index, agentNames),
      ...conditionProblems(stage, index, parameterNames),
    ]),
  ];
}

/** The agents of an agent stage: its one `agent`, or its parallel `agents`. */
export function agentsOf(stage: StageDefinition): string[] {
  return onStageOf<StageDefinition, string[]>(stage, {
    agent: (agent) => (agent.agents ? [...agent.agents] : agent.agent !== undefined ? [agent.agent] : []),
    gate: () => [],
    end: () => [],
  });
}

/** The agents of a stage that run at once, each as its own task: only a parallel agent stage has them. */
function parallelAgentsOf(stage: StageDefinition): readonly string[] {
  return onStageOf<StageDefinition, readonly string[]>(stage, { agent: (agent) => agent.agents ?? [], gate: () => [], end: () => [] });
}

/** Whether a stage counts as the work of a play (a stage machine needs one). */
function isAgentStage(stage: StageDefinition): boolean {
  return onStageOf<StageDefinition, boolean>(stage, { agent: () => true, gate: () => false, end: () => false });
}

/** Whether a stage ends the play (only the last stage may). */
function isEndStage(stage: StageDefinition): boolean {
  return onStageOf<StageDefinition, boolean>(stage, { agent: () => false, gate: () => false, end: () => true });
}

function conditionOf(stage: StageDefinition): WhenConfig | undefined {
  return onStageOf<StageDefinition, WhenConfig | undefined>(stage, {
    agent: (agent) => agent.when,
    gate: (gate) => gate.when,
    end: () => undefined,
  });
}

function conditionProblems(stage: StageDefinition, index: number, parameterNames: readonly string[]): StageProblem[] {
  const when = conditionOf(stage);
  if (when === undefined) return [];
  if (parameterNames.includes(when.parameter)) return [];
  return [
    {
      path: [index, 'when', 'parameter'],
      message: `unknown play parameter "${when.parameter}"; known: ${parameterNames.join(', ')} (declare it under play.parameters)`,
    },
  ];
}

/** A parallel stage's tasks are `{stage}-{agent}`: none may take the name of another stage's task. */
function parallelNameProblems(stages: readonly StageDefinition[]): StageProblem[] {
  const stageNames = new Set(stages.map((stage) => stage.name));
  const problems: StageProblem[] = [];
  stages.forEach((stage, index) => {
    for (const agent of parallelAgentsOf(stage)) {
      const task = stageTaskName(stage.name, agent);
      if (stageNames.has(task))
        problems.push({
          path: [index, 'agents'],
          message: `the run of agent "${agent}" is named "${task}", which is also a stage; rename stage "${task}"`,
        });
    }
  });
  return problems;
}

function shapeProblems(stages: readonly StageDefinition[]): StageProblem[] {
  const problems: StageProblem[] = [];
  if (stages.length > MAX_STAGES)
    problems.push({ path: [], message: `${stages.length} stages is more than the ${MAX_STAGES} a play can hold` });
  if (!stages.some(isAgentStage)) problems.push({ path: [], message: 'a stage machine needs at least one agent stage' });
  const last = stages.length - 1;
  if (last < 0 || !isEndStage(stages[last])) {
    problems.push({
      path: [Math.max(last, 0)],
      message: 'the last stage must be the end stage (type: end), e.g. { name: completed, type: end }',
    });
  }
  const seen = new Map<string, number>();
  stages.forEach((stage, index) => {
    if (isEndStage(stage) && index !== last)
      problems.push({
        path: [index, 'type'],
        message: `only the last stage may be an end stage; "${stage.name}" is stage ${index + 1} of ${stages.length}`,
      });
    const first = seen.get(stage.name);
    if (first !== undefined) {
      problems.push({
        path: [index, 'name'],
        message: `stage "${stage.name}" is defined twice (also stage ${first + 1}); a play runs each stage once, in order, so going back to a stage would be a cycle: give each stage its own name`,
      });
    } else seen.set(stage.name, index);
  });
  return problems;
}

function stageReferenceProblems(stage: StageDefinition, index: number, agentNames: readonly string[]): StageProblem[] {
  return onStageOf<StageDefinition, StageProblem[]>(stage, {
    agent: (agent) => agentProblems(agent, index, agentNames),
    gate: (gate) => gateProblems(gate, index, agentNames),
    end: () => [],
  });
}

function gateProblems(stage: Extract<StageDefinition, { type: 'gate' }>, index: number, agentNames: readonly string[]): StageProblem[] {
  const problems: StageProblem[] = [];
  if (stage.release.length === 0)
    problems.push({
      path: [index, 'release'],
      message: `gate "${stage.name}" has no releasing event: add one, e.g. { event: pull_request, actions: [labeled], label: ready-for-${stage.name} }`,
    });
  stage.release.forEach((release, releaseIndex) => {
    problems.push(...gateConditionProblems(release, [index, 'release', releaseIndex], agentNames));
  });
  return problems;
}

/**
 * What is wrong with one condition of a gate (a `release` or a `remediate` entry, which share their shape),
 * at `path`: an unknown agent, or a field that the event or actions make meaningless.
 */
export function gateConditionProblems(
  condition: ReleaseConfig,
  path: readonly (string | number)[],
  agentNames: readonly string[],
): StageProblem[] {
  const at = (...field: (string | number)[]): (string | number)[] => [...path, ...field];
  const problems: StageProblem[] = condition.by.flatMap((agent, byIndex) =>
    agentNames.includes(agent) ? [] : [{ path: at('by', byIndex), message: `unknown agent "${agent}"; known: ${agentNames.join(', ')}` }],
  );
  if (condition.reviewState !== undefined && condition.event !== 'pull_request_review')
    problems.push({
      path: at('reviewState'),
      message: 'reviewState applies only to event pull_request_review: remove it, or set event: pull_request_review',
    });
  if (condition.label !== undefined && !condition.actions.includes('labeled'))
    problems.push({
      path: at('label'),
      message: 'label applies only when actions include "labeled": remove it, or add labeled to actions',
    });
  if (condition.merged !== undefined && !(condition.event === 'pull_request' && condition.actions.includes('closed')))
    problems.push({
      path: at('merged'),
      message: 'merged applies only to event pull_request with action "closed": remove it, or use that event and action',
    });
  return problems;
}

function agentProblems(stage: Extract<StageDefinition, { type: 'agent' }>, index: number, agentNames: readonly string[]): StageProblem[] {
  const unknown = (agent: string, path: (string | number)[]): StageProblem => ({
    path: [index, ...path],
    message: `unknown agent "${agent}"; known: ${agentNames.join(', ')}`,
  });
  if (stage.agent !== undefined && stage.agents !== undefined)
    return [{ path: [index], message: 'give either agent (one agent) or agents (several at once), not both' }];
  if (stage.agents !== undefined) {
    const problems = stage.agents.flatMap((agent, position) => (agentNames.includes(agent) ? [] : [unknown(agent, ['agents', position])]));
    if (stage.agents.length === 0)
      problems.push({ path: [index, 'agents'], message: 'agents is empty: name the agents that work in this stage' });
    const twice = stage.agents.filter((agent, position) => stage.agents!.indexOf(agent) !== position);
    if (twice.length > 0)
      problems.push({ path: [index, 'agents'], message: `agent "${twice[0]}" is listed twice; each parallel agent runs once` });
    return problems;
  }
  if (stage.agent === undefined)
    return [{ path: [index, 'agent'], message: `agent stage "${stage.name}" names no agent: set agent (or agents for parallel runs)` }];
  return agentNames.includes(stage.agent) ? [] : [unknown(stage.agent, ['agent'])];
}
