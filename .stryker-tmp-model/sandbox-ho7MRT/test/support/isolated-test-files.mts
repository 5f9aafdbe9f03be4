/**
 * Test files that mock modules (vi.mock): vitest.config.mts runs them isolated, with fresh modules of their
 * own, while the other files share their worker's modules. test/vitest-config.test.ts keeps the list true.
 */
// @ts-nocheck

export const ISOLATED_TEST_FILES: readonly string[] = [];
