/**
 * The rules between the fields of the platform configuration: every reference resolves (an agent's CLI, a
 * repository's agent bindings, a project's repository and parameters), the stages follow the stage rules,
 * no two entries derive one Kubernetes name, and what is synthesized fits the platform's limits. Each
 * problem is reported at the path of the field to change.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { PlatformConfig, ProjectConfig, RepositoryConfig } from './config-shapes';
import { nameCollisionProblems } from './name-collisions';
import { agentsConfigMapProblems } from './object-limits';
import { orderTasks, ProjectError } from '../project/project';
import { BUILT_IN_PARAMETERS, CONDITION_PARAMETERS } from './play-contract';
import { stageProblems } from './stage-rules';
import { directExecutionProblems } from './direct-execution';
import { remediationProblems } from '../remediation/remediation';
import { nearestName } from './nearest-name';

export interface ConfigProblem {
  readonly path: (string | number)[];
  readonly message: string;
}

function known(keys: Iterable<string>): string {
  return [...keys].join(', ');
}

/** `did you mean X? ` when `name` is a typo of a known one. */
function meant(name: string, keys: Iterable<string>): string {
  const nearest = nearestName(name, keys);
  return nearest === undefined ? '' : `did you mean ${nearest}? `;
}

/** Every reference between parts of the config that does not resolve, at the path to change. */
export function referenceProblems(config: PlatformConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const cliNames = Object.keys(config.clis);
  for (const [name, agent] of Object.entries(config.agents)) {
    if (!cliNames.includes(agent.cli)) {
      problems.push({
        path: ['agents', name, 'cli'],
        message: `unknown CLI "${agent.cli}"; ${meant(agent.cli, cliNames)}known: ${known(cliNames)}`,
      });
    }
  }
  config.repositories.forEach((repository, index) => {
    for (const [agent, cli] of Object.entries(repository.agentClis)) {
      if (!config.agents[agent])
        problems.push({
          path: ['repositories', index, 'agentClis', agent],
          message: `unknown agent "${agent}"; known: ${known(Object.keys(config.agents))}`,
        });
      if (!cliNames.includes(cli))
        problems.push({ path: ['repositories', index, 'agentClis', agent], message: `unknown CLI "${cli}"; known: ${known(cliNames)}` });
    }
  });
  for (const name of Object.keys(config.play.parameters)) {
    if (BUILT_IN_PARAMETERS.includes(name))
      problems.push({ path: ['play', 'parameters', name], message: `"${name}" is a built-in play parameter; choose another name` });
  }
  const parameters = [...CONDITION_PARAMETERS, ...Object.keys(config.play.parameters)];
  for (const problem of stageProblems(config.stages, Object.keys(config.agents), parameters)) {
    problems.push({ path: ['stages', ...problem.path], message: problem.message });
  }
  problems.push(...remediationProblems(config.stages, config.agents));
  problems.push(...uniquenessProblems(config.repositories));
  problems.push(...projectProblems(config, parameters));
  problems.push(...nameCollisionProblems(config));
  problems.push(...agentsConfigMapProblems(config));
  problems.push(...directExecutionProblems(config));
  const busNamespace = config.events.eventBus.namespace;
  if (busNamespace !== undefined && busNamespace !== config.namespace) {
    problems.push({
      path: ['events', 'eventBus', 'namespace'],
      message: `the EventBus must be in the namespace of the EventSource and the Sensors ("${config.namespace}"), not "${busNamespace}"`,
    });
  }
  return problems;
}

/** A project runs the play of a configured repository, with parameters the play declares, under a unique name. */
function projectProblems(config: PlatformConfig, parameters: readonly string[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const names = new Set<string>();
  config.projects.forEach((project, index) => {
    if (names.has(project.name))
      problems.push({ path: ['projects', index, 'name'], message: `project "${project.name}" is defined twice` });
    names.add(project.name);
    if (!config.repositories.some((repository) => repository.name === project.repository)) {
      problems.push({
        path: ['projects', index, 'repository'],
        message: `repository "${project.repository}" is not configured; known: ${known(config.repositories.map((repository) => repository.name))}`,
      });
    }
    problems.push(...taskOrderProblems(project, index));
    project.tasks.forEach((task, taskIndex) => {
      for (const name of Object.keys(task.parameters).filter((candidate) => !parameters.includes(candidate))) {
        problems.push({
          path: ['projects', index, 'tasks', taskIndex, 'parameters', name],
          message: `unknown play parameter "${name}"; known: ${known(parameters)} (declare it under play.parameters)`,
        });
      }
    });
  });
  return problems;
}

/** Duplicate and unknown task ids and dependency cycles, at the project's path, as synth would refuse them. */
function taskOrderProblems(project: ProjectConfig, index: number): ConfigProblem[] {
  try {
    orderTasks(project.tasks);
    return [];
  } catch (error) {
    if (!(error instanceof ProjectError)) throw error;
    return error.problems.map((problem) => {
      const colon = problem.indexOf(': ');
      return { path: ['projects', index, ...problemPath(problem.slice(0, colon))], message: problem.slice(colon + 2) };
    });
  }
}

/** `tasks[2].dependsOn[0]` as a path: `['tasks', 2, 'dependsOn', 0]`. */
function problemPath(text: string): (string | number)[] {
  return text
    .split(/[.[\]]+/)
    .filter((part) => part.length > 0)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function uniquenessProblems(repositories: readonly RepositoryConfig[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const names = new Set<string>();
  const services = new Set<string>();
  repositories.forEach((repository, index) => {
    const name = repository.name.toLowerCase();
    if (names.has(name))
      problems.push({ path: ['repositories', index, 'name'], message: `repository "${repository.name}" is listed twice` });
    if (services.has(repository.service)) {
      problems.push({
        path: ['repositories', index, 'service'],
        message: `service "${repository.service}" is used by two repositories; services name workspaces and must be unique`,
      });
    }
    names.add(name);
    services.add(repository.service);
  });
  return problems;
}
