/** The cache of large parsed YAML files: read once, then served from node_modules/.cache; a bad entry is re-parsed. */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { cacheFileFor, cachedDocuments } from '../src/validate/schema/parsed-yaml-cache';

/** A text large enough to be cached, unique to this run. */
const bigText = (): string => `# ${randomUUID()}\n${'x: 1\n'.repeat(60_000)}`;

describe('the parsed YAML cache', () => {
  it('parses a large text once, then serves the same documents from the cache', () => {
    const text = bigText();
    const parse = vi.fn(() => [{ kind: 'CustomResourceDefinition', n: 1 }]);
    expect(cachedDocuments(text, parse)).toEqual([{ kind: 'CustomResourceDefinition', n: 1 }]);
    expect(cachedDocuments(text, parse)).toEqual([{ kind: 'CustomResourceDefinition', n: 1 }]);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('parses again when the entry is unreadable, and never caches small texts', () => {
    const text = bigText();
    const parse = vi.fn(() => [{ n: 2 }]);
    cachedDocuments(text, parse);
    writeFileSync(cacheFileFor(text) as string, '{ broken');
    expect(cachedDocuments(text, parse)).toEqual([{ n: 2 }]);
    expect(parse).toHaveBeenCalledTimes(2);
    expect(cacheFileFor('a: 1\n')).toBeUndefined();
    const small = vi.fn(() => [{ n: 3 }]);
    cachedDocuments('a: 1\n', small);
    cachedDocuments('a: 1\n', small);
    expect(small).toHaveBeenCalledTimes(2);
  });
});
