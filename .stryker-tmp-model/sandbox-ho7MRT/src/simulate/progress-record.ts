/**
 * A simulated task's progress record: the record the runtime steps wrote in the simulation's in-memory API,
 * in the shape `agent-play status` reads (src/state/progress-record.ts).
 */
// @ts-nocheck

import type { ProgressRecord } from '../state/progress-record';

/** One task's progress as the simulation report holds it. */
export interface SimulatedProgress {
  readonly repository: string;
  readonly task: number;
  readonly workflowName: string;
  readonly record: ProgressRecord;
}

/** The progress record of a simulated task, as `agent-play status` reads it. */
export function simulatedProgressRecord(progress: SimulatedProgress): ProgressRecord {
  return structuredClone(progress.record);
}
