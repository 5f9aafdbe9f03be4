import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { CODERUN_GROUP, CODERUN_PLURAL } from '../model/coderun-schema';
import { DEFAULT_PLAY_SERVICE_ACCOUNT } from '../model/config-schema';
import { COMMON_LABELS } from '../model/labels';
import { progressConfigMapName, progressConfigMapNames } from '../model/naming';
import { allowGrant, type Grant, ScopedServiceAccount } from './scoped-service-account';

/** What `new PlayRbac(scope, id, props)` takes. */
export interface PlayRbacProps {
  /** The service account plays run as. @default agent-play */
  readonly serviceAccountName?: string;
  /**
   * The repositories (`owner/name`) whose progress ConfigMaps the plays write: each gets a Role that lets the
   * account patch exactly those ConfigMaps. @default - none (add them with `allowProgress`)
   */
  readonly repositories?: readonly string[];
  /**
   * Whether any agent of the platform runs with a CodeRun (`execution: coderun`). When none does (every agent
   * runs direct), the Role grants nothing on CodeRuns: no play creates one, and the CRD is not even installed.
   * @default true
   */
  readonly codeRuns?: boolean;
}

const CODERUNS: Grant = { apiGroup: CODERUN_GROUP, resource: CODERUN_PLURAL, verbs: ['create', 'get', 'list', 'watch', 'delete'] };
const WORKFLOW_FINALIZERS: Grant = { apiGroup: 'argoproj.io', resource: 'workflows/finalizers', verbs: ['update'] };

/**
 * Exactly what a play's templates do, and nothing more: patch and read its own Workflow (stage labels,
 * history annotations), create, read and cancel CodeRuns, create progress ConfigMaps and read them and the
 * release records, and let Argo's executor report task results. No wildcard anywhere. Patching ConfigMaps is
 * not granted here: only the progress ConfigMaps, by name, per repository (`progressGrant`), so a helper can
 * never rewrite the agents ConfigMap and its system prompts.
 */
export const PLAY_GRANTS: readonly Grant[] = [
  // update: a gate whose release was recorded early resumes itself with `argo resume` (an update).
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['get', 'patch', 'update'] },
  // An attempt deletes the stale CodeRun of its stage by label (kubectl lists, deletes, and watches until it is
  // gone), creates its own, and reads it until it ends; the exit handler deletes the run's CodeRuns.
  CODERUNS,
  // setOwnerReference makes the Workflow the CodeRun's controller with blockOwnerDeletion (argo-workflows
  // `workflow/controller/operator.go`, `metav1.NewControllerRef`); where the OwnerReferencesPermissionEnforcement
  // admission plugin is on (OpenShift, hardened clusters), that needs update on the owner's finalizers.
  WORKFLOW_FINALIZERS,
  // Create cannot be narrowed by name in Kubernetes; it cannot change an object that exists.
  { apiGroup: '', resource: 'configmaps', verbs: ['create', 'get'] },
  { apiGroup: 'argoproj.io', resource: 'workflowtaskresults', verbs: ['create', 'patch'] },
];

/**
 * What only a play that creates CodeRuns needs: the CodeRuns themselves, and update on its Workflow's
 * finalizers for the owner reference of each CodeRun (the only owner reference a play step sets,
 * coderun-manifest.ts).
 */
export const CODERUN_PLAY_GRANTS: readonly Grant[] = [CODERUNS, WORKFLOW_FINALIZERS];

/** What a play whose agents all run direct needs: `PLAY_GRANTS` without `CODERUN_PLAY_GRANTS`. */
export const DIRECT_PLAY_GRANTS: readonly Grant[] = PLAY_GRANTS.filter((grant) => !CODERUN_PLAY_GRANTS.includes(grant));

/** The grants of a play: with the CodeRun ones only when some agent runs with a CodeRun. */
export function playGrants(codeRuns: boolean): readonly Grant[] {
  return codeRuns ? PLAY_GRANTS : DIRECT_PLAY_GRANTS;
}

/** The progress ConfigMaps of one repository, by name: the only ConfigMaps a play may patch. */
export function progressGrant(repository: string): Grant {
  return { apiGroup: '', resource: 'configmaps', verbs: ['patch'], resourceNames: progressConfigMapNames(repository) };
}

/**
 * The service account plays run as, with a Role that grants `PLAY_GRANTS` in the play namespace
 * (`DIRECT_PLAY_GRANTS` when no agent runs with a CodeRun).
 */
export class PlayRbac extends ScopedServiceAccount {
  /** @throws when the service account name is illegal or a repository is not `owner/name` */
  public constructor(scope: Construct, id: string, props: PlayRbacProps = {}) {
    super(scope, id, { name: props.serviceAccountName ?? DEFAULT_PLAY_SERVICE_ACCOUNT, grants: playGrants(props.codeRuns ?? true) });
    for (const repository of props.repositories ?? []) this.allowProgress(repository);
  }

  /**
   * Lets the plays patch the progress ConfigMaps of `repository`, by name, through a Role of its own
   * (`play-progress-{owner}-{repo}`): one Role per repository keeps every Role small at any number of
   * repositories (64 names each, about 3 KiB).
   *
   * @throws when `repository` is not `owner/name`
   */
  public allowProgress(repository: string): void {
    const name = progressConfigMapName(repository);
    const metadata = { name, labels: { ...COMMON_LABELS } };
    const scope = new Construct(this, `Progress-${name}`);
    const role = new kplus.Role(scope, 'Role', { metadata });
    allowGrant(role, progressGrant(repository), this.name);
    new kplus.RoleBinding(scope, 'Binding', { metadata, role }).addSubjects(this.serviceAccount);
  }

  /** The name of the service account plays run as. */
  public get serviceAccountName(): string {
    return this.name;
  }
}
