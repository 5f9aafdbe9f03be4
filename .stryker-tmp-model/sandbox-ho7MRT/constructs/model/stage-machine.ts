/**
 * The stage machine of a play: the ordered stages, which agent works in each agent stage, which GitHub
 * events release each gate. Templates, sensors, the validator and the simulator all read stages from
 * here, so none of them can name a stage or gate that does not exist.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { PlatformConfig } from './config-shapes';
import { CONDITION_PARAMETERS } from './play-contract';
import { stageCondition } from './stage-behaviour';
import { agentsOf, stageProblems, type StageDefinition } from './stage-rules';

export type { StageDefinition } from './stage-rules';

export type { AgentStage, EndStage, GateStage, Stage } from './stage';
import type { AgentStage, GateStage, Stage } from './stage';

/**
 * Every rule `stages` break, one line each: the path says where, the stage's name which stage (a builder's
 * user knows the names, not the indexes).
 */
export function stageMachineProblems(
  stages: readonly StageDefinition[],
  agentNames: readonly string[],
  parameters: readonly string[],
): string[] {
  return stageProblems(stages, agentNames, parameters).map((problem) => {
    const where = `stages${problem.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('')}`;
    const index = problem.path[0];
    const name = typeof index === 'number' ? stages[index]?.name : undefined;
    return `${where}${typeof name === 'string' ? ` (stage "${name}")` : ''}: ${problem.message}`;
  });
}

/** Options of a `StageMachine`. */
export interface StageMachineOptions {
  /** The play parameters a stage condition (`when`) may test. @default ['task-type'] */
  readonly parameters?: readonly string[];
}

/** The stages of a play in order, checked against every stage rule; templates, Sensors, validator and simulator all read it. */
export class StageMachine {
  private readonly list: readonly Stage[];

  /**
   * @param stages the stages in order, the end stage last
   * @param agentNames the agents of the registry, which agent stages and gates may name
   * @throws listing every rule the stages break, each with what to change
   */
  public constructor(stages: readonly StageDefinition[], agentNames: readonly string[], options: StageMachineOptions = {}) {
    const problems = stageMachineProblems(stages, agentNames, options.parameters ?? CONDITION_PARAMETERS);
    if (problems.length > 0) throw new Error(`invalid stage machine:\n${problems.join('\n')}`);
    this.list = stages.map(resolveStage);
  }

  /** The stage machine of a platform configuration, with the play parameters it declares. */
  public static fromConfig(
    config: Pick<PlatformConfig, 'agents' | 'play'> & { readonly stages: readonly StageDefinition[] },
  ): StageMachine {
    return new StageMachine(config.stages, Object.keys(config.agents), {
      parameters: [...CONDITION_PARAMETERS, ...Object.keys(config.play.parameters)],
    });
  }

  /** The stages in order (a copy). */
  public get stages(): Stage[] {
    return this.list.map((stage) => structuredClone(stage));
  }

  /** The stage names in order. */
  public get names(): string[] {
    return this.list.map((stage) => stage.name);
  }

  /** The first stage: where a new play starts. */
  public get first(): Stage {
    return this.list[0];
  }

  /** The end stage. */
  public get end(): Stage {
    return this.list[this.list.length - 1];
  }

  /** The gates in order. */
  public get gates(): GateStage[] {
    return this.list.filter((stage): stage is GateStage => stage.type === 'gate');
  }

  /** The agent stages in order. */
  public get agentStages(): AgentStage[] {
    return this.list.filter((stage): stage is AgentStage => stage.type === 'agent');
  }

  /** The agents that work in some stage, each once, in order of first appearance. */
  public get agents(): string[] {
    return [...new Set(this.agentStages.flatMap((stage) => stage.agents))];
  }

  /** The stages that run only for some tasks. */
  public get conditionalStages(): Stage[] {
    return this.list.filter((stage) => stageCondition(stage) !== undefined).map((stage) => structuredClone(stage));
  }

  /** Whether a stage of that name exists. */
  public has(name: string): boolean {
    return this.list.some((stage) => stage.name === name);
  }

  /**
   * The position of a stage, 0 for the first.
   *
   * @throws when no stage has that name
   */
  public indexOf(name: string): number {
    const index = this.list.findIndex((stage) => stage.name === name);
    if (index < 0) throw new Error(`unknown stage "${name}"; stages: ${this.names.join(', ')}`);
    return index;
  }

  /** The stage by name. @throws when no stage has that name */
  public get(name: string): Stage {
    return this.list[this.indexOf(name)];
  }

  /** The stage after `name`, or undefined after the end. */
  public next(name: string): Stage | undefined {
    return this.list[this.indexOf(name) + 1];
  }

  /**
   * Whether a stage runs for a task with these play parameters (an unset parameter counts as empty), as the
   * play template's `when` decides it.
   */
  public runsFor(name: string, parameters: Readonly<Record<string, string>>): boolean {
    const when = stageCondition(this.get(name));
    if (when === undefined) return true;
    return when.in.includes(parameters[when.parameter] ?? '');
  }

  /** The next stage after `name` that runs for a task with these play parameters, or undefined after the end. */
  public nextFor(name: string, parameters: Readonly<Record<string, string>>): Stage | undefined {
    return this.list.slice(this.indexOf(name) + 1).find((stage) => this.runsFor(stage.name, parameters));
  }

  /** The stage before `name`, or undefined before the first. */
  public previous(name: string): Stage | undefined {
    const index = this.indexOf(name);
    return index > 0 ? this.list[index - 1] : undefined;
  }

  /** The stages a play that starts (or resumes) at `name` goes through: `name` and every later one. */
  public stagesFrom(name: string): Stage[] {
    return this.list.slice(this.indexOf(name));
  }

  /** The stages a play that starts (or resumes) at `name` skips: every earlier one. */
  public stagesBefore(name: string): Stage[] {
    return this.list.slice(0, this.indexOf(name));
  }
}

function resolveStage(stage: StageDefinition): Stage {
  if (stage.type !== 'agent') return structuredClone(stage);
  const { agent: _agent, agents: _agents, ...rest } = structuredClone(stage);
  return { ...rest, agents: agentsOf(stage) };
}
