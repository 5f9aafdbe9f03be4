import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { ISOLATED_TEST_FILES } from './test/support/isolated-test-files.mts';

export default defineConfig({
  // `import ... from 'cdk8s-agent-play'` inside the checkout means the sources (as tsconfig.json's paths say).
  resolve: {
    alias: {
      'cdk8s-agent-play/validate': fileURLToPath(new URL('./src/validate/index.ts', import.meta.url)),
      'cdk8s-agent-play': fileURLToPath(new URL('./constructs/index.ts', import.meta.url)),
    },
  },
  test: {
    // Compiling the upstream Workflows CRDs takes seconds; give schema suites room without hiding hangs.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Test files share their worker's modules (isolate: false): each file loading cdk8s, zod, the schemas
    // and the TypeScript transforms again was a third of the suite's CPU time. Processes (forks), not
    // threads: a worker thread's smaller stack changes what the deep-nesting tests of bad input see. A file
    // that mocks a module (vi.mock) runs isolated, so its mock cannot reach another file.
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...ISOLATED_TEST_FILES], isolate: false } },
      { extends: true, test: { name: 'isolated', include: [...ISOLATED_TEST_FILES] } },
    ],
  },
});
