/** `agent-play graph`: Mermaid of the stage machine and of the synthesized play DAG. */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../constructs/model/resolve-config';
import { StageMachine } from '../constructs/model/stage-machine';
import { label, nodeId } from '../src/graph/mermaid';
import { playDagGraph, synthesizedPlayTemplate } from '../src/graph/play-dag-graph';
import { describeRelease, stageGraph } from '../src/graph/stage-graph';
import { remediationPlan } from '../constructs/remediation/remediation';
import { runCapturing } from './support/run-cli';

const config = resolveConfig({});
const machine = StageMachine.fromConfig(config);
const taskId = (name: string): string => `task_${name.replace(/-/g, '_')}`;
const nodeOf = (text: string, name: string): string =>
  text.split('\n').find((line) => line.includes(`"${name}<br/>`) || line.includes(`"${name}"`)) ?? '';

describe('the stage machine graph', () => {
  const graph = stageGraph(machine);

  it('is a Mermaid flowchart with every stage, its agents, and each gate with the events that release it', () => {
    expect(graph.startsWith('flowchart TD\n')).toBe(true);
    for (const stage of machine.stages) expect(nodeOf(graph, stage.name), stage.name).not.toBe('');
    for (const stage of machine.agentStages) expect(nodeOf(graph, stage.name)).toContain(`agent: ${stage.agents.join(' + ')}`);
    for (const gate of machine.gates)
      for (const release of gate.release) expect(nodeOf(graph, gate.name)).toContain(describeRelease(release));
    expect(nodeOf(graph, 'waiting-ready-for-qa')).toMatch(/^\s+stage_waiting_ready_for_qa\{\{/);
  });

  it('has one edge from each stage to the next, in order', () => {
    const edges = graph
      .split('\n')
      .filter((line) => line.includes(' --> '))
      .map((line) => line.trim());
    expect(edges).toEqual(
      machine.stages
        .slice(1)
        .map((stage, index) => `stage_${machine.stages[index].name.replace(/-/g, '_')} --> stage_${stage.name.replace(/-/g, '_')}`),
    );
  });

  it('draws parallel agents and the path around a conditional stage', () => {
    const composed = StageMachine.fromConfig(
      resolveConfig({
        file: {
          stages: [
            { name: 'build', type: 'agent', agents: ['rex', 'blaze'] },
            { name: 'security', type: 'agent', agent: 'cipher', when: { parameter: 'task-type', in: ['backend'] } },
            { name: 'done', type: 'end' },
          ],
        },
      }),
    );
    const text = stageGraph(composed);
    expect(nodeOf(text, 'build')).toContain('agents: rex + blaze');
    expect(nodeOf(text, 'security')).toContain('when task-type in backend');
    expect(text).toContain('stage_build -. "skipped unless task-type in backend" .-> stage_done');
  });
});

describe('the remediation path', () => {
  const plan = remediationPlan(machine.stages, config.agents, config.remediation);
  const graph = stageGraph(machine, plan);

  it('goes from each gate that sends tasks back to the implementation stage, with its conditions and maxRounds', () => {
    const back = graph.split('\n').filter((line) => line.includes('.-> stage_implementation'));
    expect(back.map((line) => line.trim().split(' ')[0])).toEqual(['stage_waiting_ready_for_qa', 'stage_waiting_pr_merged']);
    expect(back[0]).toContain(
      'remediate: pull_request_review submitted review changes_requested by cleo or pull_request labeled label needs-fixes by cleo',
    );
    expect(back[1]).toContain('by tess');
    for (const line of back) expect(line).toContain(`at most ${config.remediation.maxRounds} rounds`);
  });

  it('is not drawn without a plan, and the forward edges stay one per stage', () => {
    expect(stageGraph(machine)).not.toContain('remediate:');
    expect(graph.split('\n').filter((line) => line.includes(' --> '))).toHaveLength(machine.stages.length - 1);
  });
});

describe('Mermaid labels', () => {
  it('quote the label and write what would end it or read as HTML as entity codes', () => {
    expect(label('a "b" & <c>', 'd')).toBe('"a #quot;b#quot; #amp; #lt;c#gt;<br/>d"');
    expect(nodeId('task', '3-build.x')).toBe('task_3_build_x');
  });
});

describe('the play DAG graph', () => {
  const play = synthesizedPlayTemplate(config, config.repositories[0].name) as Record<string, any>;
  const graph = playDagGraph(play);
  const tasks: { name: string; depends?: string }[] = play.spec.templates.find(
    (template: { name: string }) => template.name === play.spec.entrypoint,
  ).dag.tasks;

  it('shows every task of the synthesized DAG, and exactly one edge for every task its depends names', () => {
    for (const task of tasks) expect(graph).toMatch(new RegExp(`^  ${taskId(task.name)}\\W.*"${task.name}<br/>`, 'm'));
    // The default play's depends are plain conjunctions; read them independently of the graph's parser.
    for (const task of tasks) if (task.depends) expect(task.depends).toMatch(/^[a-z0-9-]+( && [a-z0-9-]+)*$/);
    const expected = tasks.flatMap((task) =>
      task.depends ? task.depends.split(' && ').map((name) => `${taskId(name)} --> ${taskId(task.name)}`) : [],
    );
    const edges = graph
      .split('\n')
      .filter((line) => line.includes('-->'))
      .map((line) => line.trim());
    expect(edges.sort()).toEqual(expected.sort());
    expect(edges).toContain('task_enter_implementation --> task_implementation');
  });

  it('shows the when of a conditional task, as Argo will test it', () => {
    const composed = resolveConfig({
      file: {
        stages: [
          { name: 'build', type: 'agent', agents: ['rex', 'blaze'] },
          { name: 'security', type: 'agent', agent: 'cipher', when: { parameter: 'task-type', in: ['backend'] } },
          { name: 'done', type: 'end' },
        ],
      },
    });
    const text = playDagGraph(synthesizedPlayTemplate(composed, composed.repositories[0].name) ?? {});
    expect(nodeOf(text, 'security')).toMatch(/when: .*workflow\.parameters\['task-type'\] in \['backend'\]/);
    expect(nodeOf(text, 'security')).not.toContain('{{');
    expect(nodeOf(text, 'security')).toContain(' #amp;#amp; ');
    expect(text).toContain('task_build_rex --> task_enter_security');
    expect(text).toContain('task_build_blaze --> task_enter_security');
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
