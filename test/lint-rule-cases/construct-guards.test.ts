/**
 * Every guard of the constructs that refuses something is triggered here, and its message checked: a guard
 * that nothing triggers could be deleted, or say the wrong thing, without a test noticing. Two guards are
 * unreachable through any input and are named at the end, with why.
 */
import { App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../constructs/events/event-bus';
import { GateSensor } from '../../constructs/events/gate-sensor';
import { GithubEventSource } from '../../constructs/events/github-event-source';
import { durationSeconds } from '../../constructs/model/duration';
import { dnsName, dnsNameWithSuffix, labelValue, parseRepository } from '../../constructs/model/naming';
import { chunkTasks, MAX_DAG_TASKS } from '../../constructs/model/project';
import { resolveConfig } from '../../constructs/model/resolve-config';
import { StageMachine } from '../../constructs/model/stage-machine';
import { StageMachineBuilder } from '../../constructs/model/stage-machine-builder';
import { AgentPlatform } from '../../constructs/platform/agent-platform';
import { ScopedServiceAccount } from '../../constructs/rbac/scoped-service-account';
import { WorkspacePvc } from '../../constructs/storage/workspace-pvc';
import { ArgoValue } from '../../constructs/workflows/coderun-manifest';
import { hardenedScript } from '../../constructs/workflows/hardened-script';
import { PlayWorkflowTemplate } from '../../constructs/workflows/play-workflow-template';
import { WorkflowTemplate } from '../../constructs/workflows/workflow-template';

const chart = (namespace = 'agents') => new Chart(new App(), 'guards', { namespace });
const config = resolveConfig({ env: {}, file: {} });
const agents = Object.keys(config.agents);
const bus = (namespace?: string) => EventBus.fromEventBusName(chart(), 'Bus', 'default', namespace);
const secret = { name: 's', key: 'k' };
const container = (name: string) => ({ name, container: { image: 'alpine:3.23' } });

function playTemplate(change: (props: any) => void) {
  const stages = new StageMachineBuilder({ agents }).agent('implementation', 'rex').end().build();
  const props: any = { repository: config.repositories[0], stages, agents: structuredClone(config.agents), clis: structuredClone(config.clis), serviceAccountName: 'agent-play', helperImage: config.images.kubectl };
  change(props);
  return () => new PlayWorkflowTemplate(chart(), 'play', props);
}

const GUARDS: readonly (readonly [string, () => unknown, string | RegExp])[] = [
  ['a wildcard verb in RBAC', () => new ScopedServiceAccount(chart(), 'sa', { name: 'x', grants: [{ apiGroup: '', resource: 'pods', verbs: ['*'] }] }), 'grant on "pods" uses a wildcard; name the verbs and resources it needs'],
  ['a wildcard resource in RBAC', () => new ScopedServiceAccount(chart(), 'sa', { name: 'x', grants: [{ apiGroup: '', resource: '*', verbs: ['get'] }] }), 'uses a wildcard'],
  ['a wildcard API group in RBAC', () => new ScopedServiceAccount(chart(), 'sa', { name: 'x', grants: [{ apiGroup: '*', resource: 'pods', verbs: ['get'] }] }), 'uses a wildcard'],
  ['{{ in a script', () => hardenedScript({ name: 'progress', image: 'alpine', source: 'echo {{inputs.parameters.x}}', env: [] }), 'script "progress" contains "{{": pass values through env, never inside the script text'],
  ['a workspace size that is not a size', () => new WorkspacePvc(chart(), 'pvc', { service: 'svc', agent: 'rex', shared: true, size: '10GB' }), 'workspace size "10GB" is not a size such as 10Gi'],
  ['an Argo reference that is not one', () => ArgoValue.int('workflow.parameters.x'), '"workflow.parameters.x" is not one Argo reference such as {{inputs.parameters.task-id}}'],
  ['a duration without a unit', () => durationSeconds('90'), '"90" is not a duration: expected a whole number and a unit, e.g. 90s, 30m, 4h, 7d'],
  ['a zero duration', () => durationSeconds('0s'), 'is not a duration'],
  ['a name with no letter or digit', () => dnsName('--/__'), 'cannot build a Kubernetes name from "--/__": it has no letter or digit'],
  ['a suffix that leaves no room', () => dnsNameWithSuffix('base', 'x'.repeat(60)), /the name suffix "x+" is too long: it leaves no room for "base" within 63 characters/],
  ['a repository that is not owner/name', () => parseRepository('octo-org'), '"octo-org" is not a GitHub repository: expected owner/name, e.g. octo-org/payments'],
  ['a repository with a dot-only name', () => parseRepository('octo-org/..'), 'is not a GitHub repository'],
  ['an invalid stage machine', () => new StageMachine([], agents), /^invalid stage machine:\n/],
  ['an unknown stage', () => StageMachine.fromConfig(config).get('deploy'), /^unknown stage "deploy"; stages: implementation, /],
  ['parallel agents on a gate', () => new StageMachineBuilder({ agents }).agent('build', 'rex').gate('wait', [{ event: 'pull_request', actions: ['opened'], by: [] } as any]).replaceWithParallel('wait', ['tess']), 'stage "wait" is a gate stage; only an agent stage can run agents in parallel'],
  ['inserting after a stage that does not exist', () => StageMachineBuilder.from(StageMachine.fromConfig(config), { agents }).after('deploy'), /^no stage named "deploy"; stages: /],
  ['a WorkflowTemplate name that is not a DNS label', () => new WorkflowTemplate(chart(), 'wt', { name: 'Play_1', spec: {} as any }), 'WorkflowTemplate name "Play_1" is not a DNS-1123 label of at most 63 characters'],
  ['two templates with one name', () => new WorkflowTemplate(chart(), 'wt', { name: 'play', spec: {} as any, templates: [container('a'), container('a')] as any }), 'WorkflowTemplate play already has a template named "a"'],
  ['more than 200 templates', () => new WorkflowTemplate(chart(), 'wt', { name: 'play', spec: {} as any, templates: Array.from({ length: 201 }, (_, index) => container(`t${index}`)) as any }), 'WorkflowTemplate play cannot hold more than 200 templates'],
  ['an agent missing from the registry', playTemplate((props) => delete props.agents.rex), /stage "implementation" names agent "rex", which is not in the agent registry; add it to agents or name one of: /],
  ['a CLI missing from the registry', playTemplate((props) => delete props.clis[props.agents.rex.cli]), /agent "rex" is bound to CLI "\w+", which is not in the CLI registry/],
  ['an EventSource name too long for its Service', () => new GithubEventSource(chart(), 'gh', { name: 'e'.repeat(48), eventBus: bus(), webhookSecret: secret, repositories: ['a/b'], events: ['push'] }), /must start with a letter and be a DNS label of at most 47 characters/],
  ['an EventSource without events', () => new GithubEventSource(chart(), 'gh', { eventBus: bus(), webhookSecret: secret, repositories: ['a/b'], events: [] }), 'EventSource github needs at least one GitHub event to subscribe to'],
  ['an EventSource with repositories and organizations', () => new GithubEventSource(chart(), 'gh', { eventBus: bus(), webhookSecret: secret, repositories: ['a/b'], organizations: ['a'], events: ['push'] }), 'a GitHub EventSource listens to repositories or to organizations: give exactly one of them'],
  ['an EventSource with neither', () => new GithubEventSource(chart(), 'gh', { eventBus: bus(), webhookSecret: secret, events: ['push'] }), 'give exactly one of them'],
  ['an EventSource on an EventBus of another namespace', () => new GithubEventSource(chart('agents'), 'gh', { eventBus: bus('argo-events'), webhookSecret: secret, repositories: ['a/b'], events: ['push'] }), 'EventSource github is in namespace "agents" but its EventBus "default" is in "argo-events": put them in one namespace'],
  [
    'a Sensor without repositories',
    () => {
      const scope = chart();
      const source = new GithubEventSource(scope, 'gh', { eventBus: bus(), webhookSecret: secret, repositories: ['a/b'], events: ['pull_request'] });
      const gate = StageMachine.fromConfig(config).gates[0];
      return new GateSensor(scope, 'sensor', { gate, repositories: [], agents: config.agents, eventSource: source, eventBus: bus(), serviceAccountName: 'resumer' } as any);
    },
    /^Sensor [a-z0-9-]+ needs at least one repository$/,
  ],
  [
    'a project whose repository is not configured (AgentPlatform checks even a resolved config)',
    () => {
      const withProject = structuredClone(resolveConfig({ env: {}, file: { projects: [{ name: 'launch', repository: config.repositories[0].name, tasks: [{ id: 1 }] }] } })) as any;
      withProject.projects[0].repository = 'octo-org/nowhere';
      return new AgentPlatform(new App(), 'platform', { config: withProject });
    },
    'projects[0].repository: repository "octo-org/nowhere" is not configured',
  ],
];

describe('every guard of the constructs refuses, with what to change', () => {
  it.each(GUARDS.map(([name, build, message]) => [name, build, message] as const))('%s', (_name, build, message) => {
    expect(build).toThrow(message);
  });
});

describe('guards no input reaches', () => {
  it('gate-sensor `constant` gets only label values, which never hold "{" (so never "{{")', () => {
    expect(labelValue('{{owner/name}}')).not.toContain('{');
  });

  it('project-workflow-template refuses a chunk over 200 tasks, which chunkTasks never makes', () => {
    const ordered = Array.from({ length: 2 * MAX_DAG_TASKS + 1 }, (_, index) => ({ id: index + 1, dependsOn: [], parameters: {} }));
    expect(chunkTasks(ordered).map((chunk) => chunk.length)).toEqual([MAX_DAG_TASKS, MAX_DAG_TASKS, 1]);
  });
});

describe('the workspace size guard lets each unit through as written', () => {
  it.each([
    ['2048Mi', '2Gi'],
    ['10Gi', '10Gi'],
    ['2Ti', '2048Gi'],
  ])('%s', (size, storage) => {
    const scope = chart();
    new WorkspacePvc(scope, 'pvc', { service: 'svc', agent: 'rex', shared: true, size });
    const [claim] = scope.toJson();
    expect(claim.spec.resources.requests.storage).toBe(storage);
  });
});
