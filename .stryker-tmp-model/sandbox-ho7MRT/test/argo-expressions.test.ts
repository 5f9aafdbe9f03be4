/** Every `{{...}}` the constructs emit comes from constructs/model/argo-expressions.ts: its forms, pinned. */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import {
  argoExpression,
  inputParameter,
  RETRIES,
  stepOutput,
  stepStatus,
  workflowOutput,
  workflowOutputExpression,
  workflowParameter,
  workflowParameterExpression,
  WorkflowVariables,
} from '../constructs/model/argo-expressions';

describe('Argo references', () => {
  it('builds each reference form Argo substitutes', () => {
    expect(inputParameter('stage')).toBe('{{inputs.parameters.stage}}');
    expect(workflowParameter('task-id')).toBe('{{workflow.parameters.task-id}}');
    expect(workflowOutput('service')).toBe('{{workflow.outputs.parameters.service}}');
    expect(workflowOutputExpression('claim-rex')).toBe("workflow.outputs.parameters['claim-rex']");
    expect(stepOutput('find', 'workflow')).toBe('{{steps.find.outputs.parameters.workflow}}');
    expect(stepStatus('resume-gate')).toBe('{{steps.resume-gate.status}}');
    expect(RETRIES).toBe('{{retries}}');
    expect(WorkflowVariables).toEqual({
      name: '{{workflow.name}}',
      namespace: '{{workflow.namespace}}',
      uid: '{{workflow.uid}}',
      status: '{{workflow.status}}',
    });
  });

  it('builds expr-lang expressions, with the index form for names that hold a dash', () => {
    expect(argoExpression("a == 'b'")).toBe("{{=a == 'b'}}");
    expect(workflowParameterExpression('start-stage')).toBe("workflow.parameters['start-stage']");
  });
});
