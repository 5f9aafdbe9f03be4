/**
 * The simulator's clock. Step N of a scenario happens at `2026-01-01T00:0N:00Z` (N minutes after midnight),
 * the plays a scenario starts with a minute before step 0; within a step, time moves only while a runtime
 * step waits (a stop that waits for the play's exit handler, a cancellation that waits for CodeRuns to go).
 */
// @ts-nocheck


/** When step 0 happens. */
export const SIMULATION_EPOCH = Date.UTC(2026, 0, 1);

const STEP_MILLISECONDS = 60_000;

/** The simulated time of a step, as RFC 3339 (what a payload's `submitted_at` compares with). */
export function simulatedTime(step: number): string {
  return new Date(SIMULATION_EPOCH + step * STEP_MILLISECONDS).toISOString().replace('.000Z', 'Z');
}

/** The step a simulated time falls in (the minute after the epoch). */
export function stepOf(time: string): number {
  return Math.floor((Date.parse(time) - SIMULATION_EPOCH) / STEP_MILLISECONDS);
}

/** The clock: the current step, and the time waited within it. */
export class SimulatedClock {
  private step = -1;
  private waited = 0;

  /** Moves to the start of step `index`. */
  public at(index: number): void {
    this.step = index;
    this.waited = 0;
  }

  public now(): Date {
    return new Date(SIMULATION_EPOCH + this.step * STEP_MILLISECONDS + this.waited);
  }

  /** Lets `milliseconds` pass within the step. */
  public advance(milliseconds: number): void {
    this.waited += milliseconds;
  }
}
