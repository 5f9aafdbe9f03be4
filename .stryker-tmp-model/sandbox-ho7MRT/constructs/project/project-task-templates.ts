/**
 * The templates that run one task of a project as a child play, in every WorkflowTemplate of the project
 * that holds chunks: find where the task starts (its progress record: every run is a resume), create the
 * play unless the task has one, and wait for the task (its progress record), not for one Workflow: the
 * remediator replaces a play by stopping, deleting and re-creating it under the same name
 * (docs/remediation.md). Each is a runtime step (`project-steps.ts`).
 */
// @ts-nocheck

import { inputParameter, stepOutput, WorkflowVariables } from '../model/argo-expressions';
import type { RepositoryConfig } from '../model/config-shapes';
import { PlayParameters, playWorkflowName } from '../model/play-contract';
import { runtimeStepTemplate } from '../runtime/runtime-step-template';
import type { Template } from '../workflows/argo-types';
import { IMAGE_PULL_ALLOWANCE_SECONDS, sharedDeadlineRetry } from '../workflows/retry-policy';
import { findStartStep, startPlayStep, TaskActions, waitPlayStep } from './project-steps';

export { TaskActions } from './project-steps';

export const ProjectTemplates = {
  runTask: 'run-task',
  findStart: 'find-start',
  startPlay: 'start-play',
  waitPlay: 'wait-play',
} as const;

/** The step of run-task that reads the progress record, and the output the next steps read. */
const FIND_STEP = 'find-start';
const findOutput = (name: string): string => stepOutput(FIND_STEP, name);

export interface ProjectTaskTemplatesProps {
  readonly repository: RepositoryConfig;
  /** The play WorkflowTemplate the repository runs. */
  readonly playTemplate: string;
  readonly project: string;
  /** The stages of the play, in order: a task without a record starts at the first. */
  readonly stages: readonly string[];
  /** The play parameters a task may set (task-type and the declared ones), with their defaults. */
  readonly parameters: Readonly<Record<string, string>>;
  /** The image the runtime steps run in, pinned. */
  readonly runtimeImage: string;
  /** The longest a child play may run, in seconds: wait-play waits at most that long. */
  readonly playDeadlineSeconds: number;
}

const STEP_RETRY = { limit: 3, backoffSeconds: 5 } as const;

/** The values every step reads: the task and its repository. */
function taskValues(props: ProjectTaskTemplatesProps) {
  return { namespace: WorkflowVariables.namespace, repository: props.repository.name, task: inputParameter(PlayParameters.taskId) };
}

function findStart(props: ProjectTaskTemplatesProps): Template {
  return runtimeStepTemplate({
    name: ProjectTemplates.findStart,
    step: findStartStep,
    image: props.runtimeImage,
    inputs: { parameters: [{ name: PlayParameters.taskId }] },
    env: { ...taskValues(props), stages: props.stages.join(' ') },
    retry: STEP_RETRY,
  });
}

function startPlay(props: ProjectTaskTemplatesProps): Template {
  return runtimeStepTemplate({
    name: ProjectTemplates.startPlay,
    step: startPlayStep,
    image: props.runtimeImage,
    inputs: {
      parameters: [
        { name: PlayParameters.taskId },
        { name: PlayParameters.startStage },
        ...Object.keys(props.parameters).map((name) => ({ name })),
      ],
    },
    env: {
      ...taskValues(props),
      service: props.repository.service,
      playTemplate: props.playTemplate,
      project: props.project,
      startStage: inputParameter(PlayParameters.startStage),
      parameters: Object.keys(props.parameters).map((name) => ({ name, value: inputParameter(name) })),
    },
    retry: STEP_RETRY,
  });
}

/** Seconds between two reads of the progress record while a task's play runs. */
const WAIT_POLL_SECONDS = 30;

/**
 * The wait runs as long as a play may (its deadline shared by every attempt), so a lost waiting pod (an
 * evicted pod is Failed, not Error) is retried within the play's own deadline and reads the same record.
 */
function waitPlay(props: ProjectTaskTemplatesProps): Template {
  const deadline = props.playDeadlineSeconds + IMAGE_PULL_ALLOWANCE_SECONDS;
  const template = runtimeStepTemplate({
    name: ProjectTemplates.waitPlay,
    step: waitPlayStep,
    image: props.runtimeImage,
    inputs: { parameters: [{ name: PlayParameters.taskId }] },
    env: {
      ...taskValues(props),
      playName: playWorkflowName(props.repository.service, inputParameter(PlayParameters.taskId)),
      pollSeconds: String(WAIT_POLL_SECONDS),
    },
    activeDeadlineSeconds: deadline,
  });
  return { ...template, retryStrategy: sharedDeadlineRetry({ limit: 2, attemptSeconds: deadline, backoffSeconds: 30 }) };
}

function runTask(props: ProjectTaskTemplatesProps): Template {
  const passed = Object.keys(props.parameters).map((name) => ({ name, value: inputParameter(name) }));
  const starts = `'${findOutput('action')}' == '${TaskActions.start}'`;
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
          when: starts,
          arguments: {
            parameters: [
              { name: PlayParameters.taskId, value: inputParameter(PlayParameters.taskId) },
              { name: PlayParameters.startStage, value: findOutput('start-stage') },
              ...passed,
            ],
          },
        },
      ],
      [
        {
          name: 'wait',
          template: ProjectTemplates.waitPlay,
          when: starts,
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
