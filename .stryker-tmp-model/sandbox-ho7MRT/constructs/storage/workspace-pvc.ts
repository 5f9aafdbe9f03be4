// @ts-nocheck
import { Size, SizeRoundingBehavior } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import type { Construct } from 'constructs';
import { DEFAULT_WORKSPACE_SIZE } from '../model/config-shapes';
import { ARGOCD_KEEP_ANNOTATIONS, COMMON_LABELS, WorkspaceLabels } from '../model/labels';
import { dnsLabelProblem, isDnsSubdomain, workspacePvcName } from '../model/naming';
import { checkProp } from '../model/prop-checks';

/** What `new WorkspacePvc(scope, id, props)` takes. */
export interface WorkspacePvcProps {
  /** The service whose workspace this is: a DNS label, part of the claim's name. */
  readonly service: string;
  /** The agent that works in it; for a shared workspace, any of the implementation agents. */
  readonly agent: string;
  /** Implementation agents share one workspace per service; every other agent gets its own. */
  readonly shared: boolean;
  /** Requested size: a cdk8s `Size` or text such as `10Gi` (Mi, Gi or Ti). @default 10Gi */
  readonly size?: Size | string;
  /** The storage class of the claim. @default - the cluster's default storage class */
  readonly storageClassName?: string;
}

const SIZE = /^([1-9][0-9]*)(Mi|Gi|Ti)$/;

/** The size of a workspace, converted once; a `Size` must be at least one mebibyte. */
function sizeOf(owner: string, size: Size | string): Size {
  if (typeof size === 'string') return parseSize(size);
  const kibibytes = size.toKibibytes({ rounding: SizeRoundingBehavior.NONE });
  checkProp(owner, 'size', size.asString(), kibibytes >= 1024 ? undefined : 'is smaller than a workspace can be: request at least 1Mi');
  return size;
}

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
  /**
   * @throws when the service or agent cannot be part of a name, the size is not a size of at least 1Mi, or the
   * storage class name is illegal, naming the prop and what to change
   */
  public constructor(scope: Construct, id: string, props: WorkspacePvcProps) {
    const owner = `WorkspacePvc ${props.service}/${props.agent}`;
    checkProp(owner, 'service', props.service, dnsLabelProblem(props.service));
    checkProp(owner, 'agent', props.agent, dnsLabelProblem(props.agent));
    if (props.storageClassName !== undefined) {
      checkProp(
        owner,
        'storageClassName',
        props.storageClassName,
        isDnsSubdomain(props.storageClassName) ? undefined : 'is not a storage class name: use lower-case letters, digits, "-" and "."',
      );
    }
    const storage = sizeOf(owner, props.size ?? DEFAULT_WORKSPACE_SIZE);
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
      storage,
      storageClassName: props.storageClassName,
      volumeMode: kplus.PersistentVolumeMode.FILE_SYSTEM,
    });
  }
}
