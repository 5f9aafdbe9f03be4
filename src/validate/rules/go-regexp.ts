/**
 * Whether a pattern compiles as a Go (RE2) regular expression. Go rejects lookaround and backreferences;
 * beyond those, the pattern (with a leading `(?flags)` and `(?P<name>` translated) must compile as a
 * JavaScript RegExp, whose syntax is a superset of the rest for what people write in filters.
 */
const NOT_RE2: readonly { readonly pattern: RegExp; readonly what: string }[] = [
  { pattern: /\(\?<?[=!]/, what: 'lookaround ((?=, (?!, (?<=, (?<!) is not supported by Go regular expressions' },
  { pattern: /\\[1-9]/, what: 'backreferences (\\1 ...) are not supported by Go regular expressions' },
];

/** Why the pattern does not compile, or `undefined` when it does. */
export function goRegexpProblem(pattern: string): string | undefined {
  for (const { pattern: construct, what } of NOT_RE2) if (construct.test(pattern)) return what;
  const flags = /^\(\?([imsU]+)\)/.exec(pattern);
  const body = (flags ? pattern.slice(flags[0].length) : pattern).replace(/\(\?P</g, '(?<');
  try {
    new RegExp(body, flags?.[1].includes('i') ? 'i' : '');
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^Invalid regular expression: /, '');
  }
}

/** True when a filter value only matches whole values: `^...$` (after any leading flags). */
export function isAnchored(pattern: string): boolean {
  const body = pattern.replace(/^\(\?[imsU]+\)/, '');
  return body.startsWith('^') && body.endsWith('$') && !body.endsWith('\\$');
}
