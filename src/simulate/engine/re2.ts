/**
 * Go regular expressions (RE2) run as JavaScript ones, for the subset on which both agree: literals,
 * classes, anchors, groups, alternation, quantifiers, `\d \w \s`, and a leading `(?i)`. Lookaround and
 * backreferences (which RE2 lacks) and other inline flags are refused.
 */
import { UnsupportedFeatureError } from './unsupported';

const cache = new Map<string, RegExp>();

export function toJsRegExp(pattern: string): RegExp {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let body = pattern;
  let flags = '';
  if (body.startsWith('(?i)')) {
    body = body.slice(4);
    flags = 'i';
  }
  body = body.replace(/\(\?P</g, '(?<');
  if (/\(\?(?!:|<[A-Za-z])/.test(body) || /\(\?<[=!]/.test(body)) throw new UnsupportedFeatureError(`regexp "${pattern}": inline flags and lookaround are not supported by the simulator`);
  if (/\\[1-9]/.test(body)) throw new UnsupportedFeatureError(`regexp "${pattern}": backreferences are not RE2`);
  const regexp = new RegExp(body, flags);
  cache.set(pattern, regexp);
  return regexp;
}

/** Go's `regexp.MatchString`: an unanchored search. */
export function goRegexpMatch(pattern: string, text: string): boolean {
  return toJsRegExp(pattern).test(text);
}

/** Go's `Regexp.ReplaceAllString`: `$1`, `${1}` and `${name}` expand groups; `$$` is a dollar. */
export function goReplaceAll(pattern: string, text: string, replacement: string): string {
  const regexp = new RegExp(toJsRegExp(pattern).source, `${toJsRegExp(pattern).flags}g`);
  const js = replacement.replace(/\$\$|\$\{([A-Za-z0-9_]+)\}|\$([A-Za-z0-9_]+)/g, (match, braced: string | undefined, bare: string | undefined) => {
    if (match === '$$') return '$$';
    const name = braced ?? bare ?? '';
    return /^[0-9]+$/.test(name) ? `$${name}` : `$<${name}>`;
  });
  return text.replace(regexp, js);
}
