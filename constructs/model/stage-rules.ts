/**
 * The rules a stage list must follow, shared by the config schema (which reports them at a path) and the
 * stage machine (which throws them at construction).
 *
 * Pure: no cdk8s, no I/O.
 */
import type { StageConfig } from './config-schema';

/** A broken rule, at the path (inside the stage list) of the field to change. */
export interface StageProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** Two DAG tasks per stage must fit in Argo's 200 tasks per DAG, with room for the play's own tasks. */
export const MAX_STAGES = 90;

/** Every problem of a stage list; empty when the list is a valid stage machine. */
export function stageProblems(stages: readonly StageConfig[], agentNames: readonly string[]): StageProblem[] {
  return [...shapeProblems(stages), ...stages.flatMap((stage, index) => stageReferenceProblems(stage, index, agentNames))];
}

function shapeProblems(stages: readonly StageConfig[]): StageProblem[] {
  const problems: StageProblem[] = [];
  if (stages.length > MAX_STAGES) problems.push({ path: [], message: `${stages.length} stages is more than the ${MAX_STAGES} a play can hold` });
  if (!stages.some((stage) => stage.type === 'agent')) problems.push({ path: [], message: 'a stage machine needs at least one agent stage' });
  const last = stages.length - 1;
  if (last < 0 || stages[last].type !== 'end') {
    problems.push({ path: [Math.max(last, 0)], message: 'the last stage must be the end stage (type: end), e.g. { name: completed, type: end }' });
  }
  const seen = new Map<string, number>();
  stages.forEach((stage, index) => {
    if (stage.type === 'end' && index !== last) problems.push({ path: [index, 'type'], message: `only the last stage may be an end stage; "${stage.name}" is stage ${index + 1} of ${stages.length}` });
    const first = seen.get(stage.name);
    if (first !== undefined) problems.push({ path: [index, 'name'], message: `stage "${stage.name}" is defined twice (also stage ${first + 1}); stage names must be unique` });
    else seen.set(stage.name, index);
  });
  return problems;
}

function stageReferenceProblems(stage: StageConfig, index: number, agentNames: readonly string[]): StageProblem[] {
  const unknownAgent = (agent: string, path: (string | number)[]): StageProblem => ({
    path: [index, ...path],
    message: `unknown agent "${agent}"; known: ${agentNames.join(', ')}`,
  });
  if (stage.type === 'agent') return agentNames.includes(stage.agent) ? [] : [unknownAgent(stage.agent, ['agent'])];
  if (stage.type !== 'gate') return [];
  const problems: StageProblem[] = [];
  stage.release.forEach((release, releaseIndex) => {
    const at = (field: string): (string | number)[] => [index, 'release', releaseIndex, field];
    release.by.forEach((agent, byIndex) => {
      if (!agentNames.includes(agent)) problems.push(unknownAgent(agent, ['release', releaseIndex, 'by', byIndex]));
    });
    if (release.reviewState !== undefined && release.event !== 'pull_request_review') {
      problems.push({ path: at('reviewState'), message: 'reviewState applies only to event pull_request_review' });
    }
    if (release.label !== undefined && !release.actions.includes('labeled')) {
      problems.push({ path: at('label'), message: 'label applies only when actions include "labeled"' });
    }
    if (release.merged !== undefined && !(release.event === 'pull_request' && release.actions.includes('closed'))) {
      problems.push({ path: at('merged'), message: 'merged applies only to event pull_request with action "closed"' });
    }
  });
  return problems;
}
