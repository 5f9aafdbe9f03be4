/**
 * What `agent-play validate` reports: findings, each tied to one object of one file, at a field path, with
 * the stable id of the rule that found it. Schema checks, YAML reading and lint rules all report this shape,
 * so the text and JSON outputs never differ in content.
 */
// @ts-nocheck


export type Severity = 'error' | 'warning';

/** One Kubernetes object read from a manifest file. */
export interface ManifestObject {
  /** The file as the user named it (relative paths stay relative). */
  readonly file: string;
  /** The 0-based position of the document in its file. */
  readonly index: number;
  /** The 1-based line where the document starts, when known. */
  readonly line?: number;
  /** The object as Kubernetes reads it (YAML 1.1 scalars, last duplicate key wins). */
  readonly object: Record<string, any>;
  /** `kind`, or `''` when absent. */
  readonly kind: string;
  /** `metadata.name` (or `metadata.generateName`), or `''` when absent. */
  readonly name: string;
  /** `metadata.namespace`, when set. */
  readonly namespace?: string;
  /** The 1-based line of a field of the object (path steps as `fieldPath` takes them), when known. */
  readonly lineOf?: (path: readonly (string | number)[]) => number | undefined;
}

/** A problem a rule finds in one object, before the engine ties it to the file and the object. */
export interface Violation {
  /**
   * The field, as a dotted path with list indexes, e.g. `spec.templates[2].dag.tasks[0].depends`;
   * `''` for the object as a whole.
   */
  readonly path: string;
  /** What is wrong and, where it helps, what to change. One line. */
  readonly message: string;
  /** @default the rule's severity */
  readonly severity?: Severity;
  /** The object the problem is in, for cross-object rules that blame another object. @default the object checked */
  readonly object?: ManifestObject;
}

/** A located, attributed problem: one line of output. */
export interface Finding {
  readonly file: string;
  readonly kind: string;
  readonly name: string;
  readonly path: string;
  readonly message: string;
  /** The stable id of the rule, e.g. `dag-depends-mixed` or `schema`. */
  readonly rule: string;
  readonly severity: Severity;
  /** The 1-based line of the field in the file, or else of the object, when known. */
  readonly line?: number;
}

/** The context every lint rule sees: all objects of one run, for cross-object rules. */
export interface LintContext {
  readonly objects: readonly ManifestObject[];
}

/** A lint rule: Argo semantics the schemas cannot express. */
export interface LintRule {
  /** Stable, kebab-case, never reused for another meaning: users filter and suppress by it. */
  readonly id: string;
  readonly severity: Severity;
  /** One line: what the rule guards against. */
  readonly description: string;
  /** The kinds the rule checks; the engine calls `check` once per object of these kinds. */
  readonly kinds: readonly string[];
  readonly check: (target: ManifestObject, context: LintContext) => Violation[];
}

/** Joins a field path: `fieldPath('spec', 'templates', 2, 'name')` is `spec.templates[2].name`. */
export function fieldPath(...parts: readonly (string | number)[]): string {
  let text = '';
  for (const part of parts) {
    if (typeof part === 'number') text += `[${part}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) text += text === '' ? part : `.${part}`;
    else text += `[${JSON.stringify(part)}]`;
  }
  return text;
}

/**
 * The steps of a path `fieldPath` wrote: `spec.templates[2]["a.b"]` is `spec`, `templates`, 2, `a.b`.
 * @returns `undefined` for text that is not such a path
 */
export function parseFieldPath(path: string): (string | number)[] | undefined {
  const steps: (string | number)[] = [];
  const token = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let at = 0;
  while (at < path.length) {
    token.lastIndex = at;
    const match = token.exec(path);
    if (!match) return undefined;
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else steps.push(JSON.parse(match[3]) as string);
    at = token.lastIndex;
  }
  return steps;
}

/** The text form: `FILE: Kind/name: field.path: message [rule-id]`. */
export function formatFinding(finding: Finding): string {
  const object = `${finding.kind || '?'}/${finding.name || '?'}`;
  const where = finding.path === '' ? '' : `${finding.path}: `;
  return `${finding.file}: ${object}: ${where}${finding.message} [${finding.rule}]`;
}
