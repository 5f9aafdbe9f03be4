/**
 * The base of every error that carries a list of problems, one line each (a configuration, a scenario, a
 * project's task list, a synthesis that the constructs refuse). Library code throws its own subclass; only
 * the command line (`src/cli.ts`) decides what exit code a problem list means.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

export class ProblemsError extends Error {
  /** One line per problem, each naming where it is and what to change. */
  public readonly problems: readonly string[];

  public constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ProblemsError';
    this.problems = [...problems];
  }
}
