/**
 * The templates that run one task of a project as a child play, in every WorkflowTemplate of the project
 * that holds chunks: look up the task's progress record (every run is a resume), then create the play, or
 * apply it again when it exists, and wait for it to end.
 */
import { inputParameter, stepOutput, WorkflowVariables } from '../model/argo-expressions';
import { ProjectLabels } from '../model/labels';
import { PROGRESS_SHARDS, progressConfigMapName, progressTaskKey } from '../model/naming';
import { PlayParameters, ProgressStatuses } from '../model/play-contract';
import { playWorkflow } from '../model/play-workflow';
import type { RepositoryConfig } from '../model/config-schema';
import type { Template } from './argo-types';
import { hardenedScript, SCRATCH_MOUNT } from './hardened-script';
import { IMAGE_PULL_ALLOWANCE_SECONDS, sharedDeadlineRetry } from './retry-policy';
import { TASK_CONFIGMAP_BASH } from './progress-script';

export const ProjectTemplates = {
  runTask: 'run-task',
  findStart: 'find-start',
  startPlay: 'start-play',
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
  if ! stage="$(jq -er '.stage | strings' <<<"$record")" || ! status="$(jq -er '.status | strings' <<<"$record")"; then
    echo "the progress record $PROGRESS_KEY of $name is unreadable; not restarting task $TASK_ID from its first stage" >&2
    exit 1
  fi
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
  /** The longest a child play may run, in seconds: start-play waits at most that long. */
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
      { name: 'PROGRESS_CONFIGMAP', value: progressConfigMapName(props.repository.name) },
      { name: 'PROGRESS_SHARDS', value: String(PROGRESS_SHARDS) },
      { name: 'PROGRESS_KEY', value: progressTaskKey(inputParameter(PlayParameters.taskId)) },
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
 * `apply` rather than `create`: a re-run finds the children of the last run and waits for them instead of
 * failing on AlreadyExists; an unchanged manifest changes nothing on an existing play. For the same reason a
 * lost waiting pod (an evicted pod is Failed, not Error) is simply retried within the play's own deadline: a
 * play that failed is applied unchanged and read as failed again, never started again.
 */
function startPlay(props: ProjectTaskTemplatesProps): Template {
  const deadline = props.playDeadlineSeconds + IMAGE_PULL_ALLOWANCE_SECONDS;
  return {
    name: ProjectTemplates.startPlay,
    activeDeadlineSeconds: deadline,
    retryStrategy: sharedDeadlineRetry({ limit: 2, attemptSeconds: deadline, backoffSeconds: 30 }),
    inputs: {
      parameters: [
        { name: PlayParameters.taskId },
        { name: PlayParameters.startStage },
        ...Object.keys(props.parameters).map((name) => ({ name })),
      ],
    },
    resource: {
      action: 'apply',
      manifest: `${JSON.stringify(childPlay(props), null, 2)}\n`,
      successCondition: 'status.phase == Succeeded',
      failureCondition: 'status.phase in (Failed,Error)',
    },
  };
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
    ],
  };
}

/** The three templates, in the order they are added to a WorkflowTemplate. */
export function projectTaskTemplates(props: ProjectTaskTemplatesProps): Template[] {
  return [runTask(props), findStart(props), startPlay(props)];
}
