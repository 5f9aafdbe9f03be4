/**
 * What depends on a stage's type goes through `onStage`, one handler per type: a new stage type is a
 * compile error wherever it is not handled (templates, simulator, graph), not a silent fall-through.
 *
 * Pure: no cdk8s, no I/O.
 */
import type { WhenConfig } from './config-schema';
import type { AgentStage, EndStage, GateStage, Stage } from './stage-machine';

export type StageType = Stage['type'];

/** One handler per stage type, each given the stage narrowed to its type. */
export interface StageHandlers<R> {
  readonly agent: (stage: AgentStage) => R;
  readonly gate: (stage: GateStage) => R;
  readonly end: (stage: EndStage) => R;
}

/** Calls the handler of the stage's type. */
export function onStage<R>(stage: Stage, handlers: StageHandlers<R>): R {
  switch (stage.type) {
    case 'agent':
      return handlers.agent(stage);
    case 'gate':
      return handlers.gate(stage);
    case 'end':
      return handlers.end(stage);
    default:
      return unhandledStage(stage);
  }
}

function unhandledStage(stage: never): never {
  throw new Error(`unknown stage type: ${JSON.stringify(stage)}`);
}

/** The condition (`when`) under which a stage runs; the end stage always runs. */
export function stageCondition(stage: Stage): WhenConfig | undefined {
  return onStage<WhenConfig | undefined>(stage, { agent: (agent) => agent.when, gate: (gate) => gate.when, end: () => undefined });
}

/** The agents that work in a stage: none outside agent stages. */
export function stageAgents(stage: Stage): readonly string[] {
  return onStage<readonly string[]>(stage, { agent: (agent) => agent.agents, gate: () => [], end: () => [] });
}
