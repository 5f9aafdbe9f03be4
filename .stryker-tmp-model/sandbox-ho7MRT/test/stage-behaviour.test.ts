/** Stage types dispatch through `onStage` (constructs/model/stage-behaviour.ts), one handler per type. */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../constructs/model/resolve-config';
import type { StageConfig } from '../constructs/model/config-schema';
import { onStage, onStageOf, stageAgents, stageCondition } from '../constructs/model/stage-behaviour';
import { StageMachine, type Stage } from '../constructs/model/stage-machine';

const machine = StageMachine.fromConfig(resolveConfig({ env: {} }));

describe('onStage', () => {
  it('calls the handler of each stage type with the stage', () => {
    const seen = machine.stages.map((stage) =>
      onStage(stage, {
        agent: (agent) => `agent ${agent.agents.join('+')}`,
        gate: (gate) => `gate ${gate.name}`,
        end: (end) => `end ${end.name}`,
      }),
    );
    expect(seen).toEqual(
      machine.stages.map((stage) => (stage.type === 'agent' ? `agent ${stage.agents.join('+')}` : `${stage.type} ${stage.name}`)),
    );
  });

  it('will not compile without a handler for every type', () => {
    const stage = machine.end;
    // : the end stage has no handler
    const call = () => onStage(stage, { agent: () => 1, gate: () => 2 });
    expect(call).toThrow();
  });

  it('refuses a stage of a type it does not know', () => {
    const stranger = { name: 'x', type: 'review' } as unknown as Stage;
    expect(() => onStage(stranger, { agent: () => 1, gate: () => 2, end: () => 3 })).toThrow(/unknown stage type/);
  });
});

describe('onStageOf: the same dispatch for the stages of the config (stage rules, name collisions)', () => {
  const configStages: StageConfig[] = resolveConfig({ env: {} }).stages;

  it('calls the handler of each config stage type with the stage', () => {
    const seen = configStages.map((stage) =>
      onStageOf<StageConfig, string>(stage, {
        agent: (agent) => `agent ${agent.name}`,
        gate: (gate) => `gate ${gate.release.length}`,
        end: () => 'end',
      }),
    );
    expect(seen).toEqual(
      configStages.map((stage) =>
        stage.type === 'gate' ? `gate ${stage.release.length}` : stage.type === 'end' ? 'end' : `agent ${stage.name}`,
      ),
    );
    expect(new Set(configStages.map((stage) => stage.type))).toEqual(new Set(['agent', 'gate', 'end']));
  });

  it('will not compile without a handler for every type, and refuses one it lacks at run time', () => {
    const gate = configStages.find((stage) => stage.type === 'gate')!;
    // : the gate stage has no handler
    const call = () => onStageOf<StageConfig, number>(gate, { agent: () => 1, end: () => 3 });
    expect(call).toThrow(/unknown stage type/);
  });
});

describe('stageCondition and stageAgents', () => {
  it('read the condition and the agents of each type, none for the end stage', () => {
    const when = { parameter: 'task-type', in: ['backend'] };
    expect(stageCondition({ name: 'a', type: 'agent', agents: ['rex'], when } as unknown as Stage)).toEqual(when);
    expect(stageCondition({ name: 'g', type: 'gate', release: [], when } as unknown as Stage)).toEqual(when);
    expect(stageCondition(machine.end)).toBeUndefined();
    expect(stageAgents({ name: 'a', type: 'agent', agents: ['rex', 'blaze'] } as unknown as Stage)).toEqual(['rex', 'blaze']);
    expect(stageAgents(machine.end)).toEqual([]);
  });
});
