/**
 * The stage machine as a Mermaid flowchart: stages in order, the agents of each agent stage, each gate with
 * the GitHub events that release it, conditional stages with the path that skips them, the remediation path
 * from a gate back to the implementation stage (with its conditions and `maxRounds`), and the end.
 */
// @ts-nocheck

import type { ReleaseConfig } from '../../constructs/model/config-schema';
import type { RemediationPlan } from '../../constructs/remediation/remediation';
import type { Stage, StageMachine } from '../../constructs/model/stage-machine';
import { onStage, stageCondition } from '../../constructs/model/stage-behaviour';
import { label, nodeId } from './mermaid';

const id = (stage: Stage): string => nodeId('stage', stage.name);

/** `pull_request opened, reopened by rex`, one release as people say it. */
export function describeRelease(release: ReleaseConfig): string {
  const parts = [release.event, release.actions.join('/')];
  if (release.label) parts.push(`label ${release.label}`);
  if (release.reviewState) parts.push(`review ${release.reviewState}`);
  if (release.merged) parts.push('merged');
  if (release.by.length > 0) parts.push(`by ${release.by.join(', ')}`);
  return parts.join(' ');
}

function node(stage: Stage): string {
  const when = stageCondition(stage);
  const condition = when ? [`when ${when.parameter} in ${when.in.join(', ')}`] : [];
  return onStage(stage, {
    agent: (agent) =>
      `  ${id(agent)}[${label(agent.name, `${agent.agents.length > 1 ? 'agents' : 'agent'}: ${agent.agents.join(' + ')}`, ...condition)}]`,
    gate: (gate) => `  ${id(gate)}{{${label(gate.name, ...gate.release.map(describeRelease), ...condition)}}}`,
    end: (end) => `  ${id(end)}([${label(end.name)}])`,
  });
}

/** The remediation path of one gate: back to the implementation stage, labelled with what sends a task back. */
function remediationEdges(machine: StageMachine, plan: RemediationPlan): string[] {
  const back = id(machine.get(plan.implementationStage));
  return plan.routes.map(
    (route) =>
      `  ${id(machine.get(route.gate))} -. ${label(`remediate: ${route.conditions.map(describeRelease).join(' or ')}`, `round + 1, at most ${plan.maxRounds} rounds`)} .-> ${back}`,
  );
}

/** The stage machine as Mermaid; with `remediation`, the paths back to the implementation stage too. */
export function stageGraph(machine: StageMachine, remediation?: RemediationPlan): string {
  const lines = ['flowchart TD', `  %% the stage machine: ${machine.names.join(' > ')}`, ...machine.stages.map(node)];
  const stages = machine.stages;
  for (let index = 0; index + 1 < stages.length; index += 1) {
    lines.push(`  ${id(stages[index])} --> ${id(stages[index + 1])}`);
    // A conditional stage can be passed over: draw the path around it.
    const when = stageCondition(stages[index + 1]);
    if (when && stages[index + 2])
      lines.push(
        `  ${id(stages[index])} -. ${label(`skipped unless ${when.parameter} in ${when.in.join(', ')}`)} .-> ${id(stages[index + 2])}`,
      );
  }
  if (remediation) lines.push(...remediationEdges(machine, remediation));
  return `${lines.join('\n')}\n`;
}
