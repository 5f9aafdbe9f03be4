// @ts-nocheck
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import type { ReleaseConfig } from '../model/config-shapes';
import { COMMON_LABELS } from '../model/labels';
import { dnsLabelProblem, githubAppBotLogin } from '../model/naming';
import { checkProp } from '../model/prop-checks';
import type { RemediationPlan } from './remediation';
import {
  REMEDIATOR_TEMPLATE_NAME,
  RemediationKinds,
  type RemediationKind,
  remediatorArguments,
  remediatorParameterDest,
  type RemediatorParameter,
} from './remediator-contract';
import { NO_TASK, TASK_BRANCH_PATTERN, taskIdTemplate } from '../model/task-id-template';
import { serviceAccountNameOf } from '../rbac/service-account-ref';
import type { DataFilter, EventDependency, SensorSpec, Trigger, TriggerParameter } from '../events/argo-events-types';
import { assertSameNamespace } from '../events/event-bus';
import { restrictedEventsPodTemplate } from '../events/events-pod-security';
import { ARGO_API_VERSION } from '../model/argo-api';
import { workflowTrigger } from '../events/workflow-trigger';
import { BASE_BRANCH_PATH, type GithubSensorProps, releaseDependency, repositoryDataFilters } from '../gate/gate-sensor';
import { anchoredAlternation, REPOSITORY_PATH } from '../events/repository-filter';

/** What `new RemediationSensor(scope, id, props)` takes. */
export interface RemediationSensorProps extends GithubSensorProps {
  /**
   * What the Sensor listens for: `remediate` (the gates' `remediate` conditions: changes requested,
   * `needs-fixes`) or `stale-work` (a push by the implementation agents' bots to a task branch).
   */
  readonly kind: RemediationKind;
  /** The platform's remediation plan (`remediationPlan`): the conditions, the implementation agents. */
  readonly plan: RemediationPlan;
  /** `metadata.name` of the Sensor. @default `remediate` or `stale-work` (the kind) */
  readonly name?: string;
}

/** The name of a remediation Sensor's one dependency. */
export const REMEDIATION_DEPENDENCY = 'event';

/** The push of a task's implementation branch: `refs/heads/feature/task-5-implementation`. */
export const TASK_PUSH_REF_PATTERN = `^refs/heads/${TASK_BRANCH_PATTERN.slice(1)}`;

/**
 * The Sensor that sends a task back for another round (`remediate`), or that makes the quality and
 * testing work of a round stale when the implementation agent pushes again (`stale-work`). Like a gate
 * Sensor it has exactly one dependency (a NATS streaming EventBus refuses two on one event source and
 * name: argo-events `pkg/reconciler/sensor/validate.go`), with anchored filters, and one `atLeastOnce`
 * trigger that creates a remediator Workflow (`PlayRemediatorTemplate`) with the event's values. It never
 * touches a play itself.
 *
 * `remediate` joins the conditions of every gate that sends tasks back (alternatives of one another): the
 * remediator decides from the play's stage and round whether the event counts.
 */
export class RemediationSensor extends Construct {
  /** The Sensor's `metadata.name`. */
  public readonly name: string;
  /** What it listens for. */
  public readonly kind: RemediationKind;
  /** The Sensor object under the typed surface. */
  protected readonly apiObject: ApiObject;

  /**
   * @throws when the Sensor is in another namespace than its EventBus, has no repository, has nothing to
   * listen for (no condition, or no implementation agent for `stale-work`), or a name breaks its rule
   */
  public constructor(scope: Construct, id: string, props: RemediationSensorProps) {
    super(scope, id);
    this.kind = props.kind;
    this.name = props.name ?? props.kind;
    const owner = `Sensor ${this.name}`;
    const namespace = props.namespace ?? Chart.of(this).namespace;
    assertSameNamespace(owner, namespace, props.eventBus);
    checkProp(owner, 'name', this.name, dnsLabelProblem(this.name));
    checkProp(
      owner,
      'kind',
      props.kind,
      Object.values(RemediationKinds).includes(props.kind) ? undefined : 'is not remediate or stale-work',
    );
    if (props.repositories.length === 0) throw new Error(`${owner} needs at least one repository: pass the platform's repositories`);
    const serviceAccountName = serviceAccountNameOf(owner, 'serviceAccountName', props.serviceAccountName);
    const dependency = props.kind === RemediationKinds.remediate ? changesRequestedDependency(props) : pushDependency(props);
    const spec: SensorSpec = {
      eventBusName: props.eventBus.name,
      template: restrictedEventsPodTemplate(serviceAccountName),
      dependencies: [dependency],
      triggers: [remediatorTrigger(this.name, namespace, props)],
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
 * Every condition once, in route order; conditions that differ only in who sends them are one, with every
 * sender (anyone, when one of them allows anyone). Fewer alternatives keep the Sensor small: at 1,000
 * repositories each alternative carries the repository and branch pairs.
 */
function uniqueConditions(plan: RemediationPlan): ReleaseConfig[] {
  const merged = new Map<string, ReleaseConfig>();
  for (const route of plan.routes) {
    for (const condition of route.conditions) {
      const { by, ...what } = condition;
      const key = JSON.stringify(what);
      const before = merged.get(key);
      const senders = before === undefined ? [...by] : before.by.length === 0 || by.length === 0 ? [] : [...new Set([...before.by, ...by])];
      merged.set(key, { ...what, by: senders });
    }
  }
  return [...merged.values()];
}

function changesRequestedDependency(props: RemediationSensorProps): EventDependency {
  const conditions = uniqueConditions(props.plan);
  if (conditions.length === 0)
    throw new Error(
      `Sensor ${props.name ?? props.kind} has no condition: no gate of the plan sends tasks back; give a gate remediate conditions, or create no remediate Sensor`,
    );
  const dependency = releaseDependency({
    gate: { name: props.name ?? props.kind, type: 'gate', release: conditions },
    repositories: props.repositories,
    agents: props.agents,
    eventSource: props.eventSource,
    eventBus: props.eventBus,
    serviceAccountName: props.serviceAccountName,
  });
  return { ...dependency, name: REMEDIATION_DEPENDENCY };
}

/** A push (not a deletion) of a task branch, by an implementation agent's bot, in one of the repositories. */
function pushDependency(props: RemediationSensorProps): EventDependency {
  const bots = props.plan.implementationAgents.map((agent) => githubAppBotLogin(props.agents[agent].githubApp));
  if (bots.length === 0)
    throw new Error(
      `Sensor ${props.name ?? props.kind} has no implementation agent whose pushes count: the plan names none; add an agent of role implementation, or create no stale-work Sensor`,
    );
  const data: DataFilter[] = [
    { path: 'body.X-GitHub-Event', type: 'string', value: [anchoredAlternation(['push'])] },
    // A push names no base branch: the remediator finds the task's play, which knows its repository.
    ...repositoryDataFilters(props.repositories),
    { path: 'body.ref', type: 'string', value: [TASK_PUSH_REF_PATTERN] },
    { path: 'body.deleted', type: 'bool', value: ['false'] },
    { path: 'body.sender.login', type: 'string', value: [anchoredAlternation(bots, true)] },
  ];
  return {
    name: REMEDIATION_DEPENDENCY,
    eventSourceName: props.eventSource.name,
    eventName: props.eventSource.eventName,
    filters: { data },
  };
}

/** The Go template statements that leave a push's task id (from its branch) in `$task`. */
function pushTaskIdTemplate(): string {
  return [
    `{{- $task := regexReplaceAll "${TASK_PUSH_REF_PATTERN}" (regexFind "${TASK_PUSH_REF_PATTERN}" .Input.body.ref) "\${1}" -}}`,
    `{{- if eq $task "" -}}{{- $task = "${NO_TASK}" -}}{{- end -}}`,
    '{{ $task }}',
  ].join('');
}

/** Starts the remediator with the event's values. */
function remediatorTrigger(name: string, namespace: string | undefined, props: RemediationSensorProps): Trigger {
  const dependencyName = REMEDIATION_DEPENDENCY;
  const push = props.kind === RemediationKinds.staleWork;
  const from = (parameter: RemediatorParameter, src: Omit<TriggerParameter['src'], 'dependencyName'>): TriggerParameter => ({
    src: { dependencyName, ...src },
    dest: remediatorParameterDest(parameter),
  });
  const task = push ? pushTaskIdTemplate() : taskIdTemplate();
  const parameters: TriggerParameter[] = [
    // The remediator's runtime steps find the rest (the registry entry, the play, where the task's record
    // is) from the repository and the task, and check a pull request's base branch against the repository's.
    from('repository', { dataKey: REPOSITORY_PATH }),
    from('task-id', { dataTemplate: task }),
    ...(push ? [] : [from('base-branch', { dataKey: BASE_BRANCH_PATH }), from('pr-url', { dataKey: 'body.pull_request.html_url' })]),
    from(
      'sender',
      push
        ? { dataKey: 'body.sender.login' }
        : {
            dataTemplate: '{{ if .Input.body.review }}{{ .Input.body.review.user.login }}{{ else }}{{ .Input.body.sender.login }}{{ end }}',
          },
    ),
    from(
      'reason',
      push
        ? { dataTemplate: 'pushed {{ .Input.body.after }}' }
        : { dataTemplate: '{{ if .Input.body.review }}changes requested{{ else }}label {{ .Input.body.label.name }}{{ end }}' },
    ),
    // The delivery id stays the same when GitHub redelivers: the remediator handles each event once.
    from('event-id', { dataKey: 'body.X-GitHub-Delivery' }),
    // A label event has no time of its own: "none" (an empty rendering would fail the trigger).
    ...(push
      ? []
      : [from('event-at', { dataTemplate: '{{ if .Input.body.review }}{{ .Input.body.review.submitted_at }}{{ else }}none{{ end }}' })]),
  ];
  return workflowTrigger({
    name,
    namespace,
    workflowTemplate: REMEDIATOR_TEMPLATE_NAME,
    arguments: remediatorArguments({ kind: props.kind }),
    parameters,
    retries: props.triggerRetries,
  });
}
