/**
 * Builds a stage machine in TypeScript, from scratch or from an existing one (the default platform's):
 *
 *   const stages = StageMachineBuilder.from(defaults)
 *     .after('code-quality')
 *     .agent('security', 'cipher')
 *     .gate('waiting-security-approved', Releases.labeled('ready-for-security'))
 *     .replaceWithParallel('testing', ['tess', 'tess-e2e'])
 *     .build();
 *
 * `build()` applies every rule the config schema applies (known agents, unique names, a releasing event per
 * gate, the end last, known condition parameters) and throws them all at once, each with what to change.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { DEFAULT_STAGE_RETRIES, DEFAULT_STAGE_TIMEOUT, type ReleaseConfig, type WhenConfig } from './config-shapes';
import { durationProblem, durationText, type DurationLike } from './duration';
import { CONDITION_PARAMETERS } from './play-contract';
import { StageMachine, stageMachineProblems, type StageDefinition } from './stage-machine';

/** What a `StageMachineBuilder` checks stages against. */
export interface StageMachineBuilderOptions {
  /** The agents of the registry, which stages may name. */
  readonly agents: readonly string[];
  /** The play parameters a stage condition may test. @default ['task-type'] */
  readonly parameters?: readonly string[];
}

/** Options of an agent stage added with `StageMachineBuilder.agent`. */
export interface AgentStageOptions {
  /**
   * How long one attempt may run: text such as `2h`, or a cdk8s `Duration` (written as the text it equals).
   * @default 4h (DEFAULT_STAGE_TIMEOUT)
   */
  readonly timeout?: string | DurationLike;
  /** How many times a failed run is retried. @default 1 (DEFAULT_STAGE_RETRIES) */
  readonly retries?: number;
  /** Run the stage only for some tasks. @default - every task */
  readonly when?: WhenConfig;
}

/** Options of a gate stage added with `StageMachineBuilder.gate`. */
export interface GateStageOptions {
  /** Wait at the gate only for some tasks. @default - every task */
  readonly when?: WhenConfig;
  /**
   * The events that send the task back to its implementation stage, e.g. `[Releases.changesRequested({ by: ['cleo'] })]`;
   * `[]` for none. @default - after a quality or testing stage: changes requested or `needs-fixes` by its agents
   */
  readonly remediate?: readonly ReleaseConfig[];
}

/** Builds a `StageMachine` step by step in TypeScript, from scratch or from an existing one; `build()` checks every rule. */
export class StageMachineBuilder {
  /**
   * Starts from the stages of an existing machine (or stage list), e.g. the default platform's.
   * @throws TypeError when `stages` is neither a StageMachine nor a list of stage definitions
   */
  public static from(stages: StageMachine | readonly StageDefinition[], options: StageMachineBuilderOptions): StageMachineBuilder {
    if (!(stages instanceof StageMachine) && !Array.isArray(stages))
      throw new TypeError('StageMachineBuilder.from: stages: expected a StageMachine or a list of stage definitions');
    const builder = new StageMachineBuilder(options);
    builder.list.push(...(stages instanceof StageMachine ? stages.stages : stages.map((stage) => structuredClone(stage))));
    builder.cursor = undefined;
    return builder;
  }

  private readonly list: StageDefinition[] = [];
  /** What the steps so far got wrong, each naming its stage: `build()` reports them with the stage rules' problems. */
  private readonly problems: string[] = [];
  /** Where the next stage goes: after this stage, or at the end (before the end stage) when unset. */
  private cursor: string | undefined;

  public constructor(private readonly options: StageMachineBuilderOptions) {}

  /** Adds the next stages after `stage` instead of at the end (`build()` reports a stage that does not exist). */
  public after(stage: string): this {
    this.cursor = this.find('after', stage) === undefined ? undefined : stage;
    return this;
  }

  /** Adds an agent stage where one agent works. */
  public agent(name: string, agent: string, options: AgentStageOptions = {}): this {
    return this.insert({ name, type: 'agent', agent, ...this.agentDefaults(name, options) });
  }

  /** Adds a stage where several agents work at once; the next stage starts when all are done. */
  public parallel(name: string, agents: readonly string[], options: AgentStageOptions = {}): this {
    return this.insert({ name, type: 'agent', agents: [...agents], ...this.agentDefaults(name, options) });
  }

  /** Adds a gate, released by any of the given events. */
  public gate(name: string, release: ReleaseConfig | readonly ReleaseConfig[], options: GateStageOptions = {}): this {
    const releases = Array.isArray(release) ? release : [release as ReleaseConfig];
    return this.insert({
      name,
      type: 'gate',
      release: releases.map((entry) => structuredClone(entry)),
      ...(options.when ? { when: options.when } : {}),
      ...(options.remediate ? { remediate: options.remediate.map((entry) => structuredClone(entry)) } : {}),
    });
  }

  /** Adds the end stage, last. */
  public end(name = 'completed'): this {
    this.list.push({ name, type: 'end' });
    return this;
  }

  /** Turns an agent stage into a parallel one, keeping its place, name and settings (`build()` reports any other stage). */
  public replaceWithParallel(stage: string, agents: readonly string[]): this {
    const index = this.find('replaceWithParallel', stage);
    if (index === undefined) return this;
    const current = this.list[index];
    if (current.type !== 'agent') {
      this.problems.push(`replaceWithParallel (stage "${stage}"): a ${current.type} stage; only an agent stage can run agents in parallel`);
      return this;
    }
    const { agent: _agent, agents: _agents, ...rest } = current;
    this.list[index] = { ...rest, agents: [...agents] };
    return this;
  }

  /** Removes a stage (`build()` reports a stage that does not exist). */
  public remove(stage: string): this {
    const index = this.find('remove', stage);
    if (index !== undefined) this.list.splice(index, 1);
    if (this.cursor === stage) this.cursor = undefined;
    return this;
  }

  /** The stages so far, as the config file's `stages:` would list them. */
  public toStages(): StageDefinition[] {
    return this.list.map((stage) => structuredClone(stage));
  }

  /**
   * The stage machine.
   * @throws listing every problem at once, each naming its stage: the steps' (a stage that does not exist, a
   * duration that is not one) and every stage rule the stages break, each with what to change
   */
  public build(): StageMachine {
    const parameters = this.options.parameters ?? CONDITION_PARAMETERS;
    const problems = [...this.problems, ...stageMachineProblems(this.list, this.options.agents, parameters)];
    if (problems.length > 0) throw new Error(`invalid stage machine:\n${problems.join('\n')}`);
    return new StageMachine(this.list, this.options.agents, { parameters });
  }

  private agentDefaults(stage: string, options: AgentStageOptions): { timeout: string; retries: number; when?: WhenConfig } {
    const defaults = agentDefaults(options);
    const problem = durationProblem(defaults.timeout);
    if (problem !== undefined) this.problems.push(`timeout (stage "${stage}"): ${problem}`);
    return defaults;
  }

  /** The index of `stage`, or `undefined` (and a problem naming the step) when no stage has that name. */
  private find(step: string, stage: string): number | undefined {
    const index = this.list.findIndex((candidate) => candidate.name === stage);
    if (index >= 0) return index;
    this.problems.push(
      `${step} (stage "${stage}"): no stage has that name; stages: ${this.list.map((candidate) => candidate.name).join(', ')}`,
    );
    return undefined;
  }

  private insert(stage: StageDefinition): this {
    const after = this.cursor === undefined ? -1 : this.list.findIndex((candidate) => candidate.name === this.cursor);
    if (after >= 0) {
      this.list.splice(after + 1, 0, stage);
      this.cursor = stage.name;
      return this;
    }
    const endIndex = this.list.findIndex((candidate) => candidate.type === 'end');
    this.list.splice(endIndex < 0 ? this.list.length : endIndex, 0, stage);
    return this;
  }
}

function agentDefaults(options: AgentStageOptions): { timeout: string; retries: number; when?: WhenConfig } {
  // Text is kept as written, so that `build()` reports a wrong one with every other problem.
  const timeout = options.timeout === undefined || typeof options.timeout === 'string' ? options.timeout : durationText(options.timeout);
  return {
    timeout: timeout ?? DEFAULT_STAGE_TIMEOUT,
    retries: options.retries ?? DEFAULT_STAGE_RETRIES,
    ...(options.when ? { when: options.when } : {}),
  };
}
