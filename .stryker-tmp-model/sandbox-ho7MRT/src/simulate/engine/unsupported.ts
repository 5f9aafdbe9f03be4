/** Thrown when an input uses a feature the simulator does not implement: it refuses rather than guesses. */
// @ts-nocheck

export class UnsupportedFeatureError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'UnsupportedFeatureError';
  }
}
