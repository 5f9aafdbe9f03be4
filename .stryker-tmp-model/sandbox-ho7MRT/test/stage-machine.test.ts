// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../constructs/model/resolve-config';
import { StageMachine, type StageDefinition } from '../constructs/model/stage-machine';

const config = resolveConfig();
const agents = Object.keys(config.agents);

describe('StageMachine', () => {
  const machine = new StageMachine(config.stages, agents);

  it('knows the order, the gates and the agents', () => {
    expect(machine.first.name).toBe('implementation');
    expect(machine.end.name).toBe('completed');
    expect(machine.gates.map((gate) => gate.name)).toEqual(['waiting-pr-created', 'waiting-ready-for-qa', 'waiting-pr-merged']);
    expect(machine.agents).toEqual(['rex', 'cleo', 'tess']);
    expect(machine.next('code-quality')?.name).toBe('waiting-ready-for-qa');
    expect(machine.previous('implementation')).toBeUndefined();
    expect(machine.next('completed')).toBeUndefined();
  });

  it('lists what a play resumed at a stage runs and skips', () => {
    expect(machine.stagesFrom('testing').map((stage) => stage.name)).toEqual(['testing', 'waiting-pr-merged', 'completed']);
    expect(machine.stagesBefore('code-quality').map((stage) => stage.name)).toEqual(['implementation', 'waiting-pr-created']);
  });

  it('refuses a stage it does not have', () => {
    expect(() => machine.indexOf('review')).toThrow('unknown stage "review"; stages: implementation, waiting-pr-created');
  });

  it('hands out copies', () => {
    const stages = machine.stages;
    (stages[0] as { name: string }).name = 'changed';
    expect(machine.first.name).toBe('implementation');
  });

  it('throws every problem at construction, each with what to change', () => {
    const broken: StageDefinition[] = [
      { name: 'done', type: 'end' },
      { name: 'build', type: 'agent', agent: 'ghost', timeout: '1h', retries: 0 },
    ];
    expect(() => new StageMachine(broken, agents)).toThrow(/stages\[0\]\.type \(stage "done"\): only the last stage may be an end stage/);
    expect(() => new StageMachine(broken, agents)).toThrow(/stages\[1\] \(stage "build"\): the last stage must be the end stage/);
    expect(() => new StageMachine(broken, agents)).toThrow(/stages\[1\]\.agent \(stage "build"\): unknown agent "ghost"/);
  });

  it('refuses release conditions that can never match', () => {
    const gate: StageDefinition = {
      name: 'wait',
      type: 'gate',
      release: [{ event: 'pull_request', actions: ['opened'], reviewState: 'approved', merged: true, by: [] }],
    };
    const stages: StageDefinition[] = [
      { name: 'build', type: 'agent', agent: 'rex', timeout: '1h', retries: 0 },
      gate,
      { name: 'done', type: 'end' },
    ];
    expect(() => new StageMachine(stages, agents)).toThrow(
      /reviewState applies only to event pull_request_review[\s\S]*merged applies only to event pull_request with action "closed"/,
    );
  });
});
