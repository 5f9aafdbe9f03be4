/**
 * The checks of `agent-play validate` inside a user's own cdk8s app: `validatePlatform(app)` adds a cdk8s
 * validation (`node.addValidation`) that `app.synth()` runs before it writes anything (cdk8s 2.x `App.synth`
 * validates every construct first and throws with every message), so an app that composes its own platform
 * gets the same schema, metadata and lint checks as `agent-play synth`.
 */
import { Chart } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { validateObjects, type ValidationReport } from './engine';
import { formatFinding, type ManifestObject } from './finding';
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

/**
 * Checks every chart under `scope` as `agent-play validate` checks files. Each chart is named
 * `<chart id>.yaml` in findings, as `agent-play synth` names its files.
 */
export function validateCharts(scope: IConstruct, catalog: SchemaCatalog = SchemaCatalog.builtIn()): ValidationReport {
  const objects: ManifestObject[] = [];
  for (const chart of scope.node.findAll().filter((construct): construct is Chart => construct instanceof Chart)) {
    chart.toJson().forEach((document, index) => {
      const object = manifestObject(`${chart.node.id}.yaml`, index, undefined, document);
      if (object) objects.push(object);
    });
  }
  return validateObjects({ objects, catalog, rules: LINT_RULES });
}

/**
 * Makes `app.synth()` (or the synthesis of any scope) fail on what `agent-play validate` would report as an
 * error, one message per finding; warnings are reported through `onWarning`.
 *
 * @example
 * const app = new App();
 * new AgentPlatform(app, 'platform');
 * validatePlatform(app);
 * app.synth();
 */
export function validatePlatform(scope: IConstruct, options: ValidatePlatformOptions = {}): void {
  const onWarning = options.onWarning ?? ((line: string) => process.stderr.write(`${line}\n`));
  // cdk8s's Chart.toJson() validates the whole app first, which runs this validation again: the nested
  // run has nothing to add.
  let running = false;
  scope.node.addValidation({
    validate: () => {
      if (running) return [];
      running = true;
      try {
        const report = validateCharts(scope, options.catalog);
        for (const finding of report.findings) if (finding.severity === 'warning') onWarning(`warning: ${formatFinding(finding)}`);
        return report.findings.filter((finding) => finding.severity === 'error').map(formatFinding);
      } finally {
        running = false;
      }
    },
  });
}
