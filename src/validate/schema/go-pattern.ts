/**
 * The regular-expression engine of a schema's `pattern`, as the API server runs it: Go's `regexp` (RE2
 * syntax, linear-time matching), through re2js. JavaScript's own RegExp would accept what Go refuses
 * (lookahead, backreferences) and backtrack without bound on a pattern such as `^(a+)+$` (forty characters
 * never finish), so ajv is given this engine instead (its `code.regExp` option).
 *
 * re2js costs tens of microseconds a match, and compiling a pattern costs more; a pattern of the plain kind every
 * Kubernetes and Argo name pattern is (`^[a-zA-Z0-9][-a-zA-Z0-9]*$`: ASCII literals and bracket classes,
 * at most one repeat, no group, no alternation, no shorthand class, no negated class, no `.`) matches the
 * same strings in Go and in JavaScript and cannot backtrack more than quadratically, so it runs as a
 * JavaScript RegExp.
 */
import type { RE2JS } from 're2js';
import { compileGoRegexp, goRegexpCompileError } from '../../simulate/engine/re2';

/** What ajv calls on a compiled pattern. */
export interface PatternMatcher {
  test(text: string): boolean;
  toString(): string;
}

/** ASCII punctuation escaped with a backslash: a literal in Go and in JavaScript. */
const ESCAPED = String.raw`\\[!-/:-@\[-\x60{-~]`;
/** A literal character outside a class: printable ASCII but the metacharacters `$()*+.?[\]^{|}`. */
const LITERAL = String.raw`[ !"#%&',\-/0-9:;<=>@A-Z_\x60a-z~]`;
/** A range of letters or digits inside a class. */
const RANGE = '[0-9A-Za-z]-[0-9A-Za-z]';
/** A bracket class of ranges and literals: not negated, no `[`, `-` only first or last, `\` only before punctuation. */
const CLASS = String.raw`\[(?!\^)-?(?:${RANGE}|${ESCAPED}|[ -,.-Z^-~])+-?\]`;
const ATOM = `(?:${ESCAPED}|${CLASS}|${LITERAL})`;
const QUANTIFIER = String.raw`(?:[*+?]|\{\d{1,3}(?:,\d{0,3})?\})`;
/** A whole plain pattern: optional anchors around atoms, at most one of them repeated. */
const PLAIN = new RegExp(`^\\^?${ATOM}*(?:${ATOM}${QUANTIFIER})?${ATOM}*\\$?$`);

/** Whether `pattern` is of the plain kind that runs as a JavaScript RegExp with Go's answers. */
export function isPlainPattern(pattern: string): boolean {
  if (!PLAIN.test(pattern)) return false;
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

const matchers = new Map<string, PatternMatcher>();

/**
 * A matcher for `pattern` with Go's semantics. A pattern Go refuses matches nothing (the API server refuses
 * the CRD that holds it; the CRD's loader reports it before any object is checked).
 */
export function goPattern(pattern: string): PatternMatcher {
  let matcher = matchers.get(pattern);
  if (matcher) return matcher;
  const text = `/${pattern}/go`;
  if (isPlainPattern(pattern)) {
    const plain = new RegExp(pattern);
    matcher = { test: (value) => plain.test(value), toString: () => text };
  } else {
    // Compiled on the first match, not when ajv's code makes the matcher: a validator module makes the matchers of
    // every pattern of its schemas as it loads, and a synthesis tests few of them (compiling them all with
    // re2js was a tenth of its validation).
    let compiled: RE2JS | null | undefined;
    const compile = (): RE2JS | null => (goRegexpCompileError(pattern) === undefined ? compileGoRegexp(pattern) : null);
    matcher = {
      test: (value) => {
        compiled ??= compile();
        return compiled?.matcher(value).find() ?? false;
      },
      toString: () => text,
    };
  }
  matchers.set(pattern, matcher);
  return matcher;
}

/**
 * The engine ajv is given: `code` is how the compiled validators (ajv standalone code, validator-cache.ts)
 * get it back, through the runtime modules the cache hands them.
 */
export const goPatternEngine = Object.assign((pattern: string) => goPattern(pattern), {
  code: 'require("agent-play/go-pattern").goPatternEngine',
});
