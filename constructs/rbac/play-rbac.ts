import { Construct } from 'constructs';
import { CODERUN_GROUP, CODERUN_PLURAL } from '../model/coderun-schema';
import { type Grant, ScopedServiceAccount } from './scoped-service-account';

export interface PlayRbacProps {
  /** The service account plays run as. @default agent-play */
  readonly serviceAccountName?: string;
}

/**
 * Exactly what a play's templates do, and nothing more: patch and read its own Workflow (stage labels,
 * history annotations), create and read CodeRuns, keep the progress ConfigMap and read release records,
 * and let Argo's executor report task results. No wildcard anywhere.
 */
export const PLAY_GRANTS: readonly Grant[] = [
  // update: a gate whose release was recorded early resumes itself with `argo resume` (an update).
  { apiGroup: 'argoproj.io', resource: 'workflows', verbs: ['get', 'patch', 'update'] },
  { apiGroup: CODERUN_GROUP, resource: CODERUN_PLURAL, verbs: ['create', 'get'] },
  { apiGroup: '', resource: 'configmaps', verbs: ['create', 'get', 'patch'] },
  { apiGroup: 'argoproj.io', resource: 'workflowtaskresults', verbs: ['create', 'patch'] },
];

/** The service account plays run as, with a Role that grants `PLAY_GRANTS` in the play namespace. */
export class PlayRbac extends ScopedServiceAccount {
  public constructor(scope: Construct, id: string, props: PlayRbacProps = {}) {
    super(scope, id, { name: props.serviceAccountName ?? 'agent-play', grants: PLAY_GRANTS });
  }

  public get serviceAccountName(): string {
    return this.name;
  }
}
