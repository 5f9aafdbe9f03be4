/**
 * What depends on a stage's type goes through `onStage`, one handler per type: a new stage type is a
 * compile error wherever it is not handled (templates, simulator, graph), not a silent fall-through.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { WhenConfig } from './config-shapes';
import type { AgentStage, EndStage, GateStage, Stage } from './stage';

export type StageType = Stage['type'];

/** One handler per stage type, each given the stage narrowed to its type. */
export interface StageHandlers<R> {
  readonly agent: (stage: AgentStage) => R;
  readonly gate: (stage: GateStage) => R;
  readonly end: (stage: EndStage) => R;
}

/**
 * One handler per type of any stage union: the stages of a stage machine, or of the config before one is
 * built (`StageDefinition`, the config schema's stages). A union that gains a type needs its handler here.
 */
export type StageHandlersOf<S extends { readonly type: string }, R> = {
  readonly [T in S['type']]: (stage: Extract<S, { readonly type: T }>) => R;
};

/** Calls the handler of the stage's type. */
export function onStage<R>(stage: Stage, handlers: StageHandlers<R>): R {
  return onStageOf<Stage, R>(stage, handlers);
}

/** Calls the handler of the stage's type, for any stage union (config-level checks use it). */
export function onStageOf<S extends { readonly type: string }, R>(stage: S, handlers: StageHandlersOf<S, R>): R {
  const type: S['type'] = stage.type;
  if (!Object.hasOwn(handlers, type)) return unhandledStage(stage);
  return (handlers[type] as (stage: S) => R)(stage);
}

function unhandledStage(stage: unknown): never {
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
