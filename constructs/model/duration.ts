/**
 * Durations in configuration are written as people write them (`90s`, `30m`, `4h`, `7d`) and emitted as
 * the whole seconds Argo wants, or as Go durations where Argo wants those.
 */

const DURATION = /^([1-9][0-9]*)(s|m|h|d)$/;
const SECONDS_PER_UNIT: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86400 };

/** The pattern a duration must match, for schemas and error messages. */
export const DURATION_PATTERN = DURATION;

/**
 * Seconds in a duration such as `4h`.
 *
 * @throws when the text is not a whole number followed by s, m, h or d.
 */
export function durationSeconds(text: string): number {
  const match = DURATION.exec(text);
  if (!match) throw new Error(`"${text}" is not a duration: expected a whole number and a unit, e.g. 90s, 30m, 4h, 7d`);
  return Number(match[1]) * SECONDS_PER_UNIT[match[2]];
}

/** A Go duration string (`4h` stays `4h`, `2d` becomes `48h`), for fields Argo parses with Go. */
export function goDuration(text: string): string {
  const seconds = durationSeconds(text);
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}
