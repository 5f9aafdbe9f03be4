import { parseAllDocuments } from 'yaml';
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { plainCopy } from '../../constructs/model/plain-copy';
import { resolveConfig, type ConfigInputs } from '../../constructs/model/resolve-config';

/** What the tests hand `resolveConfig`: a file of any shape, since many are wrong on purpose. */
export type LooseConfigInputs = Omit<ConfigInputs, 'file'> & { readonly file?: unknown };
import { synthesizePlatform, SynthesizedManifests, type ManifestFiles } from '../../src/synth/synthesize';

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

/** Every document of every file, read from its YAML text (YAML 1.2), in file and document order. */
export function readManifestTexts(files: ManifestFiles): K8sObject[] {
  return [...files.values()].flatMap((text) => parseAllDocuments(text).map((document) => document.toJS() as K8sObject));
}

/**
 * Set (to anything) to make `parseManifests` read the YAML of a synthesis too and fail when it differs from
 * the objects the synthesis wrote it from: `AGENT_PLAY_TEST_READ_YAML=1 npx vitest run` checks that for every
 * platform the suite synthesizes (test/synth-yaml.test.ts checks it for a few in every run).
 */
export const READ_YAML_ENV = 'AGENT_PLAY_TEST_READ_YAML';

/**
 * The objects of manifests, in file and document order. For a synthesis as `synthesizePlatform` and
 * `synthesizeApp` return it, these are the objects its YAML was written from (a copy: no test sees another's
 * changes, nor two places sharing one object), which is what the YAML reads back as (test/synth-yaml.test.ts):
 * reading tens of megabytes of YAML again was a fifth of the suite's time. Any other file map is read from
 * its text.
 */
export function parseManifests(files: ManifestFiles): K8sObject[] {
  if (!(files instanceof SynthesizedManifests)) return readManifestTexts(files);
  const written = plainCopy([...files.keys()].flatMap((name) => files.objects.get(name) ?? [])) as K8sObject[];
  if (process.env[READ_YAML_ENV]) {
    const [read, wrote] = [readManifestTexts(files), written].map((objects) => JSON.stringify(objects));
    if (read !== wrote)
      throw new Error(`the YAML of a synthesis reads back differently from the objects it was written from:\n${read}\n${wrote}`);
  }
  return written;
}

/** The syntheses kept by `sharedSynthesis`, by config, oldest first. */
const syntheses = new Map<string, SynthesizedManifests>();
/**
 * How many syntheses are kept, and the largest kept (the default platform is 170 KB; the large platforms
 * are not kept): what a worker keeps alive makes each of its full garbage collections longer.
 */
const KEPT_SYNTHESES = 4;
const KEPT_SYNTHESIS_CHARS = 256 * 1024;

/**
 * The platform of a config as `synthesizePlatform` gives it, synthesized once per worker and config: the
 * test files share their worker's modules (vitest.config.mts), and most tests synthesize the default
 * platform or one of a few configs again, a tenth of the suite's own work. A synthesis depends on its config
 * alone (constructs/ reads no file, clock or environment), so each caller gets what a new synthesis gives,
 * its own copy of the objects; test/synth-output.test.ts synthesizes without it, to check that two
 * syntheses agree. A config that cannot be synthesized throws every time.
 */
function sharedSynthesis(config: PlatformConfig): SynthesizedManifests {
  // JSON leaves out undefined values, which a config may hold (and a construct may tell from an absent key).
  const key = JSON.stringify(config, (_key, value) => (value === undefined ? { undefinedValue: true } : value));
  let kept = syntheses.get(key);
  if (kept === undefined) {
    kept = synthesizePlatform(config) as SynthesizedManifests;
    const chars = [...kept.values()].reduce((sum, text) => sum + text.length, 0);
    if (chars <= KEPT_SYNTHESIS_CHARS) {
      if (syntheses.size >= KEPT_SYNTHESES) syntheses.delete(syntheses.keys().next().value as string);
      syntheses.set(key, kept);
    }
  }
  const copy = new SynthesizedManifests(kept);
  for (const [name, objects] of kept.objects) copy.objects.set(name, plainCopy(objects) as Record<string, unknown>[]);
  return copy;
}

/**
 * Synthesizes the platform of a config (the embedded default when none is given); the same config twice
 * gives equal copies of one synthesis (`sharedSynthesis`).
 */
export function synth(inputs: LooseConfigInputs = { env: {} }): Synthesized {
  const files = sharedSynthesis(resolveConfig({ env: {}, ...inputs } as ConfigInputs));
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
