// @ts-nocheck
import { App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { EventBus } from '../constructs/events/event-bus';
import { GithubEventSource } from '../constructs/events/github-event-source';
import { RELEASE_DEPENDENCY } from '../constructs/gate/gate-sensor';
import { RESUMER_PARAMETERS } from '../constructs/resumer/play-resumer-template';
import { githubAppBotLogin, repositoryLabelValue } from '../constructs/model/naming';
import { playWorkflowName, RESUMER_TEMPLATE_NAME, gateSensorName } from '../constructs/model/play-contract';
import { ConfigError, resolveConfig } from '../constructs/model/resolve-config';
import { StageMachine } from '../constructs/model/stage-machine';
import { RESUMER_GRANTS, sensorGrants } from '../constructs/rbac/events-rbac';
import { githubEventData, runSensor } from '../src/simulate/sensor-runner';
import { pullRequestEvent } from './support/github-payloads';
import { synth, type K8sObject } from './support/synth';

const config = resolveConfig({ env: {} });
const stages = new StageMachine(config.stages, Object.keys(config.agents));
const platform = synth();
/** The gate Sensors (the remediation Sensors have tests of their own: test/remediation.test.ts). */
const isGateSensor = (sensor: K8sObject): boolean => sensor.metadata.name.startsWith('gate-');
const sensors = platform.byKind('Sensor').filter(isGateSensor);
const eventSource = platform.one('EventSource', 'github');
const play = platform.one('WorkflowTemplate', 'play');

function dataFilters(dependency: any): Record<string, string[]> {
  return Object.fromEntries(dependency.filters.data.map((filter: any) => [filter.path, filter.value]));
}

function everyParameter(sensor: K8sObject): any[] {
  return sensor.spec.triggers.flatMap((trigger: any) => (trigger.template.k8s ?? trigger.template.argoWorkflow).parameters ?? []);
}

describe('gate sensors', () => {
  it('are one per gate of the stage machine, each named after its gate', () => {
    expect(sensors.map((sensor) => sensor.metadata.name)).toEqual(stages.gates.map((gate) => gateSensorName(gate.name)));
  });

  it('release only gates that exist in the play, and each only its own', () => {
    const playGates = play.spec.templates
      .find((template: any) => template.name === 'play')
      .dag.tasks.filter((task: any) => task.template === 'gate')
      .map((task: any) => task.arguments.parameters[0].value);
    for (const [index, sensor] of sensors.entries()) {
      const gate = stages.gates[index].name;
      expect(playGates).toContain(gate);
      const [trigger] = sensor.spec.triggers;
      const resource = trigger.template.k8s.source.resource;
      expect(resource.spec.workflowTemplateRef.name).toBe(RESUMER_TEMPLATE_NAME);
      expect(resource.spec.arguments.parameters[RESUMER_PARAMETERS.indexOf('gate')]).toEqual({ name: 'gate', value: gate });
      for (const parameter of everyParameter(sensor))
        expect(parameter.dest).not.toBe(`spec.arguments.parameters.${RESUMER_PARAMETERS.indexOf('gate')}.value`);
    }
  });

  it('filter the event type on body.X-GitHub-Event, with anchored regexes only', () => {
    for (const sensor of sensors) {
      for (const dependency of sensor.spec.dependencies) {
        expect(dataFilters(dependency)['body.X-GitHub-Event']).toHaveLength(1);
        for (const filter of dependency.filters.data.filter((item: any) => item.type === 'string')) {
          for (const value of filter.value) expect(value, `${sensor.metadata.name} ${filter.path}`).toMatch(/^(\(\?i\))?\^.*\$$/);
        }
        for (const expr of dependency.filters.exprs) {
          for (const [, pattern] of expr.expr.matchAll(/=~ "([^"]*)"/g)) expect(pattern).toMatch(/^(\(\?i\))?\^.*\$$/);
        }
      }
    }
  });

  it('have one dependency each, so a NATS streaming EventBus accepts them', () => {
    for (const sensor of sensors) {
      expect(sensor.spec.dependencies.map((dependency: any) => dependency.name)).toEqual([RELEASE_DEPENDENCY]);
      expect(sensor.spec.triggers).toHaveLength(1);
      expect(sensor.spec.triggers[0].template.conditions).toBeUndefined();
    }
  });

  it('listen only to the configured repositories and their branch, and ignore forks', () => {
    for (const dependency of sensors.flatMap((sensor) => sensor.spec.dependencies)) {
      const filters = dataFilters(dependency);
      expect(filters['body.repository.full_name']).toEqual(['(?i)^(5dlabs/cto-play-test)$']);
      expect(filters['body.pull_request.base.ref']).toEqual(['^(main)$']);
      for (const expr of dependency.filters.exprs) {
        expect(expr.expr).toContain('head == repository');
        expect(expr.fields).toEqual(
          expect.arrayContaining([
            { name: 'head', path: 'body.pull_request.head.repo.full_name' },
            { name: 'repository', path: 'body.repository.full_name' },
          ]),
        );
      }
      expect(dependency.eventSourceName).toBe(eventSource.metadata.name);
      expect(Object.keys(eventSource.spec.github)).toContain(dependency.eventName);
    }
  });

  it('release the QA gate on an approval by the quality bot, or its ready-for-qa label: two alternatives of one dependency', () => {
    const [dependency] = platform.one('Sensor', 'gate-waiting-ready-for-qa').spec.dependencies;
    const bot = githubAppBotLogin(config.agents.cleo.githubApp);
    expect(bot).toBe('5dlabs-cleo[bot]');
    expect(dataFilters(dependency)['body.X-GitHub-Event']).toEqual(['^(pull_request_review|pull_request)$']);
    expect(dependency.filters.exprLogicalOperator).toBe('or');
    const [review, label] = dependency.filters.exprs.map((expr: any) => expr.expr);
    // govaluate reads `\` as "next character literally": the regexp's `\[` is written `\\[`.
    expect(review).toBe(
      'event == "pull_request_review" && action =~ "^(submitted)$" && state =~ "(?i)^(approved)$" && login =~ "(?i)^(5dlabs-cleo\\\\[bot\\\\])$" && head == repository',
    );
    expect(label).toBe(
      'event == "pull_request" && action =~ "^(labeled)$" && label == "ready-for-qa" && login =~ "(?i)^(5dlabs-cleo\\\\[bot\\\\])$" && head == repository',
    );
  });

  it('release the merge gate only on a merged pull request', () => {
    const [merged] = platform.one('Sensor', 'gate-waiting-pr-merged').spec.dependencies;
    expect(merged.filters.data).toContainEqual({ path: 'body.pull_request.merged', type: 'bool', value: ['true'] });
    expect(dataFilters(merged)['body.action']).toEqual(['^(closed)$']);
  });

  it('set every trigger operation explicitly, with bounded retries', () => {
    for (const trigger of sensors.flatMap((sensor) => sensor.spec.triggers)) {
      expect(trigger.template.k8s.operation).toBe('create');
      expect(trigger.retryStrategy.steps).toBeLessThanOrEqual(10);
    }
  });

  it('pass event data as parameters of existing dependencies, never as defaults that an absent one would apply', () => {
    for (const sensor of sensors) {
      const names = sensor.spec.dependencies.map((dependency: any) => dependency.name);
      for (const parameter of everyParameter(sensor)) {
        expect(names).toContain(parameter.src.dependencyName);
        expect(parameter.src.value).toBeUndefined();
        expect(Boolean(parameter.src.dataKey) !== Boolean(parameter.src.dataTemplate)).toBe(true);
      }
      const conditions: string | undefined = sensor.spec.triggers[0].template.conditions;
      for (const name of conditions?.split(' || ') ?? []) expect(names).toContain(name);
    }
  });

  it("pass the repository and the task, from which the resumer finds the task's record and play", () => {
    const parameters = everyParameter(platform.one('Sensor', 'gate-waiting-pr-created'));
    const dests = parameters.map((parameter) => parameter.dest);
    for (const name of ['repository', 'task-id', 'pr-url', 'pr-number'] as const)
      expect(dests).toContain(`spec.arguments.parameters.${RESUMER_PARAMETERS.indexOf(name)}.value`);
    const task = parameters.find((parameter) => parameter.dest.endsWith(`${RESUMER_PARAMETERS.indexOf('task-id')}.value`));
    expect(task.src.dataTemplate).toMatch(/task-/);
  });

  it('are triggered at least once, so that their retryStrategy is used', () => {
    for (const trigger of sensors.flatMap((sensor) => sensor.spec.triggers)) {
      expect(trigger.atLeastOnce).toBe(true);
      expect(trigger.retryStrategy.steps).toBeGreaterThan(0);
    }
  });

  it('run their pods under the restricted Pod Security Standard, as the EventSource does', () => {
    for (const object of [...sensors, eventSource]) {
      expect(object.spec.template.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(object.spec.template.container.securityContext).toEqual({
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      });
    }
  });

  it('run as the sensor account, which may only create Workflows', () => {
    for (const sensor of sensors) expect(sensor.spec.template.serviceAccountName).toBe(config.events.sensorServiceAccount);
    const role = platform.one('Role', config.events.sensorServiceAccount);
    expect(role.rules).toEqual(
      sensorGrants('label-selector').map((grant) => ({ apiGroups: [grant.apiGroup], resources: [grant.resource], verbs: grant.verbs })),
    );
  });
});

describe('the GitHub EventSource', () => {
  it('shares the namespace and EventBus of the sensors', () => {
    for (const sensor of sensors) {
      expect(sensor.metadata.namespace).toBe(eventSource.metadata.namespace);
      expect(sensor.spec.eventBusName).toBe(eventSource.spec.eventBusName);
    }
  });

  it('requires a signed webhook and subscribes to the events the gates and the remediation Sensors need', () => {
    const github = eventSource.spec.github.play;
    expect(github.webhookSecret).toEqual({ name: 'github-webhook-secret', key: 'secret' });
    // push: the implementation bot's pushes make a round's quality and testing work stale.
    expect(github.events).toEqual(['pull_request', 'pull_request_review', 'push']);
    expect(github.repositories).toEqual([{ owner: '5dlabs', names: ['cto-play-test'] }]);
    expect(github.webhook).toMatchObject({ endpoint: '/github/webhook', port: '12000', method: 'POST' });
    expect(eventSource.spec.service.ports).toEqual([{ name: 'webhook', port: 12000, targetPort: 12000 }]);
  });

  it('refuses an EventBus of another namespace', () => {
    const app = new App();
    const chart = new Chart(app, 'events', { namespace: 'agents' });
    const bus = EventBus.fromEventBusName(chart, 'Bus', 'default', 'argo-events');
    expect(
      () =>
        new GithubEventSource(chart, 'GitHub', {
          eventBus: bus,
          webhookSecret: { name: 's', key: 'k' },
          repositories: ['a/b'],
          events: ['pull_request'],
        }),
    ).toThrow('EventSource github is in namespace "agents" but its EventBus "default" is in "argo-events": put them in one namespace');
  });

  it('refuses a configured EventBus namespace that differs from the platform namespace', () => {
    expect(() => resolveConfig({ file: { events: { eventBus: { namespace: 'argo' } } } })).toThrow(ConfigError);
    expect(() => resolveConfig({ file: { events: { eventBus: { namespace: 'argo' } } } })).toThrow(
      /^events\.eventBus\.namespace: the EventBus must be in the namespace/,
    );
  });
});

describe('the resumer', () => {
  const resumer = platform.one('WorkflowTemplate', RESUMER_TEMPLATE_NAME);
  const template = (name: string): any => resumer.spec.templates.find((entry: any) => entry.name === name);

  it('declares the parameters the sensors write, in their order', () => {
    expect(resumer.spec.arguments.parameters.map((parameter: any) => parameter.name)).toEqual([...RESUMER_PARAMETERS]);
  });

  it('resumes in one runtime step that releases only the gate named by the event, never by patching spec.suspend', () => {
    const [[step]] = template('resume').steps;
    expect(step.template).toBe('resume-gate');
    const resume = template('resume-gate');
    expect(resume.container.image).toBe(config.images.runtime);
    expect(resume.container.command).toEqual(['node', '/agent-play/runtime.cjs', 'resume-gate']);
    const env = Object.fromEntries(resume.container.env.map((variable: any) => [variable.name, variable.value]));
    expect(env).toMatchObject({
      GATE: '{{workflow.parameters.gate}}',
      REPOSITORY: '{{workflow.parameters.repository}}',
      TASK_ID: '{{workflow.parameters.task-id}}',
      BASE_BRANCH: '{{workflow.parameters.base-branch}}',
      STRATEGY: 'label-selector',
    });
    expect(Number(resume.retryStrategy.limit)).toBeLessThanOrEqual(10);
    expect(JSON.stringify(resumer)).not.toMatch(/"suspend"\s*:\s*false/);
  });

  it('runs with exactly the grants it uses', () => {
    expect(resumer.spec.serviceAccountName).toBe(config.events.resumerServiceAccount);
    const role = platform.one('Role', config.events.resumerServiceAccount);
    const order = (a: any, b: any) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect([...role.rules].sort(order)).toEqual(
      RESUMER_GRANTS.map((grant) => ({
        apiGroups: [grant.apiGroup],
        resources: [grant.resource],
        ...(grant.resourceNames ? { resourceNames: grant.resourceNames } : {}),
        verbs: grant.verbs,
      })).sort(order),
    );
  });
});

describe('the workflow-name strategy', () => {
  const byName = synth({ file: { events: { resume: 'workflow-name' } }, env: {} });

  it('starts the same resumer, whose step finds the play by the name derived from the registry', () => {
    expect(byName.byKind('WorkflowTemplate').map((template) => template.metadata.name)).toContain(RESUMER_TEMPLATE_NAME);
    for (const sensor of byName.byKind('Sensor').filter(isGateSensor)) {
      const [trigger] = sensor.spec.triggers;
      expect(trigger.template.k8s.operation).toBe('create');
      expect(trigger.template.k8s.source.resource.spec.workflowTemplateRef).toEqual({ name: RESUMER_TEMPLATE_NAME });
      // The Sensor passes the event's values only: the play's name needs the registry.
      const dests = trigger.template.k8s.parameters.map((parameter: any) => parameter.dest);
      expect(dests).toEqual(
        ['repository', 'task-id', 'pr-url', 'pr-number', 'base-branch'].map(
          (name) => `spec.arguments.parameters.${RESUMER_PARAMETERS.indexOf(name as never)}.value`,
        ),
      );
    }
    const resumer = byName.one('WorkflowTemplate', RESUMER_TEMPLATE_NAME);
    const step = resumer.spec.templates.find((template: any) => template.container?.command?.includes('resume-gate'));
    expect(step.container.env).toContainEqual({ name: 'STRATEGY', value: 'workflow-name' });
    expect(playWorkflowName('play-test', 7)).toBe('play-play-test-task-7');
  });

  it('lets the sensor account create Workflows, and nothing else', () => {
    expect(byName.one('Role', config.events.sensorServiceAccount).rules).toEqual([
      { apiGroups: ['argoproj.io'], resources: ['workflows'], verbs: ['create'] },
    ]);
  });
});

/** `count` repositories; every third one with a service that is not its name, every fifth on another branch. */
function manyRepositories(count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `octo-org/service-${String(index).padStart(4, '0')}`,
    service: index % 3 === 0 ? `svc${index}` : `service-${String(index).padStart(4, '0')}`,
    ...(index % 5 === 0 ? { branch: 'develop' } : {}),
  }));
}

describe.each([100, 1000])('a platform of %i repositories', (count) => {
  const KIB = 1024;
  const many = synth({ file: { repositories: manyRepositories(count) }, env: {} });

  it('keeps every object well under the 256 KiB ArgoCD applies, with one dependency per Sensor', () => {
    const sizes = many.objects.map((object) => ({ name: `${object.kind}/${object.metadata.name}`, bytes: JSON.stringify(object).length }));
    const largest = sizes.reduce((a, b) => (a.bytes >= b.bytes ? a : b));
    expect(largest.bytes, largest.name).toBeLessThan(128 * KIB);
    for (const sensor of many.byKind('Sensor')) expect(sensor.spec.dependencies).toHaveLength(1);
  });

  it('lists a repository at most once in a Sensor, and never in its trigger', () => {
    for (const sensor of many.byKind('Sensor')) {
      expect(JSON.stringify(sensor.spec.dependencies).split('service-0042').length - 1).toBeLessThanOrEqual(1);
      expect(JSON.stringify(sensor.spec.triggers)).not.toContain('service-0042');
    }
  });
});

describe('what a gate Sensor passes the resumer about the repository', () => {
  // Names in any form: another service, dots and underscores, upper case, a leading dot, a trailing dash,
  // and a name too long for a label value. The Sensor renders none of their names: the resumer's step
  // reads them from the registry.
  const repositories = [
    { name: 'octo-org/payments', service: 'payments' },
    { name: 'octo-org/web', service: 'frontend', branch: 'develop' },
    { name: 'Octo-Org/Payments.API', service: 'payments-api' },
    { name: 'octo-org/my_tool', service: 'my-tool' },
    { name: 'octo-org/.github', service: 'github-config' },
    { name: 'octo-org/trailing-', service: 'trailing' },
    { name: `octo-org/${'very-long-repository-name-'.repeat(3)}x`, service: 'long' },
  ];

  it.each(['label-selector', 'workflow-name'] as const)('is the repository as GitHub sent it and the base branch (%s)', (strategy) => {
    const platform = synth({ file: { repositories, events: { resume: strategy } }, env: {} });
    const sensor = platform.one('Sensor', 'gate-waiting-pr-created');
    for (const repository of repositories) {
      const base = repository.branch ?? 'main';
      // GitHub may spell the name in another case than the configuration.
      const data = githubEventData(
        'pull_request',
        pullRequestEvent('opened', { repository: repository.name.toUpperCase(), labels: ['task-12'], baseRef: base }),
        'd',
      );
      const run = runSensor(sensor, data, { name: 'github', eventName: 'play' });
      expect(run.fired, repository.name).toHaveLength(1);
      const args = Object.fromEntries(
        run.fired[0].resource.spec.arguments.parameters.map((parameter: any) => [parameter.name, parameter.value]),
      );
      expect(args.repository, repository.name).toBe(repository.name.toUpperCase());
      expect(repositoryLabelValue(args.repository)).toBe(repositoryLabelValue(repository.name));
      expect(args['task-id']).toBe('12');
      expect(args['base-branch']).toBe(base);
      expect(args.play).toBeUndefined();
    }
  });

  it('pass the pull request number as GitHub wrote it, also from 1,000,000 up', () => {
    const sensor = platform.one('Sensor', 'gate-waiting-pr-created');
    const data = githubEventData(
      'pull_request',
      pullRequestEvent('opened', { ...{ repository: '5dlabs/cto-play-test', labels: ['task-5'] }, number: 1234567 }),
      'd',
    );
    const [fired] = runSensor(sensor, data, { name: 'github', eventName: 'play' }).fired;
    expect(fired.resource.spec.arguments.parameters[RESUMER_PARAMETERS.indexOf('pr-number')].value).toBe('1234567');
  });

  it('filters by base branch only when every repository merges into the same one', () => {
    const branchFilters = (platform: ReturnType<typeof synth>) =>
      platform
        .one('Sensor', 'gate-waiting-pr-created')
        .spec.dependencies[0].filters.data.filter((filter: any) => filter.path === 'body.pull_request.base.ref');
    expect(branchFilters(synth({ file: { repositories }, env: {} }))).toEqual([]);
    const oneBranch = synth({ file: { repositories: repositories.filter((repository) => !repository.branch) }, env: {} });
    expect(branchFilters(oneBranch)).toEqual([{ path: 'body.pull_request.base.ref', type: 'string', value: ['^(main)$'] }]);
  });
});
