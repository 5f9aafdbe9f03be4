/**
 * The tail of a test's title that says why it is skipped, when it is: vitest's report shows a skipped test by
 * its title only, and every test that does not run must say why (`describe.runIf(built)(`...${skipNote(built,
 * 'build/cli.cjs is not built')}`)`).
 */
// @ts-nocheck

export function skipNote(runs: boolean, reason: string): string {
  return runs ? '' : ` (skipped: ${reason})`;
}

/** Why the tests of the compiled command line are skipped. */
export const NOT_BUILT = 'the compiled command line is not built: npm run build';
