/**
 * The environment of a runtime step, typed and defined once: the same definition reads the values in the pod
 * (`read`, with a one-line error naming the variable) and writes the container's `env` in the template
 * (`vars`), so the two cannot drift.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { MAX_TASK_ID } from '../model/naming';

/**
 * How one value of a step's environment is written into a template and read back in the pod. Most values are
 * one variable (`single`); `parse` throws a message (without the name) when the text is not acceptable.
 */
export interface EnvField<T, W = string> {
  /** The variable's name in the container (the first one, for a field of several). */
  readonly name: string;
  read(environment: Readonly<Record<string, string | undefined>>): T;
  /** The variables that carry the template's value (literal text or Argo references). */
  write(value: W): EnvVarSpec[];
}

/** A step's variables, by the name the step's code uses. */
// biome-ignore lint/suspicious/noExplicitAny: a field of any template value type
export type EnvFields = Readonly<Record<string, EnvField<unknown, any>>>;

/** The values a step reads, typed by its fields. */
export type EnvValues<F extends EnvFields> = { readonly [K in keyof F]: F[K] extends EnvField<infer T, infer _W> ? T : never };

/** What a template gives each field. */
export type EnvTemplateValues<F extends EnvFields> = { readonly [K in keyof F]: F[K] extends EnvField<infer _T, infer W> ? W : never };

/** One environment variable of a container, as Argo's templates take it. */
export interface EnvVarSpec {
  readonly name: string;
  readonly value: string;
}

/** Thrown when the pod's environment does not hold what the step needs: a mistake in the template. */
export class StepEnvError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'StepEnvError';
  }
}

/**
 * A step's environment: its fields, read from a process environment or written into a template.
 *
 * @typeParam F - the step's fields, by the name its code uses
 */
export class StepEnv<F extends EnvFields> {
  /** The step's fields, by the name its code uses. */
  public readonly fields: F;

  public constructor(fields: F) {
    this.fields = fields;
  }

  /**
   * The step's values, read from a process environment.
   *
   * @throws StepEnvError naming the first variable that is missing or malformed
   */
  public read(environment: Readonly<Record<string, string | undefined>>): EnvValues<F> {
    const values: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(this.fields)) {
      try {
        values[key] = field.read(environment);
      } catch (error) {
        throw new StepEnvError(`${field.name}: ${(error as Error).message}`);
      }
    }
    return values as EnvValues<F>;
  }

  /**
   * The container's `env`, one variable per field in the order the fields are declared: each value is text
   * (literal, or an Argo reference such as `{{workflow.name}}`), given by the step's own field names.
   */
  public vars(values: EnvTemplateValues<F>): EnvVarSpec[] {
    return Object.entries(this.fields).flatMap(([key, field]) => field.write(values[key as keyof F]));
  }
}

/** A field of one variable, read by `parse`. */
function single<T>(name: string, parse: (text: string | undefined) => T): EnvField<T> {
  return { name, read: (environment) => parse(environment[name]), write: (value) => [{ name, value }] };
}

function present(text: string | undefined): string {
  if (text === undefined) throw new Error('is not set');
  return text;
}

/** Text that must not be empty. */
export function text(name: string): EnvField<string> {
  return single(name, (value) => {
    const given = present(value);
    if (given === '') throw new Error('is empty');
    return given;
  });
}

/** Text that may be empty (or unset, read as empty). */
export function optionalText(name: string): EnvField<string> {
  return single(name, (value) => value ?? '');
}

/** A whole number of at least `min`, written in digits. */
export function count(name: string, min = 0): EnvField<number> {
  return single(name, (value) => {
    const given = present(value);
    if (!/^\d{1,9}$/.test(given) || Number(given) < min) throw new Error(`expected a whole number of at least ${min}, got "${given}"`);
    return Number(given);
  });
}

/** A space-separated list of words (empty: none). */
export function words(name: string): EnvField<string[]> {
  return single(name, (value) => (value ?? '').split(' ').filter((word) => word !== ''));
}

/** One of a fixed set of words. */
export function oneOf<T extends string>(name: string, allowed: readonly T[]): EnvField<T> {
  return single(name, (value) => {
    const given = present(value);
    if (!(allowed as readonly string[]).includes(given)) throw new Error(`expected one of ${allowed.join(', ')}, got "${given}"`);
    return given as T;
  });
}

/**
 * A task id: digits in their one canonical form (no leading zero), at most `MAX_TASK_ID`. A text that is
 * not one (an event that names no task, `task-007`) reads as `undefined`: the step decides what that means.
 */
export function taskIdOrNone(name: string): EnvField<number | undefined> {
  return single(name, (value) => canonicalTaskId(value ?? ''));
}

/** A task id that must be one (see `taskIdOrNone`). */
export function taskId(name: string): EnvField<number> {
  return single(name, (value) => {
    const id = canonicalTaskId(present(value));
    if (id === undefined) throw new Error(`expected a task id (digits without a leading zero, at most ${MAX_TASK_ID}), got "${value}"`);
    return id;
  });
}

/** The task id a text spells in canonical form, or `undefined` (see `taskIdOrNone`). */
export function canonicalTaskId(value: string): number | undefined {
  if (!/^(0|[1-9]\d{0,9})$/.test(value)) return undefined;
  const id = Number(value);
  return id <= MAX_TASK_ID ? id : undefined;
}

/**
 * Named values whose names are fixed in the template (e.g. the play parameters a record keeps): the names in
 * `{prefix}NAMES` (space-separated), each value in `{prefix}1`, `{prefix}2`, ... in that order, so that a
 * value reaches the step as it is, whatever characters it holds.
 */
export function namedValues(
  prefix: string,
): EnvField<Record<string, string>, ReadonlyArray<{ readonly name: string; readonly value: string }>> {
  const namesVariable = `${prefix}NAMES`;
  return {
    name: namesVariable,
    read: (environment) => {
      const names = (environment[namesVariable] ?? '').split(' ').filter((name) => name !== '');
      const values: Record<string, string> = {};
      names.forEach((name, index) => {
        values[name] = environment[`${prefix}${index + 1}`] ?? '';
      });
      return values;
    },
    write: (entries) => [
      { name: namesVariable, value: entries.map((entry) => entry.name).join(' ') },
      ...entries.map((entry, index) => ({ name: `${prefix}${index + 1}`, value: entry.value })),
    ],
  };
}
