import { Construct } from 'constructs';
import { inputParameter, stepOutput, workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import { pinnedImageProblem } from '../model/image-reference';
import { PlayAnnotations, PlayLabels, WorkflowTypes } from '../model/labels';
import { progressRecordEnv } from '../workflows/progress-script';
import { PlayParameters, RESUMED_FROM_ANNOTATION } from '../model/play-contract';
import { checkProp } from '../model/prop-checks';
import { type RemediationPlan, roundsExhaustedReason } from '../model/remediation';
import {
  REMEDIATOR_PARAMETERS,
  REMEDIATOR_TEMPLATE_NAME,
  REMEDIATOR_WORKFLOW_TYPE,
  RemediatorActions,
  RemediatorOutputs,
  RemediatorTemplates,
  type RemediatorParameter,
} from '../model/remediator-contract';
import { type ServiceAccountRef, serviceAccountNameOf } from '../rbac/service-account-ref';
import type { EnvVar, Template } from '../workflows/argo-types';
import { hardenedScript } from '../workflows/hardened-script';
import { eventHelperSpec } from './event-helper-spec';
import {
  DECIDE_SCRIPT,
  RECORD_EXHAUSTED_SCRIPT,
  RemediatorFiles,
  REPLACE_PLAY_SCRIPT,
  STOP_PLAY_SCRIPT,
  SUCCESSOR_JQ,
} from '../workflows/remediation-scripts';
import { WorkflowTemplate } from '../workflows/workflow-template';

/** What `new PlayRemediatorTemplate(scope, id, props)` takes. */
export interface PlayRemediatorTemplateProps {
  /** The platform's remediation plan (`remediationPlan`): rounds, stages, gates. */
  readonly plan: RemediationPlan;
  /** Image with bash, kubectl and jq, pinned by tag or digest (never `latest`). */
  readonly helperImage: string;
  /** The service account of the remediator's pods (`REMEDIATOR_GRANTS`). */
  readonly serviceAccountName: ServiceAccountRef;
  /** How long the stop step waits for the play's exit handler, in seconds. @default 600 */
  readonly stopTimeoutSeconds?: number;
  /** `metadata.name`, which the remediation Sensors reference. @default play-remediator */
  readonly name?: string;
  /** `metadata.namespace`. @default - the chart's namespace */
  readonly namespace?: string;
}

const DEFAULT_STOP_TIMEOUT_SECONDS = 600;
const DECIDE_STEP = 'decide';
const decided = (name: string): string => stepOutput(DECIDE_STEP, name);
const HELPER_RETRY = { limit: '2', retryPolicy: 'Always', backoff: { duration: '5s', factor: 2, maxDuration: '1m' } } as const;

function parameter(name: RemediatorParameter): string {
  return workflowParameter(name);
}

/** The annotations a successor keeps from its play (besides those it is given). */
const KEPT_ANNOTATIONS = [PlayAnnotations.repository, PlayAnnotations.prUrl, PlayAnnotations.prNumber];

/** The environment every remediator step shares: the event, and where the task's records are. */
function eventEnv(): EnvVar[] {
  return [
    { name: 'KIND', value: parameter('kind') },
    { name: 'TASK_ID', value: parameter('task-id') },
    { name: 'REPOSITORY', value: parameter('repository') },
    { name: 'SENDER', value: parameter('sender') },
    { name: 'PR_URL', value: parameter('pr-url') },
    { name: 'EVENT_ID', value: parameter('event-id') },
    { name: 'NAMESPACE', value: WorkflowVariables.namespace },
    ...progressRecordEnv(parameter('progress-configmap'), parameter('task-id')),
    { name: 'STAGE_LABEL', value: PlayLabels.currentStage },
  ];
}

/**
 * The remediator: started by a remediation Sensor with the event's values, it serializes on the task (a
 * mutex per repository and task, so two reviews at once are handled one after the other), decides whether
 * the event counts (the play's stage, round and creation time, and the record's history of handled events),
 * stops the play, and either recreates it at the implementation stage with the next round (or, after a
 * push, at the first stage after the pull request gate in the same round), or records that the rounds are
 * exhausted. Each step can be retried: the record keeps every event once, and a play that already is the
 * successor is left alone.
 */
export class PlayRemediatorTemplate extends WorkflowTemplate {
  /** @throws when the image is not pinned or the service account name is illegal, naming the prop and what to change */
  public constructor(scope: Construct, id: string, props: PlayRemediatorTemplateProps) {
    const owner = `PlayRemediatorTemplate ${props.name ?? REMEDIATOR_TEMPLATE_NAME}`;
    checkProp(owner, 'helperImage', props.helperImage, pinnedImageProblem(props.helperImage));
    const serviceAccountName = serviceAccountNameOf(owner, 'serviceAccountName', props.serviceAccountName);
    const stopTimeout = props.stopTimeoutSeconds ?? DEFAULT_STOP_TIMEOUT_SECONDS;
    super(scope, id, {
      name: props.name ?? REMEDIATOR_TEMPLATE_NAME,
      namespace: props.namespace,
      labels: { [PlayLabels.workflowType]: REMEDIATOR_WORKFLOW_TYPE },
      spec: eventHelperSpec({
        entrypoint: RemediatorTemplates.main,
        serviceAccountName,
        parameters: REMEDIATOR_PARAMETERS,
        workflowType: REMEDIATOR_WORKFLOW_TYPE,
        activeDeadlineSeconds: stopTimeout + 900,
      }),
    });
    this.addTemplate(mainSteps());
    this.addTemplate(decide(props));
    this.addTemplate(stopPlay(props.helperImage, stopTimeout));
    this.addTemplate(replacePlay(props));
    this.addTemplate(
      hardenedScript({
        name: RemediatorTemplates.recordExhausted,
        image: props.helperImage,
        source: RECORD_EXHAUSTED_SCRIPT,
        inputs: { parameters: [{ name: 'reason' }, { name: 'round' }] },
        env: [...eventEnv(), { name: 'REASON', value: inputParameter('reason') }, { name: 'NEXT_ROUND', value: inputParameter('round') }],
        retryStrategy: HELPER_RETRY,
      }),
    );
  }
}

function mainSteps(): Template {
  const action = decided(RemediatorOutputs.action);
  const workflow = { name: 'workflow', value: decided(RemediatorOutputs.workflow) };
  const reason = { name: 'reason', value: decided(RemediatorOutputs.reason) };
  const round = { name: 'round', value: decided(RemediatorOutputs.round) };
  return {
    name: RemediatorTemplates.main,
    // One remediator per task at a time: a second review waits, then finds the play already sent back.
    // The controller substitutes the workflow parameters into the template before it takes the lock
    // (argo-workflows `workflow/controller/operator.go`, `executeTemplate`: `common.ProcessArgs` with the
    // global parameters, then `TryAcquire` on the processed template's synchronization).
    synchronization: { mutexes: [{ name: `remediate-${parameter('repository-label')}-${parameter('task-id')}` }] },
    steps: [
      [{ name: DECIDE_STEP, template: RemediatorTemplates.decide }],
      [
        {
          name: 'stop',
          template: RemediatorTemplates.stopPlay,
          when: `'${action}' != '${RemediatorActions.none}'`,
          arguments: { parameters: [workflow, reason] },
        },
      ],
      [
        {
          name: 'replace',
          template: RemediatorTemplates.replacePlay,
          when: `'${action}' == '${RemediatorActions.replace}'`,
          arguments: { parameters: [workflow, reason, round, { name: 'successor', value: decided(RemediatorOutputs.successor) }] },
        },
        {
          name: 'exhausted',
          template: RemediatorTemplates.recordExhausted,
          when: `'${action}' == '${RemediatorActions.exhaust}'`,
          arguments: { parameters: [reason, round] },
        },
      ],
    ],
  };
}

function decide(props: PlayRemediatorTemplateProps): Template {
  const plan = props.plan;
  const template = hardenedScript({
    name: RemediatorTemplates.decide,
    image: props.helperImage,
    source: DECIDE_SCRIPT,
    env: [
      ...eventEnv(),
      { name: 'REPOSITORY_LABEL', value: parameter('repository-label') },
      { name: 'PLAY', value: parameter('play') },
      { name: 'REASON', value: parameter('reason') },
      { name: 'EVENT_AT', value: parameter('event-at') },
      { name: 'MAX_ROUNDS', value: String(plan.maxRounds) },
      { name: 'REMEDIABLE_STAGES', value: plan.remediableStages.join(' ') },
      { name: 'STALE_STAGES', value: plan.staleStages.join(' ') },
      { name: 'IMPLEMENTATION_STAGE', value: plan.implementationStage },
      { name: 'STALE_RESTART_STAGE', value: plan.staleRestartStage ?? '' },
      { name: 'EXHAUSTED_FORMAT', value: roundsExhaustedReason('%s', '%s') },
      { name: 'TASK_LABEL', value: PlayLabels.taskId },
      { name: 'REPOSITORY_LABEL_KEY', value: PlayLabels.repository },
      { name: 'TYPE_LABEL', value: PlayLabels.workflowType },
      { name: 'PREVIOUS_STAGE_LABEL', value: PlayLabels.previousStage },
      { name: 'ROUND_LABEL', value: PlayLabels.round },
      { name: 'PLAY_TYPE', value: WorkflowTypes.play },
      { name: 'RESUMED_ANNOTATION', value: RESUMED_FROM_ANNOTATION },
      { name: 'REASON_ANNOTATION', value: PlayAnnotations.roundReason },
      { name: 'EVENT_ANNOTATION', value: PlayAnnotations.remediationEvent },
      { name: 'KEEP_ANNOTATIONS', value: KEPT_ANNOTATIONS.join(' ') },
      { name: 'START_STAGE_PARAMETER', value: PlayParameters.startStage },
      { name: 'ROUND_PARAMETER', value: PlayParameters.round },
      { name: 'SUCCESSOR_JQ', value: SUCCESSOR_JQ },
      { name: 'ACTION_FILE', value: RemediatorFiles.action },
      { name: 'WORKFLOW_FILE', value: RemediatorFiles.workflow },
      { name: 'SUCCESSOR_FILE', value: RemediatorFiles.successor },
      { name: 'REASON_FILE', value: RemediatorFiles.reason },
      { name: 'ROUND_FILE', value: RemediatorFiles.round },
    ],
    retryStrategy: HELPER_RETRY,
  });
  return {
    ...template,
    outputs: {
      parameters: (Object.keys(RemediatorFiles) as (keyof typeof RemediatorFiles)[]).map((key) => ({
        name: RemediatorOutputs[key],
        valueFrom: { path: RemediatorFiles[key] },
      })),
    },
  };
}

function stopPlay(helperImage: string, stopTimeout: number): Template {
  return hardenedScript({
    name: RemediatorTemplates.stopPlay,
    image: helperImage,
    source: STOP_PLAY_SCRIPT,
    inputs: { parameters: [{ name: 'workflow' }, { name: 'reason' }] },
    env: [
      { name: 'PLAY', value: inputParameter('workflow') },
      { name: 'REASON', value: inputParameter('reason') },
      { name: 'REASON_ANNOTATION', value: PlayAnnotations.roundReason },
      { name: 'NAMESPACE', value: WorkflowVariables.namespace },
      { name: 'STOP_TIMEOUT', value: String(stopTimeout) },
    ],
    activeDeadlineSeconds: stopTimeout + 120,
    retryStrategy: HELPER_RETRY,
  });
}

function replacePlay(props: PlayRemediatorTemplateProps): Template {
  return hardenedScript({
    name: RemediatorTemplates.replacePlay,
    image: props.helperImage,
    source: REPLACE_PLAY_SCRIPT,
    inputs: { parameters: [{ name: 'workflow' }, { name: 'reason' }, { name: 'round' }, { name: 'successor' }] },
    env: [
      ...eventEnv(),
      { name: 'PLAY', value: inputParameter('workflow') },
      { name: 'REASON', value: inputParameter('reason') },
      { name: 'NEXT_ROUND', value: inputParameter('round') },
      { name: 'SUCCESSOR', value: inputParameter('successor') },
      { name: 'RELEASE_CONFIGMAP', value: parameter('release-configmap') },
      { name: 'ROUND_GATES', value: props.plan.roundGates.join(' ') },
      { name: 'EVENT_ANNOTATION', value: PlayAnnotations.remediationEvent },
    ],
    retryStrategy: HELPER_RETRY,
  });
}
