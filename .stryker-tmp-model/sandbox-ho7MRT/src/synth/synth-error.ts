/**
 * The error of a synthesis the constructs refuse, in a module of its own so that the command line can
 * recognise it without loading cdk8s (src/cli.ts; only `agent-play synth` needs cdk8s).
 */
// @ts-nocheck

import { ProblemsError } from '../../constructs/model/problems-error';

/** Thrown when the constructs refuse the platform (a broken reference, a name that cannot be built). */
export class SynthError extends ProblemsError {
  public constructor(problems: readonly string[]) {
    super(problems);
    this.name = 'SynthError';
  }
}
