// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { gjsonGet } from '../../src/simulate/engine/gjson';
import { evaluateExpr } from '../../src/simulate/engine/govaluate';
import { UnsupportedFeatureError } from '../../src/simulate/engine/unsupported';
import { pullRequestEventData, TASK_LABELS } from './fixtures';

/** Binds fields as Argo's expr filter does: each name to gjson's Value() of its path. */
function bind(data: unknown, fields: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([name, path]) => [name, gjsonGet(data, path).value]));
}

const data = pullRequestEventData({ labels: TASK_LABELS });
const fields = bind(data, {
  head: 'body.pull_request.head.repo.full_name',
  base: 'body.repository.full_name',
  event: 'body.X-GitHub-Event',
  ref: 'body.pull_request.head.ref',
  number: 'body.number',
  labels: 'body.pull_request.labels',
  merged: 'body.pull_request.merged',
});

describe('evaluateExpr: the expressions we emit', () => {
  it('compares bound variables', () => {
    expect(evaluateExpr('head == base', fields)).toBe(true);
    expect(evaluateExpr('head == base', { ...fields, head: 'mallory/fork' })).toBe(false);
    expect(evaluateExpr('head != base', { ...fields, head: 'mallory/fork' })).toBe(true);
  });

  it('supports string and number literals, regexps, logic and parentheses', () => {
    expect(evaluateExpr("event == 'pull_request' && ref =~ '^feature/task-[0-9]+'", fields)).toBe(true);
    expect(evaluateExpr('event == "push" || (number > 0 && !merged)', fields)).toBe(true);
    expect(evaluateExpr("ref !~ 'main'", fields)).toBe(true);
    expect(evaluateExpr('number >= 2 && number <= 2 && number < 3 && .5 < number', fields)).toBe(true);
    expect(evaluateExpr("'a' < 'b' && event > 'push'", fields)).toBe(false);
    expect(evaluateExpr('[X-GitHub-Event] == "pull_request"', { 'X-GitHub-Event': 'pull_request' })).toBe(true);
  });

  it('uses reflect.DeepEqual for == : mixed types are unequal, lists compare by value', () => {
    expect(evaluateExpr("number == '2'", fields)).toBe(false);
    expect(evaluateExpr('number == 2', fields)).toBe(true);
    expect(evaluateExpr('labels == again', { labels: fields.labels, again: structuredClone(fields.labels) })).toBe(true);
    expect(evaluateExpr('nothing == alsoNothing', { nothing: null, alsoNothing: null })).toBe(true);
  });

  it('applies ! to the next operand only, as govaluate does', () => {
    expect(evaluateExpr('!merged == true', fields)).toBe(true);
    expect(() => evaluateExpr("!event == 'x'", fields)).toThrow("cannot be used with the prefix '!'");
  });

  it('short-circuits && and || before looking at the right side', () => {
    expect(evaluateExpr('false && unbound', {})).toBe(false);
    expect(evaluateExpr('true || unbound', {})).toBe(true);
  });

  it('reads \\ in a string as "next character literal", and ends strings at either quote', () => {
    expect(evaluateExpr("ref =~ 'task\\-5'", fields)).toBe(true);
    // govaluate turns 'a\.b' into the regexp a.b: the backslash is gone before the regexp sees it.
    expect(evaluateExpr("s =~ '^a\\.b$'", { s: 'axb' })).toBe(true);
    expect(evaluateExpr("s =~ '^a\\\\.b$'", { s: 'axb' })).toBe(false);
    expect(() => evaluateExpr('s == "it\'s"', { s: "it's" })).toThrow(Error);
  });
});

describe('evaluateExpr: govaluate errors are plain errors', () => {
  it.each([
    ['head == base', { head: 'x' }, 'no variable "base"'],
    ['number && true', fields, "cannot be used with the logical operator '&&'"],
    ['event < 1', fields, "cannot be used with the comparator '<'"],
    ["number =~ '1'", fields, "cannot be used with the comparator '=~'"],
    ['event', fields, 'not a boolean'],
    ['number==-1', fields, "Invalid token: '==-'"],
    ['merged&&!merged', fields, "Invalid token: '&&!'"],
    ['(head == base', fields, 'Unbalanced parenthesis'],
    ["'unclosed", fields, 'Unclosed string literal'],
    ['head base', fields, 'unexpected "base"'],
    ['', {}, 'empty expression'],
  ])('%s', (expr, variables, message) => {
    expect(() => evaluateExpr(expr, variables)).toThrow(message);
    expect(() => evaluateExpr(expr, variables)).not.toThrow(UnsupportedFeatureError);
  });
});

describe('evaluateExpr refuses what the simulator does not implement', () => {
  it.each([
    ['number + 1 > 2', 'arithmetic'],
    ['-number < 0', 'negation'],
    ['number * 2 > 1', 'arithmetic'],
    ['merged ? true : false', 'ternary'],
    ['event ?? true', '"??"'],
    ["event in ('a', 'b')", '"in"'],
    ['pr.Number > 1', 'accessor'],
    ['len(event) > 1', 'function call'],
    ['number > 0x1', 'hex'],
    ["event == '2024-01-01'", 'time'],
    ['number & 1 == 1', 'bitwise'],
    ['event == a\\b', 'backslash'],
  ])('%s', (expr, feature) => {
    expect(() => evaluateExpr(expr, fields)).toThrow(UnsupportedFeatureError);
    expect(() => evaluateExpr(expr, fields)).toThrow(feature);
  });
});
