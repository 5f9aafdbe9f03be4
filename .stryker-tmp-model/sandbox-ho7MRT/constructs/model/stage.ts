/**
 * The stages of a stage machine, as the constructs, the Sensors and the simulator read them: the config's
 * stages with an agent stage's agents resolved. Apart from `StageMachine`, so that the rules and behaviours
 * of stages can name these types without importing the machine built from them.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { AgentStageConfig, EndStageConfig, GateStageConfig } from './config-shapes';

/** An agent stage with its agents resolved: one, or several that run at once. */
export type AgentStage = Readonly<Omit<AgentStageConfig, 'agent' | 'agents'> & { readonly agents: readonly string[] }>;
/** A gate stage: the play suspends here until one of its releasing GitHub events arrives. */
export type GateStage = Readonly<GateStageConfig>;
/** The end stage: the play finishes here. */
export type EndStage = Readonly<EndStageConfig>;
/** Any stage of a stage machine. */
export type Stage = AgentStage | GateStage | EndStage;
