/**
 * The reading cache of `agent-play validate` (src/validate/cached-kubernetes-yaml.ts): a text read from the
 * cache gives the same documents as reading it: values, lines, duplicate keys and the line of every path.
 */
// @ts-nocheck

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readKubernetesYamlCached } from '../src/validate/cached-kubernetes-yaml';
import { readKubernetesYaml, type YamlDocument } from '../src/validate/kubernetes-yaml';
import { useScratchCacheDir } from './support/scratch-cache-dir';

const cache = useScratchCacheDir('agent-play-reading-');

/** Every path into the value, and a few that name nothing. */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const found = [at, [...at, 'missing'], [...at, 0], [...at, '0']];
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) found.push(...pathsOf(item, [...at, index]));
  } else if (value !== null && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) found.push(...pathsOf(child, [...at, key]));
  return found;
}

function expectSame(read: YamlDocument[], cached: YamlDocument[]): void {
  expect(cached.map(({ lineOf: _, ...rest }) => rest)).toStrictEqual(read.map(({ lineOf: _, ...rest }) => rest));
  read.forEach((document, index) => {
    for (const at of pathsOf(document.value)) expect(cached[index].lineOf(at), JSON.stringify(at)).toBe(document.lineOf(at));
  });
}

const ROOT = path.resolve(__dirname, '..');
const texts = (folder: string): string[] =>
  existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => /\.ya?ml$/.test(name))
        .map((name) => readFileSync(path.join(folder, name), 'utf8'))
    : [];

describe('readKubernetesYamlCached', () => {
  it('gives back from the cache what reading gives, for every manifest of the platform', () => {
    const manifests = texts(path.join(ROOT, 'dist-manifests')).filter((text) => text.length >= 4 * 1024);
    expect(manifests.length).toBeGreaterThan(0);
    for (const text of manifests) {
      const read = readKubernetesYaml(text);
      expectSame(read, readKubernetesYamlCached(text)); // read, then kept
      expectSame(read, readKubernetesYamlCached(text)); // from the cache
    }
    expect(readdirSync(path.join(cache, 'yaml')).length).toBe(manifests.length);
  });

  it('keeps duplicate keys, a List, aliases and merge keys as reading gives them, and never what JSON would change', () => {
    const filler = `# ${'x'.repeat(5 * 1024)}\n`;
    const text = `${filler}apiVersion: v1\nkind: List\nitems:\n  - &base\n    kind: ConfigMap\n    apiVersion: v1\n    metadata: {name: a}\n    data: {k: v, k: w}\n  - <<: *base\n    metadata:\n      name: b\n  - *base\n`;
    const read = readKubernetesYaml(text);
    expectSame(read, readKubernetesYamlCached(text));
    expectSame(read, readKubernetesYamlCached(text));
    const nan = `${filler}kind: X\nvalue: .nan\n`;
    readKubernetesYamlCached(nan);
    expect(Number.isNaN((readKubernetesYamlCached(nan)[0].value as { value: number }).value)).toBe(true);
  });
});
