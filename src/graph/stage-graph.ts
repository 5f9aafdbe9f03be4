/**
 * The stage machine as a Mermaid flowchart: stages in order, the agents of each agent stage, each gate with
 * the GitHub events that release it, conditional stages with the path that skips them, and the end.
 */
import type { ReleaseConfig } from '../../constructs/model/config-schema';
import type { Stage, StageMachine } from '../../constructs/model/stage-machine';
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
  const condition = stage.type !== 'end' && stage.when ? [`when ${stage.when.parameter} in ${stage.when.in.join(', ')}`] : [];
  switch (stage.type) {
    case 'agent':
      return `  ${id(stage)}[${label(stage.name, `${stage.agents.length > 1 ? 'agents' : 'agent'}: ${stage.agents.join(' + ')}`, ...condition)}]`;
    case 'gate':
      return `  ${id(stage)}{{${label(stage.name, ...stage.release.map(describeRelease), ...condition)}}}`;
    default:
      return `  ${id(stage)}([${label(stage.name)}])`;
  }
}

export function stageGraph(machine: StageMachine): string {
  const lines = ['flowchart TD', `  %% the stage machine: ${machine.names.join(' > ')}`, ...machine.stages.map(node)];
  const stages = machine.stages;
  for (let index = 0; index + 1 < stages.length; index += 1) {
    lines.push(`  ${id(stages[index])} --> ${id(stages[index + 1])}`);
    // A conditional stage can be passed over: draw the path around it.
    const next = stages[index + 1];
    if (next.type !== 'end' && next.when && stages[index + 2]) lines.push(`  ${id(stages[index])} -. ${label(`skipped unless ${next.when.parameter} in ${next.when.in.join(', ')}`)} .-> ${id(stages[index + 2])}`);
  }
  return `${lines.join('\n')}\n`;
}
