/**
 * A model of the plays of a platform, their CodeRuns and their release records, moved the way the play
 * templates and the resumer move them:
 *
 * - a play enters a stage; at a gate it passes at once when a release of its run is recorded, else it
 *   waits; a resume releases only the active suspend node whose `stage` input names the gate;
 * - a release belongs to the runs that started before it was recorded; a play recreated from its progress
 *   record continues its run and keeps every release; a fresh run's gate check removes older releases
 *   (`CHECK_RELEASE_SCRIPT`);
 * - each attempt of an agent stage first cancels the stage's stale CodeRuns, then creates its own, with
 *   `contextVersion` the attempt number: at most one live CodeRun per stage and agent at any time; a play
 *   that fails cancels its running CodeRuns; a deleted play's CodeRuns go with it (owner references).
 *
 * Time is the index of the scenario step; the plays a scenario starts with were created before step 0.
 */
import type { PlatformConfig, RepositoryConfig } from '../../constructs/model/config-schema';
import { playLabels } from '../../constructs/model/play-workflow';
import { playWorkflowName, releaseConfigMapName } from '../../constructs/model/play-contract';
import { onStage } from '../../constructs/model/stage-behaviour';
import { StageMachine } from '../../constructs/model/stage-machine';

export interface Play {
  readonly repository: string;
  readonly service: string;
  readonly task: number;
  /** The `current-stage` label. */
  stage: string;
  /** Whether its gate's suspend node is active. */
  waiting: boolean;
  /** The agent stage failed past its retries; the play ended. */
  failed: boolean;
  /** The attempt of the current agent stage, from 1. */
  attempt: number;
  readonly name: string;
  /** The play parameters, which decide its conditional stages. */
  readonly parameters: Readonly<Record<string, string>>;
  /** When the Workflow was created (a step index). */
  readonly createdAt: number;
  /** Recreated from its progress record: it continues a run, and keeps that run's releases. */
  readonly resumed: boolean;
  /** The remediation round, from 1 (the `round` label). */
  readonly round: number;
  /** Why it failed, when the remediator stopped it for good (rounds exhausted). */
  reason?: string;
}

/** A play as the report shows it. */
export interface PlayView {
  readonly repository: string;
  readonly task: number;
  readonly stage: string;
  /** Present when the play failed. */
  readonly status?: 'failed';
  /** The remediation round; present from round 2 on (a play in its first round shows none). */
  readonly round?: number;
  /** Why the play failed, when it says (rounds exhausted). */
  readonly reason?: string;
}

/** One entry of a progress record's remediation history, as the remediator appends it. */
export interface RemediationEntry {
  /** The round the entry started (for `stale-work`, the round it re-ran); for rounds exhausted, the last round. */
  readonly round: number;
  readonly kind: string;
  readonly reason: string;
  readonly reviewer: string;
  readonly url: string;
  readonly eventId: string;
}

/** A task's progress record, as the model keeps it. */
export interface ProgressView {
  readonly stage: string;
  readonly parameters: Readonly<Record<string, string>>;
  readonly round: number;
  readonly status: 'in-progress' | 'suspended' | 'completed' | 'failed';
  readonly reason?: string;
  readonly remediations: readonly RemediationEntry[];
}

export type CodeRunPhase = 'Running' | 'Succeeded' | 'Failed' | 'Cancelled';

/** A CodeRun as the report shows it. */
export interface CodeRunView {
  readonly repository: string;
  readonly task: number;
  readonly stage: string;
  readonly agent: string;
  readonly contextVersion: number;
  phase: CodeRunPhase;
}

interface CodeRun extends CodeRunView {
  readonly play: Play;
}

/** How an attempt of an agent stage ended without success. */
export type AgentFailure = 'failed' | 'evicted';

export class PlayModel {
  public readonly stages: StageMachine;
  private readonly plays: Play[] = [];
  /** Release ConfigMap name, then gate, to when the release was recorded. */
  private readonly releases = new Map<string, Map<string, number>>();
  /** Task (`repository#task`) to its last progress record. */
  private readonly progress = new Map<string, ProgressView>();
  private readonly codeRuns: CodeRun[] = [];
  /** The current step index; -1 before the first step. */
  private now = -1;

  public constructor(private readonly config: PlatformConfig) {
    this.stages = StageMachine.fromConfig(config);
  }

  /** Moves the clock to step `index`. */
  public at(index: number): void {
    this.now = index;
  }

  /**
   * Creates a play at `stage`, as a submission or `agent-play resume` (`resumed`) would.
   *
   * @throws when the repository is not configured, the stage does not exist, or the task already has a play
   */
  public addPlay(
    repository: string,
    task: number,
    stage: string,
    parameters: Readonly<Record<string, string>> = {},
    resumed = false,
    round = 1,
  ): Play {
    const config = this.repositoryConfig(repository);
    this.stages.indexOf(stage);
    if (this.find(repository, task)) throw new Error(`task ${task} of ${repository} already has a play`);
    const name = playWorkflowName(config.service, task);
    const play: Play = {
      repository: config.name,
      service: config.service,
      task,
      stage,
      waiting: false,
      failed: false,
      attempt: 0,
      name,
      parameters: { ...this.config.play.parameters, ...parameters },
      createdAt: this.now,
      resumed,
      round,
    };
    this.plays.push(play);
    this.enter(play, stage);
    return play;
  }

  /** Deletes the play's Workflow; its CodeRuns go with it, its progress record stays. @throws when there is none */
  public deletePlay(repository: string, task: number): void {
    const play = this.required(repository, task);
    this.plays.splice(this.plays.indexOf(play), 1);
    for (let index = this.codeRuns.length - 1; index >= 0; index -= 1) {
      if (this.codeRuns[index].play === play) this.codeRuns.splice(index, 1);
    }
  }

  /** `agent-play resume`: a new Workflow at the stage of the task's progress record. @throws when nothing is recorded or a play lives */
  public resumeFromState(repository: string, task: number): Play {
    const record = this.progress.get(this.taskKey(repository, task));
    if (!record) throw new Error(`task ${task} of ${repository} has no progress record to resume from`);
    return this.addPlay(repository, task, record.stage, record.parameters, true, record.round);
  }

  /** The task run again from its first stage: the old play (if any) is deleted, a new run starts. */
  public restart(repository: string, task: number): Play {
    if (this.find(repository, task)) this.deletePlay(repository, task);
    return this.addPlay(repository, task, this.stages.first.name);
  }

  /** The play of a task, if any. */
  public find(repository: string, task: number): Play | undefined {
    return this.plays.find((play) => play.repository.toLowerCase() === repository.toLowerCase() && play.task === task);
  }

  public byName(name: string): Play | undefined {
    return this.plays.find((play) => play.name === name && !this.isFinished(play));
  }

  /** Live plays whose labels match, as `kubectl get workflows -l ...` would list them. */
  public selectByLabels(labels: Readonly<Record<string, string>>): Play[] {
    return this.plays.filter(
      (play) => !this.isFinished(play) && Object.entries(labels).every(([key, value]) => this.labelsOf(play)[key] === value),
    );
  }

  public labelsOf(play: Play): Record<string, string> {
    return playLabels({ task: String(play.task), repository: play.repository, stage: play.stage, round: String(play.round) });
  }

  /** Argo has finished the Workflow: it reached its end stage or failed. */
  public isFinished(play: Play): boolean {
    return play.failed || play.stage === this.stages.end.name;
  }

  /** The running agent stage succeeds: the play moves on. @throws when the play is not in an agent stage */
  public agentDone(play: Play): void {
    this.assertAgentStage(play);
    for (const run of this.liveCodeRuns(play, play.stage)) run.phase = 'Succeeded';
    this.advance(play);
  }

  /**
   * The current attempt of the agent stage fails (its pod errs, or is evicted while the CodeRun keeps
   * working). Argo retries the attempt while the stage has retries left; each new attempt cancels the
   * stale CodeRun first. Past the retries the play fails and cancels its running CodeRuns.
   *
   * @returns what happened, in words
   * @throws when the play is not in an agent stage
   */
  public agentFailed(play: Play, failure: AgentFailure): string {
    const stage = this.assertAgentStage(play);
    // A failed CodeRun ended by itself; an evicted pod leaves its CodeRun running.
    if (failure === 'failed') for (const run of this.liveCodeRuns(play, play.stage)) run.phase = 'Failed';
    if (play.attempt > stage.retries) {
      play.failed = true;
      for (const run of this.codeRuns.filter((candidate) => candidate.play === play && candidate.phase === 'Running'))
        run.phase = 'Cancelled';
      this.saveProgress(play);
      return `attempt ${play.attempt} of ${play.stage} ${failure}; no retries left: the play failed and cancelled its running CodeRuns`;
    }
    this.startAttempt(play, play.attempt + 1);
    return `attempt ${play.attempt - 1} of ${play.stage} ${failure}; attempt ${play.attempt} cancelled the stale CodeRun and created its own`;
  }

  /** Records a release of `gate` in a release ConfigMap, now. */
  public record(configMap: string, gate: string): void {
    const gates = this.releases.get(configMap) ?? new Map<string, number>();
    gates.set(gate, this.now);
    this.releases.set(configMap, gates);
  }

  /**
   * `argo resume --node-field-selector inputs.parameters.stage.value=GATE`: only an active suspend node of
   * that gate is released. Returns false, like the CLI's error, when there is none.
   */
  public resume(play: Play, gate: string): boolean {
    if (!play.waiting || play.stage !== gate) return false;
    this.advance(play);
    return true;
  }

  public views(): PlayView[] {
    return this.plays.map((play) => ({
      repository: play.repository,
      task: play.task,
      stage: play.stage,
      ...(play.failed ? { status: 'failed' as const } : {}),
      ...(play.round > 1 ? { round: play.round } : {}),
      ...(play.reason === undefined ? {} : { reason: play.reason }),
    }));
  }

  public codeRunViews(): CodeRunView[] {
    return this.codeRuns.map(({ play: _play, ...view }) => ({ ...view }));
  }

  /** The most CodeRuns of one play, stage and agent that were live at once, so far. */
  public get mostLiveCodeRuns(): number {
    return this.peakLive;
  }

  private peakLive = 0;

  private liveCodeRuns(play: Play, stage: string): CodeRun[] {
    return this.codeRuns.filter((run) => run.play === play && run.stage === stage && run.phase === 'Running');
  }

  /** One attempt: cancel the stage's stale CodeRuns, then create this attempt's, one per agent. */
  private startAttempt(play: Play, attempt: number): void {
    const stage = this.stages.get(play.stage);
    if (stage.type !== 'agent') return;
    play.attempt = attempt;
    for (const run of this.liveCodeRuns(play, stage.name)) run.phase = 'Cancelled';
    for (const agent of stage.agents) {
      this.codeRuns.push({
        play,
        repository: play.repository,
        task: play.task,
        stage: stage.name,
        agent,
        contextVersion: attempt,
        phase: 'Running',
      });
      const live = this.codeRuns.filter(
        (run) => run.play === play && run.stage === stage.name && run.agent === agent && run.phase === 'Running',
      ).length;
      this.peakLive = Math.max(this.peakLive, live);
    }
  }

  private assertAgentStage(play: Play) {
    const stage = this.stages.get(play.stage);
    if (play.failed) throw new Error(`the play of task ${play.task} of ${play.repository} has failed; resume it from its state`);
    if (stage.type !== 'agent')
      throw new Error(`the play of task ${play.task} of ${play.repository} is at ${stage.type} stage "${play.stage}", where no agent runs`);
    return stage;
  }

  private advance(play: Play): void {
    const next = this.stages.nextFor(play.stage, play.parameters);
    if (next) this.enter(play, next.name);
  }

  /**
   * A release counts for a play when it was recorded during its run (see the module comment). A fresh
   * run's check also removes the older releases, so a play recreated later from its state cannot take them.
   */
  private released(play: Play, gate: string): boolean {
    const gates = this.releases.get(releaseConfigMapName(play.service, play.task));
    if (gates && !play.resumed) {
      for (const [name, at] of gates) if (at < play.createdAt) gates.delete(name);
    }
    return gates?.has(gate) ?? false;
  }

  /** Entering a stage: an agent stage starts its first attempt; a gate passes at once when released, else waits. */
  private enter(play: Play, stage: string): void {
    play.stage = stage;
    play.waiting = false;
    play.attempt = 0;
    this.saveProgress(play);
    onStage(this.stages.get(stage), {
      agent: () => this.startAttempt(play, 1),
      gate: () => {
        if (this.released(play, stage)) this.advance(play);
        else play.waiting = true;
      },
      end: () => undefined,
    });
  }

  private saveProgress(play: Play): void {
    const key = this.taskKey(play.repository, play.task);
    const before = this.progress.get(key);
    const status = play.failed
      ? 'failed'
      : onStage(this.stages.get(play.stage), {
          agent: () => 'in-progress' as const,
          gate: () => 'suspended' as const,
          end: () => 'completed' as const,
        });
    this.progress.set(key, {
      stage: play.stage,
      parameters: play.parameters,
      round: play.round,
      status,
      ...(play.reason === undefined ? {} : { reason: play.reason }),
      remediations: before?.remediations ?? [],
    });
  }

  /** The task's progress record, if it has one. */
  public progressOf(repository: string, task: number): ProgressView | undefined {
    return this.progress.get(this.taskKey(repository, task));
  }

  /**
   * The remediator's stop: the play's exit handler cancels its running CodeRuns and records it failed (a
   * stopped Workflow fails). Returns the CodeRuns it cancelled.
   */
  public stop(play: Play, reason?: string): CodeRunView[] {
    const cancelled = this.codeRuns.filter((run) => run.play === play && run.phase === 'Running');
    for (const run of cancelled) run.phase = 'Cancelled';
    play.failed = true;
    play.waiting = false;
    if (reason !== undefined) play.reason = reason;
    this.saveProgress(play);
    return cancelled.map(({ play: _play, ...view }) => ({ ...view }));
  }

  /** Appends an entry to the task's remediation history (once per event) and, for a new round, sets its round. */
  public recordRemediation(repository: string, task: number, entry: RemediationEntry, changes: Partial<ProgressView> = {}): void {
    const key = this.taskKey(repository, task);
    const before = this.progress.get(key);
    if (!before) throw new Error(`task ${task} of ${repository} has no progress record`);
    const seen = entry.eventId !== '' && before.remediations.some((existing) => existing.eventId === entry.eventId);
    this.progress.set(key, { ...before, ...changes, remediations: seen ? before.remediations : [...before.remediations, entry] });
  }

  /** Removes the given gates' releases from a release ConfigMap (they do not hold in the next round). */
  public forgetReleases(configMap: string, gates: readonly string[]): void {
    const recorded = this.releases.get(configMap);
    if (recorded) for (const gate of gates) recorded.delete(gate);
  }

  /**
   * The remediator's replacement: the stopped play is deleted with its CodeRuns, and its successor, with the
   * same name, starts at `stage` in `round`; it continues the task's run (the releases that still hold).
   */
  public replace(play: Play, stage: string, round: number): Play {
    this.deletePlay(play.repository, play.task);
    return this.addPlay(play.repository, play.task, stage, play.parameters, true, round);
  }

  private taskKey(repository: string, task: number): string {
    return `${repository.toLowerCase()}#${task}`;
  }

  private required(repository: string, task: number): Play {
    const play = this.find(repository, task);
    if (!play) throw new Error(`no play for task ${task} of ${repository}`);
    return play;
  }

  private repositoryConfig(repository: string): RepositoryConfig {
    const found = this.config.repositories.find((entry) => entry.name.toLowerCase() === repository.toLowerCase());
    if (!found)
      throw new Error(
        `repository "${repository}" is not configured; configured: ${this.config.repositories.map((entry) => entry.name).join(', ')}`,
      );
    return found;
  }
}
