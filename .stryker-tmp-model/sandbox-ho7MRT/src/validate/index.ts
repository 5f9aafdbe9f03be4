/**
 * `agent-play validate` as a library (`cdk8s-agent-play/validate`): read manifests as Kubernetes reads them,
 * check them against schemas (the built-in Argo ones with no option) and the lint rules, and format the
 * report; `validatePlatform(app)` runs the same checks at a user's own `app.synth()`. The command
 * (`src/commands/validate.ts`) is a thin layer on this.
 */
// @ts-nocheck

export { ENGINE_CHECKS, validateObjects, type CheckedObject, type ValidationInput, type ValidationReport } from './engine';
export {
  fieldPath,
  formatFinding,
  type Finding,
  type LintContext,
  type LintRule,
  type ManifestObject,
  type Severity,
  type Violation,
} from './finding';
export { readKubernetesYaml, YamlSyntaxError } from './kubernetes-yaml';
export { readManifestPaths, type ManifestSet } from './manifest-files';
export { readManifestText } from './manifest-reader';
export { formatJsonReport, formatTextReport } from './report-format';
export { LINT_RULES } from './rules';
export { validateCharts, validatePlatform, type ValidatePlatformOptions } from './platform-validation';
export { BUILT_IN_ARGO_VERSIONS } from './schema/argo-built-in';
export { SchemaCatalog, SchemaSourceError, type ObjectSchema } from './schema/schema-catalog';
export { validateManifestTexts } from './validate-texts';
