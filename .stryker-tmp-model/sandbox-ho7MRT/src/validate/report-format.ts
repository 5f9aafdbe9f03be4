/**
 * The two forms of a validation report. Text: one line per finding (errors, then warnings), then what each
 * object was checked against (a summary, or one line per object with `--verbose`), then the counts. JSON:
 * one document with the same content, for CI annotations and editors.
 */
// @ts-nocheck

import { formatFinding } from './finding';
import type { CheckedObject, ValidationReport } from './engine';
import { byCodeUnits } from '../../constructs/model/code-unit-order';

/** What the report says for an object that no schema knows. */
export const NO_SCHEMA = 'no schema (pass --crds DIR with the CRDs exported from your cluster)';

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The report as text for a terminal: one line per finding, then a summary; `verbose` lists every object checked. */
export function formatTextReport(report: ValidationReport, options: { readonly verbose?: boolean } = {}): string {
  const lines: string[] = [];
  const errors = report.findings.filter((finding) => finding.severity === 'error');
  const warnings = report.findings.filter((finding) => finding.severity === 'warning');
  if (errors.length > 0) lines.push('errors:', ...errors.map((finding) => `  ${formatFinding(finding)}`));
  if (warnings.length > 0) lines.push('warnings:', ...warnings.map((finding) => `  ${formatFinding(finding)}`));
  const checked = report.objects.filter((object) => object.skipped === undefined);
  lines.push(
    options.verbose ? 'checked against:' : 'schemas:',
    ...(options.verbose ? objectLines(report.objects) : schemaSummary(checked)),
  );
  if (!options.verbose) lines.push(...skippedSummary(report.objects));
  if (report.disabledRules && report.disabledRules.length > 0) lines.push(`rules disabled (--disable): ${report.disabledRules.join(', ')}`);
  const files = new Set(report.objects.map((object) => object.file)).size;
  lines.push(
    `${plural(report.objects.length, 'object')} in ${plural(files, 'file')}: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`,
  );
  return `${lines.join('\n')}\n`;
}

function objectLines(objects: readonly CheckedObject[]): string[] {
  return objects.map(
    (object) =>
      `  ${object.file}: ${object.kind}/${object.name || '?'}: ${object.skipped ? `not checked (${object.skipped})` : (object.schema ?? NO_SCHEMA)}`,
  );
}

/** The objects left unchecked, by the option that left them out. */
function skippedSummary(objects: readonly CheckedObject[]): string[] {
  const byReason = new Map<string, number>();
  for (const object of objects) if (object.skipped !== undefined) byReason.set(object.skipped, (byReason.get(object.skipped) ?? 0) + 1);
  if (byReason.size === 0) return [];
  return [
    'not checked:',
    ...[...byReason.entries()].sort(([a], [b]) => byCodeUnits(a, b)).map(([reason, count]) => `  ${reason}: ${plural(count, 'object')}`),
  ];
}

/** Each schema once, with how many objects it checked and of which kinds. */
function schemaSummary(objects: readonly CheckedObject[]): string[] {
  const bySource = new Map<string, { count: number; kinds: Set<string> }>();
  for (const object of objects) {
    const source = object.schema ?? NO_SCHEMA;
    const entry = bySource.get(source) ?? { count: 0, kinds: new Set<string>() };
    entry.count += 1;
    entry.kinds.add(object.kind);
    bySource.set(source, entry);
  }
  return [...bySource.entries()]
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(([source, entry]) => `  ${source}: ${plural(entry.count, 'object')} (${[...entry.kinds].sort().join(', ')})`);
}

/**
 * The JSON form: `{ findings, objects, summary }`, every object with its `schema` (`null` for none) and, when
 * `--skip` left it out, `skipped` (why); `disabledRules` when `--disable` turned rules off.
 */
export function formatJsonReport(report: ValidationReport): string {
  const document = {
    findings: report.findings,
    objects: report.objects.map((object) => ({ ...object, schema: object.schema ?? null })),
    summary: { objects: report.objects.length, errors: report.errors, warnings: report.warnings },
    ...(report.disabledRules ? { disabledRules: report.disabledRules } : {}),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
