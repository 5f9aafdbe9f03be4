/**
 * Whether a pattern compiles as a Go regular expression, decided by re2js (RE2's own parser, ported), the
 * engine the simulator matches with too: `^(?i:Main)$` passes, `\C` and lookaround fail, with Go's message.
 * test/golden/regexp.json holds what Go's `regexp.Compile` answered for each vector; the tests compare.
 */
import { goRegexpCompileError } from '../../simulate/engine/re2';

/** Why the pattern does not compile in Go, or `undefined` when it does. */
export function goRegexpProblem(pattern: string): string | undefined {
  return goRegexpCompileError(pattern)?.replace(/^error parsing regexp: /, '');
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
