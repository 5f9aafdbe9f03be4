// @ts-nocheck
import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { COMMON_LABELS } from '../model/labels';
import { serviceAccountNameProblem } from '../model/naming';
import { checkProp } from '../model/prop-checks';

/** A Kubernetes permission: these verbs on this resource of this API group. */
export interface Grant {
  /** The API group: `''` for the core group, e.g. `argoproj.io`. Never `*`. */
  readonly apiGroup: string;
  /** The resource (plural, lower case), e.g. `configmaps` or `workflows/finalizers`. Never `*`. */
  readonly resource: string;
  /** The verbs allowed, at least one, e.g. `get`, `patch`. Never `*`. */
  readonly verbs: readonly string[];
  /**
   * Only these objects, by name. Kubernetes cannot restrict `create`, `list`, `watch` or `deletecollection`
   * by name (the name is not known when the request is authorized), so a grant with names must not use them.
   * @default - every object of the resource in the namespace
   */
  readonly resourceNames?: readonly string[];
}

/** The verbs Kubernetes authorizes without an object name; `resourceNames` cannot narrow them. */
const UNNAMED_VERBS = ['create', 'list', 'watch', 'deletecollection'];

/**
 * Adds `grant` to `role` as one rule. A grant with names becomes one rule listing them all (cdk8s-plus would
 * write a rule per name).
 *
 * @throws when the grant uses a wildcard, or names objects for a verb that cannot be narrowed by name
 */
export function allowGrant(role: kplus.Role, grant: Grant, owner: string): void {
  if ([grant.apiGroup, grant.resource, ...grant.verbs, ...(grant.resourceNames ?? [])].includes('*')) {
    throw new Error(`service account ${owner}: grant on "${grant.resource}" uses a wildcard; name the verbs and resources it needs`);
  }
  if (grant.resourceNames === undefined) {
    role.allow([...grant.verbs], kplus.ApiResource.custom({ apiGroup: grant.apiGroup, resourceType: grant.resource }));
    return;
  }
  const unnamed = grant.verbs.filter((verb) => UNNAMED_VERBS.includes(verb));
  if (unnamed.length > 0)
    throw new Error(
      `service account ${owner}: ${unnamed.join(', ')} on "${grant.resource}" cannot be restricted by resourceNames; grant it in a rule without names`,
    );
  ApiObject.of(role).addJsonPatch(
    JsonPatch.add('/rules/-', {
      apiGroups: [grant.apiGroup],
      resources: [grant.resource],
      resourceNames: [...grant.resourceNames],
      verbs: [...grant.verbs],
    }),
  );
}

/** What `new ScopedServiceAccount(scope, id, props)` takes. */
export interface ScopedServiceAccountProps {
  /** The name of the service account, its Role and its RoleBinding: a legal service account name. */
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
  /** The service account; pass it where a prop takes a service account (`IServiceAccount`). */
  public readonly serviceAccount: kplus.ServiceAccount;
  /** The Role that holds the grants. */
  public readonly role: kplus.Role;
  /** The RoleBinding of the Role to the service account. */
  public readonly binding: kplus.RoleBinding;

  /**
   * @throws when the name is not a legal service account name, a grant has no verb or uses a wildcard, or names
   * objects for a verb that cannot be narrowed by name
   */
  public constructor(scope: Construct, id: string, props: ScopedServiceAccountProps) {
    super(scope, id);
    const owner = `ScopedServiceAccount ${props.name}`;
    checkProp(owner, 'name', props.name, serviceAccountNameProblem(props.name));
    for (const grant of props.grants)
      checkProp(owner, 'grants', grant.resource, grant.verbs.length > 0 ? undefined : 'has no verb: name the verbs it needs');
    const metadata = { name: props.name, labels: { ...COMMON_LABELS } };
    // Pods of this account talk to the API server with its token.
    this.serviceAccount = new kplus.ServiceAccount(this, 'ServiceAccount', { metadata, automountToken: true });
    this.role = new kplus.Role(this, 'Role', { metadata });
    for (const grant of props.grants) allowGrant(this.role, grant, props.name);
    this.binding = new kplus.RoleBinding(this, 'Binding', { metadata, role: this.role });
    this.binding.addSubjects(this.serviceAccount);
  }

  /** The name of the service account. */
  public get name(): string {
    return this.serviceAccount.name;
  }
}
