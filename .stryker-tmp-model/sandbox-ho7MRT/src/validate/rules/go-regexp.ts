/**
 * Whether a pattern compiles as a Go regular expression, decided by re2js (RE2's own parser, ported), the
 * engine the simulator matches with too: `^(?i:Main)$` passes, `\C` and lookaround fail, with Go's message.
 * test/golden/regexp.json holds what Go's `regexp.Compile` answered for each vector; the tests compare.
 */
// @ts-nocheck

import * as path from 'node:path';
import { goRegexpCompileError } from '../../simulate/engine/re2';
import { pinnedVersion } from '../../pinned-version';
import { type StoredMap, storedMapInCache } from '../../stored-map';

/**
 * Verdicts kept in the user's cache folder, by pattern: re2js builds its Unicode case-folding tables and a
 * whole matching program to say whether a pattern compiles, a tenth of a synthesis for the few patterns of
 * the platform's Sensors. Keyed by re2js's pinned version (package.json).
 */
const storedVerdicts = (): StoredMap => storedMapInCache(path.join('regexp', `go-compile-v1-re2js-${pinnedVersion('re2js')}.json`));

/** Writes now the verdicts that are written at exit (for tests, and long-lived processes). */
export function saveGoRegexpVerdicts(): void {
  storedVerdicts().save();
}

/** Why the pattern does not compile in Go, or `undefined` when it does. */
export function goRegexpProblem(pattern: string): string | undefined {
  const verdicts = storedVerdicts();
  const known = verdicts.get(pattern);
  if (typeof known === 'string') return known === '' ? undefined : known;
  const problem = goRegexpCompileError(pattern)?.replace(/^error parsing regexp: /, '');
  verdicts.set(pattern, problem ?? '');
  return problem;
}

/** Flag-only groups such as `(?i)` or `(?-s)`: they match nothing, so they never change where a match sits. */
const FLAG_GROUPS = /\(\?[-imsU]+\)/g;

/**
 * True when a filter value only matches whole values: `^...$`, flag groups aside. The final `$` must be an
 * anchor, not an escaped dollar: an even number of backslashes stands before it.
 */
export function isAnchored(pattern: string): boolean {
  const body = pattern.replace(FLAG_GROUPS, '');
  if (!body.startsWith('^') || !body.endsWith('$')) return false;
  const backslashes = /\\*$/.exec(body.slice(0, -1))![0].length;
  return backslashes % 2 === 0;
}
