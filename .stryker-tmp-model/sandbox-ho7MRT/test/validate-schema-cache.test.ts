/**
 * The caches of `agent-play validate`, all in the user's cache folder and never in the working folder: large
 * YAML files read once (a bad entry is read again), and compiled validators written once as ajv standalone
 * code that later processes load instead of compiling.
 */
// @ts-nocheck

import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cacheFileFor, cachedDocuments, cachedFileDocuments } from '../src/validate/schema/parsed-yaml-cache';
import { userCacheDir, type ValidatorRequest } from '../src/validate/schema/validator-cache';
import { useScratchCacheDir } from './support/scratch-cache-dir';

/** A text large enough to be cached, unique to this run. */
const bigText = (): string => `# ${randomUUID()}\n${'x: 1\n'.repeat(60_000)}`;

const cache = useScratchCacheDir('agent-play-cache-');

describe('the user cache folder', () => {
  it('is $AGENT_PLAY_CACHE_DIR, else $XDG_CACHE_HOME/agent-play, else ~/.cache/agent-play', () => {
    expect(userCacheDir({ AGENT_PLAY_CACHE_DIR: '/x/y', XDG_CACHE_HOME: '/z' })).toBe(path.resolve('/x/y'));
    expect(userCacheDir({ XDG_CACHE_HOME: '/z' })).toBe(path.resolve('/z/agent-play'));
    expect(userCacheDir({})).toBe(path.join(homedir(), '.cache', 'agent-play'));
  });
});

describe('the parsed YAML cache', () => {
  it('parses a large text once, then serves the same documents from the user cache, not the working folder', () => {
    const text = bigText();
    const parse = vi.fn(() => [{ kind: 'CustomResourceDefinition', n: 1 }]);
    expect(cachedDocuments(text, parse)).toEqual([{ kind: 'CustomResourceDefinition', n: 1 }]);
    expect(cachedDocuments(text, parse)).toEqual([{ kind: 'CustomResourceDefinition', n: 1 }]);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(cacheFileFor(text)?.startsWith(cache + path.sep)).toBe(true);
    expect(existsSync(path.resolve('node_modules', '.cache', 'agent-play', 'yaml', path.basename(cacheFileFor(text) ?? '')))).toBe(false);
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

  it('finds a file read before by its path, size, time and inode, without reading it, and reads a changed file again', () => {
    const file = path.join(cache, 'crd.yaml');
    writeFileSync(file, bigText());
    const parse = vi.fn((text: string) => [{ length: text.length }]);
    const first = cachedFileDocuments(file, parse);
    expect(cachedFileDocuments(file, parse)).toEqual(first);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(readFileSync(path.join(cache, 'yaml', 'files.json'), 'utf8')).toContain(path.resolve(file));
    // Same size, a later time: the index no longer names it, so the text is read (and, new, parsed) again.
    writeFileSync(file, bigText());
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(cachedFileDocuments(file, parse)).toEqual(first);
    expect(parse).toHaveBeenCalledTimes(2);
    // An entry dropped from the cache is read from the file again.
    rmSync(cacheFileFor(readFileSync(file, 'utf8')) as string);
    expect(cachedFileDocuments(file, parse)).toEqual(first);
    expect(parse).toHaveBeenCalledTimes(3);
  });
});

describe('the compiled validator cache', () => {
  const id = `agent-play:test-${randomUUID()}`;
  const withRef: ValidatorRequest = {
    document: {
      $id: id,
      definitions: { thing: { type: 'object', properties: { size: { type: 'integer', maximum: 3 } }, additionalProperties: false } },
    },
    refs: { thing: `${id}#/definitions/thing` },
  };

  it('compiles once into the user cache; the validators check what the schema says', async () => {
    const { cachedValidators, saveValidatorCode, validatorKey } = await import('../src/validate/schema/validator-cache.js');
    const { thing } = cachedValidators(withRef);
    expect(thing({ size: 2 })).toBe(true);
    expect(thing({ size: 4 })).toBe(false);
    expect(thing({ colour: 'red' })).toBe(false);
    expect(existsSync(path.join(cache, 'validators', `${validatorKey(withRef)}.cjs`))).toBe(true);
    // V8's compiled form is written at exit, with the functions that ran; saveValidatorCode writes it now.
    expect(existsSync(path.join(cache, 'validators', `${validatorKey(withRef)}.v8`))).toBe(false);
    saveValidatorCode();
    expect(existsSync(path.join(cache, 'validators', `${validatorKey(withRef)}.v8`))).toBe(true);
  });

  it('is read by a later process instead of compiling (the cached code is what runs)', async () => {
    const { validatorKey } = await import('../src/validate/schema/validator-cache.js');
    // Stand-in code that accepts everything: if it is what runs, the cache was read and nothing compiled.
    writeFileSync(
      path.join(cache, 'validators', `${validatorKey(withRef)}.cjs`),
      'module.exports = { thing: function () { return true; } };',
    );
    vi.resetModules();
    const fresh = await import('../src/validate/schema/validator-cache.js');
    expect(fresh.cachedValidators(withRef).thing({ size: 99 })).toBe(true);
  });

  it('makes a document given as a function only to compile it, and keys it by what it is made from', async () => {
    const made = { ...withRef.document, $id: `${id}-made` } as Record<string, unknown>;
    const makeDocument = vi.fn(() => made);
    const lazy: ValidatorRequest = { document: makeDocument, madeFrom: { version: 1 }, refs: { thing: `${id}-made#/definitions/thing` } };
    const { cachedValidators, validatorKey } = await import('../src/validate/schema/validator-cache.js');
    expect(validatorKey(lazy)).not.toBe(validatorKey({ ...lazy, madeFrom: { version: 2 } }));
    expect(makeDocument).not.toHaveBeenCalled();
    expect(cachedValidators(lazy).thing({ size: 4 })).toBe(false);
    expect(makeDocument).toHaveBeenCalledTimes(1);
    vi.resetModules();
    const fresh = await import('../src/validate/schema/validator-cache.js');
    expect(fresh.cachedValidators(lazy).thing({ size: 4 })).toBe(false);
    expect(makeDocument).toHaveBeenCalledTimes(1);
  });
});

describe('StoredMap', () => {
  it('reads back in a later instance what an earlier one saved, and treats an unreadable file as empty', async () => {
    const { StoredMap } = await import('../src/stored-map.js');
    const file = path.join(cache, 'stored', 'values.json');
    const first = new StoredMap(file);
    expect(first.get('a')).toBeUndefined();
    first.set('a', { n: 1 });
    first.save();
    expect(new StoredMap(file).get('a')).toEqual({ n: 1 });
    writeFileSync(file, '[not json');
    expect(new StoredMap(file).get('a')).toBeUndefined();
  });
});

describe('the Go regexp verdicts', () => {
  it('are kept in the user cache, and what is stored there is what a later process answers', async () => {
    const { goRegexpProblem, saveGoRegexpVerdicts } = await import('../src/validate/rules/go-regexp.js');
    expect(goRegexpProblem('^(?i:main)$')).toBeUndefined();
    expect(goRegexpProblem('a(?=b)')).toMatch(/invalid or unsupported Perl syntax/);
    saveGoRegexpVerdicts();
    const folder = path.join(cache, 'regexp');
    const [file] = readdirSync(folder).map((name) => path.join(folder, name));
    const verdicts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(verdicts['^(?i:main)$']).toBe('');
    expect(verdicts['a(?=b)']).toMatch(/invalid or unsupported Perl syntax/);
    // A stand-in verdict: if it is what a fresh module answers, the stored file was read and nothing compiled.
    writeFileSync(file, JSON.stringify({ ...verdicts, '^(?i:main)$': 'stand-in' }));
    vi.resetModules();
    const fresh = await import('../src/validate/rules/go-regexp.js');
    expect(fresh.goRegexpProblem('^(?i:main)$')).toBe('stand-in');
  });
});

describe('the preparation version', () => {
  it('is looked at whenever the schema passes change (json-schema-passes.ts)', () => {
    // Validators compiled from an older preparation would be reused if PREPARATION_VERSION stayed the same.
    // When this fails: bump PREPARATION_VERSION if the change alters what prepareOpenApiSchema makes, then
    // record the file's new hash here.
    const source = readFileSync(path.join(__dirname, '../src/validate/schema/json-schema-passes.ts'), 'utf8');
    expect(createHash('sha256').update(source.replace(/\r\n/g, '\n')).digest('hex')).toBe(
      '229a904767919ebd46ea76ee15fbc537fd368e5ac3ad85d7442d6755c33dd895',
    );
  });
});
