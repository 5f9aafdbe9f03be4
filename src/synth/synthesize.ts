import { App, Chart } from 'cdk8s';
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { AgentPlatform } from '../../constructs/platform/agent-platform';
import { toYamlText } from '../../constructs/model/yaml-text';
import { GENERATED_HEADER, type ManifestFiles } from './generated-files';
import { SynthError } from './synth-error';

export { GENERATED_HEADER, type ManifestFiles } from './generated-files';
export { SynthError } from './synth-error';

/**
 * The files of a synthesis, and the objects each holds as Kubernetes will read them: validation checks
 * these instead of parsing the YAML it has just written (a third of the synthesis time).
 */
export class SynthesizedManifests extends Map<string, string> {
  /** File name to its objects, in document order. */
  public readonly objects = new Map<string, readonly Record<string, unknown>[]>();
}

/**
 * Builds the platform of `config` and returns its manifests, one file per chart. Nothing is written here.
 *
 * @throws SynthError listing every construct validation problem
 */
export function synthesizePlatform(config: PlatformConfig): ManifestFiles {
  const app = new App();
  try {
    new AgentPlatform(app, 'platform', { config });
  } catch (error) {
    throw new SynthError([(error as Error).message]);
  }
  return synthesizeApp(app);
}

/**
 * The manifests of any cdk8s app, one file per chart named after the chart's id, keys sorted, with the
 * generated header. The same app always gives the same bytes; each object reads back, under YAML 1.1 (what
 * Kubernetes' decoder follows) and 1.2, as exactly the object validated (constructs/model/yaml-text.ts).
 *
 * @throws SynthError listing every construct validation problem, or two charts with one id
 */
export function synthesizeApp(app: App): SynthesizedManifests {
  const problems = app.node.findAll().flatMap((construct) => construct.node.validate());
  if (problems.length > 0) throw new SynthError(problems);
  const charts = new Map<string, Record<string, unknown>[]>();
  for (const chart of app.node.findAll().filter((construct): construct is Chart => construct instanceof Chart)) {
    const fileName = `${chart.node.id}.yaml`;
    if (charts.has(fileName))
      throw new SynthError([`two charts are named "${chart.node.id}": chart ids name the output files and must be unique`]);
    const documents = chart.toJson() as Record<string, unknown>[];
    if (documents.length > 0) charts.set(fileName, documents);
  }
  const manifests = new SynthesizedManifests();
  for (const [fileName, documents] of [...charts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    manifests.set(fileName, GENERATED_HEADER + documents.map(toYamlText).join('---\n'));
    manifests.objects.set(fileName, documents);
  }
  return manifests;
}
