// @ts-nocheck
import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { Construct, type IConstruct } from 'constructs';
import { AgentsConfigMap } from '../config/agents-config-map';
import { CodeRunCrd } from '../crds/coderun-crd';
import { executionOf } from '../model/direct-execution';
import type { PlatformConfig, PlatformConfigInput } from '../model/config-shapes';
import { PLAY_TEMPLATE_NAME, PlayParameters } from '../model/play-contract';
import { ConfigError, resolveConfig, unchangedResolvedConfig } from '../model/resolve-config';
import { StageMachine } from '../model/stage-machine';
import { EventBus } from '../events/event-bus';
import { GateSensor } from '../gate/gate-sensor';
import { GithubEventSource } from '../events/github-event-source';
import { PlayResumerTemplate } from '../resumer/play-resumer-template';
import { RESUMER_GRANTS, sensorGrants } from '../rbac/events-rbac';
import { addRemediation, remediationEvents } from '../remediation/remediation-objects';
import { PlayRbac } from '../rbac/play-rbac';
import { RuntimeConfigMap } from '../config/runtime-config-map';
import { playGroups, registryEntry } from '../registry/registry-entries';
import { RepositoryRegistry } from '../registry/repository-registry';
import { PROJECT_GRANTS, PROJECT_SERVICE_ACCOUNT } from '../rbac/project-rbac';
import { ScopedServiceAccount } from '../rbac/scoped-service-account';
import { WorkspacePvc } from '../storage/workspace-pvc';
import { CodeRunWorkflowTemplate } from '../workflows/coderun-workflow-template';
import { PlayWorkflowTemplate } from '../workflows/play-workflow-template';
import { ProjectWorkflowTemplate } from '../project/project-workflow-template';
import { objectCollisionProblems } from './object-collisions';
import { ObjectOrigins } from './object-origins';

/** What `new AgentPlatform(scope, id, props)` takes. */
export interface AgentPlatformProps {
  /**
   * The platform configuration as a user writes it (the shape of `agent-play.yaml`): every field has a
   * default, agents and CLIs are merged over the built-in ones entry by entry, and `{ name, service }` is a
   * whole repository. A config from `resolveConfig` (with environment overrides applied) is taken as it is.
   * @default the embedded default platform (`DEFAULT_CONFIG`)
   * @throws ConfigError listing every problem, one line each naming its path
   */
  readonly config?: PlatformConfigInput;
  /**
   * The stage machine every play runs, e.g. one built with `StageMachineBuilder`; it is checked against the
   * config's agent registry and play parameters. @default - the config's `stages`
   */
  readonly stages?: StageMachine;
}

/** The charts of a platform, one per concern; each becomes one file of the output. */
export const PlatformCharts = {
  crds: 'coderun-crd',
  rbac: 'play-rbac',
  /** The runtime program the platform's steps run (`RuntimeConfigMap`). */
  runtime: 'runtime',
  /** What belongs to each repository, read by the plays at run time (`RepositoryRegistry`). */
  registry: 'repository-registry',
  agents: 'agents-configmap',
  workspaces: 'workspaces',
  coderun: 'coderun-workflow-template',
  plays: 'play-workflow-templates',
  eventSource: 'github-eventsource',
  sensors: 'gate-sensors',
  resumer: 'play-resumer',
  /** Only when a gate sends tasks back: the remediation Sensors and the remediator. */
  remediation: 'remediation',
  eventsRbac: 'events-rbac',
  /** Only when projects are configured. */
  projects: 'project-workflow-templates',
} as const;

/**
 * The whole platform from one configuration: the CodeRun CRD, the play's RBAC, the agents ConfigMap, the
 * workspace PVCs, the coderun WorkflowTemplate, one play WorkflowTemplate per repository, and the event side
 * (the GitHub EventSource, one Sensor per gate, the resumer and their RBAC).
 *
 * Where it lives decides its files (docs/library.md): directly in an `App`, it owns its charts, one per
 * concern (`PlatformCharts`), each its own file, in the config's namespace; inside a user's `Chart`, every
 * object goes into that chart (one file), in the chart's namespace when it has one. The cluster-scoped
 * CodeRun CRD is emitted once per app, however many platforms it holds, and never with a namespace.
 */
export class AgentPlatform extends Construct {
  /** The stage machine every play of this platform runs. */
  public readonly stages: StageMachine;
  /** The play template of each repository, by repository name. */
  public readonly plays: ReadonlyMap<string, PlayWorkflowTemplate>;
  /** The Sensor of each gate, by gate name. */
  public readonly sensors: ReadonlyMap<string, GateSensor>;
  /** The service account plays run as, with its grants. */
  public readonly rbac: PlayRbac;
  private readonly config: PlatformConfig;
  /** Which config field each construct's objects come from, for the collisions found on what was built. */
  private readonly origins = new ObjectOrigins();

  /**
   * @throws ConfigError listing every problem of the config, one line each naming its path; or, for a
   * `stages` machine, the rules it breaks against the config's agents and parameters; or, once built, every
   * two objects of one name (API group, kind, namespace), naming the config paths they come from
   */
  public constructor(scope: Construct, id: string, props: AgentPlatformProps = {}) {
    super(scope, id);
    const userChart = enclosingChart(scope);
    // Parsed here, so that every default is the schema's: a config already resolved parses to itself, and
    // one resolveConfig has just returned, unchanged, is not parsed again. Inside a chart with a namespace,
    // the chart's namespace is the platform's, as it is of every object a chart holds.
    const resolved = unchangedResolvedConfig(props.config);
    const namespace = userChart?.namespace;
    if (resolved !== undefined && (namespace === undefined || resolved.namespace === namespace)) this.config = resolved;
    else {
      const given = resolved ?? props.config ?? {};
      const file = namespace === undefined ? given : { ...given, namespace };
      // resolveConfig copies it, reporting at its path what is not plain data (a function, a Proxy whose reading
      // throws, a value that holds itself).
      this.config = resolveConfig({ file, fileName: 'AgentPlatform config' });
    }
    const config = this.config;
    if (props.stages !== undefined && !(props.stages instanceof StageMachine))
      throw new ConfigError(['AgentPlatform stages: expected a StageMachine (from StageMachineBuilder or StageMachine.fromConfig)']);
    this.stages = StageMachine.fromConfig(props.stages ? { ...config, stages: props.stages.stages } : config);
    // In a user's chart, a plain construct per concern keeps the construct paths, and the objects in that chart.
    const chart = (name: string, namespaced = true): Construct =>
      userChart !== undefined ? new Construct(this, name) : new Chart(this, name, namespaced ? { namespace: config.namespace } : {});

    // A platform whose agents all run direct needs no CodeRun controller: no CRD, no CodeRun template.
    const codeRuns = Object.values(config.agents).some((agent) => executionOf(agent, config.execution) === 'coderun');
    if (codeRuns && claimCrd(this)) {
      const crd = new CodeRunCrd(chart(PlatformCharts.crds, false), 'CodeRun');
      // Cluster-scoped: a user's chart would give it the chart's namespace, which the API server refuses.
      if (userChart?.namespace !== undefined)
        for (const object of crd.node.findAll().filter((child): child is ApiObject => child instanceof ApiObject))
          object.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
    }
    const directAgents = Object.values(config.agents).some((agent) => executionOf(agent, config.execution) === 'direct');
    this.rbac = this.origins.record(
      new PlayRbac(chart(PlatformCharts.rbac), 'Play', { serviceAccountName: config.play.serviceAccount, codeRuns, directAgents }),
      { path: ['play', 'serviceAccount'], owner: 'the plays' },
    );
    new RuntimeConfigMap(chart(PlatformCharts.runtime), 'Runtime');
    new AgentsConfigMap(chart(PlatformCharts.agents), 'Agents', { agents: config.agents, clis: config.clis });
    this.addWorkspaces(chart(PlatformCharts.workspaces));

    const firstAgent = config.agents[this.stages.agentStages[0].agents[0]];
    if (codeRuns)
      new CodeRunWorkflowTemplate(chart(PlatformCharts.coderun), 'CodeRun', {
        defaultAgent: firstAgent,
        defaultAgentName: this.stages.agentStages[0].agents[0],
        defaultRepository: config.repositories[0],
        cliNames: Object.keys(config.clis),
        githubApps: Object.values(config.agents).map((agent) => agent.githubApp),
        serviceAccountName: this.rbac.serviceAccountName,
        runtimeImage: config.images.runtime,
      });

    const source = { ...config, stageAgents: this.stages.agents };
    const groups = playGroups(source);
    new RepositoryRegistry(chart(PlatformCharts.registry), 'Registry', {
      entries: groups.flatMap((group) => group.repositories.map((repository) => registryEntry(source, repository, group.template))),
    });
    const plays = chart(PlatformCharts.plays);
    const byRepository = new Map<string, PlayWorkflowTemplate>();
    for (const group of groups) {
      const template = this.recordPlayGroup(
        new PlayWorkflowTemplate(plays, group.template, {
          name: group.template,
          directClis: group.directClis,
          stages: this.stages,
          agents: config.agents,
          clis: config.clis,
          serviceAccountName: this.rbac.serviceAccountName,
          runtimeImage: config.images.runtime,
          deadline: config.play.deadline,
          keepSucceeded: config.play.keepSucceeded,
          keepFailed: config.play.keepFailed,
          parameters: config.play.parameters,
          execution: config.execution,
          directResources: config.direct.resources,
          directGithub: config.direct.github,
        }),
        group.repositories[0].name,
      );
      for (const repository of group.repositories) byRepository.set(repository.name, template);
    }
    this.plays = byRepository;
    if (config.projects.length > 0) this.addProjects(chart(PlatformCharts.projects));
    // A stage machine without gates never waits for GitHub: no EventSource, Sensors or resumer to run.
    this.sensors = this.stages.gates.length > 0 ? this.addEvents(chart) : new Map();
    const collisions = objectCollisionProblems(this, this.origins, { owner: 'the platform' });
    if (collisions.length > 0) throw new ConfigError(collisions);
  }

  /** A play template other than the shared one is named after the CLI bindings of its repositories. */
  private recordPlayGroup(template: PlayWorkflowTemplate, firstRepository: string): PlayWorkflowTemplate {
    const index = this.config.repositories.findIndex((repository) => repository.name === firstRepository);
    if (template.name === PLAY_TEMPLATE_NAME) return template;
    return this.origins.record(template, {
      path: ['repositories', index, 'agentClis'],
      owner: `the CLI bindings of repository "${firstRepository}"`,
    });
  }

  /** A project WorkflowTemplate (or several, for a large one) per configured project, and its service account. */
  private addProjects(chart: Construct): void {
    const config = this.config;
    this.origins.record(new ScopedServiceAccount(chart, 'ProjectRbac', { name: PROJECT_SERVICE_ACCOUNT, grants: PROJECT_GRANTS }), {
      owner: 'the projects',
    });
    const playParameters = { [PlayParameters.taskType]: '', ...config.play.parameters };
    for (const project of config.projects) {
      const repository = config.repositories.find((candidate) => candidate.name === project.repository);
      if (!repository) throw new Error(`project ${project.name}: repository ${project.repository} is not configured`);
      const path = ['projects', config.projects.indexOf(project), 'name'];
      const template = new ProjectWorkflowTemplate(chart, `Project-${project.name}`, {
        project,
        repository,
        playTemplate: this.plays.get(repository.name)?.name,
        stages: this.stages,
        playParameters,
        runtimeImage: config.images.runtime,
        serviceAccountName: PROJECT_SERVICE_ACCOUNT,
        playDeadline: config.play.deadline,
        keepSucceeded: config.play.keepSucceeded,
        keepFailed: config.play.keepFailed,
      });
      this.origins.record(template, { path, owner: `project "${project.name}"` });
    }
  }

  /** The GitHub EventSource, a Sensor per gate, and the resumer they start, with their RBAC. */
  private addEvents(chart: (name: string) => Construct): ReadonlyMap<string, GateSensor> {
    const config = this.config;
    const events = config.events;
    const eventBus = EventBus.fromEventBusName(this, 'EventBus', events.eventBus.name, events.eventBus.namespace ?? config.namespace);
    const subscribed = [
      ...new Set([
        ...this.stages.gates.flatMap((gate) => gate.release.map((release) => release.event)),
        ...remediationEvents(config, this.stages),
      ]),
    ].sort();
    const eventSource = this.origins.record(
      new GithubEventSource(chart(PlatformCharts.eventSource), 'GitHub', {
        eventBus,
        name: events.eventSource.name,
        webhookSecret: events.eventSource.webhookSecret,
        repositories: events.eventSource.organizations ? undefined : config.repositories.map((repository) => repository.name),
        organizations: events.eventSource.organizations,
        events: subscribed,
        endpoint: events.eventSource.webhook.endpoint,
        port: events.eventSource.webhook.port,
        url: events.eventSource.webhook.url,
      }),
      { path: ['events', 'eventSource', 'name'], owner: 'the GitHub EventSource' },
    );
    const rbac = chart(PlatformCharts.eventsRbac);
    this.origins.record(
      new ScopedServiceAccount(rbac, 'Sensor', { name: events.sensorServiceAccount, grants: sensorGrants(events.resume) }),
      {
        path: ['events', 'sensorServiceAccount'],
        owner: 'the Sensors',
      },
    );
    // Under either strategy the Sensor only starts the resumer: it records and resumes, the Sensor cannot.
    this.origins.record(new ScopedServiceAccount(rbac, 'Resumer', { name: events.resumerServiceAccount, grants: RESUMER_GRANTS }), {
      path: ['events', 'resumerServiceAccount'],
      owner: 'the resumer',
    });
    this.origins.record(
      new PlayResumerTemplate(chart(PlatformCharts.resumer), 'Resumer', {
        runtimeImage: config.images.runtime,
        serviceAccountName: events.resumerServiceAccount,
        strategy: events.resume,
      }),
      { owner: 'the resumer' },
    );
    const sensors = chart(PlatformCharts.sensors);
    const byGate = new Map<string, GateSensor>();
    for (const gate of this.stages.gates) {
      const index = this.stages.stages.findIndex((stage) => stage.name === gate.name);
      byGate.set(
        gate.name,
        this.origins.record(
          new GateSensor(sensors, gate.name, {
            gate,
            repositories: config.repositories,
            agents: config.agents,
            eventSource,
            eventBus,
            serviceAccountName: events.sensorServiceAccount,
            strategy: events.resume,
            triggerRetries: events.triggerRetries,
          }),
          { path: ['stages', index, 'name'], owner: `gate "${gate.name}"` },
        ),
      );
    }
    const remediation = () => this.origins.record(chart(PlatformCharts.remediation), { owner: 'the remediator' });
    addRemediation({ config, stages: this.stages, eventSource, eventBus, chart: remediation });
    return byGate;
  }

  /** Whether an agent shares its repository's workspace (implementation agents do). */
  public sharesWorkspace(agent: string): boolean {
    return this.config.agents[agent]?.role === 'implementation';
  }

  /**
   * One shared workspace per repository when any implementation agent works in a stage, and one
   * isolated workspace per other agent that works in a stage.
   */
  private addWorkspaces(chart: Construct): void {
    const sharedAgents = this.stages.agents.filter((agent) => this.sharesWorkspace(agent));
    const isolatedAgents = this.stages.agents.filter((agent) => !this.sharesWorkspace(agent));
    this.config.repositories.forEach((repository, index) => {
      // One scope per repository (services are unique): construct ids of two repositories never clash, even
      // where their PVC names do, so that the clash is reported at the config, not as a construct id; agent
      // names are lower case, so none is the shared workspace's id.
      const scope = this.origins.record(new Construct(chart, repository.service), {
        path: ['repositories', index, 'service'],
        owner: `repository "${repository.name}"`,
      });
      const common = {
        service: repository.service,
        size: this.config.workspace.size,
        storageClassName: this.config.workspace.storageClass,
      };
      if (sharedAgents.length > 0) new WorkspacePvc(scope, 'Shared', { ...common, agent: sharedAgents[0], shared: true });
      for (const agent of isolatedAgents) new WorkspacePvc(scope, agent, { ...common, agent, shared: false });
    });
  }
}

/** The chart `scope` is in (itself, or one above it), or `undefined` when it is in none (directly in the app). */
function enclosingChart(scope: IConstruct): Chart | undefined {
  for (let current: IConstruct | undefined = scope; current !== undefined; current = current.node.scope)
    if (current instanceof Chart) return current;
  return undefined;
}

/** The construct trees (apps) whose CodeRun CRD a platform has already emitted. */
const crdEmitted = new WeakSet<IConstruct>();

/** Whether `platform` emits the CodeRun CRD: the first platform of its app that runs CodeRuns does. */
function claimCrd(platform: IConstruct): boolean {
  const root = platform.node.root;
  if (crdEmitted.has(root)) return false;
  crdEmitted.add(root);
  return true;
}
