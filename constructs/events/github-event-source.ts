import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { COMMON_LABELS } from '../model/labels';
import { isDnsLabel, parseRepository } from '../model/naming';
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

export interface SecretKeyReference {
  readonly name: string;
  readonly key: string;
}

export interface GithubEventSourceProps {
  /** The EventBus it publishes to; it must be in the same namespace. */
  readonly eventBus: IEventBus;
  /** The Secret key holding the webhook secret; deliveries without a valid signature are refused. */
  readonly webhookSecret: SecretKeyReference;
  /** The repositories (`owner/name`) it listens to. Either this or `organizations`. */
  readonly repositories?: readonly string[];
  /** The organisations it listens to. Either this or `repositories`. */
  readonly organizations?: readonly string[];
  /** The GitHub events to subscribe the hook to (the receiver itself does not filter: sensors do). */
  readonly events: readonly string[];
  /** @default github */
  readonly name?: string;
  /** @default play */
  readonly eventName?: string;
  /** @default /github/webhook */
  readonly endpoint?: string;
  /** @default 12000 */
  readonly port?: number;
  /** The public URL GitHub posts to. @default - none: the hook is created by hand */
  readonly url?: string;
  /** @default - the chart's namespace */
  readonly namespace?: string;
}

/**
 * The GitHub EventSource: a webhook receiver, exposed on a Service port, that checks each delivery's
 * signature against the webhook secret and publishes it to the EventBus of its namespace.
 */
export class GithubEventSource extends Construct implements IGithubEventSource {
  /** Refers to a GitHub EventSource that exists elsewhere. */
  public static fromEventSourceName(_scope: Construct, _id: string, name: string, eventName: string): IGithubEventSource {
    return { name, eventName };
  }

  public readonly name: string;
  public readonly eventName: string;
  protected readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: GithubEventSourceProps) {
    super(scope, id);
    this.name = props.name ?? 'github';
    this.eventName = props.eventName ?? 'play';
    // The Service is named {name}-eventsource-svc, a DNS-1035 label: at most 47 characters for the name.
    if (!isDnsLabel(this.name, 47) || !/^[a-z]/.test(this.name)) {
      throw new Error(`EventSource name "${this.name}" must start with a letter and be a DNS label of at most 47 characters (its Service adds "-eventsource-svc")`);
    }
    const namespace = props.namespace ?? Chart.of(this).namespace;
    assertSameNamespace(`EventSource ${this.name}`, namespace, props.eventBus);
    if (props.events.length === 0) throw new Error(`EventSource ${this.name} needs at least one GitHub event to subscribe to`);
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

/** Exactly one of `repositories` (grouped by owner) and `organizations`, as Argo Events requires. */
function scopeOf(props: GithubEventSourceProps): Record<string, unknown> {
  const repositories = props.repositories ?? [];
  const organizations = props.organizations ?? [];
  if ((repositories.length > 0) === (organizations.length > 0)) {
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
