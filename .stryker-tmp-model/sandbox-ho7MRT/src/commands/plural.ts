/** "1 repository", "2 repositories": a count with its noun, in the right number. */
// @ts-nocheck

export function count(
  n: number,
  singular: string,
  plural = singular.endsWith('y') ? `${singular.slice(0, -1)}ies` : `${singular}s`,
): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
