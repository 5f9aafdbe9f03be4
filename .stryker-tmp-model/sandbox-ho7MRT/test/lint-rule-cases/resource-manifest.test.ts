/**
 * The parse of a resource template's manifest that resource-template and spec-labels share: placeholders read
 * as a plain word, each YAML error's first line, and a bounded memory of manifests already parsed.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { parseResourceManifest } from '../../src/validate/rules/resource-manifest';

describe('parseResourceManifest', () => {
  it('reads each {{...}} as a plain word, keeping the text around it', () => {
    expect(parseResourceManifest('a: {{inputs.parameters.x}}\nb: x-{{workflow.name}}{{pod.name}}\n').values).toEqual([
      { a: 'placeholder', b: 'x-placeholderplaceholder' },
    ]);
  });

  it('reads a manifest the constructs write as JSON, placeholders as the same plain word', () => {
    expect(parseResourceManifest('{"metadata":{"labels":{"stage":"{{inputs.parameters.stage}}"}},"n":{{=asInt(x)}}}\n')).toEqual({
      errors: [],
      values: [{ metadata: { labels: { stage: 'placeholder' } }, n: 'placeholder' }],
    });
  });

  it('gives the values of the documents that parse, and the first line of each error', () => {
    const { errors, values } = parseResourceManifest('a: 1\n---\nb: [1\n---\n- 2\n');
    expect(values).toEqual([{ a: 1 }, [2]]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^[A-Z].+[^\n]$/);
    expect(errors[0]).not.toContain('\n');
  });

  it('returns the same parse for the same text', () => {
    const text = 'kind: ConfigMap\nmetadata:\n  name: same\n';
    expect(parseResourceManifest(text)).toBe(parseResourceManifest(text));
  });

  it('forgets the oldest half once 256 manifests are remembered, and keeps the newest', () => {
    const first = parseResourceManifest('n: first-of-many\n');
    const texts = Array.from({ length: 256 }, (_, index) => `n: many-${index}\n`);
    const parses = texts.map((text) => parseResourceManifest(text));
    expect(parseResourceManifest('n: first-of-many\n')).not.toBe(first);
    expect(parseResourceManifest(texts[255])).toBe(parses[255]);
    // The newer half of what was remembered when it filled up is still there.
    expect(parseResourceManifest(texts[254])).toBe(parses[254]);
  });
});
