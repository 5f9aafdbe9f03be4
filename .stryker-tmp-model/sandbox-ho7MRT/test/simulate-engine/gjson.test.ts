// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { gjsonGet, gjsonString } from '../../src/simulate/engine/gjson';
import { UnsupportedFeatureError } from '../../src/simulate/engine/unsupported';
import { pullRequestEventData, TASK_LABELS } from './fixtures';

const data = pullRequestEventData({ labels: TASK_LABELS });

describe('gjsonGet: paths we emit', () => {
  it('reads keys with dashes, as Argo adds X-GitHub-Event to the body', () => {
    const result = gjsonGet(data, 'body.X-GitHub-Event');
    expect(result).toEqual({ exists: true, value: 'pull_request', raw: '"pull_request"' });
    expect(gjsonString(result)).toBe('pull_request');
  });

  it('indexes arrays with numeric components', () => {
    expect(gjsonString(gjsonGet(data, 'headers.X-Github-Event.0'))).toBe('pull_request');
    expect(gjsonString(gjsonGet(data, 'body.pull_request.labels.0.name'))).toBe('task-5');
    expect(gjsonString(gjsonGet(data, 'body.pull_request.labels.1.name'))).toBe('ready-for-qa');
    expect(gjsonString(gjsonGet(data, 'body.pull_request.head.ref'))).toBe('feature/task-5-implementation');
  });

  it('treats an escaped dot, and any escaped character, as part of the key', () => {
    const labels = { metadata: { labels: { 'app.kubernetes.io/name': 'play', 'a#b': 1 } } };
    expect(gjsonString(gjsonGet(labels, 'metadata.labels.app\\.kubernetes\\.io/name'))).toBe('play');
    expect(gjsonString(gjsonGet(labels, 'metadata.labels.a\\#b'))).toBe('1');
  });

  it('reports missing keys, indexes past the end, keys on arrays and paths through scalars as not existing', () => {
    for (const path of [
      'body.missing',
      'body.pull_request.labels.2.name',
      'body.pull_request.labels.name',
      'body.action.length',
      'body.pull_request.labels.-1',
    ]) {
      expect(gjsonGet(data, path)).toEqual({ exists: false, value: undefined, raw: '' });
    }
    // gjson does not unescape components on arrays: `\1` is not the index 1.
    expect(gjsonGet(data, 'body.pull_request.labels.\\1').exists).toBe(false);
  });
});

describe('gjsonString and raw', () => {
  const values = { int: 42, big: 1e21, float: 1.5, neg: -0, yes: true, nothing: null, html: 'a<b>&c' };

  it('gives numbers as Go formats them, booleans as words, null as ""', () => {
    expect(gjsonString(gjsonGet(values, 'int'))).toBe('42');
    expect(gjsonString(gjsonGet(values, 'big'))).toBe('1000000000000000000000');
    expect(gjsonString(gjsonGet(values, 'float'))).toBe('1.5');
    expect(gjsonString(gjsonGet(values, 'yes'))).toBe('true');
    expect(gjsonGet(values, 'nothing')).toEqual({ exists: true, value: null, raw: 'null' });
    expect(gjsonString(gjsonGet(values, 'nothing'))).toBe('');
  });

  it('gives arrays and objects as Go-encoded JSON text (sorted keys, HTML escaped), which string filters compare', () => {
    const labels = gjsonGet(data, 'body.pull_request.labels');
    expect(labels.raw).toBe(
      '[{"color":"ededed","default":false,"id":5000,"name":"task-5"},{"color":"ededed","default":false,"id":5001,"name":"ready-for-qa"}]',
    );
    expect(gjsonString(labels)).toBe(labels.raw);
    expect(gjsonGet(values, 'html').raw).toBe('"a\\u003cb\\u003e\\u0026c"');
    expect(gjsonString(gjsonGet(values, 'html'))).toBe('a<b>&c');
  });
});

describe('gjsonGet refuses what the simulator does not implement', () => {
  it('names the feature and the path', () => {
    expect(() => gjsonGet(data, 'body.labels.#.name')).toThrow(
      new UnsupportedFeatureError('gjson path "body.labels.#.name": the "#" query is not supported by the simulator'),
    );
  });

  it.each([
    ['body.pull_request.*', '"*" wildcard'],
    ['body.act?on', '"?" wildcard'],
    ['body.pull_request.labels.#', '"#" query'],
    ['body.pull_request.labels.#(name=="task-5").id', '"#" query'],
    ['body|@reverse', '"|" pipe'],
    ['body.@keys', '"@" modifier'],
    ['@this', '"@" modifier'],
    ['..0', 'leading ".."'],
    ['!true', 'leading "!"'],
    ['body.[action,number]', 'multipath'],
    ['{body.action}', 'multipath'],
    ['body..action', 'empty path component'],
    ['body.', 'empty path component'],
    ['', 'empty path component'],
    ['body\\', 'trailing'],
  ])('%s', (path, feature) => {
    expect(() => gjsonGet(data, path)).toThrow(UnsupportedFeatureError);
    expect(() => gjsonGet(data, path)).toThrow(feature);
  });
});
