/**
 * The one order agent-play sorts names in: by UTF-16 code units, the same on every machine. Not
 * `localeCompare`, whose order follows the runtime's ICU data and locale (output that must be byte-identical
 * everywhere cannot depend on them) and whose first call builds a collator, several milliseconds of a
 * synthesis.
 */
// @ts-nocheck

export function byCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
