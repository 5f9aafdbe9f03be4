/**
 * The test files that take longest, longest first: vitest.config.mts starts them before the others, so
 * that on two cores no long file starts last and runs alone while the other worker idles. Without this a
 * clean clone (no vitest results cache) starts the largest files first, which are not the slowest: the
 * slow ones run whole programs (npm pack, the cdk8s CLI, bash) or synthesize large platforms when loaded.
 * A file missing here still runs; a stale entry only changes the order. Measure with
 * `npx vitest run --reporter=verbose` (a file's time includes its load, shown in the summary as import).
 */
// @ts-nocheck

export const SLOWEST_TEST_FILES: readonly string[] = [
  'test/direct-agent-script.test.ts',
  'test/package.test.ts',
  'test/project.test.ts',
  'test/events.test.ts',
  'test/cdk8s-cli.test.ts',
  'test/remediation.test.ts',
  'test/lazy-commands.test.ts',
  'test/property.test.ts',
  'test/schema-data.test.ts',
  'test/simulate.test.ts',
  'test/validate-corpus.test.ts',
  'test/bad-input.test.ts',
  'test/examples.test.ts',
  'test/lint-rules.test.ts',
];

/**
 * Where a file starts among the others (lower first): a file of the isolated project first, then the
 * slowest files in the order above, then the rest. vitest keeps a shared worker only while the next file in
 * line is a shared one: an isolated file in the middle stopped a shared worker, and its replacement loaded
 * every module again (cdk8s, zod, the schemas: seconds of CPU). Last, its own worker's start lengthened
 * the tail; first, it only delays the second-longest file by its load.
 */
export function startRank(file: string, isolated: boolean): number {
  if (isolated) return -1;
  const index = SLOWEST_TEST_FILES.indexOf(file);
  return index === -1 ? SLOWEST_TEST_FILES.length : index;
}
