/**
 * The stages a remediator sends plays back to exist as agent stages of the run's play WorkflowTemplates: a
 * remediator whose implementation stage was renamed away would stop a play and create a successor that
 * Argo refuses (its `start-stage` is not in the enum), and the task would be stuck in a failed play. The
 * remediator is the WorkflowTemplate labelled `workflow-type: remediator`; its stages are the values of the
 * `IMPLEMENTATION_STAGE` and `STALE_RESTART_STAGE` variables of its decide step. A play WorkflowTemplate is
 * one that declares the `start-stage` parameter with an enum; an agent stage of it is one whose DAG task
 * runs a template named `run-{stage}` (`agentRunTemplateName`). A run without any play is not checked.
 */
// @ts-nocheck

import { PlayLabels } from '../../../constructs/model/labels';
import { agentRunTemplateName, PlayParameters, stageTaskName } from '../../../constructs/model/play-contract';
import { REMEDIATOR_WORKFLOW_TYPE } from '../../../constructs/remediation/remediator-contract';
import type { LintContext, LintRule, ManifestObject, Violation } from '../finding';
import { callsOf, isRecord, listOf, namedList, pathOf, templatesOf, workflowObjects, workflowSpecOf } from './argo-spec';

/** The remediator's variables that name a stage a play restarts at, and what kind of stage each must be. */
const STAGE_VARIABLES: Readonly<Record<string, 'agent' | 'any'>> = { IMPLEMENTATION_STAGE: 'agent', STALE_RESTART_STAGE: 'any' };

interface PlayStages {
  readonly name: string;
  readonly stages: readonly string[];
  readonly agentStages: readonly string[];
}

/** The play WorkflowTemplates of the run: their stages (the start-stage enum) and which of them run an agent. */
/** The stages a remediator variable must name, and how a message names them. */
const AGENT_STAGES = { one: 'an agent stage', many: 'agent stages', of: (play: PlayStages) => play.agentStages };
const ANY_STAGES = { one: 'a stage', many: 'stages', of: (play: PlayStages) => play.stages };

function playsOf(context: LintContext): PlayStages[] {
  return workflowObjects(context.objects, ['WorkflowTemplate', 'ClusterWorkflowTemplate']).flatMap(({ target, workflow }) => {
    const start = namedList(workflow.spec.arguments, 'parameters').find((parameter) => parameter.name === PlayParameters.startStage);
    const stages = listOf(start?.enum).filter((value): value is string => typeof value === 'string');
    if (stages.length === 0) return [];
    // The tasks that run an agent: task `{stage}` (or `{stage}-{agent}` in a parallel stage) runs `run-{task}`.
    const agentTasks = callsOf(workflow)
      .filter(({ call, name }) => call.template === agentRunTemplateName(name))
      .map(({ name }) => name);
    const agentStages = stages.filter((stage) =>
      agentTasks.some((task) => task === stageTaskName(stage) || (task.startsWith(`${stage}-`) && !stages.includes(task))),
    );
    return [{ name: target.name ?? '', stages, agentStages }];
  });
}

function violationsOf(target: ManifestObject, plays: readonly PlayStages[]): Violation[] {
  const workflow = workflowSpecOf(target);
  if (!workflow) return [];
  return templatesOf(workflow).flatMap(({ template, at }) => {
    const container = isRecord(template.script) ? template.script : isRecord(template.container) ? template.container : undefined;
    return listOf(container?.env).flatMap((variable, index): Violation[] => {
      if (!isRecord(variable) || typeof variable.name !== 'string' || typeof variable.value !== 'string') return [];
      const kind = STAGE_VARIABLES[variable.name];
      if (kind === undefined || variable.value === '') return [];
      const stage = variable.value;
      const wanted = kind === 'agent' ? AGENT_STAGES : ANY_STAGES;
      return plays
        .filter((play) => !wanted.of(play).includes(stage))
        .map((play) => ({
          path: pathOf(at, isRecord(template.script) ? 'script' : 'container', 'env', index, 'value'),
          message: `${variable.name} "${stage}" is not ${wanted.one} of play ${play.name} (${wanted.many}: ${wanted.of(play).join(', ')}): its successors would be refused; regenerate the remediator from the same stages`,
        }));
    });
  });
}

export const remediatorStagesRule: LintRule = {
  id: 'remediator-stages',
  severity: 'error',
  description:
    'the stages a remediator restarts plays at are stages (the implementation stage an agent stage) of every play WorkflowTemplate of the run',
  kinds: ['WorkflowTemplate', 'ClusterWorkflowTemplate'],
  check: (target, context) => {
    if (target.object.metadata?.labels?.[PlayLabels.workflowType] !== REMEDIATOR_WORKFLOW_TYPE) return [];
    const plays = playsOf(context);
    return plays.length === 0 ? [] : violationsOf(target, plays);
  },
};
