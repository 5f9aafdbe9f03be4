/**
 * A cdk8s app's synthesis into manifest files, apart from the platform (synthesize.ts): what any app,
 * the benchmark's minimal one among them, writes without loading agent-play's constructs.
 */
// @ts-nocheck

import { ApiObject, Chart, DependencyGraph, type App } from 'cdk8s';
import { toYamlText, YamlValueError } from '../../constructs/model/yaml-text';
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
 * @throws SynthError listing every construct validation problem, two charts with one id, or a value no YAML
 *   reader and no Kubernetes object reads back as itself (a lone surrogate, NaN), at its file, object and path
 */
export function synthesizeApp(app: App): SynthesizedManifests {
  const problems = app.node.findAll().flatMap((construct) => construct.node.validate());
  if (problems.length > 0) throw new SynthError(problems);
  const charts = new Map<string, Record<string, unknown>[]>();
  const allCharts = app.node.findAll().filter((construct): construct is Chart => construct instanceof Chart);
  for (const [index, chart] of allCharts.entries()) {
    const fileName = `${chart.node.id}.yaml`;
    if (charts.has(fileName))
      throw new SynthError([`two charts are named "${chart.node.id}": chart ids name the output files and must be unique`]);
    const documents = index === 0 ? (chart.toJson() as Record<string, unknown>[]) : chartObjects(chart);
    if (documents.length > 0) charts.set(fileName, documents);
  }
  const manifests = new SynthesizedManifests();
  for (const [fileName, documents] of [...charts.entries()].sort(([a], [b]) => byCodeUnits(a, b))) {
    manifests.set(fileName, GENERATED_HEADER + documents.map((document) => documentText(fileName, document)).join('---\n'));
    manifests.objects.set(fileName, documents);
  }
  return manifests;
}

/** One object's YAML; a value that cannot be written is refused naming the file, the object and the field. */
function documentText(fileName: string, document: Record<string, unknown>): string {
  try {
    return toYamlText(document);
  } catch (error) {
    if (!(error instanceof YamlValueError)) throw error;
    const metadata = (document.metadata ?? {}) as Record<string, unknown>;
    throw new SynthError([`${fileName}: ${String(document.kind)} ${String(metadata.name)}: ${error.message}`]);
  }
}

/**
 * The objects of a chart as `chart.toJson()` gives them once the app is prepared. cdk8s's toJson prepares the
 * whole app (chart dependencies from construct dependencies) and runs every construct's validations before it
 * renders one chart (`App._synthChart` in cdk8s `src/app.ts`): the platform's eleven charts did that eleven
 * times, a tenth of a thousand-repository synthesis. The first chart's toJson prepares the app for all; the
 * others are rendered as `_synthChart` renders them (its `chartToKube`): the chart's ApiObjects in dependency
 * order, each only in its closest chart. test/synth-output.test.ts holds this equal to `chart.toJson()`.
 */
export function chartObjects(chart: Chart): Record<string, unknown>[] {
  return new DependencyGraph(chart.node)
    .topology()
    .filter((construct): construct is ApiObject => construct instanceof ApiObject && Chart.of(construct) === chart)
    .map((object) => object.toJson() as Record<string, unknown>);
}
