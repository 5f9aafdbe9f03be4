import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { COMMON_LABELS } from '../model/labels';

/** A Kubernetes permission: these verbs on this resource of this API group. */
export interface Grant {
  readonly apiGroup: string;
  readonly resource: string;
  readonly verbs: readonly string[];
}

export interface ScopedServiceAccountProps {
  /** The name of the service account, its Role and its RoleBinding. */
  readonly name: string;
  /** Exactly what the account may do, in its namespace. */
  readonly grants: readonly Grant[];
}

/**
 * A service account with a Role of its own that grants `grants` and nothing more, in its namespace.
 *
 * @throws when a grant uses a wildcard: every verb and resource must be named
 */
export class ScopedServiceAccount extends Construct {
  public readonly serviceAccount: kplus.ServiceAccount;
  public readonly role: kplus.Role;
  public readonly binding: kplus.RoleBinding;

  public constructor(scope: Construct, id: string, props: ScopedServiceAccountProps) {
    super(scope, id);
    const metadata = { name: props.name, labels: { ...COMMON_LABELS } };
    // Pods of this account talk to the API server with its token.
    this.serviceAccount = new kplus.ServiceAccount(this, 'ServiceAccount', { metadata, automountToken: true });
    this.role = new kplus.Role(this, 'Role', { metadata });
    for (const grant of props.grants) {
      if ([grant.apiGroup, grant.resource, ...grant.verbs].includes('*')) {
        throw new Error(`service account ${props.name}: grant on "${grant.resource}" uses a wildcard; name the verbs and resources it needs`);
      }
      this.role.allow([...grant.verbs], kplus.ApiResource.custom({ apiGroup: grant.apiGroup, resourceType: grant.resource }));
    }
    this.binding = new kplus.RoleBinding(this, 'Binding', { metadata, role: this.role });
    this.binding.addSubjects(this.serviceAccount);
  }

  public get name(): string {
    return this.serviceAccount.name;
  }
}
