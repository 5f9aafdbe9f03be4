/**
 * The names the platform derives from the configuration that are no objects of their own, checked across the
 * whole config before anything is built: the DAG tasks and templates inside the play WorkflowTemplate (a
 * stage `enter-build` beside a stage `build` gives two tasks `enter-build`) and the GitHub App of each agent
 * (the key of its system prompt). Every name is computed by the one naming function that the constructs
 * use. The name of a play a project starts needs no check: `play-{service}-task-{id}` with a service of at
 * most 40 characters and a task id of at most 10 digits is at most 61 characters.
 *
 * The names of objects (a workspace PVC, a Sensor, a WorkflowTemplate, a ServiceAccount) are checked on the
 * objects built (`constructs/platform/object-collisions.ts`), not here. A repository's label value (its part
 * of its tasks' progress keys and its registry key) needs no check here: it is the lower-cased name, cut
 * with a hash of the whole name when long (`repositoryLabelValue`), so two repositories share one only when
 * their names are equal in any case, which the repositories' own rule refuses.
 *
 * Pure: no cdk8s, no I/O.
 */
import type { AgentStageConfig, PlatformConfig, StageConfig } from './config-shapes';
import { githubAppSecretName, systemPromptKey } from './naming';
import { agentRunTemplateName, enterTaskName, stageTaskName } from './play-contract';
import { formatPath } from './format-path';
import { onStageOf } from './stage-behaviour';
import { agentsOf } from './stage-rules';

/** A name problem at the config path to change. */
export interface NameProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** One derived name and the config entry it comes from. */
interface Claim {
  /** Where names must be unique: a list inside the play WorkflowTemplate. */
  readonly space: string;
  readonly name: string;
  readonly path: (string | number)[];
  /** What the entry is, for the message: `stage "build"`. */
  readonly owner: string;
}

/**
 * Each agent needs its own GitHub App: the app names the agent's system prompt in the agents ConfigMap and
 * its credentials Secret, so a second agent with the same app (in any letter case) would lose its prompt.
 */
function githubAppProblems(config: PlatformConfig): NameProblem[] {
  const problems: NameProblem[] = [];
  const first = new Map<string, string>();
  for (const [agent, settings] of Object.entries(config.agents)) {
    const app = settings.githubApp.toLowerCase();
    const earlier = first.get(app);
    if (earlier === undefined) {
      first.set(app, agent);
      continue;
    }
    problems.push({
      path: ['agents', agent, 'githubApp'],
      message: `agent "${agent}" uses the GitHub App ${settings.githubApp}, as agents.${earlier}.githubApp does: each agent needs its own App (it names the agent's system prompt "${systemPromptKey(settings.githubApp)}" and its Secret "${githubAppSecretName(settings.githubApp)}", so one prompt would be lost)`,
    });
  }
  return problems;
}

/**
 * The DAG tasks and templates of the play WorkflowTemplate that the stages name. The play's own templates
 * (`PlayTemplates`) need no claim: a stage's template is always `run-...`, which none of them is.
 */
function stageClaims(config: PlatformConfig): Claim[] {
  return config.stages.flatMap((stage, index) => {
    const path = ['stages', index, 'name'];
    const owner = `stage "${stage.name}"`;
    return [
      { space: 'play DAG task', name: enterTaskName(stage.name), path, owner },
      ...onStageOf<StageConfig, Claim[]>(stage, {
        agent: (agent) => agentStageClaims(agent, path, owner),
        gate: (gate) => [{ space: 'play DAG task', name: stageTaskName(gate.name), path, owner }],
        end: () => [],
      }),
    ];
  });
}

/** Each agent of an agent stage runs in a task and a template, named by the agent when they run at once. */
function agentStageClaims(stage: AgentStageConfig, path: (string | number)[], owner: string): Claim[] {
  const parallel = stage.agents !== undefined;
  return agentsOf(stage).flatMap((agent) => {
    const runOwner = parallel ? `the run of agent "${agent}" in stage "${stage.name}"` : owner;
    return [
      { space: 'play DAG task', name: stageTaskName(stage.name, parallel ? agent : undefined), path, owner: runOwner },
      { space: 'play template', name: agentRunTemplateName(stage.name, parallel ? agent : undefined), path, owner: runOwner },
    ];
  });
}

/**
 * Every derived name that two config entries share, reported at the later entry and naming the earlier
 * one; every GitHub App two agents share.
 */
export function nameCollisionProblems(config: PlatformConfig): NameProblem[] {
  const problems: NameProblem[] = [];
  const first = new Map<string, Claim>();
  for (const claim of stageClaims(config)) {
    const key = `${claim.space}\u0000${claim.name}`;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, claim);
    // The same stage listed twice is reported by the stage rules.
    else if (claim.owner !== earlier.owner)
      problems.push({
        path: claim.path,
        message: `${claim.owner} derives the ${claim.space} "${claim.name}", which ${formatPath(earlier.path)} (${earlier.owner}) derives too; rename one of them`,
      });
  }
  problems.push(...githubAppProblems(config));
  return problems;
}
