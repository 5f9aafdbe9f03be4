/**
 * The tests leave nothing in the OS temp folder: they make temp folders only through useScratchDirs
 * (test/support/scratch-dir.ts), which removes them after the file, and build constructs in testChart()
 * (test/support/test-chart.ts) rather than in cdk8s's Testing.app() or Testing.chart(), each of which makes
 * a temp folder that nothing removes.
 */
// @ts-nocheck

import { readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeNowAndAtExit } from './support/scratch-dir';

const ROOT = path.resolve(__dirname, '..');
const HELPERS = ['test/support/scratch-dir.ts', 'test/support/test-chart.ts'];
/** This file names the calls it looks for. */
const SELF = 'test/temp-folders.test.ts';

/** A temp folder made directly (fs or fs/promises), or a cdk8s test app or chart. */
const TEMP_FOLDER_CALL = /\bmkdtemp(?:Sync)?\s*\(|\bTesting\s*\.\s*(?:app|chart)\s*\(/;

function testSources(): string[] {
  return readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .map((file) => `test/${file.split(path.sep).join('/')}`)
    .filter((file) => /\.m?ts$/.test(file));
}

const makesTempFolders = (file: string): boolean => TEMP_FOLDER_CALL.test(readFileSync(path.join(ROOT, file), 'utf8'));

describe('temp folders of the tests', () => {
  it('are made only by the support helpers', () => {
    expect(testSources().filter((file) => file !== SELF && !HELPERS.includes(file) && makesTempFolders(file))).toEqual([]);
  });

  it('would be found: the scan sees the helpers, and each form of the call', () => {
    expect(HELPERS.filter(makesTempFolders)).toEqual(HELPERS);
    expect(testSources()).toContain(SELF);
    for (const call of ['mkdtempSync(', 'fs.mkdtempSync(', 'await mkdtemp (', 'Testing.app()', 'Testing.chart()', 'Testing\n  .app()'])
      expect(TEMP_FOLDER_CALL.test(call), call).toBe(true);
    for (const call of ['mkdtempish(', 'Testing.synth(chart)', 'new Chart(new App(), "test")'])
      expect(TEMP_FOLDER_CALL.test(call), call).toBe(false);
  });
});

describe('removing the scratch folders at exit', () => {
  it('adds at most one exit listener however many folders a worker removes (no MaxListenersExceededWarning)', () => {
    const before = process.listenerCount('exit');
    const folders = Array.from({ length: 20 }, (_, index) => path.join(os.tmpdir(), `agent-play-never-made-${process.pid}-${index}`));
    for (const folder of folders) removeNowAndAtExit(folder);
    expect(process.listenerCount('exit') - before).toBeLessThanOrEqual(1);
  });
});
