/**
 * The one form of a construct's refusal of its props: `{Construct} {name}: {prop} "{value}": {problem}`, one
 * line that names what to change. The problems themselves come from the model's rules (naming, images,
 * durations), never restated here.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { z } from 'zod';
import { durationSeconds, durationText, type DurationLike } from './duration';

/**
 * Throws when `problem` is defined.
 *
 * @param owner the construct and its name, e.g. `PlayWorkflowTemplate play-web`
 * @throws naming the owner, the prop, its value and what to change
 */
export function checkProp(owner: string, prop: string, value: unknown, problem: string | undefined): void {
  if (problem === undefined) return;
  const shown = typeof value === 'string' || typeof value === 'number' ? ` ${JSON.stringify(value)}` : '';
  throw new Error(`${owner}: ${prop}${shown}: ${problem}`);
}

/** Why `value` is not a whole number from `min` to `max`, or `undefined` when it is one. */
export function integerProblem(value: number, min: number, max: number): string | undefined {
  if (Number.isInteger(value) && value >= min && value <= max) return undefined;
  return `is out of range: expected a whole number from ${min} to ${max}`;
}

/**
 * Why `value` does not fit the model's `schema` (its first problem, at its path), or `undefined` when it fits.
 * @internal zod's types stay out of the public declarations.
 */
export function schemaProblem(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const [issue] = result.error.issues;
  const where = issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return `is not valid${where}: ${issue.message}`;
}

/**
 * The seconds of a duration prop given as text (`7d`) or as an object (cdk8s `Duration.days(7)`), converted once.
 *
 * @throws naming the owner and the prop when the value is not a duration of at most a year
 */
export function durationProp(owner: string, prop: string, value: string | DurationLike | undefined, fallback: string): number {
  try {
    return durationSeconds(durationText(value ?? fallback));
  } catch (error) {
    throw new Error(`${owner}: ${prop}: ${(error as Error).message}`);
  }
}
