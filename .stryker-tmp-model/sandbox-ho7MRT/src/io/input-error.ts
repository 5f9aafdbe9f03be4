// @ts-nocheck
import { ProblemsError } from '../../constructs/model/problems-error';

/**
 * Thrown for input that cannot be used (a missing file, a file that is not what it should be); reported as
 * one line per problem, exit 2.
 */
export class InputError extends ProblemsError {
  public constructor(problems: readonly string[]) {
    super(problems);
    this.name = 'InputError';
  }
}
