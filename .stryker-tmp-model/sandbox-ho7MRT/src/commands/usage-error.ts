/** Thrown for a command line that cannot be run as written; reported as one line, exit 2. */
// @ts-nocheck

export class UsageError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
