/**
 * The validation engine: every object read from the manifests is checked against its schema (from the
 * catalog), its metadata against the API server's rules, and the whole run against the lint rules; every
 * problem becomes a located finding with the id of the rule that found it.
 */
// @ts-nocheck

import { ANY_KIND } from './rules/object-size';
import {
  type Finding,
  fieldPath,
  type LintContext,
  parseFieldPath,
  type LintRule,
  type ManifestObject,
  type Severity,
  type Violation,
} from './finding';
import { READER_RULES } from './manifest-reader';
import { METADATA_RULES, metadataViolations } from './metadata-checks';
import type { ObjectSchema, SchemaCatalog } from './schema/schema-catalog';
import { pointerSteps, type SchemaProblem } from './schema/schema-problem';
import { byCodeUnits } from '../../constructs/model/code-unit-order';

export const SCHEMA_RULES = {
  schema: 'schema',
  cel: 'schema-cel',
  celNotEvaluated: 'schema-cel-not-evaluated',
  lintRuleFailed: 'lint-rule-failed',
} as const;

/** The checks of the engine itself (the lint rules are in `rules/`), by id, with what each catches. */
export const ENGINE_CHECKS: Readonly<Record<string, { readonly severity: Severity; readonly description: string }>> = {
  [READER_RULES.duplicateKey]: {
    severity: 'error',
    description: 'a key twice in one mapping (strict decoders reject the file; the last one is kept to check the rest)',
  },
  [READER_RULES.shape]: {
    severity: 'error',
    description: 'a document that is not a Kubernetes object (not a mapping, or no apiVersion/kind)',
  },
  [READER_RULES.characters]: {
    severity: 'error',
    description:
      'a character written raw that YAML 1.1 readers (kubectl) read otherwise than YAML 1.2 (NEL, U+2028, U+2029) or refuse (controls, C1, U+FFFE)',
  },
  [SCHEMA_RULES.schema]: {
    severity: 'error',
    description: 'the object against its schema, unknown fields rejected (kubectl --validate=strict, argo lint)',
  },
  [SCHEMA_RULES.cel]: { severity: 'error', description: "a CRD's CEL rule (x-kubernetes-validations) the API server would enforce" },
  [SCHEMA_RULES.celNotEvaluated]: {
    severity: 'warning',
    description: 'a CEL rule in a --crds CRD that agent-play cannot evaluate (said, never passed silently)',
  },
  [METADATA_RULES.name]: {
    severity: 'error',
    description: "metadata.name / generateName against the kind's naming rule (DNS label, subdomain, path segment)",
  },
  [METADATA_RULES.labels]: {
    severity: 'error',
    description: 'metadata.labels keys and values legal (strings, at most 63 characters, the allowed characters)',
  },
  [METADATA_RULES.annotations]: { severity: 'error', description: 'metadata.annotations keys legal and values strings' },
  [SCHEMA_RULES.lintRuleFailed]: {
    severity: 'warning',
    description: 'a lint rule broke on an odd object: reported instead of a stack trace',
  },
};

/** What an object was checked against. */
export interface CheckedObject {
  readonly file: string;
  readonly line?: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** The schema's source, or `undefined` when no schema knows the object's apiVersion and kind. */
  readonly schema?: string;
  /** Why the object was not checked (`--skip Deployment`), when it was not. */
  readonly skipped?: string;
}

/** What `validateObjects` found: every object checked and every finding. */
export interface ValidationReport {
  /** Errors first, then warnings; each in file, line, object, path order. */
  readonly findings: readonly Finding[];
  readonly objects: readonly CheckedObject[];
  readonly errors: number;
  readonly warnings: number;
  /** The rules and checks that were turned off (`--disable`), sorted; none when absent. */
  readonly disabledRules?: readonly string[];
}

/** What `validateObjects` checks: the objects read from manifests, and the schemas to check them against. */
export interface ValidationInput {
  readonly objects: readonly ManifestObject[];
  /** Findings of reading the files (duplicate keys, documents that are not objects). @default none */
  readonly readingFindings?: readonly Finding[];
  readonly catalog: SchemaCatalog;
  readonly rules: readonly LintRule[];
  /**
   * Why an object is not to be checked (`--skip`), or `undefined` to check it. A skipped object gets no
   * finding, but lint rules still see it when they look across objects. @default every object checked
   */
  readonly skip?: (object: ManifestObject) => string | undefined;
  /** Rule and check ids whose findings are left out (`--disable`); those lint rules do not run. @default none */
  readonly disabledRules?: ReadonlySet<string>;
}

/** Validates a run of objects. Never throws for a problem in the objects: every problem is a finding. */
export function validateObjects(input: ValidationInput): ValidationReport {
  const findings: Finding[] = [...(input.readingFindings ?? [])];
  const objects: CheckedObject[] = [];
  const context: LintContext = { objects: input.objects };
  const skipped = new Set<ManifestObject>();
  for (const target of input.objects) {
    const reason = input.skip?.(target);
    if (reason !== undefined) {
      skipped.add(target);
      objects.push(checkedObject(target, undefined, reason));
      continue;
    }
    const schema = input.catalog.schemaFor(target.object);
    objects.push(checkedObject(target, schema));
    if (schema) findings.push(...schema.validate(target.object).map((problem) => schemaFinding(target, problem)));
    for (const violation of metadataViolations(target)) findings.push(locate(target, violation, violation.rule, 'error'));
  }
  const disabled = input.disabledRules ?? new Set<string>();
  for (const rule of input.rules) if (!disabled.has(rule.id)) findings.push(...runRule(rule, context, skipped));
  const onSkipped = new Set([...skipped].map((object) => `${object.file}|${object.kind}|${object.name}`));
  const kept = findings.filter(
    (finding) => !disabled.has(finding.rule) && (onSkipped.size === 0 || !onSkipped.has(`${finding.file}|${finding.kind}|${finding.name}`)),
  );
  return report(kept, objects, [...disabled].sort());
}

function checkedObject(target: ManifestObject, schema: ObjectSchema | undefined, skipped?: string): CheckedObject {
  return {
    file: target.file,
    line: target.line,
    apiVersion: String(target.object.apiVersion),
    kind: target.kind,
    name: target.name,
    schema: schema?.source,
    ...(skipped === undefined ? {} : { skipped }),
  };
}

function runRule(rule: LintRule, context: LintContext, skipped: ReadonlySet<ManifestObject>): Finding[] {
  const findings: Finding[] = [];
  for (const target of context.objects) {
    if (!rule.kinds.includes(target.kind) && !rule.kinds.includes(ANY_KIND)) continue;
    if (skipped.has(target)) continue;
    try {
      for (const violation of rule.check(target, context)) {
        // A cross-object rule may locate its finding on another object: not on a skipped one.
        if (violation.object && skipped.has(violation.object)) continue;
        findings.push(locate(violation.object ?? target, violation, rule.id, rule.severity));
      }
    } catch (error) {
      // A rule that breaks on an odd object must not hide the other findings nor end in a stack trace.
      const message = `lint rule ${rule.id} could not check this object (${(error as Error).message}); please report it`;
      findings.push(locate(target, { path: '', message }, SCHEMA_RULES.lintRuleFailed, 'warning'));
    }
  }
  return findings;
}

function locate(target: ManifestObject, violation: Violation, rule: string, severity: Severity): Finding {
  const steps = violation.path === '' ? undefined : parseFieldPath(violation.path);
  const line = (steps && target.lineOf?.(steps)) ?? target.line;
  return {
    file: target.file,
    kind: target.kind,
    name: target.name,
    path: violation.path,
    message: violation.message,
    rule,
    severity: violation.severity ?? severity,
    line,
  };
}

function schemaFinding(target: ManifestObject, problem: SchemaProblem): Finding {
  const steps = pointerSteps(problem.pointer, target.object);
  if (problem.unknownField !== undefined) {
    const message = 'unknown field: not in the schema (the API server would drop it; kubectl --validate=strict and argo lint reject it)';
    return locate(target, { path: fieldPath(...steps, problem.unknownField), message }, SCHEMA_RULES.schema, 'error');
  }
  const rule = problem.kind === 'schema' ? SCHEMA_RULES.schema : problem.kind === 'cel' ? SCHEMA_RULES.cel : SCHEMA_RULES.celNotEvaluated;
  return locate(
    target,
    { path: fieldPath(...steps), message: problem.message },
    rule,
    problem.kind === 'cel-not-evaluated' ? 'warning' : 'error',
  );
}

const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { error: 0, warning: 1 };

/** Code-unit order, the same on every machine whatever its locale. */
const compareText = byCodeUnits;

function compareFindings(a: Finding, b: Finding): number {
  return (
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    compareText(a.file, b.file) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareText(a.kind, b.kind) ||
    compareText(a.name, b.name) ||
    compareText(a.path, b.path) ||
    compareText(a.rule, b.rule) ||
    compareText(a.message, b.message)
  );
}

function report(findings: readonly Finding[], objects: readonly CheckedObject[], disabledRules: readonly string[]): ValidationReport {
  const unique = [...new Map(findings.map((finding) => [JSON.stringify(finding), finding])).values()].sort(compareFindings);
  const errors = unique.filter((finding) => finding.severity === 'error').length;
  return { findings: unique, objects, errors, warnings: unique.length - errors, ...(disabledRules.length > 0 ? { disabledRules } : {}) };
}
