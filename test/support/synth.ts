import { parseAllDocuments } from 'yaml';
import { resolveConfig, type ConfigInputs } from '../../constructs/model/resolve-config';
import { synthesizePlatform, type ManifestFiles } from '../../src/synth/synthesize';

/** A Kubernetes object as the tests read it. */
export interface K8sObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  readonly [field: string]: any;
}

/** The manifests of a platform, as files and as parsed objects. */
export interface Synthesized {
  readonly files: ManifestFiles;
  readonly objects: readonly K8sObject[];
  byKind(kind: string): K8sObject[];
  one(kind: string, name: string): K8sObject;
}

export function parseManifests(files: ManifestFiles): K8sObject[] {
  return [...files.values()].flatMap((text) => parseAllDocuments(text).map((document) => document.toJS() as K8sObject));
}

/** Synthesizes the platform of a config (the embedded default when none is given). */
export function synth(inputs: ConfigInputs = { env: {} }): Synthesized {
  const files = synthesizePlatform(resolveConfig({ env: {}, ...inputs }));
  const objects = parseManifests(files);
  return {
    files,
    objects,
    byKind: (kind) => objects.filter((object) => object.kind === kind),
    one: (kind, name) => {
      const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
      if (!found)
        throw new Error(`no ${kind} named ${name}; have ${objects.map((object) => `${object.kind}/${object.metadata.name}`).join(', ')}`);
      return found;
    },
  };
}
