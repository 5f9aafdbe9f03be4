/**
 * The names the platform derives from the configuration that are not objects of their own, checked across the
 * whole config before anything is built: the label value of each repository (also its part of its tasks'
 * progress keys and its registry key), the DAG tasks and templates inside the play WorkflowTemplate, the
 * GitHub App of each agent (the key of its system prompt), and the name of each play a project starts. Two
 * config entries that derive one of these would share a key or a task (one task overwrites the other's
 * progress) or be refused by the API server. Every name is computed by the one naming function that the
 * constructs use, never restated here.
 *
 * The names of objects (a workspace PVC, a Sensor, a WorkflowTemplate, a ServiceAccount) are checked on the
 * objects built (`constructs/platform/object-collisions.ts`), not here.
 *
 * Pure: no cdk8s, no I/O.
 */
import type { AgentStageConfig, PlatformConfig, StageConfig } from './config-shapes';
import { githubAppSecretName, isDnsLabel, repositoryLabelValue, systemPromptKey, MAX_TASK_ID } from './naming';
import { agentRunTemplateName, enterTaskName, playWorkflowName, PlayTemplates, stageTaskName } from './play-contract';
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
  /** Where names must be unique: the repositories' keys, or a list inside the play WorkflowTemplate. */
  readonly space: string;
  readonly name: string;
  readonly path: (string | number)[];
  /** What the entry is, for the message: `repository "octo/my.repo"`. */
  readonly owner: string;
}

/** A name function that throws (no letter or digit left) is reported at the entry, not at synth. */
function derive(path: (string | number)[], make: () => string, problems: NameProblem[]): string | undefined {
  try {
    return make();
  } catch (error) {
    problems.push({ path, message: (error as Error).message });
    return undefined;
  }
}

/** The label value of each repository: also its part of its tasks' progress keys and its registry key. */
function repositoryClaims(config: PlatformConfig, problems: NameProblem[]): Claim[] {
  const claims: Claim[] = [];
  config.repositories.forEach((repository, index) => {
    const path = ['repositories', index, 'name'];
    const name = derive(path, () => repositoryLabelValue(repository.name), problems);
    if (name !== undefined) claims.push({ space: 'repository label value', name, path, owner: `repository "${repository.name}"` });
  });
  return claims;
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

/** The DAG tasks and templates of the play WorkflowTemplate. */
function stageClaims(config: PlatformConfig): Claim[] {
  const claims: Claim[] = Object.values(PlayTemplates).map((name) => ({
    space: 'play template',
    name,
    path: [],
    owner: 'the play itself',
  }));
  config.stages.forEach((stage, index) => {
    const path = ['stages', index, 'name'];
    const owner = `stage "${stage.name}"`;
    claims.push({ space: 'play DAG task', name: enterTaskName(stage.name), path, owner });
    claims.push(
      ...onStageOf<StageConfig, Claim[]>(stage, {
        agent: (agent) => agentStageClaims(agent, path, owner),
        gate: (gate) => [{ space: 'play DAG task', name: stageTaskName(gate.name), path, owner }],
        end: () => [],
      }),
    );
  });
  return claims;
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

/** The plays a project starts are named from service and task id: each name must be a legal Workflow name. */
function projectPlayNameProblems(config: PlatformConfig): NameProblem[] {
  const problems: NameProblem[] = [];
  config.projects.forEach((project, index) => {
    const repository = config.repositories.find((candidate) => candidate.name === project.repository);
    if (!repository) return;
    project.tasks.forEach((task, taskIndex) => {
      // An id that is no task id is its own schema's problem (and names no play).
      if (!Number.isSafeInteger(task.id) || task.id < 0 || task.id > MAX_TASK_ID) return;
      const name = playWorkflowName(repository.service, task.id);
      if (!isDnsLabel(name)) {
        problems.push({
          path: ['projects', index, 'tasks', taskIndex, 'id'],
          message: `task ${task.id} gives the play name "${name}", longer than the 63 characters Kubernetes allows; use a smaller task id or a shorter service`,
        });
      }
    });
  });
  return problems;
}

/**
 * Every derived name that two config entries share, reported at the later entry and naming the earlier
 * one; every name that cannot be derived at all; every project play name the API server would refuse.
 */
export function nameCollisionProblems(config: PlatformConfig): NameProblem[] {
  const problems: NameProblem[] = [];
  const claims = [...repositoryClaims(config, problems), ...stageClaims(config)];
  const first = new Map<string, Claim>();
  for (const claim of claims) {
    const key = `${claim.space}\u0000${claim.name}`;
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, claim);
      continue;
    }
    // The same value listed twice (a repository, a service, a stage) is reported by the rule of its list.
    if (claim.owner === earlier.owner) continue;
    const where = earlier.path.length > 0 ? `${formatPath(earlier.path)} (${earlier.owner})` : earlier.owner;
    problems.push({
      path: claim.path.length > 0 ? claim.path : earlier.path,
      message: `${claim.owner} derives the ${claim.space} "${claim.name}", which ${where} derives too; rename one of them`,
    });
  }
  problems.push(...githubAppProblems(config), ...projectPlayNameProblems(config));
  return problems;
}
