import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { ISOLATED_TEST_FILES } from './test/support/isolated-test-files.mts';
import { startRank } from './test/support/test-order.mts';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * vitest's order (failed first, then longest last time, unknown files first), with the isolated files and
 * then the known slowest files before all (test/support/test-order.mts).
 */
class SlowestFirst extends BaseSequencer {
  public override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number =>
      startRank(relative(ROOT, spec.moduleId).split('\\').join('/'), spec.project.config.isolate !== false);
    // Array.prototype.sort is stable: files of equal rank keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    // A listener leak fails the file it happened in, instead of a warning that scrolls past.
    setupFiles: ['test/support/no-listener-leaks.ts'],
    // Test files share their worker's modules (isolate: false): each file loading cdk8s, zod, the schemas
    // and the TypeScript transforms again was a third of the suite's CPU time. Processes (forks), not
    // threads: a worker thread's smaller stack changes what the deep-nesting tests of bad input see. A file
    // that mocks a module (vi.mock) runs isolated, so its mock cannot reach another file.
    pool: 'forks',
    // A young generation four times V8's default: synthesis makes many short-lived objects, and fewer
    // scavenges (each promoting what is still referenced) took 5% off the CPU of the synthesis-heavy files.
    execArgv: ['--max-semi-space-size=64'],
    // One worker per core: vitest's default leaves one core to itself (one worker on two cores), but its
    // main process is nearly idle while the workers run.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: SlowestFirst },
    // The TypeScript of every test and source file, as vitest transformed it, is kept on disk
    // (node_modules/.experimental-vitest-cache, keyed by each file's content and the config) and taken back on the
    // next run instead of transformed again: most of the "transform" time of a run on unchanged files.
    experimental: { fsModuleCache: true },
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...ISOLATED_TEST_FILES], isolate: false } },
      // Only when a file needs it: a project with nothing to include would make vitest look for its defaults.
      ...(ISOLATED_TEST_FILES.length > 0 ? [{ extends: true, test: { name: 'isolated', include: [...ISOLATED_TEST_FILES] } }] : []),
    ],
  },
});
