/**
 * A simulated task's progress record in the shape the play writes it (src/state/progress-record.ts), so
 * `agent-play status` can show what a scenario left: its round, stage, agents and remediation history.
 */
import type { ProgressRecord } from '../state/progress-record';
import type { ProgressView } from './play-model';
import { simulatedTime } from './remediator-model';

/** One task's progress as the simulation report holds it. */
export interface SimulatedProgress {
  readonly repository: string;
  readonly task: number;
  readonly workflowName: string;
  readonly record: ProgressView;
}

/** The progress record of a simulated task, its step indexes turned into the simulator's clock. */
export function simulatedProgressRecord(progress: SimulatedProgress): ProgressRecord {
  const { record } = progress;
  const firstStep = Math.min(record.updatedAt, ...record.cliHistory.map((use) => use.at));
  return {
    repository: progress.repository,
    task: String(progress.task),
    workflowName: progress.workflowName,
    startedAt: simulatedTime(firstStep),
    lastUpdated: simulatedTime(record.updatedAt),
    stage: record.stage,
    status: record.status,
    stageResults: {},
    ...(record.lastAgent === undefined ? {} : { lastAgent: record.lastAgent }),
    cliHistory: record.cliHistory.map((use) => ({ stage: use.stage, agent: use.agent, cli: use.cli, at: simulatedTime(use.at) })),
    parameters: { ...record.parameters },
    round: record.round,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
    remediations: record.remediations.map((entry) => ({
      round: entry.round,
      kind: entry.kind,
      reason: entry.reason,
      reviewer: entry.reviewer,
      url: entry.url,
      eventId: entry.eventId,
      at: simulatedTime(entry.at ?? record.updatedAt),
    })),
  };
}
