/**
 * The stage machine of a play: the ordered stages, which agent works in each agent stage, which GitHub
 * events release each gate. Templates, sensors, the validator and the simulator all read stages from
 * here, so none of them can name a stage or gate that does not exist.
 *
 * Pure: no cdk8s, no I/O.
 */
import type { AgentStageConfig, GateStageConfig, StageConfig } from './config-schema';
import { stageProblems } from './stage-rules';

export type AgentStage = Readonly<AgentStageConfig>;
export type GateStage = Readonly<GateStageConfig>;
export type Stage = Readonly<StageConfig>;

export class StageMachine {
  private readonly list: readonly Stage[];

  /**
   * @param stages the stages in order, the end stage last
   * @param agentNames the agents of the registry, which agent stages and gates may name
   * @throws listing every rule the stages break, each with what to change
   */
  public constructor(stages: readonly Stage[], agentNames: readonly string[]) {
    const problems = stageProblems(stages, agentNames);
    if (problems.length > 0) {
      const lines = problems.map((problem) => `stages${problem.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('')}: ${problem.message}`);
      throw new Error(`invalid stage machine:\n${lines.join('\n')}`);
    }
    this.list = stages.map((stage) => structuredClone(stage));
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
    return [...new Set(this.agentStages.map((stage) => stage.agent))];
  }

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
