/**
 * The checks of `agent-play validate` inside a user's own cdk8s app: `validatePlatform(app)` adds a cdk8s
 * validation (`node.addValidation`) that `app.synth()` runs before it writes anything (cdk8s 2.x `App.synth`
 * validates every construct first and throws with every message), so an app that composes its own platform
 * gets the same schema, metadata and lint checks as `agent-play synth`.
 */
import { App, Chart } from 'cdk8s';
import { Construct, type IConstruct } from 'constructs';
import { chartFileNames, chartObjects } from './chart-files';
import { validateObjects, type ValidationReport } from './engine';
import { formatFinding, type Finding, type ManifestObject } from './finding';
import { manifestObject } from './manifest-reader';
import { LINT_RULES } from './rules';
import { SchemaCatalog } from './schema/schema-catalog';

/** Options of `validatePlatform`. */
export interface ValidatePlatformOptions {
  /**
   * The schemas objects are checked against.
   * @default the built-in ones (Argo Workflows and Argo Events, CodeRun, the core kinds agent-play emits)
   */
  readonly catalog?: SchemaCatalog;
  /**
   * Where warnings go (they never fail the synthesis).
   * @default printed on stderr
   */
  readonly onWarning?: (line: string) => void;
}

/** The construct that carries the validation: cdk8s starts each message with its path in brackets. */
const VALIDATION_ID = 'agent-play validate';

/**
 * Checks every chart under `scope` as `agent-play validate` checks files, each object named by the file the
 * app's `synth()` writes it to. Objects of different namespaces are checked apart (what references what in
 * Argo, a Sensor's EventSource, a template's templateRef, stays inside a namespace), objects without one
 * (cluster-scoped) with each.
 */
export function validateCharts(scope: IConstruct, catalog: SchemaCatalog = SchemaCatalog.builtIn()): ValidationReport {
  const app = App.of(scope);
  const files = app instanceof App ? chartFileNames(app) : new Map<Chart, string>();
  const objects: ManifestObject[] = [];
  for (const chart of scope.node.findAll().filter((construct): construct is Chart => construct instanceof Chart)) {
    const file = files.get(chart) ?? `${chart.node.id}.yaml`;
    chartObjects(chart).forEach((apiObject, index) => {
      // A folder per chart holds a file per object (`Kind.name` plus the extension).
      const objectFile = file.endsWith('/') ? `${file}${apiObject.kind}.${apiObject.name}${(app as App).outputFileExtension}` : file;
      const object = manifestObject(objectFile, index, undefined, apiObject.toJson());
      if (object) objects.push(object);
    });
  }
  const namespaces = [...new Set(objects.map((object) => object.namespace).filter((namespace) => namespace !== undefined))];
  if (namespaces.length <= 1) return validateObjects({ objects, catalog, rules: LINT_RULES });
  const clusterWide = objects.filter((object) => object.namespace === undefined);
  return mergedReport(
    namespaces.map((namespace) =>
      validateObjects({
        objects: [...objects.filter((object) => object.namespace === namespace), ...clusterWide],
        catalog,
        rules: LINT_RULES,
      }),
    ),
  );
}

/** The reports of several object sets as one: a finding on a cluster-scoped object, checked with each set, once. */
function mergedReport(reports: readonly ValidationReport[]): ValidationReport {
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const finding of reports.flatMap((report) => report.findings)) {
    const key = formatFinding(finding);
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push(finding);
  }
  findings.sort((a, b) => Number(a.severity === 'warning') - Number(b.severity === 'warning'));
  const objects = [...new Set(reports.flatMap((report) => report.objects))];
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  return { findings, objects, errors, warnings: findings.length - errors };
}

/**
 * Makes `app.synth()` (or the synthesis of any scope) fail on what `agent-play validate` would report as an
 * error, one message per finding, each naming the file the app writes; warnings are reported through
 * `onWarning`.
 *
 * @example
 * const app = new App();
 * new AgentPlatform(app, 'platform');
 * validatePlatform(app);
 * app.synth();
 */
export function validatePlatform(scope: IConstruct, options: ValidatePlatformOptions = {}): void {
  const onWarning = options.onWarning ?? ((line: string) => process.stderr.write(`${line}\n`));
  const carrier = scope.node.tryFindChild(VALIDATION_ID) ?? new Construct(scope, VALIDATION_ID);
  const check = (): string[] => {
    const report = validateCharts(scope, options.catalog);
    for (const finding of report.findings) if (finding.severity === 'warning') onWarning(`warning: ${formatFinding(finding)}`);
    return report.findings.filter((finding) => finding.severity === 'error').map(formatFinding);
  };
  let kept: { readonly constructs: number; readonly errors: string[] } | undefined;
  carrier.node.addValidation({
    // cdk8s runs every validation of the app again for each chart it writes (`Chart.toJson` calls
    // `App._synthChart`, which validates the whole app): the default platform's 14 charts checked it 15
    // times, half of what validatePlatform cost, and printed each warning 15 times. One synthesis checks it
    // once: the errors are kept until the synthesis (one synchronous run) is over, and only while the app
    // holds as many constructs as when it was checked.
    validate: () => {
      const constructs = scope.node.findAll().length;
      if (kept === undefined || kept.constructs !== constructs) {
        kept = { constructs, errors: check() };
        queueMicrotask(() => {
          kept = undefined;
        });
      }
      return kept.errors;
    },
  });
}
