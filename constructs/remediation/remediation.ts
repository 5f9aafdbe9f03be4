/**
 * Remediation rounds: which events send a task back to its implementation stage, how many times, and
 * which work a new push by the implementation agent makes stale. The config side (`remediation:` and a
 * gate's `remediate:`), and the plan every construct, the simulator and the graph read, derived once.
 *
 * A DAG cannot loop: a remediation ends the play and recreates it at the implementation stage with the
 * next round (docs/remediation.md).
 *
 * Pure: no cdk8s, no I/O.
 */
import type { AgentConfig, ReleaseConfig } from '../model/config-shapes';
import { Releases } from '../model/releases';

export { NEEDS_FIXES_LABEL } from '../model/releases';
import { gateConditionProblems, type StageDefinition } from '../model/stage-rules';
import { ProblemsError } from '../model/problems-error';
import { formatPath } from '../model/format-path';

/** The roles whose agents send a task back by default (from the gate after their stage). */
export const REVIEWING_ROLES: readonly string[] = ['quality', 'testing'];
/** The role of the agents a task goes back to. */
export const IMPLEMENTATION_ROLE = 'implementation';

export { DEFAULT_MAX_ROUNDS, MAX_ROUNDS_LIMIT, type RemediationConfig } from '../model/config-shapes';
import { RemediationSchema, type RemediationConfig } from '../model/config-shapes';

/** The conditions a reviewing agent sends a task back with: a review requesting changes, or the `needs-fixes` label. */
export function defaultRemediateConditions(by: readonly string[]): ReleaseConfig[] {
  return [Releases.changesRequested({ by }), Releases.needsFixes({ by })];
}

/** One way back: the gate whose `remediate:` holds the conditions, and the conditions. */
export interface RemediationRoute {
  readonly gate: string;
  readonly conditions: readonly ReleaseConfig[];
}

/** What the remediation Sensors, the remediator, the simulator and the graph need, from one derivation. */
export interface RemediationPlan {
  readonly maxRounds: number;
  /** The stage a task goes back to: the first agent stage whose agents have role `implementation`. */
  readonly implementationStage: string;
  /** The implementation stage's agents: their bots' pushes make quality and testing work stale. */
  readonly implementationAgents: readonly string[];
  /** The gates that send a task back, each with its conditions, in stage order. */
  readonly routes: readonly RemediationRoute[];
  /** Where a remediation event counts: the stages after the implementation stage, the end stage excluded. */
  readonly remediableStages: readonly string[];
  /** The first gate after the implementation stage: it waits for the pull request, which stays open across rounds. */
  readonly pullRequestGate?: string;
  /** Where work made stale by a push runs again: the first stage after the pull request gate. */
  readonly staleRestartStage?: string;
  /** The stages a push makes stale (from `staleRestartStage` to the end stage, excluded); empty when disabled. */
  readonly staleStages: readonly string[];
  /** The gates whose release records do not hold in a new round (all but the pull request gate). */
  readonly roundGates: readonly string[];
}

function agentsOfStage(stage: StageDefinition): readonly string[] {
  if (stage.type !== 'agent') return [];
  return stage.agents ?? (stage.agent === undefined ? [] : [stage.agent]);
}

function hasRole(stage: StageDefinition, agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>, roles: readonly string[]): boolean {
  const names = agentsOfStage(stage);
  return names.length > 0 && names.every((name) => roles.includes(agents[name]?.role ?? ''));
}

/** The index of the implementation stage, or -1. */
function implementationIndex(stages: readonly StageDefinition[], agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>): number {
  return stages.findIndex((stage) => hasRole(stage, agents, [IMPLEMENTATION_ROLE]));
}

/**
 * The conditions of a gate: its `remediate:` as written, else the default one, which a gate gets when it
 * follows an agent stage of reviewing agents (quality, testing) that itself comes after the implementation
 * stage: requested changes, or `needs-fixes`, by those agents.
 */
export function remediateConditions(
  stages: readonly StageDefinition[],
  agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>,
  gateIndex: number,
): readonly ReleaseConfig[] {
  const gate = stages[gateIndex];
  if (gate?.type !== 'gate') return [];
  if (gate.remediate !== undefined) return gate.remediate;
  const implementation = implementationIndex(stages, agents);
  const before = stages[gateIndex - 1];
  if (implementation < 0 || gateIndex - 1 <= implementation || before === undefined) return [];
  return hasRole(before, agents, REVIEWING_ROLES) ? defaultRemediateConditions(agentsOfStage(before)) : [];
}

/** A broken remediation rule, at the path of the field to change. */
export interface RemediationProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** A gate that sends tasks back needs an implementation stage before it. */
export function remediationProblems(
  stages: readonly StageDefinition[],
  agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>,
): RemediationProblem[] {
  const implementation = implementationIndex(stages, agents);
  const problems: RemediationProblem[] = [];
  stages.forEach((stage, index) => {
    if (stage.type !== 'gate') return;
    (stage.remediate ?? []).forEach((condition, conditionIndex) => {
      problems.push(...gateConditionProblems(condition, ['stages', index, 'remediate', conditionIndex], Object.keys(agents)));
    });
    if (remediateConditions(stages, agents, index).length === 0) return;
    if (implementation < 0)
      problems.push({
        path: ['stages', index, 'remediate'],
        message: `gate "${stage.name}" sends tasks back, but no agent stage has implementation agents to send them to: add one, or remove remediate`,
      });
    else if (implementation > index)
      problems.push({
        path: ['stages', index, 'remediate'],
        message: `gate "${stage.name}" sends tasks back to "${stages[implementation].name}", which comes after it: remediate only from gates after the implementation stage`,
      });
  });
  return problems;
}

/**
 * The remediation plan of a stage list, or undefined when no gate sends a task back.
 *
 * @throws ProblemsError when a gate sends tasks back and no implementation stage comes before it, or names
 * an unknown agent, one line per problem at its path
 */
export function remediationPlan(
  stages: readonly StageDefinition[],
  agents: Readonly<Record<string, Pick<AgentConfig, 'role'>>>,
  remediation: RemediationConfig = RemediationSchema.parse({}),
): RemediationPlan | undefined {
  const problems = remediationProblems(stages, agents);
  if (problems.length > 0) throw new ProblemsError(problems.map((problem) => `${formatPath(problem.path)}: ${problem.message}`));
  const routes = stages
    .map((stage, index) => ({ gate: stage.name, conditions: remediateConditions(stages, agents, index) }))
    .filter((route) => route.conditions.length > 0);
  if (routes.length === 0) return undefined;
  const implementation = implementationIndex(stages, agents);
  const after = stages.slice(implementation + 1, -1);
  const pullRequestGate = after.find((stage) => stage.type === 'gate')?.name;
  const gateIndex = pullRequestGate === undefined ? -1 : stages.findIndex((stage) => stage.name === pullRequestGate);
  const staleFrom = gateIndex < 0 ? [] : stages.slice(gateIndex + 1, -1);
  const staleRestartStage = remediation.cancelStaleWork ? staleFrom[0]?.name : undefined;
  return {
    maxRounds: remediation.maxRounds,
    implementationStage: stages[implementation].name,
    implementationAgents: agentsOfStage(stages[implementation]),
    routes,
    remediableStages: after.map((stage) => stage.name),
    ...(pullRequestGate === undefined ? {} : { pullRequestGate }),
    ...(staleRestartStage === undefined ? {} : { staleRestartStage }),
    staleStages: staleRestartStage === undefined ? [] : staleFrom.map((stage) => stage.name),
    roundGates: stages.filter((stage) => stage.type === 'gate' && stage.name !== pullRequestGate).map((stage) => stage.name),
  };
}

export { roundsExhaustedReason } from './remediator-contract';
