/** The pinned versions that name the caches of a library's results (src/pinned-version.ts). */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { pinnedVersion } from '../src/pinned-version';

describe('pinnedVersion', () => {
  it("is package.json's pin of the dependency", () => {
    expect(pinnedVersion('@bufbuild/cel')).toBe(packageJson.dependencies['@bufbuild/cel']);
    expect(pinnedVersion('re2js')).toBe(packageJson.dependencies.re2js);
  });

  it('refuses a package that is not a dependency, saying what to add', () => {
    expect(() => pinnedVersion('left-pad')).toThrow('package.json pins no version of left-pad: add it to "dependencies"');
  });
});
