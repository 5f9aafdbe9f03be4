// @ts-nocheck
import type { Construct } from 'constructs';
import { inputParameter, stepOutput, workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import { pinnedImageProblem } from '../model/image-reference';
import { PlayLabels } from '../model/labels';
import { checkProp } from '../model/prop-checks';
import type { RemediationPlan } from './remediation';
import {
  REMEDIATOR_PARAMETERS,
  REMEDIATOR_TEMPLATE_NAME,
  REMEDIATOR_WORKFLOW_TYPE,
  RemediatorActions,
  RemediatorOutputs,
  RemediatorTemplates,
  type RemediatorParameter,
} from './remediator-contract';
import { type ServiceAccountRef, serviceAccountNameOf } from '../rbac/service-account-ref';
import type { Template } from '../workflows/argo-types';
import { eventHelperSpec } from '../events/event-helper-spec';
import { WorkflowTemplate } from '../workflows/workflow-template';
import { DEFAULT_RUNTIME_IMAGE } from '../runtime/runtime-layout';
import { runtimeStepTemplate, type StepRetry } from '../runtime/runtime-step-template';
import type { PlayStrategy } from '../runtime/live-plays';
import { decideStep } from './decide-step';
import { exhaustedStep, replaceStep, stopStep } from './replace-steps';

/** What `new PlayRemediatorTemplate(scope, id, props)` takes. */
export interface PlayRemediatorTemplateProps {
  /** The platform's remediation plan (`remediationPlan`): rounds, stages, gates. */
  readonly plan: RemediationPlan;
  /** The image the runtime steps run in (Node.js 20 or later), pinned. @default DEFAULT_RUNTIME_IMAGE */
  readonly runtimeImage?: string;
  /** The service account of the remediator's pods (`REMEDIATOR_GRANTS`). */
  readonly serviceAccountName: ServiceAccountRef;
  /** How long the stop step waits for the play's exit handler, in seconds. @default 600 */
  readonly stopTimeoutSeconds?: number;
  /** How the remediator finds the task's play: by its labels, or by its name. @default label-selector */
  readonly strategy?: PlayStrategy;
  /** `metadata.name`, which the remediation Sensors reference. @default play-remediator */
  readonly name?: string;
  /** `metadata.namespace`. @default - the chart's namespace */
  readonly namespace?: string;
}

const DEFAULT_STOP_TIMEOUT_SECONDS = 600;
/** How long the replace step waits for the stopped play and its pods to be gone. */
const DELETE_TIMEOUT_SECONDS = 300;
const DECIDE_STEP = 'decide';
const decided = (name: string): string => stepOutput(DECIDE_STEP, name);
const STEP_RETRY: StepRetry = { limit: 2, backoffSeconds: 5 };

function parameter(name: RemediatorParameter): string {
  return workflowParameter(name);
}

/** What the step templates share. */
interface StepSettings {
  readonly image: string;
  readonly strategy: PlayStrategy;
  readonly plan: RemediationPlan;
  readonly stopTimeout: number;
}

/** The values of the event, which every step reads. */
function eventValues() {
  return {
    namespace: WorkflowVariables.namespace,
    kind: parameter('kind'),
    repository: parameter('repository'),
    task: parameter('task-id'),
    sender: parameter('sender'),
    prUrl: parameter('pr-url'),
    eventId: parameter('event-id'),
  };
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
    if (props.runtimeImage !== undefined) checkProp(owner, 'runtimeImage', props.runtimeImage, pinnedImageProblem(props.runtimeImage));
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
        activeDeadlineSeconds: stopTimeout + 1800,
      }),
    });
    const steps = {
      image: props.runtimeImage ?? DEFAULT_RUNTIME_IMAGE,
      strategy: props.strategy ?? 'label-selector',
      plan: props.plan,
      stopTimeout,
    };
    this.addTemplate(mainSteps());
    this.addTemplate(decide(steps));
    this.addTemplate(stopPlay(steps));
    this.addTemplate(replacePlay(steps));
    this.addTemplate(recordExhausted(steps));
  }
}

function mainSteps(): Template {
  const action = decided(RemediatorOutputs.action);
  const workflow = { name: 'workflow', value: decided(RemediatorOutputs.workflow) };
  const reason = { name: 'reason', value: decided(RemediatorOutputs.reason) };
  const round = { name: 'round', value: decided(RemediatorOutputs.round) };
  return {
    name: RemediatorTemplates.main,
    // One remediator per task at a time: a second review waits, then finds the play already sent back. Tasks of
    // one id in two repositories wait for each other too, which costs them a few seconds: the mutex name takes
    // the task id alone, a value the controller substitutes before it takes the lock (argo-workflows
    // `workflow/controller/operator.go`, `executeTemplate`: `common.ProcessArgs` with the global parameters,
    // then `TryAcquire` on the processed template's synchronization).
    synchronization: { mutexes: [{ name: `remediate-task-${parameter('task-id')}` }] },
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

function decide(settings: StepSettings): Template {
  const plan = settings.plan;
  return runtimeStepTemplate({
    name: RemediatorTemplates.decide,
    step: decideStep,
    image: settings.image,
    env: {
      ...eventValues(),
      baseBranch: parameter('base-branch'),
      strategy: settings.strategy,
      reason: parameter('reason'),
      eventAt: parameter('event-at'),
      maxRounds: String(plan.maxRounds),
      remediableStages: plan.remediableStages.join(' '),
      staleStages: plan.staleStages.join(' '),
      implementationStage: plan.implementationStage,
      staleRestartStage: plan.staleRestartStage ?? '',
    },
    retry: STEP_RETRY,
  });
}

function stopPlay(settings: StepSettings): Template {
  return runtimeStepTemplate({
    name: RemediatorTemplates.stopPlay,
    step: stopStep,
    image: settings.image,
    inputs: { parameters: [{ name: 'workflow' }, { name: 'reason' }] },
    env: {
      namespace: WorkflowVariables.namespace,
      playName: inputParameter('workflow'),
      reason: inputParameter('reason'),
      timeoutSeconds: String(settings.stopTimeout),
    },
    activeDeadlineSeconds: settings.stopTimeout + 120,
    retry: STEP_RETRY,
  });
}

function replacePlay(settings: StepSettings): Template {
  return runtimeStepTemplate({
    name: RemediatorTemplates.replacePlay,
    step: replaceStep,
    image: settings.image,
    inputs: { parameters: [{ name: 'workflow' }, { name: 'reason' }, { name: 'round' }, { name: 'successor' }] },
    env: {
      ...eventValues(),
      playName: inputParameter('workflow'),
      reason: inputParameter('reason'),
      nextRound: inputParameter('round'),
      successor: inputParameter('successor'),
      roundGates: settings.plan.roundGates.join(' '),
      timeoutSeconds: String(DELETE_TIMEOUT_SECONDS),
    },
    activeDeadlineSeconds: DELETE_TIMEOUT_SECONDS + 120,
    retry: STEP_RETRY,
  });
}

function recordExhausted(settings: StepSettings): Template {
  return runtimeStepTemplate({
    name: RemediatorTemplates.recordExhausted,
    step: exhaustedStep,
    image: settings.image,
    inputs: { parameters: [{ name: 'reason' }, { name: 'round' }] },
    env: { ...eventValues(), reason: inputParameter('reason'), round: inputParameter('round') },
    retry: STEP_RETRY,
  });
}
