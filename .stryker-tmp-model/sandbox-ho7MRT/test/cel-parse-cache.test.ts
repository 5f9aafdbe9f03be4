/**
 * The cache of parsed CEL rules (src/validate/schema/cel-parse-cache.ts): what it gives back is what
 * @bufbuild/cel's parser gives, bigints, bytes and unset fields included, and a parse error is still thrown.
 */
// @ts-nocheck

import { parse } from '@bufbuild/cel';
import { describe, expect, it } from 'vitest';
import { cachedParse, tag, untag } from '../src/validate/schema/cel-parse-cache';

const RULES = [
  'self.all(t, (has(t.container) ? 1 : 0) + (has(t.script) ? 1 : 0) <= 1)',
  "!(has(self.depends) || has(self.dependencies)) || !self.name.matches('^[0-9]')",
  'b"a\\x00" == b"a" || 1u > 0u || 2.5 > -1.0 || null == null || [1, 2].size() == 2 || {"k": 1}["k"] == 1',
  "!has(self.realtime) || !self.realtime || !self.value.contains('resourcesDuration.')",
];

describe('cachedParse', () => {
  it('stores the parser result as JSON and reads back exactly the same message', () => {
    for (const rule of RULES) {
      const parsed = parse(rule);
      expect(untag(JSON.parse(JSON.stringify(tag(parsed))))).toStrictEqual(parsed);
      expect(cachedParse(rule)).toStrictEqual(parsed);
      expect(cachedParse(rule)).toStrictEqual(parsed);
    }
  });

  it('throws the parse error of a rule the parser cannot read', () => {
    expect(() => cachedParse('self.a ==')).toThrow();
  });
});
