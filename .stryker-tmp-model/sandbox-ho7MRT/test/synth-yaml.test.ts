/**
 * The tests read a synthesis as the objects its YAML was written from (test/support/synth.ts,
 * `parseManifests`), not by reading the YAML again: here, for the default platform, every example app and
 * configurations whose values YAML could misread, reading each file's YAML gives exactly those objects, in
 * the same order with the same keys in the same order. `AGENT_PLAY_TEST_READ_YAML=1 npx vitest run` checks
 * the same for every platform the suite synthesizes.
 */
// @ts-nocheck

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { resolveConfig, type ConfigInputs } from '../constructs/model/resolve-config';
import { type ManifestFiles, SynthesizedManifests, synthesizeApp, synthesizePlatform } from '../src/synth/synthesize';
import { parseManifests, readManifestTexts } from './support/synth';

const EXAMPLES = join(__dirname, '..', 'examples');

/** Values a YAML reader could take for a boolean, a number or null if they were written unquoted. */
const TRICKY: ConfigInputs = {
  env: {},
  file: {
    repositories: [
      { name: 'octo-org/yes', service: 'on' },
      { name: 'octo-org/null', service: 'n' },
      { name: 'octo-org/0755', service: 'y', branch: '1_000' },
      { name: 'octo-org/1e3', service: 'off', branch: '0x1F' },
    ],
    events: { resume: 'workflow-name' },
  },
};

function expectReadsAsWritten(files: ManifestFiles): void {
  // Else parseManifests reads the YAML, and this compares that reading with itself.
  expect(files).toBeInstanceOf(SynthesizedManifests);
  const written = parseManifests(files);
  expect(written.length).toBeGreaterThan(0);
  const read = readManifestTexts(files);
  // In the same key order, and strictly: a field the objects hold as undefined (which YAML cannot write) differs.
  expect(JSON.stringify(read)).toBe(JSON.stringify(written));
  expect(read).toStrictEqual(written);
}

describe('the YAML of a synthesis reads back as the objects it was written from', () => {
  it('for the default platform', () => {
    expectReadsAsWritten(synthesizePlatform(resolveConfig({ env: {} })));
  });

  it('for values YAML could misread, and the workflow-name strategy', () => {
    expectReadsAsWritten(synthesizePlatform(resolveConfig(TRICKY)));
  });

  it.each(
    readdirSync(EXAMPLES)
      .filter((name) => name.endsWith('.ts'))
      .sort(),
  )('for examples/%s', async (name) => {
    const example = (await import(join(EXAMPLES, name))) as { buildApp: () => App };
    expectReadsAsWritten(synthesizeApp(example.buildApp()));
  });
});

it('gives each caller objects of its own', () => {
  const files = synthesizePlatform(resolveConfig({ env: {} }));
  const first = parseManifests(files);
  first[0].metadata.name = 'changed';
  expect(parseManifests(files)[0].metadata.name).not.toBe('changed');
});
