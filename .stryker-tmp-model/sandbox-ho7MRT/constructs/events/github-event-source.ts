// @ts-nocheck
import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { COMMON_LABELS } from '../model/labels';
import { dnsLabelProblem, isDnsLabel, isDnsSubdomain, parseRepository } from '../model/naming';
import { checkProp, integerProblem } from '../model/prop-checks';
import { assertSameNamespace, type IEventBus } from './event-bus';
import { restrictedEventsPodTemplate } from './events-pod-security';
import { ARGO_API_VERSION } from '../model/argo-api';

/** A GitHub EventSource, defined here or elsewhere: what a Sensor dependency names. */
export interface IGithubEventSource {
  /** `metadata.name`: the dependency's `eventSourceName`. */
  readonly name: string;
  /** The key under `spec.github`: the dependency's `eventName`. */
  readonly eventName: string;
}

/** A key of a Kubernetes Secret. */
export interface SecretKeyReference {
  /** The Secret's name, a DNS-1123 subdomain. */
  readonly name: string;
  /** The key in the Secret's data. */
  readonly key: string;
}

/** What `new GithubEventSource(scope, id, props)` takes. */
export interface GithubEventSourceProps {
  /** The EventBus it publishes to; it must be in the same namespace. */
  readonly eventBus: IEventBus;
  /** The Secret key holding the webhook secret; deliveries without a valid signature are refused. */
  readonly webhookSecret: SecretKeyReference;
  /** The repositories (`owner/name`) it listens to. Either this or `organizations`. @default - none */
  readonly repositories?: readonly string[];
  /** The organisations it listens to. Either this or `repositories`. @default - none */
  readonly organizations?: readonly string[];
  /** The GitHub events to subscribe the hook to (the receiver itself does not filter: sensors do). */
  readonly events: readonly string[];
  /** `metadata.name`: a DNS label of at most 47 characters (its Service adds `-eventsource-svc`). @default github */
  readonly name?: string;
  /** The key under `spec.github`, which Sensor dependencies name as `eventName`. @default play */
  readonly eventName?: string;
  /** The HTTP path the receiver listens on. @default /github/webhook */
  readonly endpoint?: string;
  /** The port of the receiver and of its Service, from 1 to 65535. @default 12000 */
  readonly port?: number;
  /** The public URL GitHub posts to. @default - none: the hook is created by hand */
  readonly url?: string;
  /** `metadata.namespace`; the EventBus must be in it. @default - the chart's namespace */
  readonly namespace?: string;
}

/**
 * The GitHub EventSource: a webhook receiver, exposed on a Service port, that checks each delivery's
 * signature against the webhook secret and publishes it to the EventBus of its namespace.
 */
export class GithubEventSource extends Construct implements IGithubEventSource {
  /**
   * Refers to a GitHub EventSource that exists elsewhere.
   *
   * @throws when `name` is not a DNS-1123 label
   */
  public static fromEventSourceName(_scope: Construct, _id: string, name: string, eventName: string): IGithubEventSource {
    checkProp('GithubEventSource.fromEventSourceName', 'name', name, dnsLabelProblem(name));
    return { name, eventName };
  }

  /** The EventSource's `metadata.name`. */
  public readonly name: string;
  /** The key under `spec.github`. */
  public readonly eventName: string;
  /** The EventSource object under the typed surface. */
  protected readonly apiObject: ApiObject;

  /**
   * @throws when the name is not a DNS label of at most 47 characters, the EventBus is in another namespace,
   * no event is given, not exactly one of repositories and organizations is given, a repository is not
   * `owner/name`, or the port, endpoint, namespace or webhook Secret break their rule
   */
  public constructor(scope: Construct, id: string, props: GithubEventSourceProps) {
    super(scope, id);
    this.name = props.name ?? 'github';
    this.eventName = props.eventName ?? 'play';
    // The Service is named {name}-eventsource-svc, a DNS-1035 label: at most 47 characters for the name.
    if (!isDnsLabel(this.name, 47) || !/^[a-z]/.test(this.name)) {
      throw new Error(
        `EventSource name "${this.name}" must start with a letter and be a DNS label of at most 47 characters (its Service adds "-eventsource-svc")`,
      );
    }
    const namespace = props.namespace ?? Chart.of(this).namespace;
    assertSameNamespace(`EventSource ${this.name}`, namespace, props.eventBus);
    if (props.events.length === 0) throw new Error(`EventSource ${this.name} needs at least one GitHub event to subscribe to`);
    checkEventSourceProps(`EventSource ${this.name}`, props);
    const port = props.port ?? 12000;
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: ARGO_API_VERSION,
      kind: 'EventSource',
      metadata: { name: this.name, namespace: props.namespace, labels: { ...COMMON_LABELS } },
      spec: {
        eventBusName: props.eventBus.name,
        template: restrictedEventsPodTemplate(),
        service: { ports: [{ name: 'webhook', port, targetPort: port }] },
        github: {
          [this.eventName]: {
            ...scopeOf(props),
            events: [...props.events],
            webhook: { endpoint: props.endpoint ?? '/github/webhook', port: String(port), method: 'POST', url: props.url ?? '' },
            webhookSecret: { name: props.webhookSecret.name, key: props.webhookSecret.key },
            contentType: 'json',
            active: true,
            insecure: false,
          },
        },
      },
    });
  }
}

/** Checks the props that become fields of the EventSource as they are. */
function checkEventSourceProps(owner: string, props: GithubEventSourceProps): void {
  if (props.namespace !== undefined) checkProp(owner, 'namespace', props.namespace, dnsLabelProblem(props.namespace));
  // The Service port: the range Kubernetes accepts for a port number.
  if (props.port !== undefined) checkProp(owner, 'port', props.port, integerProblem(props.port, 1, 65535));
  if (props.endpoint !== undefined)
    checkProp(
      owner,
      'endpoint',
      props.endpoint,
      props.endpoint.startsWith('/') ? undefined : 'is not a path: start it with "/", e.g. /github/webhook',
    );
  const secret = props.webhookSecret.name;
  checkProp(
    owner,
    'webhookSecret.name',
    secret,
    isDnsSubdomain(secret) ? undefined : 'is not a Secret name: use lower-case letters, digits, "-" and "."',
  );
  checkProp(
    owner,
    'webhookSecret.key',
    props.webhookSecret.key,
    props.webhookSecret.key.length > 0 ? undefined : 'is empty: name the key of the Secret that holds the webhook secret',
  );
}

/** Exactly one of `repositories` (grouped by owner) and `organizations`, as Argo Events requires. */
function scopeOf(props: GithubEventSourceProps): Record<string, unknown> {
  const repositories = props.repositories ?? [];
  const organizations = props.organizations ?? [];
  if (repositories.length > 0 === organizations.length > 0) {
    throw new Error('a GitHub EventSource listens to repositories or to organizations: give exactly one of them');
  }
  if (organizations.length > 0) return { organizations: [...organizations] };
  const byOwner = new Map<string, string[]>();
  for (const fullName of repositories) {
    const { owner, name } = parseRepository(fullName);
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), name]);
  }
  return { repositories: [...byOwner.entries()].map(([owner, names]) => ({ owner, names })) };
}
