import { describe, expect, it } from 'vitest';
import { goRegexpFind, goRegexpMatch, goReplaceAll, toJsRegExp } from '../../src/simulate/engine/re2';
import { UnsupportedFeatureError } from '../../src/simulate/engine/unsupported';

describe('goRegexpMatch: the patterns our filters use', () => {
  it('searches unanchored, like regexp.MatchString', () => {
    expect(goRegexpMatch('main', 'domain')).toBe(true);
    expect(goRegexpMatch('^(main)$', 'domain')).toBe(false);
    expect(goRegexpMatch('^(pull_request)$', 'pull_request')).toBe(true);
    expect(goRegexpMatch('^(opened|reopened|synchronize)$', 'synchronize')).toBe(true);
    expect(goRegexpMatch('^task-[0-9]+$', 'task-5')).toBe(true);
    expect(goRegexpMatch('^task-[0-9]+$', 'ready-for-qa')).toBe(false);
  });

  it('honours a leading (?i) and escaped metacharacters', () => {
    expect(goRegexpMatch('(?i)^(5dlabs-cleo\\[bot\\])$', '5DLabs-Cleo[bot]')).toBe(true);
    expect(goRegexpMatch('(?i)^(approved)$', 'APPROVED')).toBe(true);
    expect(goRegexpMatch('^a\\.b$', 'axb')).toBe(false);
  });

  it('matches as Go where JavaScript differs: ., \\s, lone { and ], \\a, \\z', () => {
    expect(goRegexpMatch('^a.b$', 'a\rb')).toBe(true);
    expect(goRegexpMatch('^a.b$', 'a\nb')).toBe(false);
    expect(goRegexpMatch('^\\s$', '\u00a0')).toBe(false);
    expect(goRegexpMatch('^\\s+$', ' \t\r\n\f')).toBe(true);
    expect(goRegexpMatch('^[^\\s]$', '\u00a0')).toBe(true);
    expect(goRegexpMatch('^a{,2}$', 'a{,2}')).toBe(true);
    expect(goRegexpMatch('^a]$', 'a]')).toBe(true);
    expect(goRegexpMatch('^[]a]+$', ']a]')).toBe(true);
    expect(goRegexpMatch('^[a-]+$', '-a')).toBe(true);
    expect(goRegexpMatch('^\\a$', '\x07')).toBe(true);
    expect(goRegexpMatch('\\Aab\\z', 'ab')).toBe(true);
    expect(goRegexpMatch('^.$', '😀')).toBe(true);
  });

  it('translates named groups, repeats and lazy quantifiers', () => {
    expect(toJsRegExp('(?P<id>[0-9]{1,3})').exec('task-42')?.groups).toEqual({ id: '42' });
    expect(toJsRegExp('(?<id>[0-9]+?)').exec('42')?.[0]).toBe('4');
    expect(goRegexpMatch('^(?:ab){2}$', 'abab')).toBe(true);
  });

  it('finds the leftmost match, like Regexp.FindString', () => {
    expect(goRegexpFind('^feature/task-[0-9]+(-.*)?$', 'feature/task-7-implementation')).toBe('feature/task-7-implementation');
    expect(goRegexpFind('[0-9]+', 'a12b345')).toBe('12');
    expect(goRegexpFind('^feature/', 'main')).toBe('');
  });
});

describe('goReplaceAll: Regexp.ReplaceAllString with Expand', () => {
  it('expands $1, ${1}, ${name} and $$', () => {
    expect(goReplaceAll('^feature/task-([0-9]+)(-.*)?$', 'feature/task-7-implementation', '${1}')).toBe('7');
    expect(goReplaceAll('task-([0-9]+)', 'task-7', 'T$1')).toBe('T7');
    expect(goReplaceAll('(?P<n>[0-9]+)', 'a1b22', '<${n}>')).toBe('a<1>b<22>');
    expect(goReplaceAll('x', 'axb', '$$')).toBe('a$b');
  });

  it('takes the longest name after $, so $1x is the (missing) group "1x"', () => {
    expect(goReplaceAll('(a)', 'a', '$1x')).toBe('');
    expect(goReplaceAll('(a)', 'a', '${1}x')).toBe('ax');
    expect(goReplaceAll('(a)', 'a', '$9|$ |${1')).toBe('|$ |${1');
  });

  it('skips an empty match right after a match, as Go does and JavaScript does not', () => {
    expect(goReplaceAll('a*', 'baaac', 'X')).toBe('XbXcX');
    expect(goReplaceAll('', 'ab', '-')).toBe('-a-b-');
  });
});

describe('toJsRegExp refuses what is not RE2 or not in the subset', () => {
  it.each([
    ['(?=x)', 'lookaround'],
    ['(?!x)', 'lookaround'],
    ['(?<=x)y', 'lookaround'],
    ['(?<!x)y', 'lookaround'],
    ['(a)\\1', 'backreference'],
    ['(?m)^x', 'inline flag'],
    ['(?s).', 'inline flag'],
    ['(?i:x)', 'inline flag'],
    ['a(?i)b', 'inline flag'],
    ['(?U)a+', 'inline flag'],
    ['\\p{L}', 'Unicode class'],
    ['[[:alpha:]]', 'POSIX class'],
    ['\\Qa.b\\E', 'quoting'],
    ['a{1001}', 'repeat count'],
    ['a\\', 'trailing backslash'],
    ['(?P<1x>a)', 'group name'],
    ['[\\S]', '"\\S" inside a character class'],
    ['[z-a]', 'reversed range'],
    ['a**', 'cannot compile'],
  ])('%s', (pattern, feature) => {
    expect(() => toJsRegExp(pattern)).toThrow(UnsupportedFeatureError);
    expect(() => toJsRegExp(pattern)).toThrow(feature);
  });
});
