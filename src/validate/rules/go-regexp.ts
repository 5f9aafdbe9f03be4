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

/** True when a filter value only matches whole values: `^...$` (after any leading flags). */
export function isAnchored(pattern: string): boolean {
  const body = pattern.replace(/^\(\?[imsU]+\)/, '');
  return body.startsWith('^') && body.endsWith('$') && !body.endsWith('\\$');
}
