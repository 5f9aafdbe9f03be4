// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { taskIdTemplate } from '../constructs/model/task-id-template';
import { gjsonGet, gjsonString } from '../src/simulate/engine/gjson';
import { goJson, renderGoTemplate } from '../src/simulate/engine/go-template';
import { evaluateExpr } from '../src/simulate/engine/govaluate';
import { goRegexpMatch, goReplaceAll } from '../src/simulate/engine/re2';
import { sjsonSet } from '../src/simulate/engine/sjson';
import { UnsupportedFeatureError } from '../src/simulate/engine/unsupported';

const event = {
  body: {
    'X-GitHub-Event': 'pull_request',
    number: 42,
    pull_request: { merged: true, labels: [{ name: 'bug' }, { name: 'task-5' }], head: { ref: 'feature/task-5-implementation' } },
  },
};

describe('gjson paths', () => {
  it('read keys with dashes, array indexes and escaped dots', () => {
    expect(gjsonString(gjsonGet(event, 'body.X-GitHub-Event'))).toBe('pull_request');
    expect(gjsonString(gjsonGet(event, 'body.pull_request.labels.1.name'))).toBe('task-5');
    expect(gjsonString(gjsonGet({ 'a.b': 1 }, 'a\\.b'))).toBe('1');
    expect(gjsonGet(event, 'body.missing').exists).toBe(false);
  });

  it('give arrays as their raw JSON text, and numbers and booleans as text', () => {
    expect(gjsonString(gjsonGet(event, 'body.pull_request.labels'))).toBe('[{"name":"bug"},{"name":"task-5"}]');
    expect(gjsonString(gjsonGet(event, 'body.number'))).toBe('42');
    expect(gjsonString(gjsonGet(event, 'body.pull_request.merged'))).toBe('true');
  });

  it.each(['body.*', 'body.labels.#.name', 'body|@reverse', 'body..x'])('refuse %s', (path) => {
    expect(() => gjsonGet(event, path)).toThrow(UnsupportedFeatureError);
  });
});

describe('sjson paths', () => {
  it('set nested values and array items without changing the input', () => {
    const input = { spec: { arguments: { parameters: [{ name: 'a', value: '' }] } } };
    const output = sjsonSet(input, 'spec.arguments.parameters.0.value', 'x') as any;
    expect(output.spec.arguments.parameters[0].value).toBe('x');
    expect(input.spec.arguments.parameters[0].value).toBe('');
    expect((sjsonSet({}, 'data.waiting-pr-created', 'y') as any).data['waiting-pr-created']).toBe('y');
    expect((sjsonSet({ list: [1] }, 'list.-1', 2) as any).list).toEqual([1, 2]);
  });
});

describe('Go regexps', () => {
  it('search unanchored, honour (?i) and expand groups as Go does', () => {
    expect(goRegexpMatch('main', 'domain')).toBe(true);
    expect(goRegexpMatch('^(main)$', 'domain')).toBe(false);
    expect(goRegexpMatch('(?i)^(5dlabs-cleo\\[bot\\])$', '5DLabs-Cleo[bot]')).toBe(true);
    expect(goReplaceAll('^feature/task-([0-9]+)(-.*)?$', 'feature/task-7-impl', '${1}')).toBe('7');
  });

  it.each(['(?=x)', '(a)\\1'])('fail on %s as Go does (an error of the input, not a gap of the simulator)', (pattern) => {
    expect(() => goRegexpMatch(pattern, 'x')).toThrow('error parsing regexp');
    expect(() => goRegexpMatch(pattern, 'x')).not.toThrow(UnsupportedFeatureError);
  });

  it('read flags Go allows anywhere, such as (?m)', () => {
    expect(goRegexpMatch('(?m)^x$', 'a\nx')).toBe(true);
  });
});

describe('govaluate expressions', () => {
  it('compare bound variables', () => {
    expect(evaluateExpr('head == base', { head: 'a/b', base: 'a/b' })).toBe(true);
    expect(evaluateExpr('head == base', { head: 'mallory/b', base: 'a/b' })).toBe(false);
    expect(evaluateExpr("(n > 1 && s =~ '^x') || !t", { n: 2, s: 'xy', t: true })).toBe(true);
  });

  it('refuse what it cannot read, and unbound variables', () => {
    expect(() => evaluateExpr('a ? b : c', { a: 1 })).toThrow(UnsupportedFeatureError);
    expect(() => evaluateExpr('head == base', { head: 'x' })).toThrow(/no variable "base"/);
  });
});

describe('Go templates', () => {
  const withLabels = (labels: string[], ref: string) => ({
    Input: { body: { pull_request: { labels: labels.map((name) => ({ name })), head: { ref } } } },
  });

  it('read the task id from the first task label, else the branch, else none', () => {
    expect(renderGoTemplate(taskIdTemplate(), withLabels(['bug', 'task-5', 'task-9'], 'feature/task-7-x'))).toBe('5');
    expect(renderGoTemplate(taskIdTemplate(), withLabels([], 'feature/task-7-implementation'))).toBe('7');
    expect(renderGoTemplate(taskIdTemplate('play-x-task-'), withLabels(['task-12'], 'main'))).toBe('play-x-task-12');
    expect(renderGoTemplate(taskIdTemplate(), withLabels(['task-x'], 'fix/task-7'))).toBe('none');
  });

  it('print like Go: fields, pipes, toJson with sorted keys and HTML escaping, <no value>', () => {
    const data = { Input: { body: { pull_request: { number: 42, html_url: 'https://x/<1>&' } } } };
    expect(
      renderGoTemplate('{"n":"{{ .Input.body.pull_request.number }}","u":{{ .Input.body.pull_request.html_url | toJson }}}', data),
    ).toBe('{"n":"42","u":"https://x/\\u003c1\\u003e\\u0026"}');
    expect(goJson({ b: 1, a: [true] })).toBe('{"a":[true],"b":1}');
    expect(renderGoTemplate('{{ .Input.missing }}', data)).toBe('<no value>');
    expect(renderGoTemplate('{{ index .Input.body "pull_request" | len }}', data)).toBe('2');
  });

  it('refuse functions and actions it does not implement', () => {
    expect(() => renderGoTemplate('{{ sha256sum "x" }}', {})).toThrow(UnsupportedFeatureError);
    expect(() => renderGoTemplate('{{ with .x }}y{{ end }}', {})).toThrow(UnsupportedFeatureError);
    expect(() => renderGoTemplate('{{ .Input }}', { Input: { a: 1 } })).toThrow(UnsupportedFeatureError);
  });
});
