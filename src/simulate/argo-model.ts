/**
 * What the Argo Workflows controller does with the platform's Workflows, in the simulator, against the
 * in-memory API. Only Argo is modelled here: a play moves through its DAG (enter a stage, run its agent or
 * suspend at its gate, go on when the gate's suspend node is released), a failed attempt is retried, a
 * stopped or failed play runs its exit handler, a deleted one takes its CodeRuns with it; the resumer and the
 * remediator run their steps in order. Every step of the platform's runtime protocol (marking a stage, the
 * gate check, the resumer, the remediator's decision, stop and replacement, CodeRun cancellation) is the
 * runtime program's own code, run by `StepRunner` from the synthesized templates with the grants of their
 * service accounts: the simulator does not re-implement it.
 *
 * CodeRuns are created the way a play's resource step creates them (owned by the play, labelled by its run,
 * stage and GitHub App) and end when a scenario says so (`agentDone`, `agentFailed`), as the CodeRun
 * controller would end them. Direct agents' pods are modelled by `DirectAgents`.
 */
import type { PlatformConfig, RepositoryConfig } from '../../constructs/model/config-schema';
import { agentExecution } from '../../constructs/model/direct-execution';
import { ARGO_COMPLETED_LABEL } from '../../constructs/model/argo-api';
import { CodeRunLabels, PlayAnnotations, PlayLabels, WorkflowTypes } from '../../constructs/model/labels';
import {
  agentRunTemplateName,
  GATE_STAGE_INPUT,
  PlayParameters,
  PlayTemplates,
  ProgressStatuses,
} from '../../constructs/model/play-contract';
import { playWorkflow } from '../../constructs/model/play-workflow';
import { playTemplateOf } from '../../constructs/registry/registry-entries';
import { AgentOutputs } from '../../constructs/registry/registry-layout';
import { RESOLVE_TEMPLATE } from '../../constructs/registry/resolve-template';
import { onStage, stageAgents, stageCondition } from '../../constructs/model/stage-behaviour';
import type { AgentStage, Stage } from '../../constructs/model/stage-machine';
import { StageMachine } from '../../constructs/model/stage-machine';
import { CODERUN_API_VERSION, CODERUN_KIND, CodeRunPhases } from '../../constructs/model/coderun-api';
import {
  REMEDIATOR_WORKFLOW_TYPE,
  RemediationKinds,
  RemediatorActions,
  RemediatorTemplates,
} from '../../constructs/remediation/remediator-contract';
import { RESUMER_WORKFLOW_TYPE, ResumerTemplates } from '../../constructs/resumer/resumer-contract';
import { ApiResources, codeRunRef, type KubeObject, workflowRef } from '../../constructs/runtime/kube-api';
import { canonicalTaskId } from '../../constructs/runtime/step-env';
import { DirectAgents, type AgentPodView } from './direct-agents';
import { ProjectModel } from './project-model';
import { UnsupportedFeatureError } from './engine/unsupported';
import type { MemoryApiServer } from './memory-api';
import { StepRunner, type SimulatedTime, type StepRun, type WorkflowScope } from './step-runner';
import { retriedAfter } from './retry-strategy';
import { roleAuthorizer } from './role-authorizer';

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

/** What one remediator did, for the report. */
export interface RemediationReport {
  readonly repository: string;
  readonly task: number;
  /** `remediate` or `stale-work`. */
  readonly kind: string;
  /**
   * `next-round`, `re-run` (stale work, same round), `exhausted`, or `refused`: the play was replaced, but Argo
   * refused its successor's start stage (a remediator out of step with the plays).
   */
  readonly outcome: 'next-round' | 're-run' | 'exhausted' | 'refused';
  /** The round the play was in. */
  readonly fromRound: number;
  /** The round of its successor (the same round when exhausted or re-run). */
  readonly round: number;
  /** Where the successor starts; the stage the play failed at when exhausted. */
  readonly stage: string;
  readonly reason: string;
  /** The CodeRuns the stop cancelled (then deleted with the play), as `agent/stage`. */
  readonly cancelled: string[];
  /** The direct agent pods the stop ended (no CodeRun to cancel), as `agent/stage`; absent when none. */
  readonly stoppedPods?: string[];
}

/** What a helper Workflow (the resumer, the remediator) did, for the report of the step that started it. */
export type HelperOutcome =
  | { readonly kind: 'recorded'; readonly repository: string; readonly task: number; readonly gate: string }
  | { readonly kind: 'resumed'; readonly repository: string; readonly task: number; readonly gate: string }
  | { readonly kind: 'remediated'; readonly report: RemediationReport };

/** A scenario step that cannot happen in the state the scenario is in: reported, not thrown. */
export class StepRefused extends Error {}

/** How an attempt of an agent stage ended without success. */
export type AgentFailure = 'failed' | 'evicted';

/** The model's own record of a play Workflow. */
interface PlayState {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  readonly repository: RepositoryConfig;
  readonly task: number;
  readonly template: string;
  readonly parameters: Readonly<Record<string, string>>;
  /** The global outputs of its steps so far: the repository's settings, from its first step. */
  globals: Record<string, string>;
  readonly round: number;
  stage: string;
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Error';
  attempt: number;
  /** How many times the current attempt's wait pod was lost and run again (the wait node's failed children). */
  lostWaits: number;
  /** The node id of the gate's suspend node while the play waits at a gate. */
  gateNode?: string;
  deleted: boolean;
  /** Why it failed, when the remediator stopped it for good. */
  reason?: string;
  /** What its stop ended. */
  stoppedPods: AgentPodView[];
}

interface TrackedCodeRun {
  readonly name: string;
  readonly play: PlayState;
  readonly view: CodeRunView;
}

export class ArgoModel {
  public readonly stages: StageMachine;
  public readonly direct = new DirectAgents();
  /** The projects' Workflows: the project itself and its chunks (`project-model.ts`). */
  public readonly projects: ProjectModel;
  private readonly runner: StepRunner;
  private readonly plays: PlayState[] = [];
  private readonly known = new Set<string>();
  private readonly busy = new Set<string>();
  private readonly codeRuns: TrackedCodeRun[] = [];
  private notes: string[] = [];
  private outcomes: HelperOutcome[] = [];
  private peakLive = 0;

  public constructor(
    private readonly config: PlatformConfig,
    private readonly objects: readonly Record<string, any>[],
    private readonly server: MemoryApiServer,
    time: { now(): Date; advance(milliseconds: number): void },
  ) {
    this.stages = StageMachine.fromConfig(config);
    const clock: SimulatedTime = {
      now: () => time.now(),
      sleep: async (milliseconds) => {
        time.advance(milliseconds);
        await this.operate();
      },
    };
    this.runner = new StepRunner(objects, server, clock);
    this.projects = new ProjectModel(objects, server, config.namespace, () => time.now());
  }

  // --- What a scenario does ---------------------------------------------------------------------------------

  /** Creates a play at `stage` (a submission), as `playWorkflow` builds it. @throws StepRefused when the task has a live play */
  public async submitPlay(
    repository: string,
    task: number,
    stage: string,
    parameters: Readonly<Record<string, string>> = {},
  ): Promise<void> {
    const config = this.repositoryConfig(repository);
    // A scenario that starts a play at a stage the machine lacks is refused, as `unknown stage ...`.
    this.stages.get(stage);
    if (this.livePlay(repository, task)) throw new StepRefused(`task ${task} of ${config.name} already has a play`);
    const workflow = playWorkflow({
      service: config.service,
      template: playTemplateOf({ ...this.config, stageAgents: this.stages.agents }, config.name),
      namespace: this.config.namespace,
      task: String(task),
      repository: config.name,
      stage,
      parameters: Object.entries(parameters).map(([name, value]) => ({ name, value })),
    }) as unknown as KubeObject;
    await this.createWorkflow(workflow);
  }

  /** Creates a Workflow (a trigger's, `agent-play resume`'s) and lets the controller run it. */
  public async createWorkflow(workflow: KubeObject, client = this.server.client()): Promise<void> {
    await client.create(ApiResources.workflows, workflow.metadata.namespace ?? this.config.namespace, workflow);
    await this.operate();
  }

  /** The running agent stage succeeds: its CodeRuns end `Succeeded`, its pods exit 0, the play moves on. */
  public async agentDone(repository: string, task: number): Promise<string> {
    const play = this.requirePlay(repository, task);
    this.assertAgentStage(play);
    await this.withBusy(play, async () => {
      for (const run of this.liveCodeRuns(play, play.stage)) this.setCodeRunPhase(run, CodeRunPhases.succeeded);
      this.direct.end(play.uid, 'Succeeded', 'the CLI exited 0');
      await this.advance(play);
    });
    await this.operate();
    return `the agent of task ${task} finished; the play is now at ${play.stage}`;
  }

  /**
   * The agent stage's running pod is lost or its agent fails. `evicted`: the pod is gone, the CodeRun works on;
   * for a CodeRun agent that pod is the wait step's, which Argo runs again on the same CodeRun while the wait
   * template's retryStrategy allows (`waitRetried`). `failed`: the CodeRun failed (the wait reads it Failed
   * at every retry, so the wait fails) or the direct CLI exited non-zero. Either way past the wait, the attempt
   * failed: Argo runs a new one while the attempt's template's retryStrategy allows; past it the play fails.
   */
  public async agentFailed(repository: string, task: number, failure: AgentFailure): Promise<string> {
    const play = this.requirePlay(repository, task);
    const stage = this.assertAgentStage(play);
    let said = '';
    await this.withBusy(play, async () => {
      if (failure === 'evicted' && this.waitRetried(play, stage)) {
        said = `attempt ${play.attempt} of ${play.stage}: the pod waiting on the CodeRun was evicted; Argo runs the wait again (retry ${play.lostWaits}) on the same CodeRun, which works on`;
        return;
      }
      if (failure === 'failed') for (const run of this.liveCodeRuns(play, play.stage)) this.setCodeRunPhase(run, CodeRunPhases.failed);
      if (failure === 'failed') this.direct.end(play.uid, 'Failed', 'the CLI exited non-zero');
      else this.direct.end(play.uid, 'Evicted', 'the pod was evicted, the CLI with it');
      const coderun = stage.agents.some((agent) => this.executionOf(play, agent).mode === 'coderun');
      if (!this.attemptRetried(play, stage)) {
        said = coderun
          ? `attempt ${play.attempt} of ${play.stage} ${failure}; no retries left: the play failed and cancelled its running CodeRuns`
          : `attempt ${play.attempt} of ${play.stage} ${failure}; no retries left: the play failed`;
        await this.finish(play, 'Failed');
        return;
      }
      await this.startAttempt(play, play.attempt + 1);
      said = coderun
        ? `attempt ${play.attempt - 1} of ${play.stage} ${failure}; attempt ${play.attempt} cancelled the stale CodeRun and created its own`
        : `attempt ${play.attempt - 1} of ${play.stage} ${failure}; attempt ${play.attempt} runs the CLI in a new pod of the play`;
    });
    await this.operate();
    return said;
  }

  /**
   * An evicted pod of a stage whose agents all run as CodeRuns is a wait step's (the one pod that runs while
   * the agent works): its node fails (an evicted pod carries the kubelet's message, so Argo's
   * `inferFailedReason` makes it Failed, not Error) and Argo runs the wait again, on the same CodeRun, while
   * every agent's wait template retries that failure. A direct agent's pod is the attempt itself.
   */
  private waitRetried(play: PlayState, stage: AgentStage): boolean {
    if (stage.agents.some((agent) => this.executionOf(play, agent).mode !== 'coderun')) return false;
    const failures = play.lostWaits + 1;
    const retried = stage.agents.every((agent) => {
      const wait = this.waitTemplate(play, stage, agent);
      return retriedAfter(wait, failures, 'Failed', `${play.template}/${wait.name}`);
    });
    if (retried) play.lostWaits = failures;
    return retried;
  }

  /** Whether Argo runs another attempt of the stage after this one failed: every agent's attempt template says so. */
  private attemptRetried(play: PlayState, stage: AgentStage): boolean {
    return stage.agents.every((agent) => {
      const attempt = this.attemptTemplate(play, stage, agent);
      return retriedAfter(attempt, play.attempt, 'Failed', `${play.template}/${attempt.name}`);
    });
  }

  /** Deletes the task's play Workflow; its CodeRuns go with it (owner references), its progress record stays. */
  public async deletePlay(repository: string, task: number): Promise<void> {
    const play = this.requirePlay(repository, task);
    await this.server.client().delete(workflowRef(play.namespace, play.name), 'Background');
    await this.operate();
  }

  /** The task run again from its first stage: its play, if any, is deleted, and a new run starts. */
  public async restart(repository: string, task: number): Promise<void> {
    if (this.playOf(repository, task)) await this.deletePlay(repository, task);
    await this.submitPlay(repository, task, this.stages.first.name);
  }

  /**
   * The platform's WorkflowTemplates applied again with a changed spec. Argo stores a Workflow's spec, merged
   * from its WorkflowTemplate, at its first look at it, and reads the stored one from then on, also when the
   * Workflow is stopped (argo-workflows v4.0.5 `workflow/controller/operator.go`, `setStoredWfSpec`: the
   * template is fetched again only to compare under `templateReferencing: Secure`, which the platform's
   * controller does not run). So every Workflow that runs keeps its template; those created later take the new
   * one, which in this step changes no behaviour (a new revision of the same synth).
   */
  public reapplyTemplates(): string {
    const running = this.plays.filter((play) => !play.deleted && play.phase === 'Running').length;
    return `the WorkflowTemplates were applied again; ${running} running play(s) keep the spec Argo stored at their start, Workflows created from now on take the new one`;
  }

  /** The play of a task that has not been deleted (live or finished), if any. */
  public playOf(repository: string, task: number): PlayState | undefined {
    return [...this.plays].reverse().find((play) => !play.deleted && sameTask(play, repository, task));
  }

  // --- The controller ---------------------------------------------------------------------------------------

  /** Lets the controller act until nothing more happens: new Workflows start, stopped and released plays move. */
  public async operate(): Promise<void> {
    for (let pass = 0; pass < 10_000; pass += 1) if (!(await this.pass())) return;
    throw new Error('the simulated controllers never settle');
  }

  private async pass(): Promise<boolean> {
    // Read as stored, copied only where handed on: a pass reads every Workflow and usually changes nothing.
    for (const workflow of this.server.storedObjects(ApiResources.workflows)) {
      const uid = workflow.metadata.uid ?? '';
      if (this.busy.has(uid)) continue;
      if (!this.known.has(uid)) {
        this.known.add(uid);
        await this.start(structuredClone(workflow));
        return true;
      }
      const play = this.plays.find((candidate) => candidate.uid === uid);
      if (play !== undefined && (await this.reconcile(play, workflow))) return true;
    }
    for (const play of this.plays) {
      if (play.deleted || this.busy.has(play.uid)) continue;
      if (this.server.uidOf(workflowRef(play.namespace, play.name)) !== play.uid) {
        this.deleted(play);
        return true;
      }
    }
    return this.projects.reconcile();
  }

  private async start(workflow: KubeObject): Promise<void> {
    const templateName = (workflow.spec as { workflowTemplateRef?: { name?: string } } | undefined)?.workflowTemplateRef?.name ?? '';
    const type = this.runner.workflowTemplate(templateName).metadata?.labels?.[PlayLabels.workflowType];
    const uid = workflow.metadata.uid ?? '';
    this.busy.add(uid);
    try {
      if (type === WorkflowTypes.play) await this.startPlay(workflow, templateName);
      else if (type === RESUMER_WORKFLOW_TYPE) await this.runResumer(workflow, templateName);
      else if (type === REMEDIATOR_WORKFLOW_TYPE) await this.runRemediator(workflow, templateName);
      else if (type === WorkflowTypes.project) await this.projects.start(workflow, templateName);
      else throw new UnsupportedFeatureError(`Workflows of ${templateName} (${type}) are not simulated`);
    } finally {
      this.busy.delete(uid);
    }
  }

  /**
   * A live play whose Workflow was stopped, or whose gate was released.
   * @param workflow the play's Workflow as stored (read here, copied where handed on)
   */
  private async reconcile(play: PlayState, workflow: Readonly<KubeObject>): Promise<boolean> {
    if (play.phase !== 'Running') return false;
    const shutdown = (workflow.spec as { shutdown?: unknown } | undefined)?.shutdown;
    if (shutdown === 'Stop' || shutdown === 'Terminate') {
      await this.withBusy(play, () => this.stop(play, structuredClone(workflow), shutdown));
      return true;
    }
    if (play.gateNode !== undefined && nodePhase(workflow, play.gateNode) === 'Succeeded') {
      await this.withBusy(play, () => this.advance(play));
      return true;
    }
    return false;
  }

  private async withBusy(play: PlayState, work: () => Promise<void>): Promise<void> {
    this.busy.add(play.uid);
    try {
      await work();
    } finally {
      this.busy.delete(play.uid);
    }
  }

  // --- Plays ------------------------------------------------------------------------------------------------

  private async startPlay(workflow: KubeObject, templateName: string): Promise<void> {
    const template = this.runner.workflowTemplate(templateName);
    const parameters = workflowParameters(template, workflow);
    const repositoryName = parameters[PlayParameters.repository];
    const task = canonicalTaskId(parameters[PlayParameters.taskId] ?? '');
    if (repositoryName === undefined || task === undefined)
      throw new UnsupportedFeatureError(`play ${workflow.metadata.name} names no repository or no task id the simulator can read`);
    const play: PlayState = {
      uid: workflow.metadata.uid ?? '',
      name: workflow.metadata.name ?? '',
      namespace: workflow.metadata.namespace ?? this.config.namespace,
      repository: this.repositoryConfig(repositoryName),
      task,
      template: templateName,
      parameters,
      globals: {},
      round: Number(parameters[PlayParameters.round] ?? '1') || 1,
      stage: this.startStage(parameters),
      phase: 'Pending',
      attempt: 0,
      lostWaits: 0,
      deleted: false,
      stoppedPods: [],
    };
    this.plays.push(play);
    const allowed = (template.spec.arguments?.parameters ?? []).find(
      (parameter: any) => parameter.name === PlayParameters.startStage,
    )?.enum;
    if (Array.isArray(allowed) && !allowed.includes(play.stage)) {
      // The controller validates the arguments before it runs anything: no exit handler runs.
      play.phase = 'Error';
      this.note(play, `Argo refuses play ${play.name}: start-stage "${play.stage}" is not one of ${allowed.join(', ')}`);
      this.putWorkflow(play, (stored) => markCompleted(stored, 'Error'));
      return;
    }
    play.phase = 'Running';
    this.putWorkflow(play, (stored) => ({
      ...stored,
      metadata: {
        ...stored.metadata,
        labels: {
          ...stored.metadata.labels,
          [PlayLabels.taskId]: String(task),
          [PlayLabels.currentStage]: play.stage,
          [PlayLabels.round]: String(play.round),
        },
      },
      status: { phase: 'Running', nodes: {} },
    }));
    if (!(await this.resolveRepository(play))) return this.finish(play, 'Failed');
    await this.enter(play, play.stage);
  }

  /**
   * The stage a play enters first: its start stage, or when that stage's `when` does not hold for the play's
   * parameters the next one that does, as the play DAG's conditions skip it. A start stage the play does not
   * have is kept, for Argo to refuse.
   */
  private startStage(parameters: Readonly<Record<string, string>>): string {
    const start = parameters[PlayParameters.startStage] ?? this.stages.first.name;
    if (!this.stages.has(start) || this.stages.runsFor(start, parameters)) return start;
    return this.stages.nextFor(start, parameters)?.name ?? start;
  }

  /** The play's first step: its repository's settings from the registry, kept as the play's global outputs. */
  private async resolveRepository(play: PlayState): Promise<boolean> {
    const resolved = await this.runStep(play, RESOLVE_TEMPLATE, {});
    if (resolved.failure !== undefined) return false;
    play.globals = this.runner.globalOutputs(play.template, RESOLVE_TEMPLATE, resolved.outputs);
    const parameters = Object.entries(play.globals).map(([name, value]) => ({ name, value }));
    this.putWorkflow(play, (stored) => ({ ...stored, status: { ...(stored.status as object), outputs: { parameters } } }));
    return true;
  }

  /** Enters a stage: the enter-stage step, then the stage's work. */
  private async enter(play: PlayState, stage: string): Promise<void> {
    play.stage = stage;
    play.gateNode = undefined;
    play.attempt = 0;
    const definition = this.stages.get(stage);
    const agents = stageAgents(definition);
    const entered = await this.runStep(play, PlayTemplates.enterStage, {
      stage,
      'previous-stage': this.previousStage(play, definition),
      agent: agents.join(','),
      cli: agents.map((agent) => play.globals[AgentOutputs.cli(agent)] ?? this.executionOf(play, agent).cli).join(','),
      status: onStage(definition, {
        agent: () => ProgressStatuses.inProgress,
        gate: () => ProgressStatuses.suspended,
        end: () => ProgressStatuses.completed,
      }),
    });
    if (entered.failure !== undefined) return this.finish(play, 'Failed');
    await onStage<Promise<void>>(definition, {
      agent: () => this.startAttempt(play, 1),
      gate: () => this.suspend(play, stage),
      end: () => this.finish(play, 'Succeeded'),
    });
  }

  /** The stage a play was in before `stage`, as the DAG passes it: the nearest earlier stage that runs for it. */
  private previousStage(play: PlayState, stage: Stage): string {
    const earlier = this.stages.stagesBefore(stage.name).filter((candidate) => {
      const when = stageCondition(candidate);
      return when === undefined || when.in.includes(play.parameters[when.parameter] ?? '');
    });
    return earlier[earlier.length - 1]?.name ?? '';
  }

  /** A gate: its suspend node, and beside it the gate check, which may release it at once. */
  private async suspend(play: PlayState, gate: string): Promise<void> {
    const node = `${play.name}-gate-${gate}`;
    play.gateNode = node;
    this.putWorkflow(play, (stored) => {
      const status = (stored.status ?? {}) as { nodes?: Record<string, unknown> };
      const suspendNode = {
        id: node,
        name: `${play.name}.${gate}.await`,
        type: 'Suspend',
        templateName: PlayTemplates.awaitRelease,
        phase: 'Running',
        inputs: { parameters: [{ name: GATE_STAGE_INPUT, value: gate }] },
      };
      return { ...stored, status: { ...status, nodes: { ...(status.nodes ?? {}), [node]: suspendNode } } };
    });
    const checked = await this.runStep(play, PlayTemplates.checkRelease, { [GATE_STAGE_INPUT]: gate });
    if (checked.failure !== undefined) return this.finish(play, 'Failed');
    const stored = this.server.peek(workflowRef(play.namespace, play.name));
    if (stored !== undefined && nodePhase(stored, node) === 'Succeeded') await this.advance(play);
  }

  private async advance(play: PlayState): Promise<void> {
    const next = this.stages.nextFor(play.stage, play.parameters);
    if (next !== undefined) await this.enter(play, next.name);
  }

  /** One attempt of an agent stage: each CodeRun agent's run cancels the stage's stale CodeRuns, then creates its own. */
  private async startAttempt(play: PlayState, attempt: number): Promise<void> {
    const stage = this.stages.get(play.stage) as AgentStage;
    play.attempt = attempt;
    play.lostWaits = 0;
    for (const agent of stage.agents) {
      const execution = this.executionOf(play, agent);
      if (execution.mode === 'direct') {
        this.direct.start({ ...play, repository: play.repository.name }, agent, execution.cli);
        continue;
      }
      const run = agentRunTemplateName(stage.name, stage.agents.length > 1 ? agent : undefined);
      const selector = this.cancelSelector(play, run);
      const cancelled = await this.runStep(play, PlayTemplates.cancelCodeRuns, { selector });
      if (cancelled.failure !== undefined) return this.finish(play, 'Failed');
      this.syncCodeRuns();
      await this.createCodeRun(play, stage.name, agent, attempt, selector);
    }
  }

  /** A template of the play's WorkflowTemplate. @throws UnsupportedFeatureError when it has none of that name */
  private templateOf(play: PlayState, name: string): Record<string, any> {
    const found = (this.runner.workflowTemplate(play.template).spec.templates ?? []).find((template: any) => template.name === name);
    if (found === undefined) throw new UnsupportedFeatureError(`${play.template}: no template ${name}`);
    return found;
  }

  /** The run of one agent in a stage, as the play's DAG task calls it. */
  private runTemplate(play: PlayState, stage: AgentStage, agent: string): Record<string, any> {
    return this.templateOf(play, agentRunTemplateName(stage.name, stage.agents.length > 1 ? agent : undefined));
  }

  /**
   * The template whose node is one attempt of the agent: the run itself when it carries the retryStrategy (a
   * CodeRun agent's cancel, create and wait), else the one step it runs (a direct agent's pod).
   */
  private attemptTemplate(play: PlayState, stage: AgentStage, agent: string): Record<string, any> {
    const run = this.runTemplate(play, stage, agent);
    if (run.retryStrategy !== undefined) return run;
    const steps = (run.steps ?? []).flat();
    if (steps.length !== 1)
      throw new UnsupportedFeatureError(`${play.template}/${run.name}: no template the simulator can read as the attempt`);
    return this.templateOf(play, steps[0].template);
  }

  /** The step of a CodeRun agent's run that waits on the CodeRun: its last, a resource get. */
  private waitTemplate(play: PlayState, stage: AgentStage, agent: string): Record<string, any> {
    const run = this.runTemplate(play, stage, agent);
    const last = (run.steps ?? []).at(-1) ?? [];
    const wait = last.length === 1 ? this.templateOf(play, last[0].template) : undefined;
    if (wait?.resource?.action !== 'get')
      throw new UnsupportedFeatureError(`${play.template}/${run.name}: its last step does not wait on the CodeRun`);
    return wait;
  }

  /** The selector the attempt's cancel step passes, as its template writes it, for this play run. */
  private cancelSelector(play: PlayState, run: string): string {
    const cancel = this.templateOf(play, run).steps?.[0]?.[0];
    const value = cancel?.arguments?.parameters?.[0]?.value;
    if (typeof value !== 'string') throw new UnsupportedFeatureError(`${play.template}/${run}: no cancel step the simulator can read`);
    return value.replace('{{workflow.uid}}', play.uid);
  }

  /**
   * Creates the attempt's CodeRun as the play's resource step does, with the play's service account: owned by
   * the play, labelled by its run.
   */
  private async createCodeRun(play: PlayState, stage: string, agent: string, attempt: number, selector: string): Promise<void> {
    const labels = Object.fromEntries(selector.split(',').map((term) => term.split('=') as [string, string]));
    const template = this.runner.workflowTemplate(play.template);
    const api = this.server.client(roleAuthorizer(this.objects, template.spec.serviceAccountName, play.namespace));
    const created = await api.create(ApiResources.codeRuns, play.namespace, {
      apiVersion: CODERUN_API_VERSION,
      kind: CODERUN_KIND,
      metadata: {
        generateName: `${play.repository.service}-${stage}-`,
        labels: { ...labels, [CodeRunLabels.taskId]: String(play.task), [CodeRunLabels.round]: String(play.round) },
        ownerReferences: [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'Workflow', name: play.name, uid: play.uid, controller: true }],
      },
      spec: { contextVersion: attempt },
      status: { phase: 'Running' },
    });
    this.codeRuns.push({
      name: created.metadata.name ?? '',
      play,
      view: { repository: play.repository.name, task: play.task, stage, agent, contextVersion: attempt, phase: 'Running' },
    });
    const live = this.codeRuns.filter(
      (run) => run.play === play && run.view.stage === stage && run.view.agent === agent && run.view.phase === 'Running',
    ).length;
    this.peakLive = Math.max(this.peakLive, live);
    this.note(play, `created CodeRun ${created.metadata.name} for ${agent} at ${stage} (attempt ${attempt})`);
  }

  /** The play ended: its exit handler records how, and cancels its CodeRuns unless it succeeded. */
  private async finish(play: PlayState, phase: 'Succeeded' | 'Failed'): Promise<void> {
    play.phase = phase;
    play.gateNode = undefined;
    await this.runStep(play, PlayTemplates.recordExit, {}, phase);
    if (phase !== 'Succeeded' && this.runner.hasTemplate(play.template, PlayTemplates.cancelCodeRuns)) {
      await this.runStep(play, PlayTemplates.cancelCodeRuns, { selector: this.exitSelector(play) }, phase);
      this.syncCodeRuns();
    }
    this.putWorkflow(play, (stored) => markCompleted(stored, phase));
  }

  /** The selector the exit handler's cancel step passes, as its template writes it, for this play run. */
  private exitSelector(play: PlayState): string {
    const exit = (this.runner.workflowTemplate(play.template).spec.templates ?? []).find(
      (template: any) => template.name === PlayTemplates.exit,
    );
    const cancel = (exit?.steps ?? []).flat().find((step: any) => step.template === PlayTemplates.cancelCodeRuns);
    const value = cancel?.arguments?.parameters?.[0]?.value;
    if (typeof value !== 'string')
      throw new UnsupportedFeatureError(`${play.template}/${PlayTemplates.exit}: no cancel step the simulator can read`);
    return value.replace('{{workflow.uid}}', play.uid);
  }

  /** `argo stop` (spec.shutdown): the play's pods end, the play fails, and its exit handler runs (not on Terminate). */
  private async stop(play: PlayState, workflow: KubeObject, shutdown: string): Promise<void> {
    play.stoppedPods = this.direct.end(play.uid, 'Stopped', 'the play was stopped');
    const reason = workflow.metadata.annotations?.[PlayAnnotations.roundReason];
    if (reason !== undefined && reason.startsWith('remediation rounds exhausted')) play.reason = reason;
    if (shutdown === 'Stop') return this.finish(play, 'Failed');
    play.phase = 'Failed';
    this.putWorkflow(play, (stored) => markCompleted(stored, 'Failed'));
  }

  private deleted(play: PlayState): void {
    play.deleted = true;
    play.gateNode = undefined;
    if (play.phase === 'Running') play.phase = 'Failed';
    this.direct.end(play.uid, 'Stopped', 'deleted with its play');
    for (let index = this.codeRuns.length - 1; index >= 0; index -= 1)
      if (this.codeRuns[index].play === play) this.codeRuns.splice(index, 1);
  }

  private async runStep(play: PlayState, template: string, inputs: Record<string, string>, status?: string): Promise<StepRun> {
    const run = await this.runner.run(play.template, template, this.scopeOf(play, status), inputs);
    for (const line of run.log) this.note(play, `${run.step}: ${line}`);
    if (run.failure !== undefined) this.note(play, `${run.step} failed: ${run.failure}`);
    return run;
  }

  private scopeOf(play: PlayState, status?: string): WorkflowScope {
    return {
      name: play.name,
      namespace: play.namespace,
      uid: play.uid,
      parameters: play.parameters,
      outputs: play.globals,
      ...(status ? { status } : {}),
    };
  }

  private putWorkflow(play: PlayState, change: (stored: KubeObject) => KubeObject): void {
    const stored = this.server.peek(workflowRef(play.namespace, play.name));
    if (stored === undefined || stored.metadata.uid !== play.uid) return;
    this.server.put(ApiResources.workflows, change(stored));
  }

  // --- CodeRuns ---------------------------------------------------------------------------------------------

  private liveCodeRuns(play: PlayState, stage: string): TrackedCodeRun[] {
    this.syncCodeRuns();
    return this.codeRuns.filter((run) => run.play === play && run.view.stage === stage && run.view.phase === 'Running');
  }

  private setCodeRunPhase(run: TrackedCodeRun, phase: string): void {
    const stored = this.server.peek(codeRunRef(run.play.namespace, run.name));
    if (stored !== undefined) this.server.put(ApiResources.codeRuns, { ...stored, status: { ...(stored.status as object), phase } });
    run.view.phase = phase as CodeRunPhase;
  }

  /** A CodeRun deleted while its play lives was cancelled; one deleted with its play leaves the report with it. */
  private syncCodeRuns(): void {
    for (const run of this.codeRuns) {
      if (run.view.phase !== 'Running') continue;
      const stored = this.server.peek(codeRunRef(run.play.namespace, run.name));
      if (stored === undefined) run.view.phase = 'Cancelled';
    }
  }

  // --- The event helpers ------------------------------------------------------------------------------------

  private async runResumer(workflow: KubeObject, templateName: string): Promise<void> {
    const scope = helperScope(this.runner.workflowTemplate(templateName), workflow, this.config.namespace);
    const run = await this.runner.run(templateName, ResumerTemplates.resumeGate, scope);
    const gate = scope.parameters.gate ?? '';
    for (const line of run.log) this.notes.push(`resumer for ${gate}: ${line}`);
    if (run.failure !== undefined) this.notes.push(`resumer for ${gate} failed: ${run.failure}`);
    const task = canonicalTaskId(scope.parameters['task-id'] ?? '');
    const repository = scope.parameters.repository ?? '';
    if (run.failure === undefined && task !== undefined && run.outputs.recorded === 'true') {
      this.outcomes.push({ kind: 'recorded', repository, task, gate });
      if ((run.outputs.play ?? '') !== '') this.outcomes.push({ kind: 'resumed', repository, task, gate });
    }
    this.markHelper(workflow, run.failure === undefined ? 'Succeeded' : 'Failed');
  }

  private async runRemediator(workflow: KubeObject, templateName: string): Promise<void> {
    const scope = helperScope(this.runner.workflowTemplate(templateName), workflow, this.config.namespace);
    const kind = scope.parameters.kind ?? '';
    const say = (run: StepRun): void => {
      for (const line of run.log) this.notes.push(`remediator (${kind}): ${line}`);
      if (run.failure !== undefined) this.notes.push(`remediator (${kind}) failed: ${run.failure}`);
    };
    const decided = await this.runner.run(templateName, RemediatorTemplates.decide, scope);
    say(decided);
    const action = decided.outputs.action ?? RemediatorActions.none;
    if (decided.failure !== undefined || action === RemediatorActions.none) {
      this.markHelper(workflow, decided.failure === undefined ? 'Succeeded' : 'Failed');
      return;
    }
    const playName = decided.outputs.workflow ?? '';
    const play = this.plays.find(
      (candidate) => !candidate.deleted && candidate.name === playName && candidate.namespace === scope.namespace,
    );
    const round = Number(decided.outputs.round);
    const reason = decided.outputs.reason ?? '';
    const running = new Set(this.codeRuns.filter((run) => run.play === play && run.view.phase === 'Running'));
    const stopped = await this.runner.run(templateName, RemediatorTemplates.stopPlay, scope, {
      workflow: playName,
      reason: action === RemediatorActions.exhaust ? reason : '',
    });
    say(stopped);
    const cancelled = this.codeRuns
      .filter((run) => running.has(run) && run.view.phase === 'Cancelled')
      .map((run) => `${run.view.agent}/${run.view.stage}`);
    const stoppedPods = (play?.stoppedPods ?? []).map((pod) => `${pod.agent}/${pod.stage}`);
    if (stopped.failure !== undefined) {
      this.markHelper(workflow, 'Failed');
      return;
    }
    const fromRound = play?.round ?? 1;
    const finished =
      action === RemediatorActions.exhaust
        ? await this.runner.run(templateName, RemediatorTemplates.recordExhausted, scope, { reason, round: String(round) })
        : await this.runner.run(templateName, RemediatorTemplates.replacePlay, scope, {
            workflow: playName,
            reason,
            round: String(round),
            successor: decided.outputs.successor ?? '{}',
          });
    say(finished);
    this.markHelper(workflow, finished.failure === undefined ? 'Succeeded' : 'Failed');
    if (finished.failure !== undefined || play === undefined) return;
    await this.operate();
    const successor = action === RemediatorActions.replace ? this.playOf(play.repository.name, play.task) : undefined;
    const startStage = JSON.parse(decided.outputs.successor ?? '{}')?.metadata?.labels?.[PlayLabels.currentStage] ?? play.stage;
    const outcome: RemediationReport['outcome'] =
      action === RemediatorActions.exhaust
        ? 'exhausted'
        : successor?.phase === 'Error'
          ? 'refused'
          : kind === RemediationKinds.remediate
            ? 'next-round'
            : 're-run';
    this.outcomes.push({
      kind: 'remediated',
      report: {
        repository: play.repository.name,
        task: play.task,
        kind,
        outcome,
        fromRound,
        round,
        stage: action === RemediatorActions.exhaust ? play.stage : startStage,
        reason,
        cancelled,
        ...(stoppedPods.length > 0 ? { stoppedPods } : {}),
      },
    });
  }

  private markHelper(workflow: KubeObject, phase: string): void {
    const stored = this.server.peek(workflowRef(workflow.metadata.namespace ?? '', workflow.metadata.name ?? ''));
    if (stored !== undefined) this.server.put(ApiResources.workflows, markCompleted(stored, phase));
  }

  // --- The report -------------------------------------------------------------------------------------------

  public views(): PlayView[] {
    return this.plays
      .filter((play) => !play.deleted)
      .map((play) => ({
        repository: play.repository.name,
        task: play.task,
        stage: play.stage,
        ...(play.phase === 'Failed' || play.phase === 'Error' ? { status: 'failed' as const } : {}),
        ...(play.round > 1 ? { round: play.round } : {}),
        ...(play.reason === undefined ? {} : { reason: play.reason }),
      }));
  }

  public codeRunViews(): CodeRunView[] {
    this.syncCodeRuns();
    return this.codeRuns.map((run) => ({ ...run.view }));
  }

  /** The most CodeRuns of one play, stage and agent that were live at once, so far. */
  public get mostLiveCodeRuns(): number {
    return this.peakLive;
  }

  /** What happened since the last call, in words; then forgets it. */
  public takeNotes(): string[] {
    const notes = [...this.notes, ...this.direct.takeNotes(), ...this.projects.takeNotes()];
    this.notes = [];
    return notes;
  }

  /** What the helper Workflows did since the last call; then forgets it. */
  public takeOutcomes(): HelperOutcome[] {
    const outcomes = this.outcomes;
    this.outcomes = [];
    return outcomes;
  }

  // --- Lookups ----------------------------------------------------------------------------------------------

  private note(play: PlayState, text: string): void {
    this.notes.push(`play of task ${play.task}: ${text}`);
  }

  private livePlay(repository: string, task: number): PlayState | undefined {
    return this.plays.find(
      (play) => !play.deleted && (play.phase === 'Running' || play.phase === 'Pending') && sameTask(play, repository, task),
    );
  }

  private requirePlay(repository: string, task: number): PlayState {
    const play = this.playOf(repository, task);
    if (!play) throw new StepRefused(`no play for task ${task} of ${repository}`);
    return play;
  }

  private assertAgentStage(play: PlayState): AgentStage {
    if (play.phase === 'Failed' || play.phase === 'Error')
      throw new StepRefused(`the play of task ${play.task} of ${play.repository.name} has failed; resume it from its state`);
    const stage = this.stages.get(play.stage);
    if (stage.type !== 'agent')
      throw new StepRefused(
        `the play of task ${play.task} of ${play.repository.name} is at ${stage.type} stage "${play.stage}", where no agent runs`,
      );
    return stage;
  }

  /** The agent's mode and CLI for the play's repository, as the config resolves them (never decided here). */
  private executionOf(play: PlayState, agent: string) {
    return agentExecution(this.config, play.repository, agent);
  }

  public repositoryConfig(repository: string): RepositoryConfig {
    const found = this.config.repositories.find((entry) => entry.name.toLowerCase() === repository.toLowerCase());
    if (!found)
      throw new StepRefused(
        `repository "${repository}" is not configured; configured: ${this.config.repositories.map((entry) => entry.name).join(', ')}`,
      );
    return found;
  }
}

function sameTask(play: PlayState, repository: string, task: number): boolean {
  return play.repository.name.toLowerCase() === repository.toLowerCase() && play.task === task;
}

/** The Workflow's parameters: its template's defaults, then its own arguments. */
function workflowParameters(template: Record<string, any>, workflow: KubeObject): Record<string, string> {
  const values: Record<string, string> = {};
  for (const parameter of template.spec?.arguments?.parameters ?? [])
    if (parameter.value !== undefined) values[parameter.name] = String(parameter.value);
  const own =
    (workflow.spec as { arguments?: { parameters?: Array<{ name: string; value?: unknown }> } } | undefined)?.arguments?.parameters ?? [];
  for (const parameter of own) values[parameter.name] = String(parameter.value ?? '');
  return values;
}

function helperScope(template: Record<string, any>, workflow: KubeObject, namespace: string): WorkflowScope {
  return {
    name: workflow.metadata.name ?? '',
    namespace: workflow.metadata.namespace ?? namespace,
    uid: workflow.metadata.uid ?? '',
    parameters: workflowParameters(template, workflow),
  };
}

function nodePhase(workflow: KubeObject, node: string): string | undefined {
  const nodes = (workflow.status as { nodes?: Record<string, { phase?: string }> } | undefined)?.nodes;
  return nodes?.[node]?.phase;
}

/** The Workflow as the controller leaves it when it is done: its phase, and labelled completed. */
function markCompleted(stored: KubeObject, phase: string): KubeObject {
  return {
    ...stored,
    metadata: { ...stored.metadata, labels: { ...stored.metadata.labels, [ARGO_COMPLETED_LABEL]: 'true' } },
    status: { ...((stored.status as object | undefined) ?? {}), phase },
  };
}
