/**
 * Durations in configuration are written as people write them (`90s`, `30m`, `4h`, `7d`) and emitted as
 * the whole seconds Argo wants, or as Go durations where Argo wants those.
 */
// @ts-nocheck


const DURATION = /^([1-9][0-9]*)(s|m|h|d)$/;
const SECONDS_PER_UNIT: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86400 };

/** The pattern a duration must match, for schemas and error messages. */
export const DURATION_PATTERN = DURATION;

/**
 * The longest duration accepted: a year. Every duration becomes whole seconds in an int64 field
 * (`activeDeadlineSeconds`, `ttlStrategy`) or a Go duration (at most about 292 years); a year keeps every
 * sum of them far inside both, and no play, wait or retention is meant to outlive it.
 */
export const MAX_DURATION_SECONDS = 365 * 86400;

/** Why a duration written in the right form is still refused (too long), or `undefined`. */
export function durationProblem(text: string): string | undefined {
  const match = DURATION.exec(text);
  if (!match) return `"${text}" is not a duration: expected a whole number and a unit, e.g. 90s, 30m, 4h, 7d`;
  const seconds = Number(match[1]) * SECONDS_PER_UNIT[match[2]];
  if (!Number.isSafeInteger(seconds) || seconds > MAX_DURATION_SECONDS)
    return `"${text}" is longer than the longest duration accepted, 365d`;
  return undefined;
}

/**
 * Seconds in a duration such as `4h`.
 *
 * @throws when the text is not a whole number followed by s, m, h or d, or is longer than a year.
 */
export function durationSeconds(text: string): number {
  const problem = durationProblem(text);
  if (problem !== undefined) throw new Error(problem);
  const match = DURATION.exec(text) as RegExpExecArray;
  return Number(match[1]) * SECONDS_PER_UNIT[match[2]];
}

/**
 * A Go duration string (`4h` stays `4h`, `2d` becomes `48h`), for fields Argo parses with Go.
 *
 * @throws when the text is not a duration (see `durationSeconds`)
 */
export function goDuration(text: string): string {
  const seconds = durationSeconds(text);
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

/**
 * A duration as an object, such as cdk8s's `Duration`: the model takes any object that gives whole seconds,
 * so it needs no cdk8s.
 */
export interface DurationLike {
  /** The duration in whole seconds. */
  toSeconds(): number;
}

/**
 * The text form of a duration given as text (`4h`) or as an object (`Duration.hours(4)`), in the largest unit
 * that keeps it whole, so both give the same output.
 *
 * @throws when the duration is not a whole positive number of seconds, or longer than a year
 */
export function durationText(value: string | DurationLike): string {
  if (typeof value === 'string') {
    durationSeconds(value);
    return value;
  }
  const seconds = value.toSeconds();
  const units: readonly [string, number][] = [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ];
  const [unit, size] = units.find(([, length]) => seconds % length === 0) ?? ['s', 1];
  const text = `${seconds / size}${unit}`;
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw new Error(`${seconds} seconds is not a duration: expected a whole positive number of seconds`);
  durationSeconds(text);
  return text;
}
