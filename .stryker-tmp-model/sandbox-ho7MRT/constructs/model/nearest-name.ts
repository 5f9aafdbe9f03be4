/**
 * The known name a mistyped one most likely meant, for "did you mean" messages: the closest by edit distance
 * (insertions, deletions, substitutions), when it is close enough to be a typo rather than another name.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/** The Levenshtein distance between two names. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known name closest to `name` when it is at most two edits away (one for names of up to four
 * characters) and closer than any other; `undefined` otherwise.
 */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  const limit = name.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = limit + 1;
  let tie = false;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance) tie = true;
  }
  return best !== undefined && !tie && bestDistance > 0 ? best : undefined;
}
