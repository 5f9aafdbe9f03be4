/**
 * Names are sorted by code units (constructs/model/code-unit-order.ts): the same order on every machine,
 * whatever its ICU data and locale, and without building a collator.
 */
// @ts-nocheck

import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { byCodeUnits } from '../constructs/model/code-unit-order';

const ROOT = path.resolve(__dirname, '..');

function sources(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(folder, file));
}

describe('byCodeUnits', () => {
  it('orders by UTF-16 code units: upper case before lower case, digits and hyphens before letters', () => {
    expect(['b', 'a-b', 'B', 'a', 'é', 'Z', 'a1', 'ab'].sort(byCodeUnits)).toEqual(['B', 'Z', 'a', 'a-b', 'a1', 'ab', 'b', 'é']);
    expect(byCodeUnits('same', 'same')).toBe(0);
  });

  it('is the only order in the sources: no localeCompare in constructs/ or src/', () => {
    const calls = [...sources('constructs'), ...sources('src')].filter((file) =>
      /\.localeCompare\(/.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(calls).toEqual([]);
  });
});
