/**
 * The CEL verdicts kept in the user cache (src/validate/schema/cel-verdict-cache.ts): an object a schema met
 * before gets the kept verdict without evaluating a rule, a changed object is evaluated again, the rules a
 * schema cannot evaluate are kept per schema, and the file stays bounded.
 */
// @ts-nocheck

import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { customCrd } from './support/custom-crd';
import { useScratchCacheDir } from './support/scratch-cache-dir';

const cache = useScratchCacheDir('agent-play-cel-verdicts-');

/** A user's CRD with one CEL rule on its spec and, when asked, a transition rule no one can evaluate here. */
function scalerCrd(withTransitionRule = false): Record<string, unknown> {
  const rules = [{ rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' }];
  if (withTransitionRule) rules.push({ rule: 'self.minReplicas >= oldSelf.minReplicas', message: 'never shrink' });
  return customCrd({
    kind: 'Scaler',
    // A name of its own per run: the schema's content is part of the key, and this test wants a fresh one.
    name: `scalers-${randomUUID()}.example.com`,
    spec: {
      type: 'object',
      properties: { minReplicas: { type: 'integer' }, maxReplicas: { type: 'integer' } },
      'x-kubernetes-validations': rules,
    },
  });
}

const scaler = (minReplicas: number, maxReplicas: number): Record<string, unknown> => ({
  apiVersion: 'example.com/v1',
  kind: 'Scaler',
  metadata: { name: 'web' },
  spec: { minReplicas, maxReplicas },
});

const verdictFile = (): string => {
  const folder = path.join(cache, 'cel');
  const [name] = readdirSync(folder).filter((file) => file.startsWith('cel-verdicts-'));
  return path.join(folder, name);
};

/**
 * The modules afresh: test files share their worker's modules, and one loaded by an earlier file keeps the
 * cache folder that file had.
 */
/** The exit work of each fresh module set: done before the scratch cache folder goes, which it would make again. */
const freshSavers: (() => void)[] = [];
afterAll(() => {
  for (const save of freshSavers.splice(0)) save();
});

async function freshModules() {
  vi.resetModules();
  const { CrdSchema } = await import('../src/validate/schema/crd-schema.js');
  const { saveCelVerdicts } = await import('../src/validate/schema/cel-verdict-cache.js');
  freshSavers.push((await import('../src/save-at-exit.js')).saveAllNow);
  return { CrdSchema, saveCelVerdicts };
}

const messages = (problems: readonly { message: string }[]): string[] => problems.map((problem) => problem.message);

describe('the CEL verdicts', () => {
  it('are what a later process answers for the same object and schema, and a changed object is evaluated again', async () => {
    const crd = scalerCrd();
    const { CrdSchema, saveCelVerdicts } = await freshModules();
    expect(messages(CrdSchema.fromCrd(crd).validate(scaler(5, 2)))).toEqual(['minReplicas must not exceed maxReplicas']);
    expect(CrdSchema.fromCrd(crd).validate(scaler(1, 2))).toEqual([]);
    saveCelVerdicts();

    // Stand-in verdicts: if a fresh module answers with them, they were read and no rule was evaluated.
    const stored = JSON.parse(readFileSync(verdictFile(), 'utf8')) as Record<string, unknown>;
    const objectKeys = Object.keys(stored).filter((key) => key.startsWith('object:'));
    expect(objectKeys).toHaveLength(2);
    for (const key of objectKeys) stored[key] = [{ pointer: '/spec', message: 'stand-in', kind: 'cel' }];
    writeFileSync(verdictFile(), JSON.stringify(stored));
    const fresh = await freshModules();
    expect(messages(fresh.CrdSchema.fromCrd(crd).validate(scaler(5, 2)))).toEqual(['stand-in']);
    expect(messages(fresh.CrdSchema.fromCrd(crd).validate(scaler(1, 2)))).toEqual(['stand-in']);
    // One field changed: not the object the verdict was kept for.
    expect(messages(fresh.CrdSchema.fromCrd(crd).validate(scaler(6, 2)))).toEqual(['minReplicas must not exceed maxReplicas']);
    // Another schema (here: another CRD name) never reads this schema's verdicts.
    expect(messages(fresh.CrdSchema.fromCrd(scalerCrd()).validate(scaler(5, 2)))).toEqual(['minReplicas must not exceed maxReplicas']);
  });

  it('keep, per schema, which rules are not evaluated, and that is what a later process reports', async () => {
    const crd = scalerCrd(true);
    const { CrdSchema, saveCelVerdicts } = await freshModules();
    const problems = CrdSchema.fromCrd(crd).validate(scaler(1, 2));
    expect(problems.map((problem) => problem.kind)).toEqual(['cel-not-evaluated']);
    expect(problems[0].message).toContain('self.minReplicas >= oldSelf.minReplicas');
    saveCelVerdicts();

    const stored = JSON.parse(readFileSync(verdictFile(), 'utf8')) as Record<string, unknown>;
    const [unevaluatedKey] = Object.keys(stored).filter(
      (key) => key.startsWith('unevaluated:') && JSON.stringify(stored[key]).includes('oldSelf.minReplicas'),
    );
    expect(unevaluatedKey).toBeDefined();
    stored[unevaluatedKey] = [{ pointer: '', message: 'stand-in', kind: 'cel-not-evaluated' }];
    writeFileSync(verdictFile(), JSON.stringify(stored));
    const fresh = await freshModules();
    expect(messages(fresh.CrdSchema.fromCrd(crd).validate(scaler(1, 2)))).toEqual(['stand-in']);
  });

  it('are not used for an object JSON cannot carry exactly: .nan is not null', async () => {
    const crd = scalerCrd();
    const { CrdSchema } = await freshModules();
    const celMessages = (object: Record<string, unknown>): string[] =>
      CrdSchema.fromCrd(crd)
        .validate(object)
        .filter((problem) => problem.kind === 'cel')
        .map((problem) => problem.message);
    const withNull = celMessages({ ...scaler(1, 2), spec: { minReplicas: null, maxReplicas: 2 } });
    const withNaN = celMessages({ ...scaler(1, 2), spec: { minReplicas: Number.NaN, maxReplicas: 2 } });
    expect(withNull).toHaveLength(1);
    expect(withNull[0]).toContain('CEL error');
    expect(withNaN).toEqual(['minReplicas must not exceed maxReplicas']);
  });

  it('ignore a kept entry that is not a list of problems, and evaluate instead', async () => {
    const crd = scalerCrd();
    const { CrdSchema, saveCelVerdicts } = await freshModules();
    CrdSchema.fromCrd(crd).validate(scaler(5, 2));
    saveCelVerdicts();
    const stored = JSON.parse(readFileSync(verdictFile(), 'utf8')) as Record<string, unknown>;
    for (const key of Object.keys(stored)) stored[key] = [{ pointer: 3 }];
    writeFileSync(verdictFile(), JSON.stringify(stored));
    const fresh = await freshModules();
    expect(messages(fresh.CrdSchema.fromCrd(crd).validate(scaler(5, 2)))).toEqual(['minReplicas must not exceed maxReplicas']);
  });
});

describe('a StoredMap with a limit', () => {
  it('drops the oldest added entries beyond it, in memory and in the file', async () => {
    const { StoredMap } = await import('../src/stored-map.js');
    const file = path.join(cache, 'stored', 'limited.json');
    const map = new StoredMap(file, 2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    map.set('c', 4);
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([3, undefined, 4]);
    map.save();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ a: 3, c: 4 });
  });
});

describe('the CEL verdict format', () => {
  it('is looked at whenever what a verdict holds may change (cel-rules.ts, cel-verdict-cache.ts)', () => {
    // Verdicts kept by an older version would be reused if CEL_VERDICT_FORMAT stayed the same. When this
    // fails: bump CEL_VERDICT_FORMAT if the change alters the problems a rule gives (text, pointer, which
    // rules run), then record the files' new hashes here.
    const hashOf = (file: string): string =>
      createHash('sha256')
        .update(readFileSync(path.join(__dirname, '../src/validate/schema', file), 'utf8').replace(/\r\n/g, '\n'))
        .digest('hex');
    expect({ rules: hashOf('cel-rules.ts'), verdicts: hashOf('cel-verdict-cache.ts') }).toEqual({
      rules: 'fab0f5b42ebc748f1ce53e027b71755eca0f14939f0d499f3603ad0c901a8d36',
      verdicts: 'ee79ab64406e23a8b3f5901fad1746c67287477a4bc5b5d91fabbd47ad360f25',
    });
  });
});
