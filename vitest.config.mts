import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `import ... from 'cdk8s-agent-play'` inside the checkout means the sources (as tsconfig.json's paths say).
  resolve: {
    alias: {
      'cdk8s-agent-play/validate': fileURLToPath(new URL('./src/validate/index.ts', import.meta.url)),
      'cdk8s-agent-play': fileURLToPath(new URL('./constructs/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Compiling the upstream Workflows CRDs takes seconds; give schema suites room without hiding hangs.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
