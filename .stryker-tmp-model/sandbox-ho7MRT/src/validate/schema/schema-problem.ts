/**
 * What a schema check finds, before it becomes a located finding: a JSON pointer into the object and a
 * message. Kept apart from findings so that the tests' terse form (`/spec/x: message`) and the command's form
 * (`spec.x: message [schema]`) come from the same problems.
 */
// @ts-nocheck

import type { ErrorObject } from 'ajv';

export type SchemaProblemKind =
  /** A JSON Schema / OpenAPI rule. */
  | 'schema'
  /** A CRD's CEL rule (`x-kubernetes-validations`). */
  | 'cel'
  /** A CEL rule that this package cannot evaluate: reported, never silently passed. */
  | 'cel-not-evaluated';

export interface SchemaProblem {
  /** The JSON pointer of the offending value; `''` for the object itself. */
  readonly pointer: string;
  readonly message: string;
  readonly kind: SchemaProblemKind;
  /** For an unknown field: its name (the pointer is then its parent's). */
  readonly unknownField?: string;
}

/** `<pointer>: <message>`, the terse form. */
export const problemLine = (problem: SchemaProblem): string => `${problem.pointer || '/'}: ${problem.message}`;

/** One problem per ajv error, with the detail that makes it readable, without repeats. */
export function ajvProblems(errors: readonly ErrorObject[] | null | undefined): SchemaProblem[] {
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const error of errors ?? []) {
    const problem = ajvProblem(error);
    const key = problemLine(problem);
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

function ajvProblem(error: ErrorObject): SchemaProblem {
  const params = error.params as Record<string, any>;
  const base = { pointer: error.instancePath, kind: 'schema' as const };
  switch (error.keyword) {
    case 'additionalProperties':
      return { ...base, message: `${error.message} (${params.additionalProperty})`, unknownField: String(params.additionalProperty) };
    case 'enum':
      return {
        ...base,
        message: `${error.message} (${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')})`,
      };
    case 'const':
      return { ...base, message: `${error.message} (${JSON.stringify(params.allowedValue)})` };
    default:
      return { ...base, message: error.message ?? error.keyword };
  }
}

export const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (token: string): string => token.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The steps of a JSON pointer into `value`: list indexes as numbers (only where the value there is a list, so
 * a map key "0" stays a string).
 */
export function pointerSteps(pointer: string, value: unknown): (string | number)[] {
  if (pointer === '') return [];
  const steps: (string | number)[] = [];
  let current: any = value;
  for (const token of pointer.slice(1).split('/').map(unescapePointer)) {
    const step = Array.isArray(current) && /^\d+$/.test(token) ? Number(token) : token;
    steps.push(step);
    current = current?.[step];
  }
  return steps;
}
