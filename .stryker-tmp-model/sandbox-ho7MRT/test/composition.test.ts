/**
 * The composition API: a stage machine built in TypeScript (a security stage with its own gate, parallel
 * testers, conditional stages, a new agent and CLI) gives plays whose DAG runs what the machine says,
 * sensors that resume the new gates, and objects the upstream schemas accept. Mistakes throw at
 * construction, each with what to change.
 */
// @ts-nocheck

import { App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { AgentPlatform } from '../constructs/platform/agent-platform';
import { Releases } from '../constructs/model/releases';
import { resolveConfig } from '../constructs/model/resolve-config';
import { StageMachine } from '../constructs/model/stage-machine';
import { StageMachineBuilder } from '../constructs/model/stage-machine-builder';
import {
  PlayParameters,
  agentAttemptTemplateNames,
  agentRunTemplateName,
  enterTaskName,
  gateNodeSelector,
  stageTaskName,
} from '../constructs/model/play-contract';
import { PlayWorkflowTemplate } from '../constructs/workflows/play-workflow-template';
import { synthesizeApp } from '../src/synth/synthesize';
import { validateArgoEventsObject, validateArgoWorkflowsObject } from './support/argo-schemas';
import { parseManifests, type K8sObject } from './support/synth';
import { renderedCodeRun } from './support/resolved-outputs';

const SECURITY_TASKS = { parameter: PlayParameters.taskType, in: ['backend'] };

const config = resolveConfig({
  env: {},
  file: {
    clis: { aider: { image: 'ghcr.io/acme/aider-runner:v0.9.1' } },
    agents: {
      probe: {
        githubApp: 'Acme-Probe',
        role: 'testing',
        cli: 'aider',
        model: 'claude-sonnet-4',
        maxTokens: 32000,
        temperature: 0.2,
        systemPrompt: 'End-to-end tests.',
      },
    },
  },
});
const agents = Object.keys(config.agents);

function composedStages(): StageMachine {
  return StageMachineBuilder.from(StageMachine.fromConfig(config), { agents })
    .after('code-quality')
    .agent('security', 'cipher', { timeout: '2h', when: SECURITY_TASKS })
    .gate('waiting-security-approved', Releases.labeled('ready-for-security', { by: ['cipher'] }), { when: SECURITY_TASKS })
    .replaceWithParallel('testing', ['tess', 'probe'])
    .build();
}

function synthComposed(): K8sObject[] {
  const app = new App();
  new AgentPlatform(app, 'platform', { config, stages: composedStages() });
  return parseManifests(synthesizeApp(app));
}

const objects = synthComposed();
const play = objects.find((object) => object.kind === 'WorkflowTemplate' && object.metadata.name === 'play')!;
const templates: any[] = play.spec.templates;
const dag: any[] = templates.find((template) => template.name === play.spec.entrypoint).dag.tasks;
const task = (name: string): any => {
  const found = dag.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no task ${name}; tasks: ${dag.map((candidate) => candidate.name).join(', ')}`);
  return found;
};

describe('StageMachineBuilder', () => {
  it('inserts stages where asked and keeps the end last', () => {
    expect(composedStages().names).toEqual([
      'implementation',
      'waiting-pr-created',
      'code-quality',
      'security',
      'waiting-security-approved',
      'waiting-ready-for-qa',
      'testing',
      'waiting-pr-merged',
      'completed',
    ]);
  });

  it('builds a machine from scratch that a play template can run on its own', () => {
    const stages = new StageMachineBuilder({ agents })
      .agent('implementation', 'rex')
      .gate('waiting-pr-created', Releases.pullRequestOpened())
      .parallel('testing', ['tess', 'probe'])
      .end()
      .build();
    const chart = new Chart(new App(), 'plays', { namespace: 'agents' });
    new PlayWorkflowTemplate(chart, 'play', {
      stages,
      agents: config.agents,
      clis: config.clis,
      serviceAccountName: 'agent-play',
      runtimeImage: config.images.runtime,
    });
    const [template] = chart.toJson();
    expect(validateArgoWorkflowsObject(template)).toEqual([]);
    expect(template.spec.arguments.parameters.find((parameter: any) => parameter.name === PlayParameters.startStage).enum).toEqual(
      stages.names,
    );
  });

  it('throws at build for every mistake, each with what to change', () => {
    const builder = () => new StageMachineBuilder({ agents });
    expect(() => builder().agent('build', 'ghost').end().build()).toThrow(
      /stages\[0\]\.agent \(stage "build"\): unknown agent "ghost"; known: .*rex/,
    );
    expect(() => builder().agent('build', 'rex').gate('wait', []).end().build()).toThrow(/gate "wait" has no releasing event: add one/);
    expect(() => builder().agent('build', 'rex').agent('build', 'blaze').end().build()).toThrow(
      /stage "build" is defined twice .* would be a cycle: give each stage its own name/,
    );
    expect(() =>
      builder()
        .agent('build', 'rex', { when: { parameter: 'team', in: ['a'] } })
        .end()
        .build(),
    ).toThrow(/unknown play parameter "team"; known: task-type \(declare it under play\.parameters\)/);
    expect(() => builder().parallel('test', ['tess', 'tess']).end().build()).toThrow(/agent "tess" is listed twice/);
    expect(() => builder().agent('build', 'rex').build()).toThrow(/the last stage must be the end stage/);
    expect(() => builder().after('nowhere').end().build()).toThrow(/after \(stage "nowhere"\): no stage has that name/);
    expect(() => builder().gate('wait', Releases.pullRequestOpened()).replaceWithParallel('wait', ['tess', 'probe']).end().build()).toThrow(
      /replaceWithParallel \(stage "wait"\): a gate stage; only an agent stage can run agents in parallel/,
    );
  });

  it('reports every mistake of a build at once, each naming its stage', () => {
    const built = () =>
      new StageMachineBuilder({ agents })
        .agent('build', 'rex')
        .after('nowhere')
        .agent('review', 'ghost', { timeout: '5x' })
        .gate('wait', [])
        .replaceWithParallel('wait', ['tess'])
        .remove('gone')
        .end()
        .build();
    expect(built).toThrow(Error);
    let problems: string[] = [];
    try {
      built();
    } catch (error) {
      problems = (error as Error).message.split('\n').slice(1);
    }
    expect(problems).toEqual([
      'after (stage "nowhere"): no stage has that name; stages: build',
      'timeout (stage "review"): "5x" is not a duration: expected a whole number and a unit, e.g. 90s, 30m, 4h, 7d',
      'replaceWithParallel (stage "wait"): a gate stage; only an agent stage can run agents in parallel',
      'remove (stage "gone"): no stage has that name; stages: build, review, wait',
      expect.stringMatching(/^stages\[1\]\.agent \(stage "review"\): unknown agent "ghost"; known: rex, /),
      expect.stringMatching(/^stages\[2\]\.release \(stage "wait"\): gate "wait" has no releasing event/),
    ]);
    for (const problem of problems) expect(problem).toMatch(/\(stage "[a-z-]+"\)/);
  });

  it('checks a given machine against the platform registry', () => {
    const stages = new StageMachineBuilder({ agents: [...agents, 'outsider'] }).agent('build', 'outsider').end().build();
    expect(() => new AgentPlatform(new App(), 'platform', { config, stages })).toThrow(/unknown agent "outsider"/);
  });

  it('lets a condition test a declared play parameter', () => {
    const withTeam = resolveConfig({ env: {}, file: { play: { parameters: { team: 'core' } } } });
    const stages = new StageMachineBuilder({ agents, parameters: [PlayParameters.taskType, 'team'] })
      .agent('build', 'rex', { when: { parameter: 'team', in: ['core'] } })
      .end()
      .build();
    expect(stages.runsFor('build', { team: 'core' })).toBe(true);
    expect(stages.runsFor('build', {})).toBe(false);
    const app = new App();
    new AgentPlatform(app, 'platform', { config: withTeam, stages });
    const template = parseManifests(synthesizeApp(app)).find((object) => object.metadata.name === 'play')!;
    expect(template.spec.arguments.parameters).toContainEqual({ name: 'team', value: 'core' });
  });
});

describe('a play with parallel testers', () => {
  it('runs one task per tester after entering the stage, each with its own agent run', () => {
    for (const agent of ['tess', 'probe']) {
      expect(task(stageTaskName('testing', agent))).toMatchObject({
        depends: enterTaskName('testing'),
        template: agentRunTemplateName('testing', agent),
      });
    }
  });

  it('joins both testers before the next gate', () => {
    expect(task(enterTaskName('waiting-pr-merged')).depends).toBe(
      `${stageTaskName('testing', 'tess')} && ${stageTaskName('testing', 'probe')}`,
    );
  });

  it("gives each tester its own CodeRun with its agent's app and CLI", async () => {
    const expected = {
      tess: { githubApp: config.agents.tess.githubApp, cliType: config.agents.tess.cli },
      probe: { githubApp: 'Acme-Probe', cliType: 'aider' },
    };
    for (const [agent, { githubApp, cliType }] of Object.entries(expected)) {
      const run = templates.find((template) => template.name === agentAttemptTemplateNames(agentRunTemplateName('testing', agent)).create);
      const manifest = await renderedCodeRun(objects as never, run.resource.manifest, config.repositories[0].name);
      expect(manifest.spec.githubApp).toBe(githubApp);
      expect(manifest.spec.cliConfig.cliType).toBe(cliType);
    }
  });

  it('records both agents when the stage is entered', () => {
    const parameters = task(enterTaskName('testing')).arguments.parameters;
    expect(parameters).toContainEqual({ name: 'agent', value: 'tess,probe' });
    // Each agent's CLI as the play's repository binds it, from the registry.
    expect(parameters).toContainEqual({
      name: 'cli',
      value: '{{workflow.outputs.parameters.cli-tess}},{{workflow.outputs.parameters.cli-probe}}',
    });
  });
});

describe('a conditional security stage with its own gate', () => {
  it('runs the security stage and its gate only for backend tasks', () => {
    for (const name of [enterTaskName('security'), 'security', enterTaskName('waiting-security-approved'), 'waiting-security-approved']) {
      expect(task(name).when).toContain(`workflow.parameters['${PlayParameters.taskType}'] in ['backend']`);
    }
    expect(task(enterTaskName('waiting-ready-for-qa')).when).not.toContain(PlayParameters.taskType);
  });

  it('names the stage that really ran as the previous stage of the one after a skipped stage', () => {
    const previous = task(enterTaskName('waiting-ready-for-qa')).arguments.parameters.find(
      (parameter: any) => parameter.name === 'previous-stage',
    ).value;
    expect(previous).toBe(
      "{{=(workflow.parameters['task-type'] in ['backend'] ? 'waiting-security-approved' : (workflow.parameters['task-type'] in ['backend'] ? 'security' : 'code-quality'))}}",
    );
  });

  it('skips the conditional stages for other tasks, in the model the simulator and resume use', () => {
    const stages = composedStages();
    expect(stages.nextFor('code-quality', { [PlayParameters.taskType]: 'frontend' })?.name).toBe('waiting-ready-for-qa');
    expect(stages.nextFor('code-quality', { [PlayParameters.taskType]: 'backend' })?.name).toBe('security');
  });

  it('gets a Sensor that resumes the new gate on the ready-for-security label set by the security bot', () => {
    const sensor = objects.find((object) => object.kind === 'Sensor' && object.metadata.name === 'gate-waiting-security-approved')!;
    const text = JSON.stringify(sensor.spec);
    const filters = sensor.spec.dependencies.flatMap((dependency: any) => dependency.filters.data);
    expect(filters).toContainEqual({ path: 'body.label.name', type: 'string', value: ['^(ready-for-security)$'] });
    const sender = filters.find((filter: any) => filter.path === 'body.sender.login');
    const login = new RegExp(sender.value[0].replace(/^\(\?i\)/, ''), 'i');
    expect(login.test('5dlabs-cipher[bot]')).toBe(true);
    expect(login.test('5dlabs-cleo[bot]')).toBe(false);
    expect(text).toContain('waiting-security-approved');
    expect(templates.find((template) => template.name === 'gate')).toBeDefined();
    expect(gateNodeSelector('waiting-security-approved')).toBe('inputs.parameters.stage.value=waiting-security-approved');
  });
});

describe('the composed platform', () => {
  it('passes the upstream schemas: WorkflowTemplates against the closed CRD, Sensors and EventSource against Argo Events', () => {
    for (const object of objects) {
      if (['WorkflowTemplate', 'Workflow'].includes(object.kind))
        expect(validateArgoWorkflowsObject(object), `${object.kind}/${object.metadata.name}`).toEqual([]);
      if (['Sensor', 'EventSource'].includes(object.kind))
        expect(validateArgoEventsObject(object), `${object.kind}/${object.metadata.name}`).toEqual([]);
    }
  });

  it('gives the new testing agent its own workspace', () => {
    expect(objects.some((object) => object.kind === 'PersistentVolumeClaim' && object.metadata.name.includes('probe'))).toBe(true);
  });

  it('binds an agent to another CLI in one repository only, in one play template', async () => {
    const twoRepos = resolveConfig({
      env: {},
      file: {
        repositories: [
          { name: 'octo-org/api', service: 'api', agentClis: { rex: 'claude' } },
          { name: 'octo-org/web', service: 'web' },
        ],
      },
    });
    const app = new App();
    new AgentPlatform(app, 'platform', { config: twoRepos });
    const synthesized = parseManifests(synthesizeApp(app));
    const plays = synthesized.filter(
      (object) => object.kind === 'WorkflowTemplate' && object.metadata.labels?.['workflow-type'] === 'play',
    );
    expect(plays.map((object) => object.metadata.name)).toEqual(['play']);
    const create = plays[0].spec.templates.find(
      (entry: any) => entry.name === agentAttemptTemplateNames(agentRunTemplateName('implementation')).create,
    );
    const cliOfRex = async (repository: string) =>
      (await renderedCodeRun(synthesized as never, create.resource.manifest, repository)).spec.cliConfig.cliType;
    expect(await cliOfRex('octo-org/api')).toBe('claude');
    expect(await cliOfRex('octo-org/web')).toBe(twoRepos.agents.rex.cli);
  });

  it('refuses a per-repository binding to a CLI that does not exist', () => {
    expect(() =>
      resolveConfig({ env: {}, file: { repositories: [{ name: 'octo-org/api', service: 'api', agentClis: { rex: 'nope' } }] } }),
    ).toThrow(/repositories\[0\]\.agentClis\.rex: unknown CLI "nope"/);
  });
});
