// @ts-nocheck
import * as kplus from 'cdk8s-plus-28';
import type { Construct } from 'constructs';
import { CODERUN_GROUP, CODERUN_PLURAL } from '../model/coderun-api';
import { DEFAULT_PLAY_SERVICE_ACCOUNT } from '../model/config-shapes';
import { COMMON_LABELS } from '../model/labels';
import { PROGRESS_GRANTS, TASK_RESULTS_GRANT, WORKFLOW_FINALIZERS_GRANT as WORKFLOW_FINALIZERS } from './runtime-grants';
import { type Grant, ScopedServiceAccount } from './scoped-service-account';

/** What `new PlayRbac(scope, id, props)` takes. */
export interface PlayRbacProps {
  /** The service account plays run as. @default agent-play */
  readonly serviceAccountName?: string;
  /**
   * Whether any agent of the platform runs with a CodeRun (`execution: coderun`). When none does (every agent
   * runs direct), the Role grants nothing on CodeRuns: no play creates one, and the CRD is not even installed.
   * @default true
   */
  readonly codeRuns?: boolean;
  /**
   * Whether any agent runs direct (in a step of the play). Its pod mounts no token (the CLI must hold no
   * Kubernetes credentials), and Argo's executor containers in it use this account through a token Secret
   * (`{account}.service-account-token`, where the workflow controller looks for it), which is then made.
   * @default false
   */
  readonly directAgents?: boolean;
}

const CODERUNS: Grant = { apiGroup: CODERUN_GROUP, resource: CODERUN_PLURAL, verbs: ['create', 'get', 'list', 'watch', 'delete'] };

/**
 * Exactly what a play's steps do, and nothing more: read and patch its own Workflow (stage labels and history
 * as it enters a stage; its gate's suspend node when its check releases it), create, read and cancel CodeRuns,
 * read and write the task's progress record, and let Argo's executor report task results. No wildcard.
 */
export const PLAY_GRANTS: readonly Grant[] = [
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['get', 'patch'] },
  // An attempt deletes the unfinished CodeRuns of its stage (listed by label, deleted, read until gone), creates
  // its own, and reads it until it ends (Argo's resource step watches it); the exit handler cancels the run's.
  CODERUNS,
  // Each CodeRun is owned by the play (setOwnerReference).
  WORKFLOW_FINALIZERS,
  ...PROGRESS_GRANTS,
  TASK_RESULTS_GRANT,
];

/**
 * What only a play that creates CodeRuns needs: the CodeRuns themselves, and update on its Workflow's
 * finalizers for the owner reference of each CodeRun (the only owner reference a play step sets).
 */
export const CODERUN_PLAY_GRANTS: readonly Grant[] = [CODERUNS, WORKFLOW_FINALIZERS];

/** What a play whose agents all run direct needs: `PLAY_GRANTS` without `CODERUN_PLAY_GRANTS`. */
export const DIRECT_PLAY_GRANTS: readonly Grant[] = PLAY_GRANTS.filter((grant) => !CODERUN_PLAY_GRANTS.includes(grant));

/** The grants of a play: with the CodeRun ones only when some agent runs with a CodeRun. */
export function playGrants(codeRuns: boolean): readonly Grant[] {
  return codeRuns ? PLAY_GRANTS : DIRECT_PLAY_GRANTS;
}

/** The name of the token Secret of a service account, where the workflow controller looks for it (`executor.serviceAccountName`). */
export function serviceAccountTokenSecretName(serviceAccount: string): string {
  return `${serviceAccount}.service-account-token`;
}

/**
 * The service account plays run as, with a Role that grants `PLAY_GRANTS` in the play namespace
 * (`DIRECT_PLAY_GRANTS` when no agent runs with a CodeRun), and, when agents run direct, its token Secret for
 * the executor containers of their pods.
 */
export class PlayRbac extends ScopedServiceAccount {
  /** The token Secret Argo's executor containers use in direct agents' pods; absent unless agents run direct. */
  public readonly executorToken?: kplus.ServiceAccountTokenSecret;

  /** @throws when the service account name is illegal */
  public constructor(scope: Construct, id: string, props: PlayRbacProps = {}) {
    super(scope, id, { name: props.serviceAccountName ?? DEFAULT_PLAY_SERVICE_ACCOUNT, grants: playGrants(props.codeRuns ?? true) });
    if (props.directAgents)
      this.executorToken = new kplus.ServiceAccountTokenSecret(this, 'ExecutorToken', {
        metadata: { name: serviceAccountTokenSecretName(this.name), labels: { ...COMMON_LABELS } },
        serviceAccount: this.serviceAccount,
      });
  }

  /** The name of the service account plays run as. */
  public get serviceAccountName(): string {
    return this.name;
  }
}
