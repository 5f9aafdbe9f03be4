import { App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { EventBus } from '../constructs/events/event-bus';
import { GithubEventSource } from '../constructs/events/github-event-source';
import { RESUMER_PARAMETERS } from '../constructs/events/play-resumer-template';
import { githubAppBotLogin } from '../constructs/model/naming';
import { gateNodeSelector, gateSensorName, playWorkflowName, releaseConfigMapName, RESUMER_TEMPLATE_NAME } from '../constructs/model/play-contract';
import { ConfigError, resolveConfig } from '../constructs/model/resolve-config';
import { StageMachine } from '../constructs/model/stage-machine';
import { RESUMER_GRANTS, sensorGrants } from '../constructs/rbac/events-rbac';
import { synth, type K8sObject } from './support/synth';

const config = resolveConfig({ env: {} });
const stages = new StageMachine(config.stages, Object.keys(config.agents));
const platform = synth();
const sensors = platform.byKind('Sensor');
const eventSource = platform.one('EventSource', 'github');
const play = platform.one('WorkflowTemplate', 'play-play-test');

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
    const playGates = play.spec.templates.find((template: any) => template.name === 'play').dag.tasks
      .filter((task: any) => task.template === 'gate')
      .map((task: any) => task.arguments.parameters[0].value);
    for (const [index, sensor] of sensors.entries()) {
      const gate = stages.gates[index].name;
      expect(playGates).toContain(gate);
      const [trigger] = sensor.spec.triggers;
      const resource = trigger.template.k8s.source.resource;
      expect(resource.spec.workflowTemplateRef.name).toBe(RESUMER_TEMPLATE_NAME);
      expect(resource.spec.arguments.parameters[RESUMER_PARAMETERS.indexOf('gate')]).toEqual({ name: 'gate', value: gate });
      for (const parameter of everyParameter(sensor)) expect(parameter.dest).not.toBe(`spec.arguments.parameters.${RESUMER_PARAMETERS.indexOf('gate')}.value`);
    }
  });

  it('filter the event type on body.X-GitHub-Event, with anchored regexes only', () => {
    for (const sensor of sensors) {
      for (const dependency of sensor.spec.dependencies) {
        expect(dataFilters(dependency)['body.X-GitHub-Event']).toHaveLength(1);
        for (const filter of dependency.filters.data.filter((item: any) => item.type === 'string')) {
          for (const value of filter.value) expect(value, `${sensor.metadata.name} ${filter.path}`).toMatch(/^(\(\?i\))?\^.*\$$/);
        }
      }
    }
  });

  it('listen only to the configured repositories and their branch, and ignore forks', () => {
    for (const dependency of sensors.flatMap((sensor) => sensor.spec.dependencies)) {
      const filters = dataFilters(dependency);
      expect(filters['body.repository.full_name']).toEqual(['(?i)^(5dlabs/cto-play-test)$']);
      expect(filters['body.pull_request.base.ref']).toEqual(['^(main)$']);
      expect(dependency.filters.exprs).toEqual([{ expr: 'head == base', fields: [
        { name: 'head', path: 'body.pull_request.head.repo.full_name' },
        { name: 'base', path: 'body.repository.full_name' },
      ] }]);
      expect(dependency.eventSourceName).toBe(eventSource.metadata.name);
      expect(Object.keys(eventSource.spec.github)).toContain(dependency.eventName);
    }
  });

  it('release the QA gate on an approval by the quality bot, or its ready-for-qa label', () => {
    const [review, label] = platform.one('Sensor', 'gate-waiting-ready-for-qa').spec.dependencies;
    const bot = githubAppBotLogin(config.agents.cleo.githubApp);
    expect(bot).toBe('5dlabs-cleo[bot]');
    expect(dataFilters(review)).toMatchObject({
      'body.X-GitHub-Event': ['^(pull_request_review)$'],
      'body.action': ['^(submitted)$'],
      'body.review.state': ['(?i)^(approved)$'],
      'body.review.user.login': ['(?i)^(5dlabs-cleo\\[bot\\])$'],
    });
    expect(dataFilters(label)).toMatchObject({
      'body.action': ['^(labeled)$'],
      'body.label.name': ['^(ready-for-qa)$'],
      'body.sender.login': ['(?i)^(5dlabs-cleo\\[bot\\])$'],
    });
    expect(platform.one('Sensor', 'gate-waiting-ready-for-qa').spec.triggers[0].template.conditions).toBe(`${review.name} || ${label.name}`);
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

  it('name the release record and the task the same way the play reads them', () => {
    const parameters = everyParameter(platform.one('Sensor', 'gate-waiting-pr-created'));
    const record = parameters.find((parameter) => parameter.dest.endsWith(`${RESUMER_PARAMETERS.indexOf('release-configmap')}.value`));
    expect(record.src.dataTemplate).toMatch(new RegExp(`-\\}\\}${releaseConfigMapName('play-test', '')}\\{\\{ \\$task \\}\\}$`));
  });

  it('run as the sensor account, which may only create Workflows', () => {
    for (const sensor of sensors) expect(sensor.spec.template.serviceAccountName).toBe(config.events.sensorServiceAccount);
    const role = platform.one('Role', config.events.sensorServiceAccount);
    expect(role.rules).toEqual(sensorGrants('label-selector').map((grant) => ({ apiGroups: [grant.apiGroup], resources: [grant.resource], verbs: grant.verbs })));
  });
});

describe('the GitHub EventSource', () => {
  it('shares the namespace and EventBus of the sensors', () => {
    for (const sensor of sensors) {
      expect(sensor.metadata.namespace).toBe(eventSource.metadata.namespace);
      expect(sensor.spec.eventBusName).toBe(eventSource.spec.eventBusName);
    }
  });

  it('requires a signed webhook and subscribes to the events the gates need', () => {
    const github = eventSource.spec.github.play;
    expect(github.webhookSecret).toEqual({ name: 'github-webhook-secret', key: 'secret' });
    expect(github.events).toEqual(['pull_request', 'pull_request_review']);
    expect(github.repositories).toEqual([{ owner: '5dlabs', names: ['cto-play-test'] }]);
    expect(github.webhook).toMatchObject({ endpoint: '/github/webhook', port: '12000', method: 'POST' });
    expect(eventSource.spec.service.ports).toEqual([{ name: 'webhook', port: 12000, targetPort: 12000 }]);
  });

  it('refuses an EventBus of another namespace', () => {
    const app = new App();
    const chart = new Chart(app, 'events', { namespace: 'agents' });
    const bus = EventBus.fromEventBusName(chart, 'Bus', 'default', 'argo-events');
    expect(() => new GithubEventSource(chart, 'GitHub', { eventBus: bus, webhookSecret: { name: 's', key: 'k' }, repositories: ['a/b'], events: ['pull_request'] }))
      .toThrow('EventSource github is in namespace "agents" but its EventBus "default" is in "argo-events": put them in one namespace');
  });

  it('refuses a configured EventBus namespace that differs from the platform namespace', () => {
    expect(() => resolveConfig({ file: { events: { eventBus: { namespace: 'argo' } } } })).toThrow(ConfigError);
    expect(() => resolveConfig({ file: { events: { eventBus: { namespace: 'argo' } } } })).toThrow(/^events\.eventBus\.namespace: the EventBus must be in the namespace/);
  });
});

describe('the resumer', () => {
  const resumer = platform.one('WorkflowTemplate', RESUMER_TEMPLATE_NAME);
  const template = (name: string): any => resumer.spec.templates.find((entry: any) => entry.name === name);

  it('declares the parameters the sensors write, in their order', () => {
    expect(resumer.spec.arguments.parameters.map((parameter: any) => parameter.name)).toEqual([...RESUMER_PARAMETERS]);
  });

  it('resumes with argo resume and a node selector on the gate, never by patching suspend or status', () => {
    const resume = template('resume-gate');
    expect(resume.container.image).toBe(config.images.argo);
    expect(resume.container.args).toEqual(['resume', '{{inputs.parameters.workflow}}', '--namespace', '{{workflow.namespace}}', '--node-field-selector', gateNodeSelector('{{workflow.parameters.gate}}')]);
    expect(Number(resume.retryStrategy.limit)).toBeLessThanOrEqual(10);
    const text = JSON.stringify(resumer);
    expect(text).not.toMatch(/"suspend"\s*:\s*false|status\.nodes/);
    expect(template('find-play').script.source).not.toContain('{{');
  });

  it('skips the resume when no play waits at the gate', () => {
    const [[find], [resume]] = template('resume').steps;
    expect(find.template).toBe('find-play');
    expect(resume.when).toBe("'{{steps.find.outputs.parameters.workflow}}' != ''");
  });

  it('runs with exactly the grants it uses', () => {
    expect(resumer.spec.serviceAccountName).toBe(config.events.resumerServiceAccount);
    const role = platform.one('Role', config.events.resumerServiceAccount);
    expect(role.rules).toEqual(RESUMER_GRANTS.map((grant) => ({ apiGroups: [grant.apiGroup], resources: [grant.resource], verbs: grant.verbs })));
  });
});

describe('the workflow-name strategy', () => {
  const byName = synth({ file: { events: { resume: 'workflow-name' } }, env: {} });

  it('needs no resumer', () => {
    expect(byName.byKind('WorkflowTemplate').map((template) => template.metadata.name)).not.toContain(RESUMER_TEMPLATE_NAME);
    expect(byName.byKind('ServiceAccount').map((account) => account.metadata.name)).not.toContain(config.events.resumerServiceAccount);
  });

  it('records the release, then resumes the play named from repository and task at this gate only', () => {
    for (const sensor of byName.byKind('Sensor')) {
      const gate = stages.gates.find((stage) => gateSensorName(stage.name) === sensor.metadata.name)!.name;
      const [record, resume] = sensor.spec.triggers.map((trigger: any) => trigger.template);
      expect(record.k8s).toMatchObject({ operation: 'patch', patchStrategy: 'application/merge-patch+json' });
      const dependencies = sensor.spec.dependencies.length;
      expect(record.k8s.parameters.map((parameter: any) => parameter.dest)).toEqual(Array.from({ length: dependencies }, () => ['metadata.name', `data.${gate}`]).flat());
      expect(record.k8s.parameters[0].src.dataTemplate).toContain(`${releaseConfigMapName('play-test', '')}{{ $task }}`);
      expect(resume.argoWorkflow.operation).toBe('resume');
      expect(resume.argoWorkflow.args).toEqual(['--node-field-selector', gateNodeSelector(gate)]);
      expect(resume.argoWorkflow.parameters[0].src.dataTemplate).toMatch(new RegExp(`${playWorkflowName('play-test', '')}\\{\\{ \\$task \\}\\}$`));
    }
  });

  it('lets the sensor account resume and record, and nothing else', () => {
    expect(byName.one('Role', config.events.sensorServiceAccount).rules).toEqual(
      sensorGrants('workflow-name').map((grant) => ({ apiGroups: [grant.apiGroup], resources: [grant.resource], verbs: grant.verbs })),
    );
  });
});
