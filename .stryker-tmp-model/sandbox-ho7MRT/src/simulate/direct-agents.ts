/**
 * Direct agents in the simulator: an agent that runs direct creates no CodeRun; each attempt is a pod of the
 * play that runs the agent's CLI (its mode and CLI resolved by `agentExecution`, constructs/model), and ends
 * with it. This part stays a model: the direct step is bash in the CLI's own image
 * (`constructs/workflows/direct-agent-script.ts`), which the simulator does not run.
 *
 * The CLI's session lives on the workspace (docs/executors.md, "Sessions"): an attempt resumes the task's
 * confirmed session of the same CLI, else starts one; a session is confirmed when the CLI exited and reported
 * it, or when the pod was stopped (SIGTERM, with its play or deleted with it): the script's trap records the
 * session the CLI announced, and every CLI announces it as it starts while a modelled pod runs at least until
 * the next step. An evicted pod (its CLI gone with it before the script recorded anything) leaves a new
 * session unconfirmed, and the next attempt starts over from the context file.
 */
// @ts-nocheck


/**
 * How a direct agent's pod ended: `Succeeded` or `Failed` by the CLI's exit code, `Evicted` (the pod was gone,
 * the CLI with it), `Stopped` (its play was stopped or deleted).
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
  /** The uid of the play Workflow the pod belongs to. */
  readonly play: string;
}

/** What the task's session file says. */
interface SessionFile {
  readonly cli: string;
  confirmed: boolean;
}

/** The play a pod runs in, as the direct agents see it. */
export interface PodOwner {
  readonly uid: string;
  readonly repository: string;
  readonly task: number;
  readonly stage: string;
  readonly round: number;
  readonly attempt: number;
}

/** The direct agents' pods and the tasks' session files. */
export class DirectAgents {
  private readonly pods: AgentPod[] = [];
  /** `repository#task/agent` to its session file. */
  private readonly sessions = new Map<string, SessionFile>();
  /** What direct agents did since the last `takeNotes`, in words. */
  private notes: string[] = [];

  /** An attempt of `agent` with `cli`: resume the task's confirmed session of this CLI, else start one. */
  public start(play: PodOwner, agent: string, cli: string): void {
    const key = sessionKey(play, agent);
    const file = this.sessions.get(key);
    const session = file !== undefined && file.cli === cli && file.confirmed ? 'resumed' : 'started';
    if (session === 'started') this.sessions.set(key, { cli, confirmed: false });
    this.pods.push({
      play: play.uid,
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

  /** Whether the play has a running pod. */
  public running(playUid: string): boolean {
    return this.pods.some((pod) => pod.play === playUid && pod.phase === 'Running');
  }

  /**
   * The play's running pods end. A CLI that exited (`Succeeded`, `Failed`) has reported its session; a stopped
   * pod's script keeps the session its CLI announced (the TERM trap); an evicted pod's CLI is gone with it.
   */
  public end(playUid: string, phase: Exclude<AgentPodPhase, 'Running'>, why: string): AgentPodView[] {
    const ended = this.pods.filter((pod) => pod.play === playUid && pod.phase === 'Running');
    for (const pod of ended) {
      pod.phase = phase;
      const file = this.sessions.get(sessionKey(pod, pod.agent));
      const reported = phase === 'Succeeded' || phase === 'Failed';
      const announced = phase === 'Stopped';
      if (file !== undefined && (reported || announced)) file.confirmed = true;
      this.notes.push(
        `direct: ${pod.agent}'s pod at ${pod.stage} (round ${pod.round}, attempt ${pod.attempt}) ${phase}: ${why}${sessionFate(pod, reported, announced)}`,
      );
    }
    return ended.map(viewOf);
  }

  /** Every pod the plays ran, in order (kept after their play is gone, for the record). */
  public views(): AgentPodView[] {
    return this.pods.map(viewOf);
  }

  /** What direct agents did since the last call, in words; then forgets it. */
  public takeNotes(): string[] {
    const notes = this.notes;
    this.notes = [];
    return notes;
  }
}

function viewOf({ play: _play, ...view }: AgentPod): AgentPodView {
  return { ...view };
}

function sessionKey(play: { readonly repository: string; readonly task: number }, agent: string): string {
  return `${play.repository.toLowerCase()}#${play.task}/${agent}`;
}

/** What became of a new session when its pod ended, in words (nothing to say for a resumed or reported one). */
function sessionFate(pod: AgentPodView, reported: boolean, announced: boolean): string {
  if (reported || pod.session !== 'started') return '';
  if (announced) return '; its CLI had announced its new session, which the stopped script recorded: the next attempt resumes it';
  return '; its new session was never confirmed, the next attempt starts one';
}
