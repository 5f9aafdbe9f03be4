import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Compiling the upstream Workflows CRDs takes seconds; give schema suites room without hiding hangs.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
