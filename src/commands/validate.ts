import { parseArgs } from 'node:util';
import { ENGINE_CHECKS, validateObjects } from '../validate/engine';
import type { ManifestObject } from '../validate/finding';
import { readManifestPaths } from '../validate/manifest-files';
import { formatJsonReport, formatTextReport } from '../validate/report-format';
import { LINT_RULES } from '../validate/rules';
import { SchemaCatalog, SchemaSourceError } from '../validate/schema/schema-catalog';
import { disabledRules, SelectionError, skipSelector } from '../validate/selection';
import { type Command, ExitCode, HELP_OPTION, InputError, type Io, printUsage, UsageError } from './command';

const DEFAULT_PATH = 'dist-manifests';

const USAGE = `Usage: agent-play validate [PATH...] [--crds DIR]... [--skip KIND]... [--disable RULE]... [--format text|json] [--verbose]

Checks Kubernetes manifests offline: Workflows, WorkflowTemplates, ClusterWorkflowTemplates, CronWorkflows,
Sensors, EventSources, EventBuses, CodeRuns and every stable built-in Kubernetes kind. Each object is checked against its schema
(unknown fields rejected), its metadata against the API server's rules, and the whole set against
agent-play's lint rules (Argo semantics the schemas cannot express, and what must agree across objects).

Arguments:
  PATH             files, or folders searched for *.yaml, *.yml and *.json (default: ${DEFAULT_PATH})

Options:
  --crds DIR       schemas: CRDs as exported from a cluster (kubectl get crd NAME -o yaml), and JSON Schema
                   files such as Argo Events' argo-events.schema.json; repeatable; they override the
                   built-in schemas per kind. Built in: Argo Workflows v4.1.2 CRDs, Argo Events v1.9.11
                   JSON Schema, CodeRun, and the Kubernetes v1.37.2 OpenAPI of every stable built-in kind
  --skip KIND      leave objects of this kind unchecked: Kind, group/Kind (core/Pod) or apiVersion/Kind;
                   repeatable; the report says what was skipped
  --disable RULE   turn off a lint rule or check by its id (docs/lint-rules.md, docs/validate.md); repeatable
  --format FORMAT  text (default) or json
  --verbose        list what each object was checked against
  -h, --help       show this help

Exit codes: 0 no error (warnings alone are fine), 1 errors found, 2 unusable input.
`;

const FORMATS = ['text', 'json'] as const;

function run(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args,
    options: {
      crds: { type: 'string', multiple: true, default: [] },
      skip: { type: 'string', multiple: true, default: [] },
      disable: { type: 'string', multiple: true, default: [] },
      format: { type: 'string', default: 'text' },
      verbose: { type: 'boolean' },
      ...HELP_OPTION,
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return printUsage(io, USAGE);
  const format = values.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new UsageError(`--format: expected one of ${FORMATS.join(', ')}, got "${values.format}"`);
  const catalog = loadCatalog(values.crds);
  const manifests = readManifestPaths(positionals.length > 0 ? positionals : [DEFAULT_PATH]);
  const { skip, disabled } = selection(values.skip, values.disable, catalog, manifests.objects);
  const report = validateObjects({
    objects: manifests.objects,
    readingFindings: manifests.findings,
    catalog,
    rules: LINT_RULES,
    skip,
    disabledRules: disabled,
  });
  io.out(format === 'json' ? formatJsonReport(report) : formatTextReport(report, { verbose: values.verbose }));
  return report.errors > 0 ? ExitCode.failed : ExitCode.ok;
}

function selection(skipped: readonly string[], disable: readonly string[], catalog: SchemaCatalog, objects: readonly ManifestObject[]) {
  try {
    return {
      skip: skipSelector(skipped, { schemaKinds: catalog.kinds, objects }),
      disabled: disabledRules(disable, [...LINT_RULES.map((rule) => rule.id), ...Object.keys(ENGINE_CHECKS)]),
    };
  } catch (error) {
    if (error instanceof SelectionError) throw new UsageError(error.message);
    throw error;
  }
}

function loadCatalog(directories: readonly string[]): SchemaCatalog {
  if (directories.length === 0) return SchemaCatalog.builtIn();
  try {
    return SchemaCatalog.fromDirectories(directories);
  } catch (error) {
    if (error instanceof SchemaSourceError) throw new InputError([`--crds ${error.message}`]);
    throw error;
  }
}

export const validateCommand: Command = {
  name: 'validate',
  summary: 'check manifests offline: schemas (unknown fields rejected), metadata and Argo lint rules',
  usage: USAGE,
  run,
};
