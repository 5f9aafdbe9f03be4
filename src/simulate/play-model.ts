/**
 * A model of the plays of a platform and of their release records, moved the way the play templates and
 * the resumer move them: a play enters a stage; at a gate it passes at once when a release is recorded,
 * else it waits; a resume releases only the suspend node whose `stage` input names the gate.
 */
import type { PlatformConfig, RepositoryConfig } from '../../constructs/model/config-schema';
import { PlayLabels, WorkflowTypes } from '../../constructs/model/labels';
import { repositoryLabelValue } from '../../constructs/model/naming';
import { playWorkflowName, releaseConfigMapName } from '../../constructs/model/play-contract';
import { StageMachine } from '../../constructs/model/stage-machine';

export interface Play {
  readonly repository: string;
  readonly service: string;
  readonly task: number;
  /** The `current-stage` label. */
  stage: string;
  /** Whether its gate's suspend node is active. */
  waiting: boolean;
  readonly name: string;
  /** The play's parameters, which decide its conditional stages. */
  readonly parameters: Readonly<Record<string, string>>;
}

/** A play as the report shows it. */
export interface PlayView {
  readonly repository: string;
  readonly task: number;
  readonly stage: string;
}

export class PlayModel {
  public readonly stages: StageMachine;
  private readonly plays: Play[] = [];
  /** Release ConfigMap name to the gates it records. */
  private readonly releases = new Map<string, Set<string>>();

  public constructor(private readonly config: PlatformConfig) {
    this.stages = StageMachine.fromConfig(config);
  }

  /**
   * Creates a play at `stage`, as `agent-play resume` or a submission would.
   *
   * @throws when the repository is not configured, the stage does not exist, or the task already has a play
   */
  public addPlay(repository: string, task: number, stage: string, parameters: Readonly<Record<string, string>> = {}): void {
    const config = this.repositoryConfig(repository);
    this.stages.indexOf(stage);
    if (this.find(repository, task)) throw new Error(`task ${task} of ${repository} already has a play`);
    const name = playWorkflowName(config.service, task);
    const play: Play = { repository: config.name, service: config.service, task, stage, waiting: false, name, parameters: { ...this.config.play.parameters, ...parameters } };
    this.plays.push(play);
    this.enter(play, stage);
  }

  /** The play of a task, if any. */
  public find(repository: string, task: number): Play | undefined {
    return this.plays.find((play) => play.repository.toLowerCase() === repository.toLowerCase() && play.task === task);
  }

  public byName(name: string): Play | undefined {
    return this.plays.find((play) => play.name === name && !this.isCompleted(play));
  }

  /** Live plays whose labels match, as `kubectl get workflows -l ...` would list them. */
  public selectByLabels(labels: Readonly<Record<string, string>>): Play[] {
    return this.plays.filter((play) => !this.isCompleted(play) && Object.entries(labels).every(([key, value]) => this.labelsOf(play)[key] === value));
  }

  public labelsOf(play: Play): Record<string, string> {
    return {
      [PlayLabels.taskId]: String(play.task),
      [PlayLabels.repository]: repositoryLabelValue(play.repository),
      [PlayLabels.workflowType]: WorkflowTypes.play,
      [PlayLabels.currentStage]: play.stage,
    };
  }

  public isCompleted(play: Play): boolean {
    return play.stage === this.stages.end.name;
  }

  /** The running agent stage succeeds: the play moves on. @throws when the play is not in an agent stage */
  public agentDone(play: Play): void {
    const stage = this.stages.get(play.stage);
    if (stage.type !== 'agent') throw new Error(`the play of task ${play.task} of ${play.repository} is at ${stage.type} stage "${play.stage}", where no agent runs`);
    this.advance(play);
  }

  /** Records a release of `gate` in a release ConfigMap. */
  public record(configMap: string, gate: string): void {
    const gates = this.releases.get(configMap) ?? new Set<string>();
    gates.add(gate);
    this.releases.set(configMap, gates);
  }

  /** The repository and task a release ConfigMap belongs to, from its name. */
  public releaseOwner(configMap: string): { repository: string; task: number } | undefined {
    for (const repository of this.config.repositories) {
      const prefix = releaseConfigMapName(repository.service, '');
      const task = configMap.startsWith(prefix) ? configMap.slice(prefix.length) : '';
      if (/^[0-9]+$/.test(task)) return { repository: repository.name, task: Number(task) };
    }
    return undefined;
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
    return this.plays.map((play) => ({ repository: play.repository, task: play.task, stage: play.stage }));
  }

  private advance(play: Play): void {
    const next = this.stages.nextFor(play.stage, play.parameters);
    if (next) this.enter(play, next.name);
  }

  /** Entering a gate: pass at once when its release is already recorded, else wait. */
  private enter(play: Play, stage: string): void {
    play.stage = stage;
    play.waiting = false;
    if (this.stages.get(stage).type !== 'gate') return;
    const recorded = this.releases.get(releaseConfigMapName(play.service, play.task))?.has(stage) ?? false;
    if (recorded) this.advance(play);
    else play.waiting = true;
  }

  private repositoryConfig(repository: string): RepositoryConfig {
    const found = this.config.repositories.find((entry) => entry.name.toLowerCase() === repository.toLowerCase());
    if (!found) throw new Error(`repository "${repository}" is not configured; configured: ${this.config.repositories.map((entry) => entry.name).join(', ')}`);
    return found;
  }
}
