/**
 * `agent-play validate` as a library: read manifests as Kubernetes reads them, check them against schemas
 * and the lint rules, and format the report. The command (`src/commands/validate.ts`) is a thin layer on this.
 */
export { ENGINE_CHECKS, validateObjects, type CheckedObject, type ValidationInput, type ValidationReport } from './engine';
export { fieldPath, formatFinding, type Finding, type LintContext, type LintRule, type ManifestObject, type Severity, type Violation } from './finding';
export { readKubernetesYaml, YamlSyntaxError } from './kubernetes-yaml';
export { readManifestPaths, type ManifestSet } from './manifest-files';
export { readManifestText } from './manifest-reader';
export { formatJsonReport, formatTextReport } from './report-format';
export { LINT_RULES } from './rules';
export { SchemaCatalog, SchemaSourceError, type ObjectSchema } from './schema/schema-catalog';
export { validateManifestTexts } from './validate-texts';
