/**
 * A cdk8s app's synthesis into manifest files, apart from the platform (synthesize.ts): what any app,
 * the benchmark's minimal one among them, writes without loading agent-play's constructs.
 */
import { Chart, type App } from 'cdk8s';
import { toYamlText } from '../../constructs/model/yaml-text';
import { GENERATED_HEADER } from './generated-files';
import { SynthError } from './synth-error';
import { byCodeUnits } from '../../constructs/model/code-unit-order';

/**
 * The files of a synthesis, and the objects each holds as Kubernetes will read them: validation checks
 * these instead of parsing the YAML it has just written (a third of the synthesis time).
 */
export class SynthesizedManifests extends Map<string, string> {
  /** File name to its objects, in document order. */
  public readonly objects = new Map<string, readonly Record<string, unknown>[]>();
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
  for (const [fileName, documents] of [...charts.entries()].sort(([a], [b]) => byCodeUnits(a, b))) {
    manifests.set(fileName, GENERATED_HEADER + documents.map(toYamlText).join('---\n'));
    manifests.objects.set(fileName, documents);
  }
  return manifests;
}
