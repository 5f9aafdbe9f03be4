/**
 * `readKubernetesYaml` with what it read kept in the user's cache folder (`yaml/`, see parsed-yaml-cache.ts),
 * keyed by a hash of the text: reading manifests with the `yaml` package was a quarter of `agent-play
 * validate`, and the same files (the committed `dist-manifests/`, a CI checkout) are validated again and
 * again. What is kept is what a reader needs: each document's value, line and duplicate keys, and the line
 * of every mapping key and list item, so that findings name the same lines. A text that is not YAML is not
 * kept (it is read, and refused, every time). Only the reading is cached: every object is checked every run.
 */
// @ts-nocheck

import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { readCacheJson, userCacheDir, writeCacheFile } from '../user-cache-dir';
import { type DuplicateKey, readKubernetesYaml, type YamlDocument } from './kubernetes-yaml';
import { jsonExact } from './json-exact';

/** Bump when what is kept, or how `readKubernetesYaml` reads, changes. */
const FORMAT = 'kubernetes-yaml-v1';

/** Texts shorter than this read fast enough. */
const WORTH_CACHING_CHARS = 4 * 1024;

/** A document as kept: `lines` maps each path (JSON of its steps) to its line, `kinds` each collection's. */
interface KeptDocument {
  readonly value: unknown;
  readonly index: number;
  readonly line: number;
  readonly duplicateKeys: readonly DuplicateKey[];
  readonly lines: Record<string, number>;
  readonly kinds: Record<string, 'map' | 'seq'>;
}

/** Every document of a YAML stream, read as `readKubernetesYaml` reads it, from the cache when it holds the text. */
export function readKubernetesYamlCached(text: string): YamlDocument[] {
  if (text.length < WORTH_CACHING_CHARS) return readKubernetesYaml(text);
  const hash = createHash('sha256').update(FORMAT).update(text).digest('hex');
  const file = path.join(userCacheDir(), 'yaml', `${hash}.manifests.json`);
  const kept = readCacheJson(file);
  try {
    if (Array.isArray(kept)) return (kept as KeptDocument[]).map(restore);
  } catch {
    // Not what was kept: read the text below.
  }
  const documents = readKubernetesYaml(text);
  // A value JSON cannot carry exactly (`.nan`, `-0`, `!!binary` bytes, a `!!set`) is read every time instead.
  if (documents.every((document) => jsonExact(document.value))) writeCacheFile(file, JSON.stringify(documents.map(keep)));
  return documents;
}

/** The document with the line of every path its `lineOf` can name, found by walking it as `lineOf` does. */
function keep(document: YamlDocument): KeptDocument {
  const lines: Record<string, number> = {};
  const kinds: Record<string, 'map' | 'seq'> = {};
  const record = (steps: (string | number)[], line: number | undefined): void => {
    if (line !== undefined) lines[JSON.stringify(steps)] = line;
  };
  record([], document.lineOf([]));
  const walk = (value: unknown, steps: (string | number)[]): void => {
    if (Array.isArray(value)) {
      kinds[JSON.stringify(steps)] = 'seq';
      value.forEach((item, index) => {
        record([...steps, index], document.lineOf([...steps, index]));
        walk(item, [...steps, index]);
      });
    } else if (value !== null && typeof value === 'object') {
      kinds[JSON.stringify(steps)] = 'map';
      for (const [key, child] of Object.entries(value)) {
        record([...steps, key], document.lineOf([...steps, key]));
        walk(child, [...steps, key]);
      }
    }
  };
  walk(document.value, []);
  return { value: document.value, index: document.index, line: document.line, duplicateKeys: document.duplicateKeys, lines, kinds };
}

function restore(kept: KeptDocument): YamlDocument {
  return {
    value: kept.value,
    index: kept.index,
    line: kept.line,
    duplicateKeys: kept.duplicateKeys,
    lineOf: (path) => {
      const steps: (string | number)[] = [];
      for (const step of path) {
        const kind = kept.kinds[JSON.stringify(steps)];
        if (kind === 'seq' && typeof step === 'number') steps.push(step);
        else if (kind === 'map') steps.push(String(step));
        else return undefined;
      }
      return kept.lines[JSON.stringify(steps)];
    },
  };
}
