import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import type { AgentConfig, ReleaseConfig, RepositoryConfig, ResumeStrategy } from '../model/config-schema';
import { COMMON_LABELS, PROGRESS_TRACKING_LABEL } from '../model/labels';
import { githubAppBotLogin, repositoryLabelValue } from '../model/naming';
import { gateNodeSelector, gateSensorName, playWorkflowName, releaseConfigMapName, RESUMER_TEMPLATE_NAME } from '../model/play-contract';
import type { GateStage } from '../model/stage-machine';
import { taskIdTemplate } from '../model/task-id-template';
import type { DataFilter, EventDependency, ExprFilter, SensorSpec, Trigger, TriggerBackoff, TriggerParameter } from './argo-events-types';
import { assertSameNamespace, type IEventBus } from './event-bus';
import type { IGithubEventSource } from './github-event-source';
import { RESUMER_GATE_PARAMETER, RESUMER_PARAMETERS, type ResumerParameter } from './play-resumer-template';

export interface GateSensorProps {
  /** The gate this Sensor releases. */
  readonly gate: GateStage;
  /** The repositories whose pull requests count; each event must come from one of them, not from a fork. */
  readonly repositories: readonly RepositoryConfig[];
  /** The agent registry, for the bot logins a release may require. */
  readonly agents: Readonly<Record<string, AgentConfig>>;
  readonly eventSource: IGithubEventSource;
  readonly eventBus: IEventBus;
  /** The service account of the Sensor's pod. */
  readonly serviceAccountName: string;
  /** How the play is found. @default label-selector */
  readonly strategy?: ResumeStrategy;
  /** Retries of a failed trigger, with backoff. @default 3 */
  readonly triggerRetries?: number;
  /** @default `gate-{stage}` */
  readonly name?: string;
  /** @default - the chart's namespace */
  readonly namespace?: string;
}

/**
 * The Sensor of one gate: one dependency per release condition and repository, each narrowed by anchored
 * data filters on the event type (`body.X-GitHub-Event`), action, repository, base branch and, where the
 * gate asks for it, review state, label, merge and bot login; pull requests from forks are ignored. Its
 * triggers release this gate and no other: with `label-selector` a resumer Workflow finds the play by its
 * labels; with `workflow-name` the Sensor records the release and resumes the play by its derived name.
 */
export class GateSensor extends Construct {
  public readonly name: string;
  public readonly gate: string;
  protected readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: GateSensorProps) {
    super(scope, id);
    this.gate = props.gate.name;
    this.name = props.name ?? gateSensorName(props.gate.name);
    const namespace = props.namespace ?? Chart.of(this).namespace;
    assertSameNamespace(`Sensor ${this.name}`, namespace, props.eventBus);
    if (props.repositories.length === 0) throw new Error(`Sensor ${this.name} needs at least one repository`);
    const bound: BoundDependency[] = props.gate.release.flatMap((release, index) =>
      props.repositories.map((repository) => ({ dependency: releaseDependency(release, index, repository, props), repository })),
    );
    const dependencies = bound.map(({ dependency }) => dependency);
    const conditions = dependencies.length > 1 ? dependencies.map((dependency) => dependency.name).join(' || ') : undefined;
    const context: TriggerContext = {
      gate: this.gate,
      bound,
      namespace,
      conditions,
      retry: { steps: props.triggerRetries ?? 3, duration: '5s', factor: 2, jitter: 0.1 },
    };
    const triggers = (props.strategy ?? 'label-selector') === 'label-selector'
      ? [resumerTrigger(context)]
      : [recordTrigger(context), resumeTrigger(context)];
    const spec: SensorSpec = {
      eventBusName: props.eventBus.name,
      template: { serviceAccountName: props.serviceAccountName },
      dependencies,
      triggers,
    };
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Sensor',
      metadata: { name: this.name, namespace: props.namespace, labels: { ...COMMON_LABELS } },
      spec,
    });
  }
}

interface BoundDependency {
  readonly dependency: EventDependency;
  readonly repository: RepositoryConfig;
}

/** What every trigger of a gate's Sensor shares. */
interface TriggerContext {
  readonly gate: string;
  readonly bound: readonly BoundDependency[];
  readonly namespace: string | undefined;
  /** `a || b`: a trigger fires for any one of the gate's dependencies. */
  readonly conditions: string | undefined;
  readonly retry: TriggerBackoff;
}

function trigger(context: TriggerContext, name: string, action: Pick<Trigger['template'], 'k8s' | 'argoWorkflow'>): Trigger {
  return { template: { name, conditions: context.conditions, ...action }, retryStrategy: context.retry };
}

/** Go (RE2) regexp metacharacters escaped, so a literal matches only itself. */
function literal(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

function anyOf(values: readonly string[], caseInsensitive = false): string {
  const alternatives = values.map(literal).join('|');
  return `${caseInsensitive ? '(?i)' : ''}^(${alternatives})$`;
}

function stringFilter(path: string, values: readonly string[], caseInsensitive = false): DataFilter {
  return { path, type: 'string', value: [anyOf(values, caseInsensitive)] };
}

/** Head and base are the same repository: a pull request from a fork never releases a gate. */
const SAME_REPOSITORY: ExprFilter = {
  expr: 'head == base',
  fields: [
    { name: 'head', path: 'body.pull_request.head.repo.full_name' },
    { name: 'base', path: 'body.repository.full_name' },
  ],
};

function dependencyName(release: ReleaseConfig, index: number, repository: RepositoryConfig): string {
  const event = release.event === 'pull_request' ? 'pr' : 'review';
  return `${event}-${release.actions[0].replace(/_/g, '-')}-${index}-${repository.service}`;
}

function releaseDependency(release: ReleaseConfig, index: number, repository: RepositoryConfig, props: GateSensorProps): EventDependency {
  const data: DataFilter[] = [
    stringFilter('body.X-GitHub-Event', [release.event]),
    stringFilter('body.action', release.actions),
    stringFilter('body.repository.full_name', [repository.name], true),
    stringFilter('body.pull_request.base.ref', [repository.branch]),
  ];
  if (release.reviewState !== undefined) data.push(stringFilter('body.review.state', [release.reviewState], true));
  if (release.label !== undefined) data.push(stringFilter('body.label.name', [release.label]));
  if (release.merged !== undefined) data.push({ path: 'body.pull_request.merged', type: 'bool', value: [String(release.merged)] });
  if (release.by.length > 0) {
    const logins = release.by.map((agent) => githubAppBotLogin(props.agents[agent].githubApp));
    const who = release.event === 'pull_request_review' ? 'body.review.user.login' : 'body.sender.login';
    data.push(stringFilter(who, logins, true));
  }
  return {
    name: dependencyName(release, index, repository),
    eventSourceName: props.eventSource.name,
    eventName: props.eventSource.eventName,
    filters: { data, exprs: [SAME_REPOSITORY] },
  };
}

/** A Go template that renders constant text: applied only when its own dependency fired. */
function constant(text: string): string {
  if (text.includes('{{')) throw new Error(`constant "${text}" must not contain "{{"`);
  return text;
}

/** Starts the resumer with the event's values (label-selector strategy). */
function resumerTrigger(context: TriggerContext): Trigger {
  const { gate, bound, namespace } = context;
  const dest = (name: ResumerParameter): string => `spec.arguments.parameters.${RESUMER_PARAMETERS.indexOf(name)}.value`;
  const parameters: TriggerParameter[] = bound.flatMap(({ dependency, repository }) => {
    const from = (src: Omit<TriggerParameter['src'], 'dependencyName'>, name: ResumerParameter): TriggerParameter => ({ src: { dependencyName: dependency.name, ...src }, dest: dest(name) });
    return [
      from({ dataKey: 'body.repository.full_name' }, 'repository'),
      from({ dataTemplate: constant(repositoryLabelValue(repository.name)) }, 'repository-label'),
      from({ dataTemplate: taskIdTemplate(releaseConfigMapName(repository.service, '')) }, 'release-configmap'),
      from({ dataTemplate: taskIdTemplate() }, 'task-id'),
      from({ dataKey: 'body.pull_request.html_url' }, 'pr-url'),
      from({ dataKey: 'body.pull_request.number' }, 'pr-number'),
    ];
  });
  // Only the gate is known here; the parameters above fill in the rest from the event.
  const value = (name: ResumerParameter): string => (name === RESUMER_GATE_PARAMETER ? gate : '');
  return trigger(context, `resume-${gate}`, {
    k8s: {
      operation: 'create',
      source: {
        resource: {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'Workflow',
          metadata: { generateName: `resume-${gate}-`.slice(0, 58), namespace },
          spec: {
            workflowTemplateRef: { name: RESUMER_TEMPLATE_NAME },
            arguments: { parameters: RESUMER_PARAMETERS.map((name) => ({ name, value: value(name) })) },
          },
        },
      },
      parameters,
    },
  });
}

/** Records the release in the task's release ConfigMap, so a play that is not at the gate yet passes it later. */
function recordTrigger(context: TriggerContext): Trigger {
  const { gate, bound, namespace } = context;
  const record = '{"prNumber":"{{ .Input.body.pull_request.number }}","prUrl":{{ .Input.body.pull_request.html_url | toJson }}}';
  const parameters: TriggerParameter[] = bound.flatMap(({ dependency, repository }) => [
    { src: { dependencyName: dependency.name, dataTemplate: taskIdTemplate(releaseConfigMapName(repository.service, '')) }, dest: 'metadata.name' },
    { src: { dependencyName: dependency.name, dataTemplate: record }, dest: `data.${gate}` },
  ]);
  return trigger(context, `record-${gate}`, {
    k8s: {
      operation: 'patch',
      patchStrategy: 'application/merge-patch+json',
      source: {
        resource: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'release-record', namespace, labels: { [PROGRESS_TRACKING_LABEL]: 'true' } },
          data: { [gate]: '' },
        },
      },
      parameters,
    },
  });
}

/** Resumes the play named from repository and task id, at this gate only. */
function resumeTrigger(context: TriggerContext): Trigger {
  const { gate, bound, namespace } = context;
  const parameters: TriggerParameter[] = bound.map(({ dependency, repository }) => ({
    src: { dependencyName: dependency.name, dataTemplate: taskIdTemplate(playWorkflowName(repository.service, '')) },
    dest: 'metadata.name',
  }));
  return trigger(context, `resume-${gate}`, {
  argoWorkflow: {
    operation: 'resume',
    source: { resource: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Workflow', metadata: { name: 'play', namespace } } },
    args: ['--node-field-selector', gateNodeSelector(gate)],
    parameters,
  },
  });
}
