import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CODERUN_GROUP, CODERUN_PLURAL } from '../model/coderun-schema';
import { COMMON_LABELS } from '../model/labels';

export interface PlayRbacProps {
  /** The service account plays run as. @default agent-play */
  readonly serviceAccountName?: string;
}

/** A Kubernetes permission: these verbs on this resource of this API group. */
export interface Grant {
  readonly apiGroup: string;
  readonly resource: string;
  readonly verbs: readonly string[];
}

/**
 * Exactly what a play's templates do, and nothing more: patch and read its own Workflow (stage labels,
 * history annotations), create and read CodeRuns, keep the progress ConfigMap, and let Argo's executor
 * report task results. No wildcard anywhere.
 */
export const PLAY_GRANTS: readonly Grant[] = [
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['get', 'patch'] },
  { apiGroup: CODERUN_GROUP, resource: CODERUN_PLURAL, verbs: ['create', 'get'] },
  { apiGroup: '', resource: 'configmaps', verbs: ['create', 'get', 'patch'] },
  { apiGroup: 'argoproj.io', resource: 'workflowtaskresults', verbs: ['create', 'patch'] },
];

/** The service account plays run as, with a Role that grants `PLAY_GRANTS` in the play namespace. */
export class PlayRbac extends Construct {
  public readonly serviceAccount: kplus.ServiceAccount;
  public readonly role: kplus.Role;
  public readonly binding: kplus.RoleBinding;

  public constructor(scope: Construct, id: string, props: PlayRbacProps = {}) {
    super(scope, id);
    const name = props.serviceAccountName ?? 'agent-play';
    this.serviceAccount = new kplus.ServiceAccount(this, 'ServiceAccount', {
      metadata: { name, labels: { ...COMMON_LABELS } },
      // The play's helpers talk to the API server with this account's token.
      automountToken: true,
    });
    this.role = new kplus.Role(this, 'Role', { metadata: { name, labels: { ...COMMON_LABELS } } });
    for (const grant of PLAY_GRANTS) {
      this.role.allow([...grant.verbs], kplus.ApiResource.custom({ apiGroup: grant.apiGroup, resourceType: grant.resource }));
    }
    this.binding = new kplus.RoleBinding(this, 'Binding', { metadata: { name, labels: { ...COMMON_LABELS } }, role: this.role });
    this.binding.addSubjects(this.serviceAccount);
  }

  public get serviceAccountName(): string {
    return this.serviceAccount.name;
  }
}
