/**
 * A task's progress record: what the runtime steps write at every stage transition, when a gate's release
 * comes, when a remediation round starts and when the play ends; what `agent-play status` shows and what a
 * deleted play is recreated from. Stored as JSON under the task's key (`progress-layout.ts`).
 *
 * The functions here compute a record from the one before it; `progress-store.ts` reads and writes it.
 *
 * Pure: no cdk8s, no I/O.
 */
import { ProgressStatuses, type ProgressStatus } from '../model/play-contract';

/** How a stage ended. */
export interface StageResult {
  readonly result: string;
  readonly finishedAt: string;
}

/** An agent stage entered, with the CLI its agent ran with. */
export interface CliUse {
  readonly stage: string;
  readonly agent: string;
  readonly cli: string;
  readonly at: string;
}

/** One entry of the remediation history. */
export interface RemediationEntry {
  /** The round the entry started (for `stale-work`, the round it re-ran); for rounds exhausted, the last round. */
  readonly round: number;
  /** `remediate` (changes requested) or `stale-work` (a push re-ran the round's reviews). */
  readonly kind: string;
  readonly reason: string;
  /** The reviewer or pusher. */
  readonly reviewer: string;
  /** The pull request. */
  readonly url: string;
  /**
   * The event's GitHub delivery id (`X-GitHub-Delivery`, which the remediation Sensors always pass): GitHub
   * keeps it when it redelivers, so each event is recorded once.
   */
  readonly eventId: string;
  /** Where the round's play started; empty when the rounds were exhausted. */
  readonly startStage: string;
  readonly at: string;
}

/** A gate's release, recorded by whoever learned of it first. */
export interface Release {
  readonly prUrl: string;
  readonly prNumber: string;
  /** When it was recorded: it counts for the runs that started before (RFC 3339, UTC, to the second). */
  readonly releasedAt: string;
}

/** The record of one task. Every field but the identity is optional: a release may come before the play. */
export interface ProgressRecord {
  readonly repository: string;
  readonly task: string;
  readonly workflowName?: string;
  readonly startedAt?: string;
  readonly lastUpdated?: string;
  readonly stage?: string;
  readonly status?: ProgressStatus;
  readonly stageResults?: Readonly<Record<string, StageResult>>;
  /** The agent of the last agent stage entered; several joined by "," for a parallel stage. */
  readonly lastAgent?: string;
  readonly cliHistory?: readonly CliUse[];
  /** The play parameters stage conditions test, so that a recreated play takes the same stages. */
  readonly parameters?: Readonly<Record<string, string>>;
  readonly round?: number;
  /** Why the task failed, when the remediator says (rounds exhausted). */
  readonly reason?: string;
  readonly remediations?: readonly RemediationEntry[];
  /** The releases of the task's gates, by gate. */
  readonly releases?: Readonly<Record<string, Release>>;
}

/** Who a record is for. */
export interface TaskIdentity {
  /** `owner/name`. */
  readonly repository: string;
  readonly task: number;
}

/** A record with nothing but its identity. */
export function emptyRecord(identity: TaskIdentity): ProgressRecord {
  return { repository: identity.repository, task: String(identity.task) };
}

/** An RFC 3339 UTC time to the second, the form every time in a record has (they compare as text). */
export function recordTime(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A stage begins. */
export interface EnterEvent {
  readonly workflowName: string;
  readonly stage: string;
  /** The stage the play left; empty for the first stage. */
  readonly previousStage: string;
  /** The agents of an agent stage (joined by "," when parallel); empty at a gate or the end. */
  readonly agent: string;
  /** Their CLIs, in the same order. */
  readonly cli: string;
  readonly status: ProgressStatus;
  readonly round: number;
  readonly parameters: Readonly<Record<string, string>>;
  readonly now: Date;
}

/**
 * The record after a play entered a stage: the stage and status, the previous stage's result (succeeded,
 * unless one is recorded already), the agent and its CLI in the history. A failure reason of an earlier run
 * is dropped.
 */
export function recordEnter(before: ProgressRecord, event: EnterEvent): ProgressRecord {
  const now = recordTime(event.now);
  const { reason: _reason, ...kept } = before;
  const stageResults = { ...(before.stageResults ?? {}) };
  if (event.previousStage !== '' && stageResults[event.previousStage] === undefined)
    stageResults[event.previousStage] = { result: 'succeeded', finishedAt: now };
  const agentUse =
    event.agent === ''
      ? {}
      : {
          lastAgent: event.agent,
          cliHistory: [...(before.cliHistory ?? []), { stage: event.stage, agent: event.agent, cli: event.cli, at: now }],
        };
  return {
    ...kept,
    workflowName: event.workflowName,
    startedAt: before.startedAt ?? now,
    lastUpdated: now,
    parameters: { ...event.parameters },
    round: event.round,
    stage: event.stage,
    status: event.status,
    stageResults,
    ...agentUse,
  };
}

/** A play ended (its exit handler). */
export interface ExitEvent {
  readonly workflowName: string;
  /** The stage the play was in when it ended (its `current-stage` label). */
  readonly stage: string;
  /** Argo's `workflow.status`: Succeeded, Failed or Error. */
  readonly workflowStatus: string;
  readonly round: number;
  readonly parameters: Readonly<Record<string, string>>;
  readonly now: Date;
}

/**
 * The record after a play ended. A play that succeeded keeps the status its last stage wrote (completed); one
 * that failed, errored or was stopped is `failed`, its stage's result the workflow's status in lower case.
 */
export function recordExit(before: ProgressRecord, event: ExitEvent): ProgressRecord {
  const now = recordTime(event.now);
  const stage = before.stage ?? event.stage;
  const common = {
    ...before,
    workflowName: event.workflowName,
    startedAt: before.startedAt ?? now,
    lastUpdated: now,
    parameters: { ...event.parameters },
    round: event.round,
    stage,
  };
  if (event.workflowStatus === 'Succeeded') return { ...common, status: before.status ?? ProgressStatuses.completed };
  return {
    ...common,
    status: ProgressStatuses.failed,
    stageResults: { ...(before.stageResults ?? {}), [stage]: { result: event.workflowStatus.toLowerCase(), finishedAt: now } },
  };
}

/**
 * The record with a gate's release, recorded now. The same release recorded already (the same pull request)
 * keeps its time: a redelivered event (GitHub's redelivery, Argo Events' retry) must not move it past the
 * creation of a later run, which would then take the old event for a release of its own.
 */
export function recordRelease(before: ProgressRecord, gate: string, release: Omit<Release, 'releasedAt'>, now: Date): ProgressRecord {
  const recorded = before.releases?.[gate];
  const releasedAt = recorded !== undefined && sameRelease(recorded, release) ? recorded.releasedAt : recordTime(now);
  return { ...before, releases: { ...(before.releases ?? {}), [gate]: { ...release, releasedAt } } };
}

/** Whether a stored release is `release` again, with a time (a record edited by hand may hold anything). */
function sameRelease(recorded: Release, release: Omit<Release, 'releasedAt'>): boolean {
  return (
    recorded.prUrl === release.prUrl &&
    recorded.prNumber === release.prNumber &&
    typeof recorded.releasedAt === 'string' &&
    recorded.releasedAt !== ''
  );
}

/**
 * Whether a release counts for a run created at `createdAt`: it was recorded at or after it. A release with
 * no time (or not a text one) counts for none. Both times are RFC 3339 UTC, compared to the second as text.
 */
export function releasedDuring(release: Release | undefined, createdAt: string): boolean {
  return typeof release?.releasedAt === 'string' && release.releasedAt !== '' && release.releasedAt.slice(0, 19) >= createdAt.slice(0, 19);
}

/** The gates whose release was recorded before `createdAt` (an earlier run's), in code-unit order. */
export function releasesBefore(record: ProgressRecord, createdAt: string): string[] {
  return Object.entries(record.releases ?? {})
    .filter(([, release]) => !releasedDuring(release, createdAt))
    .map(([gate]) => gate)
    .sort();
}

/** The record without the releases of `gates`. */
export function withoutReleases(record: ProgressRecord, gates: readonly string[]): ProgressRecord {
  const releases = Object.fromEntries(Object.entries(record.releases ?? {}).filter(([gate]) => !gates.includes(gate)));
  return { ...record, releases };
}

/** Whether the record's remediation history holds the event (an empty id is never "held"). */
export function handledEvent(record: ProgressRecord, eventId: string): boolean {
  return eventId !== '' && (record.remediations ?? []).some((entry) => entry.eventId === eventId);
}

/** The record with a remediation entry appended, unless its event is recorded already. */
export function withRemediation(record: ProgressRecord, entry: RemediationEntry): ProgressRecord {
  if (handledEvent(record, entry.eventId)) return record;
  return { ...record, remediations: [...(record.remediations ?? []), entry] };
}
