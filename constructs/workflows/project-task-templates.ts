/**
 * The templates that run one task of a project as a child play, in every WorkflowTemplate of the project
 * that holds chunks: look up the task's progress record (every run is a resume), create the play unless the
 * task has one, and wait for the task (its progress record), not for one Workflow: the remediator replaces a
 * play by stopping, deleting and re-creating it under the same name (docs/remediation.md).
 */
import { inputParameter, stepOutput, WorkflowVariables } from '../model/argo-expressions';
import { PlayLabels, ProjectLabels } from '../model/labels';
import { progressConfigMapName } from '../model/naming';
import { PlayParameters, playWorkflowName, ProgressStatuses } from '../model/play-contract';
import { playWorkflow } from '../model/play-workflow';
import type { RepositoryConfig } from '../model/config-schema';
import type { Template } from './argo-types';
import { hardenedScript, SCRATCH_MOUNT } from './hardened-script';
import { IMAGE_PULL_ALLOWANCE_SECONDS, sharedDeadlineRetry } from './retry-policy';
import { progressRecordEnv, TASK_CONFIGMAP_BASH } from './progress-script';
import { ARGO_COMPLETED_LABEL } from '../model/argo-api';

export const ProjectTemplates = {
  runTask: 'run-task',
  findStart: 'find-start',
  startPlay: 'start-play',
  waitPlay: 'wait-play',
} as const;

/** What `find-start` decides for a task. */
export const TaskActions = { start: 'start', skip: 'skip' } as const;

/** The step of run-task that reads the progress record, and the outputs the next step reads. */
const FIND_STEP = 'find-start';
const ACTION_OUTPUT = 'action';
const findOutput = (name: string): string => stepOutput(FIND_STEP, name);

const START_STAGE_FILE = `${SCRATCH_MOUNT.mountPath}/start-stage`;
const ACTION_FILE = `${SCRATCH_MOUNT.mountPath}/action`;

/**
 * Reads the task's progress record: no record starts the play at its first stage, a completed task is
 * skipped, any other record restarts it at its stored stage. A record that cannot be read, or an API error
 * other than NotFound, fails the task rather than restart it from the beginning. A task without a record in
 * its shard is looked up in the repository's single ConfigMap of the earlier layout (`$PROGRESS_CONFIGMAP`),
 * so a project re-run after an upgrade does not restart tasks that had progressed.
 */
const FIND_START_SCRIPT = String.raw`set -euo pipefail
${TASK_CONFIGMAP_BASH}
name="$(task_configmap)"
stage="$FIRST_STAGE"
action="$START"
# The record of the task in ConfigMap $1, empty when absent; fails on an API error other than NotFound.
record_in() {
  local configmap
  if configmap="$(kubectl get configmap "$1" -n "$NAMESPACE" -o json 2>"$HOME/error")"; then
    jq -r --arg key "$PROGRESS_KEY" '.data[$key] // empty' <<<"$configmap"
  elif ! grep -q NotFound "$HOME/error"; then
    cat "$HOME/error" >&2
    return 1
  fi
}
record="$(record_in "$name")"
if [ -z "$record" ]; then
  record="$(record_in "$PROGRESS_CONFIGMAP")"
  [ -z "$record" ] || name="$PROGRESS_CONFIGMAP"
fi
if [ -n "$record" ]; then
  # Both fields in one jq, as shell assignments it quotes; none at all (jq -e fails) unless both are strings.
  if ! fields="$(jq -er '@sh "stage=\(.stage | strings) status=\(.status | strings)"' <<<"$record")"; then
    echo "the progress record $PROGRESS_KEY of $name is unreadable; not restarting task $TASK_ID from its first stage" >&2
    exit 1
  fi
  eval "$fields"
  [ "$status" = "$COMPLETED" ] && action="$SKIP"
fi
printf '%s' "$stage" >"$START_STAGE_FILE"
printf '%s' "$action" >"$ACTION_FILE"
echo "task $TASK_ID: $action at $stage"
`;

export interface ProjectTaskTemplatesProps {
  readonly repository: RepositoryConfig;
  readonly project: string;
  /** The first stage of the play, where a task without a record starts. */
  readonly firstStage: string;
  /** The play parameters a task may set (task-type and the declared ones), with their defaults. */
  readonly parameters: Readonly<Record<string, string>>;
  readonly helperImage: string;
  /** The longest a child play may run, in seconds: wait-play waits at most that long. */
  readonly playDeadlineSeconds: number;
}

function findStart(props: ProjectTaskTemplatesProps): Template {
  const template = hardenedScript({
    name: ProjectTemplates.findStart,
    image: props.helperImage,
    source: FIND_START_SCRIPT,
    inputs: { parameters: [{ name: PlayParameters.taskId }] },
    retryStrategy: { limit: '3', retryPolicy: 'Always', backoff: { duration: '5s', factor: 2, maxDuration: '1m' } },
    env: [
      { name: 'TASK_ID', value: inputParameter(PlayParameters.taskId) },
      { name: 'NAMESPACE', value: WorkflowVariables.namespace },
      ...progressRecordEnv(progressConfigMapName(props.repository.name), inputParameter(PlayParameters.taskId)),
      { name: 'FIRST_STAGE', value: props.firstStage },
      { name: 'COMPLETED', value: ProgressStatuses.completed },
      { name: 'START', value: TaskActions.start },
      { name: 'SKIP', value: TaskActions.skip },
      { name: 'START_STAGE_FILE', value: START_STAGE_FILE },
      { name: 'ACTION_FILE', value: ACTION_FILE },
    ],
  });
  return {
    ...template,
    outputs: {
      parameters: [
        { name: PlayParameters.startStage, valueFrom: { path: START_STAGE_FILE } },
        { name: ACTION_OUTPUT, valueFrom: { path: ACTION_FILE } },
      ],
    },
  };
}

/** The child play: named, labelled and parameterized like any play, and tied to the project. */
function childPlay(props: ProjectTaskTemplatesProps): Record<string, unknown> {
  return playWorkflow({
    service: props.repository.service,
    namespace: WorkflowVariables.namespace,
    task: inputParameter(PlayParameters.taskId),
    repository: props.repository.name,
    stage: inputParameter(PlayParameters.startStage),
    parameters: Object.keys(props.parameters).map((name) => ({ name, value: inputParameter(name) })),
    extraLabels: { [ProjectLabels.project]: props.project },
  });
}

/**
 * Creates the task's play unless one exists. A play of that name is the task's, in whatever round: a re-run
 * of the project finds the children of the last run, and the remediator's successor of the original, which
 * must never be overwritten with the original manifest (round 1, as `apply` would). Any other error fails.
 */
const START_PLAY_SCRIPT = String.raw`set -euo pipefail
if kubectl create -f - <<<"$PLAY_MANIFEST" >/dev/null 2>"$HOME/error"; then
  echo "task $TASK_ID: created play $PLAY"
elif grep -q AlreadyExists "$HOME/error"; then
  echo "task $TASK_ID: play $PLAY exists already (a re-run, or a later round); waiting for the task"
else
  cat "$HOME/error" >&2
  exit 1
fi
`;

/**
 * Waits for the task, by its progress record, until it is `completed` (success) or `failed` (failure,
 * with the record's reason). A `failed` record is final only when the play named PLAY exists and has
 * ended, and either the record has a reason (the remediator's "remediation rounds exhausted") or the play
 * ended on its own in the record's round. Otherwise the task is between plays, so the wait goes on:
 * no play (the remediator deleted it and is about to create the successor), a play still running (a record
 * of an earlier play not yet overwritten by this one), a play of an earlier round than the record (the
 * remediator recorded the next round), or a play stopped (`spec.shutdown`, which the remediator sets
 * before it replaces the play or records why it gave up). A play stopped by hand is therefore waited on
 * until the deadline. An API error other than NotFound fails the attempt (a retry continues the wait).
 * The controller labels a Workflow `workflows.argoproj.io/completed: "true"` only once its exit handler,
 * which writes the record's end, has run, and never clears `spec.shutdown` (argo-workflows
 * `workflow/controller/operator.go`, `operate` and `markWorkflowPhase`).
 */
const WAIT_PLAY_SCRIPT = String.raw`set -euo pipefail
${TASK_CONFIGMAP_BASH}
configmap="$(task_configmap)"
# Prints the object ($1 $2) as JSON, nothing when absent; fails on an API error other than NotFound.
object_of() {
  local object
  if object="$(kubectl get "$1" "$2" -n "$NAMESPACE" -o json 2>"$HOME/error")"; then
    printf '%s' "$object"
  elif ! grep -q NotFound "$HOME/error"; then
    cat "$HOME/error" >&2
    return 1
  fi
}
# Why a failed record does not end the wait yet, given the play (empty when none); empty when it does.
between_plays() {
  local play="$1" record="$2" fields completed reason played recorded shutdown
  [ -n "$play" ] || { echo "no play $PLAY (being replaced)"; return; }
  # What the answer reads of the play and the record, in one jq, as shell assignments it quotes.
  fields="$(jq -r -s --arg key "$ROUND_LABEL" '.[0] as $play | .[1] as $record
    | @sh "completed=\($play.metadata.labels["${ARGO_COMPLETED_LABEL}"] // "false") reason=\($record.reason // "")",
      @sh "played=\($play.metadata.labels[$key] // "1") recorded=\($record.round // 1) shutdown=\($play.spec.shutdown // "")"' <<<"$play
$record")"
  eval "$fields"
  [ "$completed" = "true" ] || { echo "play $PLAY is running"; return; }
  [ -z "$reason" ] || return 0
  [ "$played" = "$recorded" ] || { echo "play $PLAY is of round $played, the record of round $recorded"; return; }
  [ -z "$shutdown" ] || echo "play $PLAY was stopped"
}
last=""
while :; do
  # One jq for the record and its fields at each look, as shell assignments it quotes, evaluated after a
  # checked assignment; no record yet (no ConfigMap) prints nothing. reason: ": " and the record's reason.
  record="" status="" round="" stage="" reason=""
  fields="$(object_of configmap "$configmap" | jq -r --arg key "$PROGRESS_KEY" '(.data[$key] // "{}" | fromjson? // {})
    | @sh "record=\(tojson) status=\(.status // "") round=\(.round // 1) stage=\(.stage // "") reason=\((.reason | strings | ": " + .) // "")"')"
  eval "$fields"
  if [ "$status" = "$COMPLETED" ]; then
    echo "task $TASK_ID completed (round $round)"
    exit 0
  fi
  note="$status at $stage, round $round"
  if [ "$status" = "$FAILED" ]; then
    play="$(object_of workflow "$PLAY")"
    waiting="$(between_plays "$play" "$record")"
    if [ -z "$waiting" ]; then
      echo "task $TASK_ID failed at $stage in round $round$reason" >&2
      exit 1
    fi
    note="$note; $waiting"
  fi
  [ -n "$status" ] || note="no record yet"
  [ "$note" = "$last" ] || echo "task $TASK_ID: $note"
  last="$note"
  sleep "$POLL_SECONDS"
done
`;

/** Seconds between two reads of the progress record while a task's play runs. */
const WAIT_POLL_SECONDS = 30;

/** The values both play steps read: the task, its play and where its record is. */
function taskEnv(props: ProjectTaskTemplatesProps) {
  return [
    { name: 'TASK_ID', value: inputParameter(PlayParameters.taskId) },
    { name: 'NAMESPACE', value: WorkflowVariables.namespace },
    { name: 'PLAY', value: playWorkflowName(props.repository.service, inputParameter(PlayParameters.taskId)) },
  ];
}

function startPlay(props: ProjectTaskTemplatesProps): Template {
  return hardenedScript({
    name: ProjectTemplates.startPlay,
    image: props.helperImage,
    source: START_PLAY_SCRIPT,
    inputs: {
      parameters: [
        { name: PlayParameters.taskId },
        { name: PlayParameters.startStage },
        ...Object.keys(props.parameters).map((name) => ({ name })),
      ],
    },
    retryStrategy: { limit: '3', retryPolicy: 'Always', backoff: { duration: '5s', factor: 2, maxDuration: '1m' } },
    env: [...taskEnv(props), { name: 'PLAY_MANIFEST', value: JSON.stringify(childPlay(props)) }],
  });
}

/**
 * The wait runs as long as a play may (its deadline shared by every attempt), so a lost waiting pod (an
 * evicted pod is Failed, not Error) is retried within the play's own deadline and reads the same record.
 */
function waitPlay(props: ProjectTaskTemplatesProps): Template {
  const deadline = props.playDeadlineSeconds + IMAGE_PULL_ALLOWANCE_SECONDS;
  const template = hardenedScript({
    name: ProjectTemplates.waitPlay,
    image: props.helperImage,
    source: WAIT_PLAY_SCRIPT,
    inputs: { parameters: [{ name: PlayParameters.taskId }] },
    activeDeadlineSeconds: deadline,
    env: [
      ...taskEnv(props),
      ...progressRecordEnv(progressConfigMapName(props.repository.name), inputParameter(PlayParameters.taskId)),
      { name: 'ROUND_LABEL', value: PlayLabels.round },
      { name: 'COMPLETED', value: ProgressStatuses.completed },
      { name: 'FAILED', value: ProgressStatuses.failed },
      { name: 'POLL_SECONDS', value: String(WAIT_POLL_SECONDS) },
    ],
  });
  return { ...template, retryStrategy: sharedDeadlineRetry({ limit: 2, attemptSeconds: deadline, backoffSeconds: 30 }) };
}

function runTask(props: ProjectTaskTemplatesProps): Template {
  const passed = Object.keys(props.parameters).map((name) => ({ name, value: inputParameter(name) }));
  return {
    name: ProjectTemplates.runTask,
    inputs: {
      parameters: [{ name: PlayParameters.taskId }, ...Object.entries(props.parameters).map(([name, value]) => ({ name, default: value }))],
    },
    steps: [
      [
        {
          name: FIND_STEP,
          template: ProjectTemplates.findStart,
          arguments: { parameters: [{ name: PlayParameters.taskId, value: inputParameter(PlayParameters.taskId) }] },
        },
      ],
      [
        {
          name: 'play',
          template: ProjectTemplates.startPlay,
          when: `'${findOutput(ACTION_OUTPUT)}' == '${TaskActions.start}'`,
          arguments: {
            parameters: [
              { name: PlayParameters.taskId, value: inputParameter(PlayParameters.taskId) },
              { name: PlayParameters.startStage, value: findOutput(PlayParameters.startStage) },
              ...passed,
            ],
          },
        },
      ],
      [
        {
          name: 'wait',
          template: ProjectTemplates.waitPlay,
          when: `'${findOutput(ACTION_OUTPUT)}' == '${TaskActions.start}'`,
          arguments: { parameters: [{ name: PlayParameters.taskId, value: inputParameter(PlayParameters.taskId) }] },
        },
      ],
    ],
  };
}

/** The four templates, in the order they are added to a WorkflowTemplate. */
export function projectTaskTemplates(props: ProjectTaskTemplatesProps): Template[] {
  return [runTask(props), findStart(props), startPlay(props), waitPlay(props)];
}
