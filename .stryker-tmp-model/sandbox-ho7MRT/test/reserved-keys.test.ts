/**
 * A map we read never loses an entry to JavaScript: `__proto__`, `constructor` and `prototype` as keys of a
 * progress record's maps or of a scenario's play parameters are refused at their path, never dropped.
 */
// @ts-nocheck

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordWithoutReservedKeys, reservedKeysOf } from '../constructs/model/reserved-keys';
import { parseProgressRecord } from '../src/state/progress-record';
import { loadScenario } from '../src/simulate/scenario';
import { useScratchDirs } from './support/scratch-dir';

const record = {
  repository: '5dlabs/cto-play-test',
  task: '7',
  workflowName: 'play-cto-play-test-task-7',
  startedAt: '2026-11-23T08:00:00Z',
  lastUpdated: '2026-11-23T08:15:00Z',
  stage: 'testing',
  status: 'in-progress',
};

describe('recordWithoutReservedKeys', () => {
  const schema = recordWithoutReservedKeys(z.string());

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s at its path', (key) => {
    const result = schema.safeParse(JSON.parse(`{"${key}": "x", "task-type": "frontend"}`));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      [key, expect.stringContaining('cannot be used as a key')],
    ]);
  });

  it('keeps every ordinary entry', () => {
    expect(schema.parse({ 'task-type': 'frontend', tier: 'gold' })).toEqual({ 'task-type': 'frontend', tier: 'gold' });
    expect(reservedKeysOf(['__proto__'])).toEqual([]);
  });
});

describe('a progress record', () => {
  it('with __proto__ among its play parameters is refused, naming the field', () => {
    const text = JSON.stringify(record).replace(/}$/, ',"parameters":{"__proto__":"x","task-type":"frontend"}}');
    expect(parseProgressRecord(text)).toEqual({
      problem: expect.stringMatching(/^parameters\.__proto__: "__proto__" cannot be used as a key/),
    });
  });

  it('with constructor among its stage results is refused', () => {
    const text = JSON.stringify({ ...record, stageResults: { constructor: { result: 'ok', finishedAt: '2026-11-23T08:10:00Z' } } });
    expect(parseProgressRecord(text)).toEqual({ problem: expect.stringMatching(/^stageResults\.constructor: /) });
  });

  it('with ordinary parameters is read whole', () => {
    const parsed = parseProgressRecord(JSON.stringify({ ...record, parameters: { 'task-type': 'frontend' } }));
    expect(parsed).toEqual({ record: expect.objectContaining({ parameters: { 'task-type': 'frontend' } }) });
  });
});

const scratch = useScratchDirs('agent-play-reserved-');

describe('a scenario', () => {
  it('whose play parameters hold __proto__ is refused, naming the path', () => {
    const folder = scratch();
    const file = join(folder, 'scenario.yaml');
    writeFileSync(
      file,
      'plays:\n  - repository: 5dlabs/cto-play-test\n    task: 7\n    stage: testing\n    parameters:\n      __proto__: x\nsteps: []\n',
    );
    expect(() => loadScenario(file)).toThrow(/plays\[0\]\.parameters\.__proto__.*cannot be used as a key/);
  });
});
