/**
 * The play Workflow and its labels come from one builder (constructs/model/play-workflow.ts): the template's
 * labels, the project's child plays, `resume` and the simulator all carry the same label keys and values.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { inputParameter, workflowParameterExpression } from '../constructs/model/argo-expressions';
import { PlayAnnotations, PlayLabels, WorkflowTypes } from '../constructs/model/labels';
import { repositoryLabelValue } from '../constructs/model/naming';
import { PlayParameters } from '../constructs/model/play-contract';
import { playLabels, playSelectorLabels, playTemplateLabels, playWorkflow } from '../constructs/model/play-workflow';

describe('playLabels', () => {
  it('labels a play with its task, encoded repository, type and stage', () => {
    expect(playLabels({ task: '7', repository: 'Acme/Widget', stage: 'testing' })).toEqual({
      [PlayLabels.taskId]: '7',
      [PlayLabels.repository]: repositoryLabelValue('Acme/Widget'),
      [PlayLabels.workflowType]: WorkflowTypes.play,
      [PlayLabels.currentStage]: 'testing',
      [PlayLabels.round]: '1',
    });
    expect(playLabels({ task: '7', repository: 'Acme/Widget', stage: 'testing', round: '3' })[PlayLabels.round]).toBe('3');
  });

  it('selects by every label but the stage and the round, which change while the task runs', () => {
    const labels = playLabels({ task: '7', repository: 'acme/widget', stage: 'testing' });
    const { [PlayLabels.currentStage]: stage, [PlayLabels.round]: round, ...rest } = labels;
    expect(stage).toBe('testing');
    expect(round).toBe('1');
    expect(playSelectorLabels('7', repositoryLabelValue('acme/widget'))).toEqual(rest);
  });

  it('gives the template the same keys but the repository, task and stage taken from the play parameters', () => {
    const { labels, labelsFrom } = playTemplateLabels();
    const keys = Object.keys(playLabels({ task: '1', repository: 'acme/widget', stage: 'x' }));
    // One template serves every repository: its first step puts the repository label on the play.
    expect(Object.keys({ ...labels, ...labelsFrom }).sort()).toEqual(keys.filter((key) => key !== PlayLabels.repository).sort());
    expect(labels[PlayLabels.repository]).toBeUndefined();
    expect(labelsFrom[PlayLabels.repository]).toBeUndefined();
    expect(labelsFrom[PlayLabels.taskId]).toEqual({ expression: workflowParameterExpression(PlayParameters.taskId) });
    expect(labelsFrom[PlayLabels.currentStage]).toEqual({ expression: workflowParameterExpression(PlayParameters.startStage) });
  });
});

describe('playWorkflow', () => {
  it('names, labels and starts the play from the repository template at the stage', () => {
    const workflow = playWorkflow({
      service: 'widget',
      template: 'play',
      namespace: 'agents',
      task: inputParameter(PlayParameters.taskId),
      repository: 'acme/widget',
      stage: 'code-quality',
      parameters: [{ name: 'task-type', value: 'backend' }],
      extraLabels: { project: 'p1' },
    }) as { metadata: Record<string, any>; spec: Record<string, any> };
    expect(workflow.metadata.name).toBe('play-widget-task-{{inputs.parameters.task-id}}');
    expect(workflow.metadata.labels).toEqual({
      ...playLabels({ task: '{{inputs.parameters.task-id}}', repository: 'acme/widget', stage: 'code-quality' }),
      project: 'p1',
    });
    expect(workflow.metadata.annotations[PlayAnnotations.repository]).toBe('acme/widget');
    expect(workflow.spec.workflowTemplateRef).toEqual({ name: 'play' });
    expect(workflow.spec.arguments.parameters).toEqual([
      { name: PlayParameters.repository, value: 'acme/widget' },
      { name: PlayParameters.taskId, value: '{{inputs.parameters.task-id}}' },
      { name: PlayParameters.startStage, value: 'code-quality' },
      { name: 'task-type', value: 'backend' },
    ]);
  });
});
