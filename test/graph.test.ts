/** `agent-play graph`: Mermaid of the stage machine and of the synthesized play DAG. */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { resolveConfig } from '../constructs/model/resolve-config';
import { StageMachine } from '../constructs/model/stage-machine';
import { playTemplateName } from '../constructs/model/play-contract';
import { playDagGraph } from '../src/graph/play-dag-graph';
import { describeRelease, stageGraph } from '../src/graph/stage-graph';
import { synthesizePlatform } from '../src/synth/synthesize';
import { runCapturing } from './support/run-cli';

const config = resolveConfig({});
const machine = StageMachine.fromConfig(config);
const nodeOf = (text: string, name: string): string => text.split('\n').find((line) => line.includes(`"${name}<br/>`) || line.includes(`"${name}"`)) ?? '';

describe('the stage machine graph', () => {
  const graph = stageGraph(machine);

  it('is a Mermaid flowchart with every stage, its agents, and each gate with the events that release it', () => {
    expect(graph.startsWith('flowchart TD\n')).toBe(true);
    for (const stage of machine.stages) expect(nodeOf(graph, stage.name), stage.name).not.toBe('');
    for (const stage of machine.agentStages) expect(nodeOf(graph, stage.name)).toContain(`agent: ${stage.agents.join(' + ')}`);
    for (const gate of machine.gates) for (const release of gate.release) expect(nodeOf(graph, gate.name)).toContain(describeRelease(release));
    expect(nodeOf(graph, 'waiting-ready-for-qa')).toMatch(/^\s+stage_waiting_ready_for_qa\{\{/);
  });

  it('has one edge from each stage to the next, in order', () => {
    const edges = graph.split('\n').filter((line) => line.includes(' --> ')).map((line) => line.trim());
    expect(edges).toEqual(machine.stages.slice(1).map((stage, index) => `stage_${machine.stages[index].name.replace(/-/g, '_')} --> stage_${stage.name.replace(/-/g, '_')}`));
  });

  it('draws parallel agents and the path around a conditional stage', () => {
    const composed = StageMachine.fromConfig(resolveConfig({ file: { stages: [
      { name: 'build', type: 'agent', agents: ['rex', 'blaze'] },
      { name: 'security', type: 'agent', agent: 'cipher', when: { parameter: 'task-type', in: ['backend'] } },
      { name: 'done', type: 'end' },
    ] } }));
    const text = stageGraph(composed);
    expect(nodeOf(text, 'build')).toContain('agents: rex + blaze');
    expect(nodeOf(text, 'security')).toContain('when task-type in backend');
    expect(text).toContain('stage_build -. "skipped unless task-type in backend" .-> stage_done');
  });
});

describe('the play DAG graph', () => {
  const play = parseAllDocuments(synthesizePlatform(config).get('play-workflow-templates.yaml') ?? '')
    .map((document) => document.toJS())
    .find((object) => object.metadata.name === playTemplateName(config.repositories[0].service));
  const graph = playDagGraph(play);
  const tasks: { name: string; depends?: string }[] = play.spec.templates.find((template: { name: string }) => template.name === play.spec.entrypoint).dag.tasks;

  it('shows every task of the synthesized DAG, and an edge for every task its depends names', () => {
    for (const task of tasks) expect(graph).toContain(`task_${task.name.replace(/-/g, '_')}`);
    const edges = graph.split('\n').filter((line) => line.includes('-->')).length;
    const expected = tasks.reduce((sum, task) => sum + (task.depends ? task.depends.split('&&').length : 0), 0);
    expect(edges).toBe(expected);
    expect(graph).toContain('task_enter_implementation --> task_implementation');
  });

  it('prints both from the command line, and refuses an unknown repository', () => {
    const run = runCapturing(['graph']);
    expect(run.code, run.err).toBe(0);
    expect(run.out.match(/^flowchart TD$/gm)).toHaveLength(2);
    expect(runCapturing(['graph', '--what', 'stages']).out.match(/^flowchart TD$/gm)).toHaveLength(1);
    const unknown = runCapturing(['graph', '--repository', 'octo-org/nowhere']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--repository octo-org/nowhere is not configured');
  });

  it('matches its snapshot', () => {
    expect(runCapturing(['graph']).out).toMatchSnapshot();
  });
});
