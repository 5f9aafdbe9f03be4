import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ARGOCD_KEEP_ANNOTATIONS, COMMON_LABELS, WorkspaceLabels } from '../model/labels';
import { workspacePvcName } from '../model/naming';

export interface WorkspacePvcProps {
  /** The service whose workspace this is. */
  readonly service: string;
  /** The agent that works in it; for a shared workspace, any of the implementation agents. */
  readonly agent: string;
  /** Implementation agents share one workspace per service; every other agent gets its own. */
  readonly shared: boolean;
  /** Requested size, e.g. `10Gi`. @default 10Gi */
  readonly size?: string;
  /** @default - the cluster's default storage class */
  readonly storageClassName?: string;
}

const SIZE = /^([1-9][0-9]*)(Mi|Gi|Ti)$/;

function parseSize(text: string): Size {
  const match = SIZE.exec(text);
  if (!match) throw new Error(`workspace size "${text}" is not a size such as 10Gi`);
  const amount = Number(match[1]);
  if (match[2] === 'Mi') return Size.mebibytes(amount);
  if (match[2] === 'Gi') return Size.gibibytes(amount);
  return Size.tebibytes(amount);
}

/**
 * An agent's workspace: a ReadWriteOnce PVC named by the one workspace rule (`workspace-{service}` shared
 * by implementation agents, `workspace-{service}-{agent}` for the others). It holds the agents' work across
 * deleted and recreated plays, so ArgoCD must never prune or delete it.
 */
export class WorkspacePvc extends kplus.PersistentVolumeClaim {
  public constructor(scope: Construct, id: string, props: WorkspacePvcProps) {
    super(scope, id, {
      metadata: {
        name: workspacePvcName(props.service, props.agent, props.shared),
        labels: {
          ...COMMON_LABELS,
          [WorkspaceLabels.app]: 'orchestrator',
          [WorkspaceLabels.component]: 'code-runner',
          [WorkspaceLabels.service]: props.service,
          [WorkspaceLabels.agent]: props.shared ? 'implementation' : props.agent,
          [WorkspaceLabels.workspaceType]: props.shared ? 'shared' : 'isolated',
        },
        annotations: { ...ARGOCD_KEEP_ANNOTATIONS },
      },
      accessModes: [kplus.PersistentVolumeAccessMode.READ_WRITE_ONCE],
      storage: parseSize(props.size ?? '10Gi'),
      storageClassName: props.storageClassName,
      volumeMode: kplus.PersistentVolumeMode.FILE_SYSTEM,
    });
  }
}
