/**
 * Every guard of the constructs that refuses something is triggered here, and its message checked: a guard
 * that nothing triggers could be deleted, or say the wrong thing, without a test noticing. Two guards are
 * unreachable through any input and are named at the end, with why.
 */
// @ts-nocheck

import { registryEntry } from '../../constructs/registry/registry-entries';
import { RepositoryRegistry } from '../../constructs/registry/repository-registry';
import { App, Chart, Duration, Size } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../constructs/events/event-bus';
import { GateSensor } from '../../constructs/gate/gate-sensor';
import { GithubEventSource } from '../../constructs/events/github-event-source';
import { RemediationSensor } from '../../constructs/remediation/remediation-sensor';
import { type RemediationPlan, remediationPlan } from '../../constructs/remediation/remediation';
import { durationSeconds, durationText } from '../../constructs/model/duration';
import { dnsName, dnsNameWithSuffix, labelValue, parseRepository } from '../../constructs/model/naming';
import { taskId } from '../../constructs/runtime/step-env';
import { chunkTasks, MAX_DAG_TASKS } from '../../constructs/project/project';
import { resolveConfig } from '../../constructs/model/resolve-config';
import { StageMachine } from '../../constructs/model/stage-machine';
import { StageMachineBuilder } from '../../constructs/model/stage-machine-builder';
import { AgentPlatform } from '../../constructs/platform/agent-platform';
import { ScopedServiceAccount } from '../../constructs/rbac/scoped-service-account';
import { WorkspacePvc } from '../../constructs/storage/workspace-pvc';
import { AgentsConfigMap } from '../../constructs/config/agents-config-map';
import { PlayResumerTemplate } from '../../constructs/resumer/play-resumer-template';
import { PlayRbac } from '../../constructs/rbac/play-rbac';
import { CodeRunWorkflowTemplate } from '../../constructs/workflows/coderun-workflow-template';
import { ArgoValue, referenceExpression } from '../../constructs/workflows/coderun-manifest';
import { ProjectWorkflowTemplate } from '../../constructs/project/project-workflow-template';
import { PlayWorkflowTemplate } from '../../constructs/workflows/play-workflow-template';
import { WorkflowTemplate } from '../../constructs/workflows/workflow-template';

const chart = (namespace = 'agents') => new Chart(new App(), 'guards', { namespace });
const config = resolveConfig({ env: {}, file: {} });
const agents = Object.keys(config.agents);
const bus = (namespace?: string) => EventBus.fromEventBusName(chart(), 'Bus', 'default', namespace);
const secret = { name: 's', key: 'k' };
const container = (name: string) => ({ name, container: { image: 'alpine:3.23' } });
/** A remediation Sensor of the default platform, its plan changed by `change`. */
function remediationSensor(kind: 'remediate' | 'stale-work', change: (plan: RemediationPlan) => RemediationPlan): RemediationSensor {
  const scope = chart();
  const stages = StageMachine.fromConfig(config).stages;
  const plan = remediationPlan(stages, config.agents, config.remediation) as RemediationPlan;
  const eventSource = new GithubEventSource(scope, 'gh', {
    eventBus: bus(),
    webhookSecret: secret,
    repositories: ['a/b'],
    events: ['push'],
  });
  return new RemediationSensor(scope, kind, {
    kind,
    plan: change(plan),
    repositories: config.repositories,
    agents: config.agents,
    eventSource,
    eventBus: bus(),
    serviceAccountName: 'sensor',
  });
}

function playTemplate(change: (props: any) => void) {
  const stages = new StageMachineBuilder({ agents }).agent('implementation', 'rex').end().build();
  const props: any = {
    stages,
    agents: structuredClone(config.agents),
    clis: structuredClone(config.clis),
    serviceAccountName: 'agent-play',
    runtimeImage: config.images.runtime,
  };
  change(props);
  return () => new PlayWorkflowTemplate(chart(), 'play', props);
}

/** The registry entry of a repository, as the default platform writes it. */
function registryEntryOf(name: string) {
  const repository = { ...config.repositories[0], name };
  return registryEntry({ ...config, stageAgents: ['rex'] }, repository, 'play');
}

function codeRunTemplate(change: (props: any) => void) {
  const props: any = {
    defaultAgent: structuredClone(config.agents.rex),
    defaultAgentName: 'rex',
    defaultRepository: config.repositories[0],
    cliNames: Object.keys(config.clis),
    githubApps: Object.values(config.agents).map((agent) => agent.githubApp),
    serviceAccountName: 'agent-play',
    runtimeImage: config.images.runtime,
  };
  change(props);
  return () => new CodeRunWorkflowTemplate(chart(), 'coderun', props);
}

function projectTemplate(change: (props: any) => void) {
  const repository = config.repositories[0];
  const props: any = {
    project: { name: 'launch', repository: repository.name, tasks: [{ id: 1 }] },
    repository,
    stages: StageMachine.fromConfig(config),
    runtimeImage: config.images.runtime,
    serviceAccountName: 'agent-play-project',
  };
  change(props);
  return () => new ProjectWorkflowTemplate(chart(), 'project', props);
}

function gateSensor(change: (props: any) => void) {
  return () => {
    const scope = chart();
    const source = GithubEventSource.fromEventSourceName(scope, 'gh', 'github', 'play');
    const gate = structuredClone(
      StageMachine.fromConfig(config).gates.find((candidate) => candidate.release.some((release) => release.by.length > 0)),
    );
    const props: any = {
      gate,
      repositories: config.repositories,
      agents: structuredClone(config.agents),
      eventSource: source,
      eventBus: bus(),
      serviceAccountName: 'agent-play-sensor',
    };
    change(props);
    return new GateSensor(scope, 'sensor', props);
  };
}

function eventSource(change: (props: any) => void) {
  const props: any = { eventBus: bus(), webhookSecret: { ...secret }, repositories: ['a/b'], events: ['pull_request'] };
  change(props);
  return () => new GithubEventSource(chart(), 'gh', props);
}

function resumer(change: (props: any) => void) {
  const props: any = { runtimeImage: config.images.runtime, serviceAccountName: 'agent-play-resumer' };
  change(props);
  return () => new PlayResumerTemplate(chart(), 'resumer', props);
}

function agentsConfigMap(change: (props: any) => void) {
  const props: any = { agents: structuredClone(config.agents), clis: structuredClone(config.clis) };
  change(props);
  return () => new AgentsConfigMap(chart(), 'agents', props);
}

function workspace(change: (props: any) => void) {
  const props: any = { service: 'web', agent: 'cleo', shared: false };
  change(props);
  return () => new WorkspacePvc(chart(), 'pvc', props);
}

function workflowTemplate(change: (props: any) => void) {
  const props: any = { name: 'play', spec: {} };
  change(props);
  return () => new WorkflowTemplate(chart(), 'wt', props);
}

const GUARDS: readonly (readonly [string, () => unknown, string | RegExp])[] = [
  [
    'a wildcard verb in RBAC',
    () => new ScopedServiceAccount(chart(), 'sa', { name: 'x', grants: [{ apiGroup: '', resource: 'pods', verbs: ['*'] }] }),
    'grant on "pods" uses a wildcard; name the verbs and resources it needs',
  ],
  [
    'a wildcard resource in RBAC',
    () => new ScopedServiceAccount(chart(), 'sa', { name: 'x', grants: [{ apiGroup: '', resource: '*', verbs: ['get'] }] }),
    'uses a wildcard',
  ],
  [
    'a wildcard API group in RBAC',
    () => new ScopedServiceAccount(chart(), 'sa', { name: 'x', grants: [{ apiGroup: '*', resource: 'pods', verbs: ['get'] }] }),
    'uses a wildcard',
  ],
  [
    'a workspace size that is not a size',
    () => new WorkspacePvc(chart(), 'pvc', { service: 'svc', agent: 'rex', shared: true, size: '10GB' }),
    'workspace size "10GB" is not a size such as 10Gi',
  ],
  [
    'an Argo reference that is not one',
    () => ArgoValue.int('workflow.parameters.x'),
    '"workflow.parameters.x" is not one Argo reference such as {{inputs.parameters.task-id}}',
  ],
  [
    'a duration without a unit',
    () => durationSeconds('90'),
    '"90" is not a duration: expected a whole number and a unit, e.g. 90s, 30m, 4h, 7d',
  ],
  ['a zero duration', () => durationSeconds('0s'), 'is not a duration'],
  [
    'a duration object that is not whole seconds (cdk8s Duration refuses it itself; another DurationLike may not)',
    () => durationText({ toSeconds: () => 1.5 }),
    '1.5 seconds is not a duration: expected a whole positive number of seconds',
  ],
  ['a zero Duration', () => durationText(Duration.seconds(0)), '0 seconds is not a duration'],
  [
    'a verb that resourceNames cannot narrow',
    () =>
      new ScopedServiceAccount(chart(), 'sa', {
        name: 'x',
        grants: [{ apiGroup: '', resource: 'configmaps', verbs: ['get', 'list', 'watch'], resourceNames: ['settings'] }],
      }),
    'list, watch on "configmaps" cannot be restricted by resourceNames; grant it in a rule without names',
  ],
  [
    'a task id that is not digits',
    () => taskId('TASK_ID').read({ TASK_ID: '12a' }),
    'expected a task id (digits without a leading zero, at most 2147483647), got "12a"',
  ],
  ['a task id past the largest', () => taskId('TASK_ID').read({ TASK_ID: '2147483648' }), 'got "2147483648"'],
  ['a task id written with a leading zero', () => taskId('TASK_ID').read({ TASK_ID: '007' }), 'got "007"'],
  ['a name with no letter or digit', () => dnsName('--/__'), 'cannot build a Kubernetes name from "--/__": it has no letter or digit'],
  ['parts with no letter or digit', () => dnsName(['--', '__']), 'cannot build a Kubernetes name from "-- __": it has no letter or digit'],
  [
    'a suffix that leaves no room',
    () => dnsNameWithSuffix('base', 'x'.repeat(60)),
    /the name suffix "x+" is too long: it leaves no room for "base" within 63 characters/,
  ],
  [
    'a repository that is not owner/name',
    () => parseRepository('octo-org'),
    '"octo-org" is not a GitHub repository: expected owner/name, e.g. octo-org/payments',
  ],
  ['a repository with a dot-only name', () => parseRepository('octo-org/..'), 'is not a GitHub repository'],
  ['an invalid stage machine', () => new StageMachine([], agents), /^invalid stage machine:\n/],
  ['an unknown stage', () => StageMachine.fromConfig(config).get('deploy'), /^unknown stage "deploy"; stages: implementation, /],
  [
    'parallel agents on a gate',
    () =>
      new StageMachineBuilder({ agents })
        .agent('build', 'rex')
        .gate('wait', [{ event: 'pull_request', actions: ['opened'], by: [] } as any])
        .replaceWithParallel('wait', ['tess'])
        .end()
        .build(),
    'replaceWithParallel (stage "wait"): a gate stage; only an agent stage can run agents in parallel',
  ],
  [
    'inserting after a stage that does not exist',
    () => StageMachineBuilder.from(StageMachine.fromConfig(config), { agents }).after('deploy').build(),
    /^invalid stage machine:\nafter \(stage "deploy"\): no stage has that name; stages: /,
  ],
  [
    'a WorkflowTemplate name that is not a DNS label',
    () => new WorkflowTemplate(chart(), 'wt', { name: 'Play_1', spec: {} as any }),
    'WorkflowTemplate name "Play_1" is not a DNS-1123 label of at most 63 characters',
  ],
  [
    'two templates with one name',
    () => new WorkflowTemplate(chart(), 'wt', { name: 'play', spec: {} as any, templates: [container('a'), container('a')] as any }),
    'WorkflowTemplate play already has a template named "a"',
  ],
  [
    'more than 200 templates',
    () =>
      new WorkflowTemplate(chart(), 'wt', {
        name: 'play',
        spec: {} as any,
        templates: Array.from({ length: 201 }, (_, index) => container(`t${index}`)) as any,
      }),
    'WorkflowTemplate play cannot hold more than 200 templates',
  ],
  [
    'an agent missing from the registry',
    playTemplate((props) => delete props.agents.rex),
    /stage "implementation" names agent "rex", which is not in the agent registry; add it to agents or name one of: /,
  ],
  [
    'a CLI missing from the registry',
    playTemplate((props) => delete props.clis[props.agents.rex.cli]),
    /agent "rex" is bound to CLI "\w+", which is not in the CLI registry/,
  ],
  [
    'an EventSource name too long for its Service',
    () =>
      new GithubEventSource(chart(), 'gh', {
        name: 'e'.repeat(48),
        eventBus: bus(),
        webhookSecret: secret,
        repositories: ['a/b'],
        events: ['push'],
      }),
    /must start with a letter and be a DNS label of at most 47 characters/,
  ],
  [
    'an EventSource without events',
    () => new GithubEventSource(chart(), 'gh', { eventBus: bus(), webhookSecret: secret, repositories: ['a/b'], events: [] }),
    'EventSource github needs at least one GitHub event to subscribe to',
  ],
  [
    'an EventSource with repositories and organizations',
    () =>
      new GithubEventSource(chart(), 'gh', {
        eventBus: bus(),
        webhookSecret: secret,
        repositories: ['a/b'],
        organizations: ['a'],
        events: ['push'],
      }),
    'a GitHub EventSource listens to repositories or to organizations: give exactly one of them',
  ],
  [
    'an EventSource with neither',
    () => new GithubEventSource(chart(), 'gh', { eventBus: bus(), webhookSecret: secret, events: ['push'] }),
    'give exactly one of them',
  ],
  [
    'an EventSource on an EventBus of another namespace',
    () =>
      new GithubEventSource(chart('agents'), 'gh', {
        eventBus: bus('argo-events'),
        webhookSecret: secret,
        repositories: ['a/b'],
        events: ['push'],
      }),
    'EventSource github is in namespace "agents" but its EventBus "default" is in "argo-events": put them in one namespace',
  ],
  [
    'a Sensor without repositories',
    () => {
      const scope = chart();
      const source = new GithubEventSource(scope, 'gh', {
        eventBus: bus(),
        webhookSecret: secret,
        repositories: ['a/b'],
        events: ['pull_request'],
      });
      const gate = StageMachine.fromConfig(config).gates[0];
      return new GateSensor(scope, 'sensor', {
        gate,
        repositories: [],
        agents: config.agents,
        eventSource: source,
        eventBus: bus(),
        serviceAccountName: 'resumer',
      } as any);
    },
    /^Sensor [a-z0-9-]+ needs at least one repository: pass the platform's repositories$/,
  ],
  [
    'a remediate Sensor whose plan sends no task back',
    () => remediationSensor('remediate', (plan) => ({ ...plan, routes: [] })),
    'give a gate remediate conditions, or create no remediate Sensor',
  ],
  [
    'a stale-work Sensor whose plan names no implementation agent',
    () => remediationSensor('stale-work', (plan) => ({ ...plan, implementationAgents: [] })),
    'add an agent of role implementation, or create no stale-work Sensor',
  ],
  [
    'a project whose repository is not configured (AgentPlatform checks even a resolved config)',
    () => {
      const withProject = structuredClone(
        resolveConfig({ env: {}, file: { projects: [{ name: 'launch', repository: config.repositories[0].name, tasks: [{ id: 1 }] }] } }),
      ) as any;
      withProject.projects[0].repository = 'octo-org/nowhere';
      return new AgentPlatform(new App(), 'platform', { config: withProject });
    },
    'projects[0].repository: repository "octo-org/nowhere" is not configured',
  ],
  // Play template props
  [
    'a play runtime image without a tag',
    playTemplate((props) => (props.runtimeImage = 'node')),
    /^PlayWorkflowTemplate play: runtimeImage "node": expected an image pinned by tag or digest, e.g. ghcr.io\/org\/tool:v1.2.3$/,
  ],
  [
    'a play runtime image tagged latest',
    playTemplate((props) => (props.runtimeImage = 'node:latest')),
    'runtimeImage "node:latest": the tag "latest" is not pinned: name a version',
  ],
  [
    'an illegal play service account name',
    playTemplate((props) => (props.serviceAccountName = 'Agent_Play')),
    'serviceAccountName "Agent_Play": is not a legal service account name',
  ],
  [
    'an illegal service account given as an IServiceAccount',
    playTemplate((props) => (props.serviceAccountName = { name: 'Agent_Play' })),
    'serviceAccountName "Agent_Play": is not a legal service account name',
  ],
  ['a play deadline without a unit', playTemplate((props) => (props.deadline = '90')), 'deadline: "90" is not a duration'],
  [
    'a play deadline Duration longer than a year',
    playTemplate((props) => (props.deadline = Duration.days(400))),
    'deadline: "400d" is longer than the longest duration accepted, 365d',
  ],
  [
    'a play retention Duration of a fraction of a second',
    playTemplate((props) => (props.keepFailed = Duration.millis(1500))),
    /keepFailed: .*whole number of seconds/,
  ],
  [
    'a play parameter name that is not a key',
    playTemplate((props) => (props.parameters = { Team_Name: 'x' })),
    'parameters "Team_Name": is not valid: expected lower-case letters',
  ],
  [
    'a play parameter value with a quote',
    playTemplate((props) => (props.parameters = { team: "o'neil" })),
    `parameters.team "o'neil": is not valid: expected a value without quotes`,
  ],
  [
    'a play namespace that is not a DNS label',
    playTemplate((props) => (props.namespace = 'Agents')),
    'namespace "Agents": is not a DNS-1123 label',
  ],
  [
    'a play template name that is not a DNS label',
    playTemplate((props) => (props.name = 'Play_1')),
    /^PlayWorkflowTemplate Play_1: name "Play_1": /,
  ],
  [
    'a direct agent bound to a CLI the registry lacks',
    playTemplate((props) => (props.directClis = { rex: 'nope' })),
    'agent "rex" is bound to CLI "nope", which is not in the CLI registry; add it to clis or bind one of: ',
  ],
  [
    'one repository twice in the registry (names differ only in case)',
    () =>
      new RepositoryRegistry(chart(), 'registry', {
        entries: [registryEntryOf('octo/web'), registryEntryOf('Octo/Web')],
      }),
    'RepositoryRegistry: repository Octo/Web is listed twice (names are case-insensitive)',
  ],
  // CodeRun template props
  [
    'coderun retries out of range',
    codeRunTemplate((props) => (props.retries = 9)),
    'CodeRunWorkflowTemplate coderun: retries 9: is out of range: expected a whole number from 0 to 5',
  ],
  ['a coderun timeout of zero', codeRunTemplate((props) => (props.timeout = '0s')), 'timeout: "0s" is not a duration'],
  [
    "coderun CLI names without the default agent's CLI",
    codeRunTemplate((props) => (props.cliNames = ['nothing'])),
    /cliNames: do not include the default agent's CLI "\w+": add it/,
  ],
  [
    "coderun GitHub Apps without the default agent's",
    codeRunTemplate((props) => (props.githubApps = [])),
    /githubApps: do not include the default agent's GitHub App "[^"]+": add it/,
  ],
  [
    'a coderun default agent the config would refuse',
    codeRunTemplate((props) => (props.defaultAgent.temperature = 7)),
    /defaultAgent "[^"]+": is not valid at temperature: /,
  ],
  [
    'an unpinned coderun runtime image',
    codeRunTemplate((props) => (props.runtimeImage = 'node')),
    'runtimeImage "node": expected an image pinned by tag or digest',
  ],
  [
    'an illegal coderun service account name',
    codeRunTemplate((props) => (props.serviceAccountName = 'agent play')),
    'serviceAccountName "agent play": is not a legal service account name',
  ],
  // Project template props
  [
    'an illegal project service account name',
    projectTemplate((props) => (props.serviceAccountName = '-project')),
    /^ProjectWorkflowTemplate launch: serviceAccountName "-project": is not a legal service account name/,
  ],
  [
    'an unpinned project runtime image',
    projectTemplate((props) => (props.runtimeImage = 'node:latest')),
    'runtimeImage "node:latest": the tag "latest" is not pinned',
  ],
  [
    'a project retention that is not a duration',
    projectTemplate((props) => (props.keepSucceeded = '1 day')),
    'keepSucceeded: "1 day" is not a duration',
  ],
  [
    'a project repository the config would refuse',
    projectTemplate((props) => (props.repository = { ...props.repository, branch: 'a b' })),
    /repository "[^"]+": is not valid at branch: expected a git branch name/,
  ],
  // Gate Sensor props
  [
    'a gate with no release',
    gateSensor((props) => (props.gate.release = [])),
    /^Sensor [a-z0-9-]+ needs at least one release condition: give its gate a release, e.g. Releases.pullRequestOpened\(\)$/,
  ],
  [
    'a release by an agent not in the registry',
    gateSensor((props) => {
      for (const agent of props.gate.release.flatMap((release: any) => release.by)) delete props.agents[agent];
    }),
    /gate\.release\.by "\w+": is not in the agent registry \(agents\): add it, or name one of: /,
  ],
  [
    'trigger retries out of range',
    gateSensor((props) => (props.triggerRetries = 11)),
    'triggerRetries 11: is out of range: expected a whole number from 0 to 10',
  ],
  [
    'an unknown resume strategy',
    gateSensor((props) => (props.strategy = 'by-magic')),
    'strategy "by-magic": is not a resume strategy: use one of label-selector, workflow-name',
  ],
  ['a Sensor name that is not a DNS label', gateSensor((props) => (props.name = 'Gate_1')), 'name "Gate_1": is not a DNS-1123 label'],
  [
    'an illegal Sensor service account name',
    gateSensor((props) => (props.serviceAccountName = 'Sensor!')),
    'serviceAccountName "Sensor!": is not a legal service account name',
  ],
  [
    'a Sensor repository that is not owner/name',
    gateSensor((props) => (props.repositories = [{ ...props.repositories[0], name: 'octo-org' }])),
    'repositories[0] "octo-org": is not valid at name: "octo-org" is not a GitHub repository',
  ],
  // GitHub EventSource props
  [
    'an EventSource port out of range',
    eventSource((props) => (props.port = 70000)),
    'EventSource github: port 70000: is out of range: expected a whole number from 1 to 65535',
  ],
  [
    'an EventSource endpoint that is not a path',
    eventSource((props) => (props.endpoint = 'github/webhook')),
    'endpoint "github/webhook": is not a path: start it with "/"',
  ],
  [
    'a webhook Secret name that is not a Secret name',
    eventSource((props) => (props.webhookSecret.name = 'Webhook_Secret')),
    'webhookSecret.name "Webhook_Secret": is not a Secret name',
  ],
  [
    'a webhook Secret without a key',
    eventSource((props) => (props.webhookSecret.key = '')),
    'webhookSecret.key "": is empty: name the key',
  ],
  [
    'an EventSource namespace that is not a DNS label',
    eventSource((props) => (props.namespace = 'Events')),
    'namespace "Events": is not a DNS-1123 label',
  ],
  [
    'an EventSource repository that is not owner/name',
    eventSource((props) => (props.repositories = ['octo-org'])),
    '"octo-org" is not a GitHub repository',
  ],
  [
    'a reference to an EventSource with an illegal name',
    () => GithubEventSource.fromEventSourceName(chart(), 'gh', 'GitHub', 'play'),
    'GithubEventSource.fromEventSourceName: name "GitHub": is not a DNS-1123 label',
  ],
  [
    'a reference to an EventBus with an illegal name',
    () => EventBus.fromEventBusName(chart(), 'bus', 'Default'),
    'EventBus.fromEventBusName: name "Default": is not a DNS-1123 label',
  ],
  [
    'a reference to an EventBus in an illegal namespace',
    () => EventBus.fromEventBusName(chart(), 'bus', 'default', 'Argo Events'),
    'EventBus.fromEventBusName: namespace "Argo Events": is not a DNS-1123 label',
  ],
  // Resumer props
  [
    'an unpinned resumer runtime image',
    resumer((props) => (props.runtimeImage = 'node')),
    'PlayResumerTemplate play-resumer: runtimeImage "node": expected an image pinned by tag or digest',
  ],
  [
    'an illegal resumer service account name',
    resumer((props) => (props.serviceAccountName = 'Resumer')),
    'serviceAccountName "Resumer": is not a legal service account name',
  ],
  // Workspace props
  [
    'a workspace service that cannot be part of a name',
    workspace((props) => (props.service = 'Web_1')),
    'WorkspacePvc Web_1/cleo: service "Web_1": is not a DNS-1123 label',
  ],
  [
    'a workspace agent that cannot be part of a name',
    workspace((props) => (props.agent = 'Cleo!')),
    'agent "Cleo!": is not a DNS-1123 label',
  ],
  [
    'a workspace Size under a mebibyte',
    workspace((props) => (props.size = Size.kibibytes(512))),
    'size "512Ki": is smaller than a workspace can be: request at least 1Mi',
  ],
  [
    'a storage class name that is not one',
    workspace((props) => (props.storageClassName = 'Fast SSD')),
    'storageClassName "Fast SSD": is not a storage class name',
  ],
  // Agents ConfigMap props
  [
    'a CLI image without a tag in the agents ConfigMap',
    agentsConfigMap((props) => (props.clis[props.agents.rex.cli].image = 'ghcr.io/acme/claude')),
    /^AgentsConfigMap controller-agents: clis\.\w+: is not valid at image: expected an image pinned by tag or digest/,
  ],
  [
    'an agent bound to a CLI not in the registry',
    agentsConfigMap((props) => (props.agents.rex.cli = 'nowhere')),
    'agents.rex.cli "nowhere": is not in the CLI registry (clis): add it, or bind one of: ',
  ],
  ['an agent the config would refuse', agentsConfigMap((props) => (props.agents.rex.role = 'boss')), /agents\.rex: is not valid at role: /],
  [
    'an agents ConfigMap name that is not one',
    agentsConfigMap((props) => (props.name = 'Controller Agents')),
    'name "Controller Agents": is not a ConfigMap name',
  ],
  // RBAC props
  [
    'an illegal scoped service account name',
    () => new ScopedServiceAccount(chart(), 'sa', { name: 'Bad_Name', grants: [] }),
    'ScopedServiceAccount Bad_Name: name "Bad_Name": is not a legal service account name',
  ],
  [
    'a grant with no verb',
    () => new ScopedServiceAccount(chart(), 'sa', { name: 'x', grants: [{ apiGroup: '', resource: 'pods', verbs: [] }] }),
    'grants "pods": has no verb: name the verbs it needs',
  ],
  [
    'an illegal play service account name',
    () => new PlayRbac(chart(), 'rbac', { serviceAccountName: 'agent play' }),
    'is not a legal service account name',
  ],
  // WorkflowTemplate props
  [
    'a WorkflowTemplate namespace that is not a DNS label',
    workflowTemplate((props) => (props.namespace = 'Agents')),
    'WorkflowTemplate play: namespace "Agents": is not a DNS-1123 label',
  ],
  [
    'a WorkflowTemplate label key that is not one',
    workflowTemplate((props) => (props.labels = { 'team name': 'x' })),
    'labels "team name": is not a label key',
  ],
  [
    'a WorkflowTemplate label value that is not one',
    workflowTemplate((props) => (props.labels = { team: 'a/b' })),
    'labels.team "a/b": is not a label value',
  ],
  [
    'a WorkflowTemplate service account name that is not one',
    workflowTemplate((props) => (props.spec = { serviceAccountName: 'Play' })),
    'spec.serviceAccountName "Play": is not a legal service account name',
  ],
  [
    'a reference to a WorkflowTemplate with an illegal name',
    () => WorkflowTemplate.fromWorkflowTemplateName(chart(), 'wt', 'Play'),
    'WorkflowTemplate.fromWorkflowTemplateName: name "Play": is not a DNS-1123 label',
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

describe('the guards let a legal value through', () => {
  it('a Duration of whole seconds, in its largest whole unit', () => {
    expect([Duration.seconds(90), Duration.hours(2), Duration.days(1)].map((value) => durationText(value))).toEqual(['90s', '2h', '1d']);
  });

  it('an Argo reference, as the expr-lang it stands for: a dotted path, the index form for names with "-"', () => {
    expect(referenceExpression('{{inputs.parameters.attempt}}')).toBe('inputs.parameters.attempt');
    expect(referenceExpression('{{workflow.parameters.task-id}}')).toBe("workflow.parameters['task-id']");
    expect(ArgoValue.int('{{workflow.parameters.max-tokens}}').expression).toBe("asInt(workflow.parameters['max-tokens'])");
  });

  it('a task id up to the largest, as digits or a number', () => {
    expect([taskId('T').read({ T: '2147483647' }), taskId('T').read({ T: '0' })]).toEqual([2147483647, 0]);
  });

  it('a verb resourceNames narrows', () => {
    const scope = chart();
    new ScopedServiceAccount(scope, 'sa', {
      name: 'x',
      grants: [{ apiGroup: '', resource: 'configmaps', verbs: ['get', 'update'], resourceNames: ['settings'] }],
    });
    const role = scope.toJson().find((object: any) => object.kind === 'Role');
    expect(role.rules).toContainEqual(
      expect.objectContaining({ resources: ['configmaps'], resourceNames: ['settings'], verbs: ['get', 'update'] }),
    );
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
