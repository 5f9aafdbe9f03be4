// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { sjsonSet, sjsonSetRaw } from '../../src/simulate/engine/sjson';
import { UnsupportedFeatureError } from '../../src/simulate/engine/unsupported';

const workflow = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Workflow',
  metadata: { generateName: 'resume-', labels: { app: 'play' } },
  spec: {
    arguments: {
      parameters: [
        { name: 'task-id', value: '' },
        { name: 'pr-url', value: '' },
      ],
    },
  },
};

describe('sjsonSet: paths we emit', () => {
  it('sets keys and array items in a deep copy', () => {
    const output = sjsonSet(workflow, 'spec.arguments.parameters.1.value', 'https://github.com/o/r/pull/7') as typeof workflow;
    expect(output.spec.arguments.parameters[1]).toEqual({ name: 'pr-url', value: 'https://github.com/o/r/pull/7' });
    expect(workflow.spec.arguments.parameters[1].value).toBe('');
    expect((sjsonSet(workflow, 'metadata.name', 'play-5') as any).metadata).toEqual({
      generateName: 'resume-',
      labels: { app: 'play' },
      name: 'play-5',
    });
  });

  it('writes keys with dashes and escaped dots', () => {
    expect((sjsonSet({ data: {} }, 'data.waiting-pr-created', 'y') as any).data).toEqual({ 'waiting-pr-created': 'y' });
    expect((sjsonSet(workflow, 'metadata.labels.app\\.kubernetes\\.io/name', 'x') as any).metadata.labels).toEqual({
      app: 'play',
      'app.kubernetes.io/name': 'x',
    });
  });

  it('appends with -1 and pads with nulls past the end, as sjson does', () => {
    expect((sjsonSet({ args: ['a'] }, 'args.-1', 'b') as any).args).toEqual(['a', 'b']);
    expect((sjsonSet({ args: ['a'] }, 'args.3', 'd') as any).args).toEqual(['a', null, null, 'd']);
    expect((sjsonSet({ args: [] }, 'args.0', 'a') as any).args).toEqual(['a']);
  });

  it('creates missing containers: arrays for numeric or -1 components, objects otherwise', () => {
    expect(sjsonSet({}, 'spec.arguments.parameters.0.value', 'x')).toEqual({ spec: { arguments: { parameters: [{ value: 'x' }] } } });
    expect(sjsonSet({}, 'list.2', 'x')).toEqual({ list: [null, null, 'x'] });
    expect(sjsonSet({}, 'list.-1.name', 'x')).toEqual({ list: [{ name: 'x' }] });
    expect(sjsonSet({ spec: { '0': 'keep' } }, 'spec.0', 'x')).toEqual({ spec: { '0': 'x' } });
  });

  it('replaces a scalar in the middle of the path; there -1 makes an object key, as in sjson', () => {
    expect(sjsonSet({ a: 'text' }, 'a.b', 1)).toEqual({ a: { b: 1 } });
    expect(sjsonSet({ a: null }, 'a.0', 1)).toEqual({ a: [1] });
    expect(sjsonSet({ a: 5 }, 'a.-1', 1)).toEqual({ a: { '-1': 1 } });
  });

  it('fails, as sjson does, on a non-numeric key into an array', () => {
    expect(() => sjsonSet({ args: [] }, 'args.name', 'x')).toThrow("cannot set array element for non-numeric key 'name'");
    expect(() => sjsonSet({ args: [] }, 'args.name', 'x')).not.toThrow(UnsupportedFeatureError);
  });
});

describe('sjsonSet follows sjson where it surprises (checked against Go in test/golden/sjson.json)', () => {
  it('fails on an empty path, as sjson does', () => {
    expect(() => sjsonSet(workflow, '', 'x')).toThrow('path cannot be empty');
    expect(() => sjsonSet(workflow, '', 'x')).not.toThrow(UnsupportedFeatureError);
  });

  it('reads a leading ":" as a forced object key, never an index nor an append', () => {
    expect(sjsonSet({}, 'a.:0', 'x')).toEqual({ a: { '0': 'x' } });
    expect(() => sjsonSet({ a: [] }, 'a.:-1', 'x')).toThrow("cannot set array element for non-numeric key '-1'");
    // The lookup still finds an existing item by index.
    expect(sjsonSet({ a: ['old'] }, 'a.:0', 'x')).toEqual({ a: ['x'] });
  });

  it('treats an empty component as the key "" in an object and as index 0 elsewhere', () => {
    expect(sjsonSet({ a: {} }, 'a..b', 'x')).toEqual({ a: { '': { b: 'x' } } });
    expect(sjsonSet({}, 'a..b', 'x')).toEqual({ a: [{ b: 'x' }] });
    expect(sjsonSet({ a: [1] }, 'a.', 'x')).toEqual({ a: [1, 'x'] });
  });

  it('drops a trailing "\\", and finds no array item by an escaped index (it appends)', () => {
    expect(sjsonSet({ metadata: {} }, 'metadata\\', 'x')).toEqual({ metadata: 'x' });
    expect(sjsonSet({ a: ['old'] }, 'a.\\0', 'x')).toEqual({ a: ['old', 'x'] });
  });

  it('writes a key named __proto__ as data, never as the prototype', () => {
    const output = sjsonSet({}, '__proto__.polluted', 'x') as any;
    expect(Object.keys(output)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(({} as any).polluted).toBeUndefined();
  });

  it('writes a raw value as the JSON it encodes, and refuses text that is not one JSON value', () => {
    expect(sjsonSetRaw({}, 'a', '{"k":[1,null]}')).toEqual({ a: { k: [1, null] } });
    expect(sjsonSetRaw({}, 'a', ' 42 ')).toEqual({ a: 42 });
    expect(() => sjsonSetRaw({}, 'a', '1,"b":2')).toThrow(UnsupportedFeatureError);
  });
});

describe('sjsonSet refuses what the simulator does not implement', () => {
  it.each([
    ['metadata|name', '"|" pipe'],
    ['spec.arguments.parameters.#.value', '"#" query'],
    ['metadata.@this', '"@" modifier'],
    ['metadata.*', '"*" wildcard'],
    ['metadata.na?e', '"?" wildcard'],
    ['metadata.!x', 'starting with "!"'],
    ['metadata.[a]', 'starting with "["'],
    ['metadata.{a}', 'starting with "{"'],
    ['spec.arguments.parameters.10001.value', 'array index above 10,000'],
  ])('%s', (path, feature) => {
    expect(() => sjsonSet(workflow, path, 'x')).toThrow(UnsupportedFeatureError);
    expect(() => sjsonSet(workflow, path, 'x')).toThrow(feature);
  });
});
