import { describe, expect, it } from 'vitest';
import { sjsonSet } from '../../src/simulate/engine/sjson';
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

describe('sjsonSet refuses what the simulator does not implement', () => {
  it.each([
    ['metadata|name', '"|" pipe'],
    ['spec.arguments.parameters.#.value', '"#" query'],
    ['metadata.@this', '"@" modifier'],
    ['metadata.*', '"*" wildcard'],
    ['metadata.na?e', '"?" wildcard'],
    ['metadata.:0', 'forced string key'],
    ['metadata.!x', 'starting with "!"'],
    ['metadata.[a]', 'starting with "["'],
    ['metadata..name', 'empty path component'],
    ['', 'empty path component'],
    ['metadata\\', 'trailing'],
    ['spec.arguments.parameters.\\0.value', 'escaped array index'],
  ])('%s', (path, feature) => {
    expect(() => sjsonSet(workflow, path, 'x')).toThrow(UnsupportedFeatureError);
    expect(() => sjsonSet(workflow, path, 'x')).toThrow(feature);
  });
});
