// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { goRegexpCompileError, goRegexpFind, goRegexpMatch, goReplaceAll } from '../../src/simulate/engine/re2';
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

  it('reads named groups, repeats and lazy quantifiers', () => {
    expect(goReplaceAll('(?P<id>[0-9]{1,3})', 'task-42', '${id}')).toBe('task-42');
    expect(goRegexpFind('(?<id>[0-9]+?)', '42')).toBe('4');
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

describe('Go syntax the old JavaScript translation refused now works as in Go', () => {
  it.each([
    ['^(?i:Main)$', 'main', true],
    ['a(?i)b', 'aB', true],
    ['(?s)^.$', '\n', true],
    ['(?m)^x$', 'a\nx', true],
    ['(?U)a+', 'aaa', true],
    ['^\\p{L}+$', 'naïve', true],
    ['^[[:alpha:]]+$', 'abc', true],
    ['^\\Qa.b\\E$', 'axb', false],
    ['[\\S]', ' ', false],
  ])('%s on %j', (pattern, input, expected) => {
    expect(goRegexpMatch(pattern, input)).toBe(expected);
  });
});

describe("Go refuses these patterns, and so do the simulator and the validator, with Go's message", () => {
  it.each([
    ['(?=x)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['\\C', 'invalid escape sequence: `\\C`'],
    ['a{1001}', 'invalid repeat count: `{1001}`'],
    ['a\\', 'trailing backslash at end of expression: ``'],
    ['[z-a]', 'invalid character class range: `z-a`'],
    ['a**', 'invalid nested repetition operator: `**`'],
  ])('%s', (pattern, message) => {
    expect(goRegexpCompileError(pattern)).toBe(`error parsing regexp: ${message}`);
    expect(() => goRegexpMatch(pattern, 'x')).toThrow(message);
    expect(() => goRegexpMatch(pattern, 'x')).not.toThrow(UnsupportedFeatureError);
  });

  it('refuses a group name used twice, which Go accepts and RE2 does not, as unsupported', () => {
    expect(() => goRegexpMatch('(?P<n>a)(?P<n>b)', 'ab')).toThrow(UnsupportedFeatureError);
    expect(goRegexpCompileError('(?P<n>a)(?P<n>b)')).toBeUndefined();
  });
});
