// @ts-nocheck
// The tests a mutation run (`npm run mutation`, stryker.config.json) may use to kill mutants: behaviour tests
// only, no snapshot and no corpus test, so the score says what the behaviour tests catch. Tests that read the
// upstream schemas in ../shared are left out (the mutation sandbox has no ../shared beside it), and so is
// test/lint-rules.test.ts, whose whole-platform checks cover every rule and would cost seconds per mutant.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: [
      'test/lint-rule-cases/**/*.test.ts',
      'test/simulate-engine/golden-oracle.test.ts',
      'test/external-names.contract.test.ts',
      'test/naming.test.ts',
      'test/events.test.ts',
      'test/json-as-yaml.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
