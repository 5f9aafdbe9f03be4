// @ts-nocheck
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { DEFAULT_TRIGGER_RETRIES, MAX_TRIGGER_RETRIES, RepositorySchema, RESUME_STRATEGIES } from '../model/config-shapes';
import type { AgentConfig, ReleaseConfig, RepositoryConfig, ResumeStrategy } from '../model/config-shapes';
import { isRecord } from '../model/is-record';
import { COMMON_LABELS } from '../model/labels';
import { dnsLabelProblem, githubAppBotLogin } from '../model/naming';
import { checkProp, integerProblem, schemaProblem } from '../model/prop-checks';
import { type ServiceAccountRef, serviceAccountNameOf } from '../rbac/service-account-ref';
import { gateSensorName } from '../model/play-contract';
import {
  RESUMER_GATE_PARAMETER,
  RESUMER_TEMPLATE_NAME,
  resumerArguments,
  resumerParameterDest,
  type ResumerParameter,
} from '../resumer/resumer-contract';
import type { GateStage } from '../model/stage-machine';
import { taskIdTemplate } from '../model/task-id-template';
import type { DataFilter, EventDependency, ExprFilter, SensorSpec, Trigger, TriggerParameter } from '../events/argo-events-types';
import { assertSameNamespace, type IEventBus } from '../events/event-bus';
import { restrictedEventsPodTemplate } from '../events/events-pod-security';
import type { IGithubEventSource } from '../events/github-event-source';
import { anchoredAlternation, REPOSITORY_PATH, repositoryFilter } from '../events/repository-filter';
import { ARGO_API_VERSION } from '../model/argo-api';
import { workflowTrigger } from '../events/workflow-trigger';

/**
 * What every Sensor on the GitHub EventSource takes besides what it listens for: where events come from and
 * which repositories count, who may send them, how a play is found, and how the Sensor's pod runs.
 */
export interface GithubSensorProps {
  /**
   * The platform's repositories. The Sensor lets through the events of these repositories (or of their
   * owners, when there are too many to name: see `repositoryFilter`), never from a fork; the event helper
   * checks each event against the repository registry.
   */
  readonly repositories: readonly RepositoryConfig[];
  /** The agent registry, for the bot logins a condition may require. */
  readonly agents: Readonly<Record<string, AgentConfig>>;
  /** The GitHub EventSource the Sensor's one dependency names (see `GithubEventSource`). */
  readonly eventSource: IGithubEventSource;
  /** The EventBus the Sensor reads from; it must be in the Sensor's namespace. */
  readonly eventBus: IEventBus;
  /**
   * The service account of the Sensor's pod (its name, or a cdk8s-plus service account): it needs only to
   * create the Workflows its trigger starts.
   */
  readonly serviceAccountName: ServiceAccountRef;
  /** How the play is found: by its labels or by its derived name. @default label-selector */
  readonly strategy?: ResumeStrategy;
  /** Retries of a failed trigger, with backoff, from 0 to 10. @default 3 */
  readonly triggerRetries?: number;
  /** `metadata.namespace` of the Sensor. @default - the chart's namespace */
  readonly namespace?: string;
}

/** What `new GateSensor(scope, id, props)` takes. */
export interface GateSensorProps extends GithubSensorProps {
  /** The gate this Sensor releases. */
  readonly gate: GateStage;
  /** `metadata.name` of the Sensor, a DNS-1123 label. @default `gate-{stage}` */
  readonly name?: string;
}

/**
 * The Sensor of one gate. It has exactly one dependency on the GitHub EventSource, whatever the number of
 * repositories and release conditions, because a NATS streaming EventBus (the Argo Events quick start's)
 * refuses a Sensor with two dependencies on one `eventSourceName`/`eventName` pair (argo-events
 * `pkg/reconciler/sensor/validate.go`, `validateDependencies`). The dependency's data filters, all
 * anchored, check the event type (`body.X-GitHub-Event`), the repositories (by name while they fit in a
 * fixed budget, else by owner) and, when it is the same for all of them, the base branch; the release
 * conditions are expression filters, alternatives of one another (`exprLogicalOperator: or`) when the gate
 * has several. Pull requests from forks never count. Its size does not grow with the repositories past the
 * budget: the resumer checks the event's repository and base branch against the repository registry.
 *
 * Its one trigger starts the resumer (`PlayResumerTemplate`) from its WorkflowTemplate, with the event's
 * values as parameters; the resumer records the release, then resumes this gate and no other, finding the
 * play by its labels (`label-selector`) or by its derived name (`workflow-name`), both computed from the
 * registry at run time. The trigger is
 * `atLeastOnce`, so its `retryStrategy` is honoured (argo-events `pkg/sensors/listener.go`).
 */
export class GateSensor extends Construct {
  /** The Sensor's `metadata.name`. */
  public readonly name: string;
  /** The name of the gate it releases. */
  public readonly gate: string;
  /** The Sensor object under the typed surface. */
  protected readonly apiObject: ApiObject;

  /**
   * @throws when the Sensor is in another namespace than its EventBus, has no repository or no release
   * condition, a release names an agent missing from `agents`, a repository is not valid, or the name, service
   * account, strategy or trigger retries break their rule, naming the prop and what to change
   */
  public constructor(scope: Construct, id: string, props: GateSensorProps) {
    super(scope, id);
    this.gate = props.gate.name;
    this.name = props.name ?? gateSensorName(props.gate.name);
    const namespace = props.namespace ?? Chart.of(this).namespace;
    assertSameNamespace(`Sensor ${this.name}`, namespace, props.eventBus);
    if (props.repositories.length === 0)
      throw new Error(`Sensor ${this.name} needs at least one repository: pass the platform's repositories`);
    if (props.gate.release.length === 0)
      throw new Error(
        `Sensor ${this.name} needs at least one release condition: give its gate a release, e.g. Releases.pullRequestOpened()`,
      );
    const serviceAccountName = checkSensorProps(`Sensor ${this.name}`, props);
    const dependency = releaseDependency(props);
    const spec: SensorSpec = {
      eventBusName: props.eventBus.name,
      template: restrictedEventsPodTemplate(serviceAccountName),
      dependencies: [dependency],
      triggers: [resumerTrigger(this.gate, dependency.name, namespace, props)],
    };
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: ARGO_API_VERSION,
      kind: 'Sensor',
      metadata: { name: this.name, namespace: props.namespace, labels: { ...COMMON_LABELS } },
      spec,
    });
  }
}

/**
 * The repository objects found valid already: every Sensor of a platform gets the same repositories, and
 * checking 5,000 of them once per Sensor was a tenth of a large synthesis. Props are readonly.
 */
const validRepositories = new WeakSet<object>();

/** Checks the props a Sensor reads, and returns the name of its service account. */
function checkSensorProps(owner: string, props: GateSensorProps): string {
  checkProp(owner, 'name', props.name, props.name === undefined ? undefined : dnsLabelProblem(props.name));
  if (props.namespace !== undefined) checkProp(owner, 'namespace', props.namespace, dnsLabelProblem(props.namespace));
  props.repositories.forEach((repository, index) => {
    if (isRecord(repository) && validRepositories.has(repository)) return;
    checkProp(owner, `repositories[${index}]`, repository?.name, schemaProblem(RepositorySchema, repository));
    validRepositories.add(repository);
  });
  for (const release of props.gate.release) {
    for (const agent of release.by) {
      const known = Object.keys(props.agents);
      checkProp(
        owner,
        'gate.release.by',
        agent,
        known.includes(agent) ? undefined : `is not in the agent registry (agents): add it, or name one of: ${known.join(', ')}`,
      );
    }
  }
  const strategy = props.strategy ?? RESUME_STRATEGIES[0];
  checkProp(
    owner,
    'strategy',
    strategy,
    RESUME_STRATEGIES.includes(strategy) ? undefined : `is not a resume strategy: use one of ${RESUME_STRATEGIES.join(', ')}`,
  );
  const retries = props.triggerRetries ?? DEFAULT_TRIGGER_RETRIES;
  checkProp(owner, 'triggerRetries', retries, integerProblem(retries, 0, MAX_TRIGGER_RETRIES));
  return serviceAccountNameOf(owner, 'serviceAccountName', props.serviceAccountName);
}

/** The name of a gate Sensor's one dependency. */
export const RELEASE_DEPENDENCY = 'release';

function stringFilter(path: string, values: readonly string[], caseInsensitive = false): DataFilter {
  return { path, type: 'string', value: [anchoredAlternation(values, caseInsensitive)] };
}

/**
 * A govaluate string literal. govaluate ends a string at the next quote of either kind and reads `\` as
 * "take the next character literally", so a regexp's backslashes are doubled.
 */
function exprString(text: string): string {
  if (/["']/.test(text))
    throw new Error(
      `cannot put ${JSON.stringify(text)} in an expression filter: a govaluate string cannot hold a quote; use a name without quotes`,
    );
  return `"${text.replace(/\\/g, '\\\\')}"`;
}

/** One expression filter: the fields it reads, and the terms that must all hold. */
class Conjunction {
  private readonly fields = new Map<string, string>();
  private readonly terms: string[] = [];

  public field(name: string, path: string): this {
    this.fields.set(name, path);
    return this;
  }

  public matches(name: string, path: string, values: readonly string[], caseInsensitive = false): this {
    this.field(name, path);
    this.terms.push(`${name} =~ ${exprString(anchoredAlternation(values, caseInsensitive))}`);
    return this;
  }

  public term(text: string): this {
    this.terms.push(text);
    return this;
  }

  public build(): ExprFilter {
    return { expr: this.terms.join(' && '), fields: [...this.fields.entries()].map(([name, path]) => ({ name, path })) };
  }
}

/** The branch a pull request merges into. */
export const BASE_BRANCH_PATH = 'body.pull_request.base.ref';

/** Head and base are the same repository: a pull request from a fork never releases a gate. */
function sameRepository(conjunction: Conjunction): Conjunction {
  return conjunction.field('head', 'body.pull_request.head.repo.full_name').field('repository', REPOSITORY_PATH).term('head == repository');
}

/** The terms of one release condition (event type, actions, review, label, merge, who). */
function releaseConjunction(release: ReleaseConfig, props: GateSensorProps): Conjunction {
  const conjunction = new Conjunction()
    .field('event', 'body.X-GitHub-Event')
    .term(`event == ${exprString(release.event)}`)
    .matches('action', 'body.action', release.actions);
  if (release.reviewState !== undefined) conjunction.matches('state', 'body.review.state', [release.reviewState], true);
  if (release.label !== undefined) conjunction.field('label', 'body.label.name').term(`label == ${exprString(release.label)}`);
  if (release.merged !== undefined) conjunction.field('merged', 'body.pull_request.merged').term(`merged == ${release.merged}`);
  if (release.by.length > 0) {
    const logins = release.by.map((agent) => githubAppBotLogin(props.agents[agent].githubApp));
    const who = release.event === 'pull_request_review' ? 'body.review.user.login' : 'body.sender.login';
    conjunction.matches('login', who, logins, true);
  }
  return sameRepository(conjunction);
}

/** The data filters of a single release condition, kept as plain filters: easier to read in the YAML. */
function releaseDataFilters(release: ReleaseConfig, props: GateSensorProps): DataFilter[] {
  const data: DataFilter[] = [stringFilter('body.action', release.actions)];
  if (release.reviewState !== undefined) data.push(stringFilter('body.review.state', [release.reviewState], true));
  if (release.label !== undefined) data.push(stringFilter('body.label.name', [release.label]));
  if (release.merged !== undefined) data.push({ path: 'body.pull_request.merged', type: 'bool', value: [String(release.merged)] });
  if (release.by.length > 0) {
    const logins = release.by.map((agent) => githubAppBotLogin(props.agents[agent].githubApp));
    const who = release.event === 'pull_request_review' ? 'body.review.user.login' : 'body.sender.login';
    data.push(stringFilter(who, logins, true));
  }
  return data;
}

/**
 * The data filters every dependency on the GitHub EventSource starts with: the repositories (see
 * `repositoryFilter`) and, when all of them merge into one branch, that branch. Repositories with different
 * branches are checked by the event helper against the registry, which keeps the Sensor's size independent
 * of the repository count.
 */
export function repositoryDataFilters(repositories: readonly RepositoryConfig[], baseBranchPath?: string): DataFilter[] {
  const { filter } = repositoryFilter(repositories.map((repository) => repository.name));
  const branches = [...new Set(repositories.map((repository) => repository.branch))];
  return [
    ...(filter === undefined ? [] : [filter]),
    ...(baseBranchPath !== undefined && branches.length === 1 ? [stringFilter(baseBranchPath, branches)] : []),
  ];
}

/** The one dependency of a Sensor whose release conditions are `props.gate.release` (gates, and the remediation Sensor). */
export function releaseDependency(props: GateSensorProps): EventDependency {
  const releases = props.gate.release;
  const data: DataFilter[] = [
    stringFilter(
      'body.X-GitHub-Event',
      releases.map((release) => release.event),
    ),
    ...repositoryDataFilters(props.repositories, BASE_BRANCH_PATH),
  ];
  const common = { name: RELEASE_DEPENDENCY, eventSourceName: props.eventSource.name, eventName: props.eventSource.eventName };
  if (releases.length === 1) {
    const [release] = releases;
    return {
      ...common,
      filters: { data: [...data, ...releaseDataFilters(release, props)], exprs: [sameRepository(new Conjunction()).build()] },
    };
  }
  // Argo Events skips an alternative whose field is missing from the event (a label event has no review)
  // and passes when any other holds (argo-events `pkg/sensors/dependencies/filter.go`, `filterExpr`).
  return {
    ...common,
    filters: { data, exprs: releases.map((release) => releaseConjunction(release, props).build()), exprLogicalOperator: 'or' },
  };
}

/** Starts the resumer with the event's values. */
function resumerTrigger(gate: string, dependencyName: string, namespace: string | undefined, props: GateSensorProps): Trigger {
  const from = (name: ResumerParameter, src: Omit<TriggerParameter['src'], 'dependencyName'>): TriggerParameter => ({
    src: { dependencyName, ...src },
    dest: resumerParameterDest(name),
  });
  // The resumer's runtime step finds the rest (the registry entry, the play, where the task's record is)
  // from the repository and the task, and checks the base branch against the repository's.
  const parameters: TriggerParameter[] = [
    from('repository', { dataKey: REPOSITORY_PATH }),
    from('task-id', { dataTemplate: taskIdTemplate() }),
    from('pr-url', { dataKey: 'body.pull_request.html_url' }),
    // A data key keeps gjson's raw text, so 1000000 stays 1000000; a template would print Go's float (1e+06).
    from('pr-number', { dataKey: 'body.pull_request.number' }),
    from('base-branch', { dataKey: BASE_BRANCH_PATH }),
  ];
  return workflowTrigger({
    name: `resume-${gate}`,
    namespace,
    workflowTemplate: RESUMER_TEMPLATE_NAME,
    // Only the gate is known here; the parameters above fill in the rest from the event.
    arguments: resumerArguments({ [RESUMER_GATE_PARAMETER]: gate }),
    parameters,
    retries: props.triggerRetries,
  });
}
