/**
 * Names the platform derives from the configuration, checked across the whole config before anything is
 * built: two config entries that derive one name would share a Kubernetes object (one task overwrites the
 * other's progress, one agent's workspace is another's) or be refused by the API server as a duplicate. Every
 * name is computed by the one naming function that the constructs use, never restated here.
 *
 * Pure: no cdk8s, no I/O.
 */
import { PROJECT_SERVICE_ACCOUNT } from '../rbac/project-rbac';
import type { AgentStageConfig, GateStageConfig, PlatformConfig, StageConfig } from './config-shapes';
import { githubAppSecretName, isDnsLabel, repositoryLabelValue, systemPromptKey, workspacePvcName, dnsName, MAX_TASK_ID } from './naming';
import {
  agentRunTemplateName,
  enterTaskName,
  gateSensorName,
  playWorkflowName,
  PlayTemplates,
  RESUMER_TEMPLATE_NAME,
  CODERUN_TEMPLATE_NAME,
  stageTaskName,
} from './play-contract';
import { onStageOf } from './stage-behaviour';
import { agentsOf } from './stage-rules';

/** A name problem at the config path to change. */
export interface NameProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

/** One derived name and the config entry it comes from. */
interface Claim {
  /** Where names must be unique: a Kubernetes kind in the namespace, or a list inside one object. */
  readonly space: string;
  readonly name: string;
  readonly path: (string | number)[];
  /** What the entry is, for the message: `repository "octo/my.repo"`. */
  readonly owner: string;
}

const shownPath = (path: readonly (string | number)[]): string =>
  path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');

/** A name function that throws (no letter or digit left) is reported at the entry, not at synth. */
function derive(path: (string | number)[], make: () => string, problems: NameProblem[]): string | undefined {
  try {
    return make();
  } catch (error) {
    problems.push({ path, message: (error as Error).message });
    return undefined;
  }
}

function repositoryClaims(config: PlatformConfig, problems: NameProblem[]): Claim[] {
  const claims: Claim[] = [];
  const stageAgents = [...new Set(config.stages.flatMap((stage) => agentsOf(stage)))];
  config.repositories.forEach((repository, index) => {
    const namePath = ['repositories', index, 'name'];
    const servicePath = ['repositories', index, 'service'];
    const owner = `repository "${repository.name}"`;
    const add = (space: string, path: (string | number)[], make: () => string): void => {
      const name = derive(path, make, problems);
      if (name !== undefined) claims.push({ space, name, path, owner });
    };
    // The label value is also the repository's part of its tasks' progress record keys.
    add('repository label value', namePath, () => repositoryLabelValue(repository.name));
    const shared = stageAgents.filter((agent) => config.agents[agent]?.role === 'implementation');
    if (shared.length > 0) add('PersistentVolumeClaim', servicePath, () => workspacePvcName(repository.service, shared[0], true));
    for (const agent of stageAgents.filter((name) => config.agents[name] !== undefined && !shared.includes(name))) {
      add('PersistentVolumeClaim', servicePath, () => workspacePvcName(repository.service, agent, false));
    }
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

/** The DAG tasks and templates of the play WorkflowTemplate, and the gate Sensors. */
function stageClaims(config: PlatformConfig, problems: NameProblem[]): Claim[] {
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
        gate: (gate) => gateStageClaims(gate, path, owner, problems),
        end: () => [],
      }),
    );
  });
  return claims;
}

/** A gate waits in its own task and is released by its own Sensor. */
function gateStageClaims(stage: GateStageConfig, path: (string | number)[], owner: string, problems: NameProblem[]): Claim[] {
  const claims: Claim[] = [{ space: 'play DAG task', name: stageTaskName(stage.name), path, owner }];
  const sensor = derive(path, () => gateSensorName(stage.name), problems);
  if (sensor !== undefined) claims.push({ space: 'Sensor', name: sensor, path, owner });
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

function platformClaims(config: PlatformConfig, problems: NameProblem[]): Claim[] {
  const claims: Claim[] = [
    { space: 'WorkflowTemplate', name: CODERUN_TEMPLATE_NAME, path: [], owner: 'the coderun template' },
    { space: 'ServiceAccount', name: config.play.serviceAccount, path: ['play', 'serviceAccount'], owner: 'the plays' },
    { space: 'ServiceAccount', name: config.events.sensorServiceAccount, path: ['events', 'sensorServiceAccount'], owner: 'the Sensors' },
  ];
  if (config.events.resume === 'label-selector') {
    claims.push({ space: 'WorkflowTemplate', name: RESUMER_TEMPLATE_NAME, path: [], owner: 'the resumer' });
    claims.push({
      space: 'ServiceAccount',
      name: config.events.resumerServiceAccount,
      path: ['events', 'resumerServiceAccount'],
      owner: 'the resumer',
    });
  }
  if (config.projects.length > 0) claims.push({ space: 'ServiceAccount', name: PROJECT_SERVICE_ACCOUNT, path: [], owner: 'the projects' });
  config.projects.forEach((project, index) => {
    const path = ['projects', index, 'name'];
    const name = derive(path, () => dnsName(['project', project.name]), problems);
    if (name !== undefined) claims.push({ space: 'WorkflowTemplate', name, path, owner: `project "${project.name}"` });
  });
  return claims;
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
  const claims = [...platformClaims(config, problems), ...repositoryClaims(config, problems), ...stageClaims(config, problems)];
  const first = new Map<string, Claim>();
  const reported = new Set<string>();
  for (const claim of claims) {
    const key = `${claim.space}\u0000${claim.name}`;
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, claim);
      continue;
    }
    const pair = `${key}\u0000${shownPath(claim.path)}\u0000${shownPath(earlier.path)}`;
    // The same value listed twice (a repository, a service, a stage) is reported by the rule of its list.
    if (claim.owner === earlier.owner && claim.path[0] !== 'agents') continue;
    if (reported.has(pair)) continue;
    reported.add(pair);
    const where = earlier.path.length > 0 ? `${shownPath(earlier.path)} (${earlier.owner})` : earlier.owner;
    problems.push({
      path: claim.path.length > 0 ? claim.path : earlier.path,
      message: `${claim.owner} derives the ${claim.space} "${claim.name}", which ${where} derives too; rename one of them`,
    });
  }
  problems.push(...githubAppProblems(config), ...projectPlayNameProblems(config));
  return problems;
}
