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
 *   that fails cancels its running CodeRuns; a deleted play's CodeRuns go with it (owner references);
 * - an agent that runs direct (its mode and CLI resolved by `agentExecution`, constructs/model) creates no
 *   CodeRun: each attempt is a pod of the play that runs the CLI, and ends with it. The CLI's session lives
 *   on the workspace (docs/executors.md, "Sessions"): an attempt resumes the task's confirmed session of the
 *   same CLI, else starts one; a session is confirmed when the CLI exited and reported it, or when the pod
 *   was stopped (SIGTERM, with its play or deleted with it): the script's trap records the session the CLI
 *   announced, and every CLI announces it as it starts while a modelled pod runs at least until the next
 *   step. An evicted pod (its CLI gone with it before the script recorded anything) leaves a new session
 *   unconfirmed and the next attempt starts over from the context file
 *   (`constructs/workflows/direct-agent-script.ts`).
 *
 * Time is the index of the scenario step; the plays a scenario starts with were created before step 0.
 */
import type { PlatformConfig, RepositoryConfig } from '../../constructs/model/config-schema';
import { agentExecution } from '../../constructs/model/direct-execution';
import { playLabels } from '../../constructs/model/play-workflow';
import { playWorkflowName, releaseConfigMapName } from '../../constructs/model/play-contract';
import { onStage } from '../../constructs/model/stage-behaviour';
import { StageMachine } from '../../constructs/model/stage-machine';
import type { SimulatedProgress } from './progress-record';

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
  /** The step it was recorded at (the model stamps it). */
  readonly at?: number;
}

/** An agent stage entered, as the progress record's `cliHistory` keeps it. */
export interface CliUse {
  readonly stage: string;
  readonly agent: string;
  readonly cli: string;
  /** The step index. */
  readonly at: number;
}

/** A task's progress record, as the model keeps it. */
export interface ProgressView {
  readonly stage: string;
  readonly parameters: Readonly<Record<string, string>>;
  readonly round: number;
  readonly status: 'in-progress' | 'suspended' | 'completed' | 'failed';
  readonly reason?: string;
  readonly remediations: readonly RemediationEntry[];
  /** The agent of the last agent stage entered (several joined by "," for a parallel stage). */
  readonly lastAgent?: string;
  readonly cliHistory: readonly CliUse[];
  /** The step it was last written at (-1: before step 0). */
  readonly updatedAt: number;
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

/**
 * How a direct agent's pod ended: `Succeeded` or `Failed` by the CLI's exit code, `Evicted` (the pod was
 * gone, the CLI with it), `Stopped` (its play was stopped or deleted).
 */
export type AgentPodPhase = 'Running' | 'Succeeded' | 'Failed' | 'Evicted' | 'Stopped';

/** One attempt of a direct agent: the play's own pod running the agent's CLI, as the report shows it. */
export interface AgentPodView {
  readonly repository: string;
  readonly task: number;
  readonly stage: string;
  readonly agent: string;
  readonly cli: string;
  readonly round: number;
  readonly attempt: number;
  /** Whether the CLI started a new session or resumed the task's session. */
  readonly session: 'started' | 'resumed';
  phase: AgentPodPhase;
}

interface AgentPod extends AgentPodView {
  readonly play: Play;
}

/** What the task's session file says (docs/executors.md, "Sessions"). */
interface SessionFile {
  readonly cli: string;
  confirmed: boolean;
}

/** What a stop ended: the CodeRuns it cancelled and the direct agent pods it stopped. */
export interface Stopped {
  readonly codeRuns: CodeRunView[];
  readonly pods: AgentPodView[];
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
  private readonly pods: AgentPod[] = [];
  /** `repository#task/agent` to its session file. */
  private readonly sessions = new Map<string, SessionFile>();
  /** What direct agents did since the last `takeNotes`, in words. */
  private notes: string[] = [];
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
    this.endPods(play, 'Stopped', 'deleted with its play');
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
    this.endPods(play, 'Succeeded', 'the CLI exited 0');
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
    // A direct agent's CLI ends with its pod either way; only a CLI that exited reported its session.
    if (failure === 'failed') this.endPods(play, 'Failed', 'the CLI exited non-zero');
    else this.endPods(play, 'Evicted', 'the pod was evicted, the CLI with it');
    const coderun = stage.agents.some((agent) => this.executionOf(play, agent).mode === 'coderun');
    if (play.attempt > stage.retries) {
      play.failed = true;
      for (const run of this.codeRuns.filter((candidate) => candidate.play === play && candidate.phase === 'Running'))
        run.phase = 'Cancelled';
      this.saveProgress(play);
      return coderun
        ? `attempt ${play.attempt} of ${play.stage} ${failure}; no retries left: the play failed and cancelled its running CodeRuns`
        : `attempt ${play.attempt} of ${play.stage} ${failure}; no retries left: the play failed`;
    }
    this.startAttempt(play, play.attempt + 1);
    return coderun
      ? `attempt ${play.attempt - 1} of ${play.stage} ${failure}; attempt ${play.attempt} cancelled the stale CodeRun and created its own`
      : `attempt ${play.attempt - 1} of ${play.stage} ${failure}; attempt ${play.attempt} runs the CLI in a new pod of the play`;
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

  /** Every direct agent pod the plays ran, in order (kept after their play is gone, for the record). */
  public podViews(): AgentPodView[] {
    return this.pods.map(({ play: _play, ...view }) => ({ ...view }));
  }

  /** What direct agents did since the last call, in words; then forgets it. */
  public takeNotes(): string[] {
    const notes = this.notes;
    this.notes = [];
    return notes;
  }

  /** The task's progress records, one per task, in the order the tasks were first recorded. */
  public progressRecords(): SimulatedProgress[] {
    return [...this.progress.entries()].map(([key, record]) => {
      const [repository, task] = key.split('#');
      const config = this.repositoryConfig(repository);
      return { repository: config.name, task: Number(task), workflowName: playWorkflowName(config.service, Number(task)), record };
    });
  }

  /** The most CodeRuns of one play, stage and agent that were live at once, so far. */
  public get mostLiveCodeRuns(): number {
    return this.peakLive;
  }

  private peakLive = 0;

  private liveCodeRuns(play: Play, stage: string): CodeRun[] {
    return this.codeRuns.filter((run) => run.play === play && run.stage === stage && run.phase === 'Running');
  }

  /**
   * One attempt: cancel the stage's stale CodeRuns, then create this attempt's, one per coderun agent; each
   * direct agent runs its CLI in a pod of the play instead.
   */
  private startAttempt(play: Play, attempt: number): void {
    const stage = this.stages.get(play.stage);
    if (stage.type !== 'agent') return;
    play.attempt = attempt;
    for (const run of this.liveCodeRuns(play, stage.name)) run.phase = 'Cancelled';
    for (const agent of stage.agents) {
      const execution = this.executionOf(play, agent);
      if (execution.mode === 'direct') {
        this.startPod(play, agent, execution.cli);
        continue;
      }
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

  /** The agent's mode and CLI for the play's repository, as the config resolves them (never decided here). */
  private executionOf(play: Play, agent: string) {
    return agentExecution(this.config, this.repositoryConfig(play.repository), agent);
  }

  private sessionKey(play: Play, agent: string): string {
    return `${this.taskKey(play.repository, play.task)}/${agent}`;
  }

  /** A direct attempt: resume the task's confirmed session of this CLI, else start one (unconfirmed until the CLI reports it). */
  private startPod(play: Play, agent: string, cli: string): void {
    const key = this.sessionKey(play, agent);
    const file = this.sessions.get(key);
    const session = file !== undefined && file.cli === cli && file.confirmed ? 'resumed' : 'started';
    if (session === 'started') this.sessions.set(key, { cli, confirmed: false });
    this.pods.push({
      play,
      repository: play.repository,
      task: play.task,
      stage: play.stage,
      agent,
      cli,
      round: play.round,
      attempt: play.attempt,
      session,
      phase: 'Running',
    });
    const moved = file !== undefined && file.cli !== cli ? `, moved from ${file.cli}: a new session from the context file` : '';
    this.notes.push(
      `direct: ${agent} runs ${cli} in the play's pod at ${play.stage} (round ${play.round}, attempt ${play.attempt}, session ${session}${moved})`,
    );
  }

  /**
   * The play's running agent pods end. A CLI that exited (`Succeeded`, `Failed`) has reported its session; a
   * stopped pod's script keeps the session its CLI announced (the TERM trap of the direct agent script), which
   * it had (the model's pods run long enough to announce it); an evicted pod's CLI is gone with it.
   */
  private endPods(play: Play, phase: Exclude<AgentPodPhase, 'Running'>, why: string): AgentPodView[] {
    const ended = this.pods.filter((pod) => pod.play === play && pod.phase === 'Running');
    for (const pod of ended) {
      pod.phase = phase;
      const file = this.sessions.get(this.sessionKey(play, pod.agent));
      const reported = phase === 'Succeeded' || phase === 'Failed';
      const announced = phase === 'Stopped';
      if (file !== undefined && (reported || announced)) file.confirmed = true;
      this.notes.push(
        `direct: ${pod.agent}'s pod at ${pod.stage} (round ${pod.round}, attempt ${pod.attempt}) ${phase}: ${why}${sessionFate(pod, reported, announced)}`,
      );
    }
    return ended.map(({ play: _play, ...view }) => ({ ...view }));
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
    this.saveProgress(play, this.cliUses(play));
    onStage(this.stages.get(stage), {
      agent: () => this.startAttempt(play, 1),
      gate: () => {
        if (this.released(play, stage)) this.advance(play);
        else play.waiting = true;
      },
      end: () => undefined,
    });
  }

  /** The agents of the play's stage and their CLIs, as the enter-stage step records them; none at a gate. */
  private cliUses(play: Play): CliUse[] {
    const stage = this.stages.get(play.stage);
    if (stage.type !== 'agent') return [];
    return stage.agents.map((agent) => ({ stage: stage.name, agent, cli: this.executionOf(play, agent).cli, at: this.now }));
  }

  private saveProgress(play: Play, uses: readonly CliUse[] = []): void {
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
      cliHistory: [...(before?.cliHistory ?? []), ...uses],
      ...(uses.length > 0
        ? { lastAgent: uses.map((use) => use.agent).join(',') }
        : before?.lastAgent === undefined
          ? {}
          : { lastAgent: before.lastAgent }),
      updatedAt: this.now,
    });
  }

  /** The task's progress record, if it has one. */
  public progressOf(repository: string, task: number): ProgressView | undefined {
    return this.progress.get(this.taskKey(repository, task));
  }

  /**
   * The remediator's stop: `argo stop` ends the play's running pods (a direct agent's CLI with its pod), the
   * play's exit handler cancels its running CodeRuns and records it failed (a stopped Workflow fails).
   * Returns what it ended.
   */
  public stop(play: Play, reason?: string): Stopped {
    const cancelled = this.codeRuns.filter((run) => run.play === play && run.phase === 'Running');
    for (const run of cancelled) run.phase = 'Cancelled';
    const pods = this.endPods(play, 'Stopped', 'the play was stopped');
    play.failed = true;
    play.waiting = false;
    if (reason !== undefined) play.reason = reason;
    this.saveProgress(play);
    return { codeRuns: cancelled.map(({ play: _play, ...view }) => ({ ...view })), pods };
  }

  /** Appends an entry to the task's remediation history (once per event) and, for a new round, sets its round. */
  public recordRemediation(repository: string, task: number, entry: RemediationEntry, changes: Partial<ProgressView> = {}): void {
    const key = this.taskKey(repository, task);
    const before = this.progress.get(key);
    if (!before) throw new Error(`task ${task} of ${repository} has no progress record`);
    const seen = entry.eventId !== '' && before.remediations.some((existing) => existing.eventId === entry.eventId);
    const stamped = { ...entry, at: this.now };
    this.progress.set(key, {
      ...before,
      ...changes,
      remediations: seen ? before.remediations : [...before.remediations, stamped],
      updatedAt: this.now,
    });
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

/** What became of a new session when its pod ended, in words (nothing to say for a resumed one or a reported one). */
function sessionFate(pod: AgentPodView, reported: boolean, announced: boolean): string {
  if (reported || pod.session !== 'started') return '';
  if (announced) return '; its CLI had announced its new session, which the stopped script recorded: the next attempt resumes it';
  return '; its new session was never confirmed, the next attempt starts one';
}
