/**
 * The error of a synthesis the constructs refuse, in a module of its own so that the command line can
 * recognise it without loading cdk8s (src/cli.ts; only `agent-play synth` needs cdk8s).
 */

/** Thrown when the constructs refuse the platform (a broken reference, a name that cannot be built). */
export class SynthError extends Error {
  public constructor(public readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'SynthError';
  }
}
