/**
 * Which CEL rules of a schema are not evaluated (src/validate/schema/cel-rules.ts): the cheap look that
 * decides whether the walk naming their places runs must never miss a rule the walk would name.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import workflowsData from '../schemas/argo-workflows.json';
import eventsData from '../schemas/argo-events.json';
import { holdsUnevaluatedCelRule, unevaluatedCelRules } from '../src/validate/schema/cel-rules';

const rule = (text: string) => ({ 'x-kubernetes-validations': [{ rule: text, message: 'm' }] });

const SCHEMAS: Record<string, Record<string, unknown>> = {
  'no rule': { type: 'object', properties: { a: { type: 'string' } } },
  'an evaluated rule': { type: 'object', properties: { a: { type: 'object', ...rule('has(self.b)') } } },
  'a transition rule, deep': {
    type: 'object',
    properties: { a: { type: 'array', items: { type: 'object', ...rule('self == oldSelf') } } },
  },
  'a Kubernetes-only function in a map value': {
    type: 'object',
    additionalProperties: { type: 'object', ...rule('isURL(self.u)') },
  },
  'a rule that does not compile': { type: 'object', ...rule('self.(') },
  'a rule inside anyOf': { anyOf: [{ type: 'object', ...rule('has(self.b)') }] },
  'a rule inside not': { not: { type: 'object', ...rule('has(self.b)') } },
};

describe('holdsUnevaluatedCelRule', () => {
  it.each(Object.entries(SCHEMAS))('agrees with unevaluatedCelRules: %s', (_name, schema) => {
    expect(holdsUnevaluatedCelRule([schema])).toBe(unevaluatedCelRules(schema).length > 0);
  });

  it('finds a rule in a definition, where a $ref leads', () => {
    const definitions = { deep: { type: 'object', ...rule('self == oldSelf') } };
    expect(holdsUnevaluatedCelRule([{ properties: { a: { $ref: '#/definitions/deep' } } }, definitions])).toBe(true);
    expect(holdsUnevaluatedCelRule([{ properties: { a: { $ref: '#/definitions/deep' } } }])).toBe(false);
  });

  it('finds none in the built-in Argo schemas, whose every CEL rule is evaluated', () => {
    expect(JSON.stringify(workflowsData)).toContain('x-kubernetes-validations');
    expect(holdsUnevaluatedCelRule([workflowsData])).toBe(false);
    expect(holdsUnevaluatedCelRule([eventsData])).toBe(false);
  });
});
