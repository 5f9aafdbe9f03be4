// @ts-nocheck
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { byCodeUnits } from '../model/code-unit-order';
import { COMMON_LABELS } from '../model/labels';
import type { RegistryEntry } from './registry-layout';
import { registryConfigMapOf, registryKeyOf } from './registry-layout';

/** The label that marks the registry's ConfigMaps. */
export const REGISTRY_LABEL = 'agents.platform/repository-registry';

/** What `new RepositoryRegistry(scope, id, props)` takes. */
export interface RepositoryRegistryProps {
  /**
   * The entries, one per repository: `registryEntry(source, repository, template)` builds one as the
   * platform does, naming the play WorkflowTemplate that runs the repository (`playGroups`).
   */
  readonly entries: readonly RegistryEntry[];
  /** `metadata.namespace` of the ConfigMaps: the plays' namespace. @default - the chart's namespace */
  readonly namespace?: string;
}

/**
 * The repository registry in ConfigMaps (`play-repositories-{n}`, one key per repository, its label value),
 * only the shards that hold an entry. The plays, the resumer and the remediator read it at run time; without
 * it no play starts (its first step, `resolve-repository`, fails naming the missing entry).
 */
export class RepositoryRegistry extends Construct {
  /** The ConfigMaps written, by name. */
  public readonly configMaps: ReadonlyMap<string, kplus.ConfigMap>;

  /**
   * @throws when two entries are one repository (names that differ only in letter case), or an entry's name
   * is not `owner/name`
   */
  public constructor(scope: Construct, id: string, props: RepositoryRegistryProps) {
    super(scope, id);
    const shards = new Map<string, Map<string, string>>();
    for (const entry of props.entries) {
      const name = registryConfigMapOf(entry.name);
      const data = shards.get(name) ?? new Map<string, string>();
      const key = registryKeyOf(entry.name);
      if (data.has(key)) throw new Error(`RepositoryRegistry: repository ${entry.name} is listed twice (names are case-insensitive)`);
      data.set(key, JSON.stringify(entry));
      shards.set(name, data);
    }
    const configMaps = new Map<string, kplus.ConfigMap>();
    for (const name of [...shards.keys()].sort(byCodeUnits)) {
      const data = shards.get(name) as Map<string, string>;
      const sorted = Object.fromEntries([...data.entries()].sort(([a], [b]) => byCodeUnits(a, b)));
      configMaps.set(
        name,
        new kplus.ConfigMap(this, name, {
          metadata: { name, namespace: props.namespace, labels: { ...COMMON_LABELS, [REGISTRY_LABEL]: 'true' } },
          data: sorted,
        }),
      );
    }
    this.configMaps = configMaps;
  }
}
