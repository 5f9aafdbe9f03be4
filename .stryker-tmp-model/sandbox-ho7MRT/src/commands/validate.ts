// @ts-nocheck
import { ENGINE_CHECKS, validateObjects } from '../validate/engine';
import type { ManifestObject } from '../validate/finding';
import { readManifestPaths } from '../validate/manifest-files';
import { formatJsonReport, formatTextReport } from '../validate/report-format';
import { LINT_RULES } from '../validate/rules';
import { SchemaCatalog, SchemaSourceError } from '../validate/schema/schema-catalog';
import { disabledRules, SelectionError, skipSelector } from '../validate/selection';
import { type Command, ExitCode, InputError, type Io, printUsage, UsageError } from './command';
import { formatOption, formatOptions, HELP, type OptionSpec, parseOptions } from './options';

const DEFAULT_PATH = 'dist-manifests';

const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'crds',
    value: 'DIR',
    multiple: true,
    complete: 'directory',
    description: `schemas: CRDs as exported from a cluster (kubectl get crd NAME -o yaml), and JSON Schema
files such as Argo Events' argo-events.schema.json; they override the
built-in schemas per kind. Built in: Argo Workflows v4.1.2 CRDs, Argo Events v1.9.11
JSON Schema, CodeRun, and the Kubernetes v1.37.2 OpenAPI of every stable built-in kind`,
  },
  {
    name: 'skip',
    value: 'KIND',
    multiple: true,
    description: `leave objects of this kind unchecked: Kind, group/Kind (core/Pod) or apiVersion/Kind;
the report says what was skipped`,
  },
  {
    name: 'disable',
    value: 'RULE',
    multiple: true,
    description: 'turn off a lint rule or check by its id (docs/lint-rules.md, docs/validate.md)',
  },
  formatOption(),
  { name: 'verbose', description: 'list what each object was checked against' },
  HELP,
];

const USAGE = `Usage: agent-play validate [PATH...] [--crds DIR]... [--skip KIND]... [--disable RULE]... [--format text|json] [--verbose]

Checks Kubernetes manifests offline: Workflows, WorkflowTemplates, ClusterWorkflowTemplates, CronWorkflows,
Sensors, EventSources, EventBuses, CodeRuns and every stable built-in Kubernetes kind. Each object is checked
against its schema (unknown fields rejected), its metadata against the API server's rules, and the whole set
against agent-play's lint rules (Argo semantics the schemas cannot express, and what must agree across objects).

Arguments:
  PATH             files, or folders searched for *.yaml, *.yml and *.json (default: ${DEFAULT_PATH})

${formatOptions(OPTIONS)}
Exit codes: 0 no error (warnings alone are fine), 1 errors found, 2 unusable input.
`;

function run(args: string[], io: Io): number {
  const options = parseOptions(OPTIONS, args);
  if (options.flag('help')) return printUsage(io, USAGE);
  const catalog = loadCatalog(options.list('crds'));
  const paths = options.positionals.length > 0 ? [...options.positionals] : [DEFAULT_PATH];
  const manifests = readManifestPaths(paths);
  const { skip, disabled } = selection(options.list('skip'), options.list('disable'), catalog, manifests.objects);
  const report = validateObjects({
    objects: manifests.objects,
    readingFindings: manifests.findings,
    catalog,
    rules: LINT_RULES,
    skip,
    disabledRules: disabled,
  });
  io.out(options.string('format') === 'json' ? formatJsonReport(report) : formatTextReport(report, { verbose: options.flag('verbose') }));
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
  options: OPTIONS,
  run,
};
