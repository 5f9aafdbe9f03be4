/** CEL rules of any CRD, evaluated by @bufbuild/cel the way the API server would (src/validate/schema/cel-rules.ts). */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { celProblems, unevaluatedCelRules } from '../../src/validate/schema/cel-rules';

const schema = (rule: string) => ({ type: 'object', 'x-kubernetes-validations': [{ rule, message: 'broken' }] });

describe('a user CRD rule is evaluated, not looked up in a table', () => {
  it.each([
    ['self.minReplicas <= self.maxReplicas', { minReplicas: 1, maxReplicas: 3 }, { minReplicas: 4, maxReplicas: 3 }],
    ['size(self.name) <= 5', { name: 'abc' }, { name: 'abcdef' }],
    ['!has(self.a) || !has(self.b)', { a: 1 }, { a: 1, b: 2 }],
    ["self.name.matches('^[a-z]+$')", { name: 'abc' }, { name: 'A1' }],
    ['self.replicas == 3', { replicas: 3 }, { replicas: 2 }],
  ])('%s', (rule, fine, broken) => {
    expect(celProblems(schema(rule), fine)).toEqual([]);
    expect(celProblems(schema(rule), broken)).toEqual([{ pointer: '', message: 'broken', kind: 'cel' }]);
    expect(unevaluatedCelRules(schema(rule))).toEqual([]);
  });

  it('names the offending item of a self.all rule, as the per-item check it is', () => {
    const list = {
      type: 'array',
      items: { type: 'object' },
      'x-kubernetes-validations': [{ rule: 'self.all(t, has(t.name))', message: 'named' }],
    };
    expect(celProblems(list, [{ name: 'a' }, {}], '/spec/items')).toEqual([{ pointer: '/spec/items/1', message: 'named', kind: 'cel' }]);
  });

  it('reports an evaluation error (a missing key) as a failed rule, as the API server does', () => {
    expect(celProblems(schema('self.missing > 1'), {})[0].message).toMatch(/^broken \(CEL error: /);
  });

  it.each(['self.x == oldSelf.x', 'isURL(self.homepage)', 'quantity(self.size).isGreaterThan(quantity("1Gi"))', 'self.a +'])(
    'leaves %s unevaluated, as a warning, never passed silently',
    (rule) => {
      expect(unevaluatedCelRules(schema(rule))).toEqual([{ at: '/', rule }]);
      expect(celProblems(schema(rule), { x: 1 })).toEqual([]);
    },
  );
});

describe('a compact schema: $refs followed where the value leads', () => {
  const definitions = {
    named: { type: 'object', 'x-kubernetes-validations': [{ rule: 'has(self.name)', message: 'named' }] },
    loop: { $ref: '#/definitions/loop' },
  };
  const root = { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/definitions/named' } } } };

  it('checks a rule inside a shared definition, at the place of the value', () => {
    expect(celProblems(root, { items: [{ name: 'a' }, {}] }, '', definitions)).toEqual([
      { pointer: '/items/1', message: 'named', kind: 'cel' },
    ]);
  });

  it('refuses a reference to a missing definition, or a definition that is only a reference to itself', () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/definitions/gone' }, b: { $ref: '#/definitions/loop' } } };
    expect(() => celProblems(broken, { a: {} }, '', definitions)).toThrow('schema reference to a missing definition gone');
    expect(() => celProblems(broken, { b: {} }, '', definitions)).toThrow('schema definition loop refers to itself');
    expect(celProblems(broken, {}, '', definitions)).toEqual([]);
  });
});
