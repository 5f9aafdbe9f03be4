/**
 * The suite shares modules between test files (vitest.config.mts, isolate: false), so a file that mocks a
 * module must be listed to run isolated: otherwise its mock would reach the files after it.
 */
// @ts-nocheck

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { ISOLATED_TEST_FILES } from './support/isolated-test-files.mjs';
import { SLOWEST_TEST_FILES, startRank } from './support/test-order.mjs';

const ROOT = resolve(__dirname, '..');
const MOCKS = /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv)\(/;

it('runs every test file that mocks a module isolated, and lists no other', () => {
  const files = readdirSync(resolve(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) =>
      relative(ROOT, join(ROOT, 'test', name))
        .split('\\')
        .join('/'),
    );
  const mocking = files.filter((file) => file !== 'test/vitest-config.test.ts' && MOCKS.test(readFileSync(join(ROOT, file), 'utf8')));
  // The scan finds a mock where a file would have one (no file has one today: the list is empty).
  expect(["vi.mock('../src/x', () => ({}));", 'vi.stubEnv("A", "b");'].filter((text) => MOCKS.test(text))).toHaveLength(2);
  expect([...ISOLATED_TEST_FILES].sort()).toEqual(mocking.sort());
});

it('starts the slowest files first by names that exist', () => {
  const missing = SLOWEST_TEST_FILES.filter((file) => !existsSync(join(ROOT, file)));
  expect(missing).toEqual([]);
  expect(new Set(SLOWEST_TEST_FILES).size).toBe(SLOWEST_TEST_FILES.length);
});

it('starts an isolated file before every shared one, so that no shared worker is stopped and started again', () => {
  const shared = ['test/naming.test.ts', ...SLOWEST_TEST_FILES].map((file) => startRank(file, false));
  for (const file of [...ISOLATED_TEST_FILES, 'test/a-future-mocking-file.test.ts'])
    expect(startRank(file, true)).toBeLessThan(Math.min(...shared));
  expect(SLOWEST_TEST_FILES.map((file) => startRank(file, false))).toEqual(SLOWEST_TEST_FILES.map((_, index) => index));
  expect(startRank('test/naming.test.ts', false)).toBeGreaterThan(startRank(SLOWEST_TEST_FILES[SLOWEST_TEST_FILES.length - 1], false));
});

it('gives every test that may be skipped its reason in the title (vitest reports a skipped test by its title only)', () => {
  const CONDITIONAL = /\.(?:runIf|skipIf)\(/g;
  const SAYS_WHY = /skipNote\(|SKIP_REASON|\(skipped: /;
  const silent = (text: string): number =>
    [...text.matchAll(CONDITIONAL)].filter((match) => !SAYS_WHY.test(text.slice(match.index, match.index + 400))).length;
  // The scan finds a conditional test without its reason.
  expect(silent("it.runIf(hasGo)('builds the oracle', () => {});")).toBe(1);
  expect(silent("it.runIf(hasGo)(`builds the oracle${skipNote(hasGo, 'no Go')}`, () => {});")).toBe(0);
  const files = readdirSync(resolve(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && name !== 'vitest-config.test.ts')
    .map((name) => join('test', name));
  expect(files.filter((file) => silent(readFileSync(join(ROOT, file), 'utf8')) > 0)).toEqual([]);
});
