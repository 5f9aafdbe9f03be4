// @ts-nocheck
import * as kplus from 'cdk8s-plus-28';
import type { Construct } from 'constructs';
import { ARGOCD_SYNC_OPTIONS_ANNOTATION, COMMON_LABELS } from '../model/labels';
import { runtimeConfigMapName } from '../runtime/runtime-config-map-name';
import { RUNTIME_FILE } from '../runtime/runtime-layout';
import { RUNTIME_PROGRAM } from '../runtime/runtime-program.generated';

/** The label that marks runtime ConfigMaps, so that old ones can be listed and removed once no play runs them. */
export const RUNTIME_LABEL = 'agents.platform/runtime';

/**
 * The runtime program in a ConfigMap, mounted read-only by every pod that runs a runtime step (see
 * `runtimeStepTemplate`). Named after the program's hash; ArgoCD must not prune the ConfigMap of an older
 * program while plays that started with it still run (`Prune=false`), so old ones stay until removed by hand
 * (docs/upgrades.md says when).
 */
export class RuntimeConfigMap extends kplus.ConfigMap {
  public constructor(scope: Construct, id: string) {
    super(scope, id, {
      metadata: {
        name: runtimeConfigMapName(),
        labels: { ...COMMON_LABELS, [RUNTIME_LABEL]: 'true' },
        annotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'Prune=false' },
      },
      data: { [RUNTIME_FILE]: RUNTIME_PROGRAM },
    });
  }
}
