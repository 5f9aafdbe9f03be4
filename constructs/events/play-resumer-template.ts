import { Construct } from 'constructs';
import { PlayAnnotations, PlayLabels, PROGRESS_TRACKING_LABEL, WorkflowTypes } from '../model/labels';
import { GATE_STAGE_INPUT, RESUMER_GATE_PARAMETER, RESUMER_TEMPLATE_NAME } from '../model/play-contract';
import { argoResumeTemplate } from '../workflows/argo-resume';
import type { Template } from '../workflows/argo-types';
import { HARDENED_POD, hardenedScript, SCRATCH_VOLUME } from '../workflows/hardened-script';
import { CONFIRM_RELEASED_SCRIPT, FIND_PLAY_SCRIPT, WORKFLOW_FILE } from '../workflows/release-scripts';
import { WorkflowTemplate } from '../workflows/workflow-template';

export { RESUMER_GATE_PARAMETER } from '../model/play-contract';
/**
 * The resumer's parameters, in order: a Sensor writes the event's values into
 * `spec.arguments.parameters.{index}.value`, so the order is part of the contract. `play` is the play's
 * name under the `workflow-name` strategy, empty under `label-selector`.
 */
export const RESUMER_PARAMETERS = [RESUMER_GATE_PARAMETER, 'repository', 'repository-label', 'release-configmap', 'task-id', 'pr-url', 'pr-number', 'play'] as const;
export type ResumerParameter = (typeof RESUMER_PARAMETERS)[number];

/** The Workflow label that marks resumer runs (they are not plays). */
export const RESUMER_WORKFLOW_TYPE = 'resumer';

export interface PlayResumerTemplateProps {
  /** Image with bash, kubectl and jq, pinned. */
  readonly helperImage: string;
  /** Image with the Argo CLI, pinned. */
  readonly argoImage: string;
  readonly serviceAccountName: string;
  /** @default play-resumer */
  readonly name?: string;
  readonly namespace?: string;
}

function parameter(name: ResumerParameter): string {
  return `{{workflow.parameters.${name}}}`;
}

/**
 * The resumer: started by a gate's Sensor with the event's values, it records the release in the task's
 * release ConfigMap, finds the one live play of the task (by its labels, or by its name under the
 * `workflow-name` strategy), checks that it waits at this gate, records the PR on it, and resumes exactly
 * that gate with `argo resume --node-field-selector`. A miss is logged and ends successfully; the record
 * lets the play pass later. A resume that fails because another delivery released the gate first ends
 * successfully too (`confirm`), so a duplicate delivery leaves no Failed resumer.
 */
export class PlayResumerTemplate extends WorkflowTemplate {
  public constructor(scope: Construct, id: string, props: PlayResumerTemplateProps) {
    super(scope, id, {
      name: props.name ?? RESUMER_TEMPLATE_NAME,
      namespace: props.namespace,
      labels: { [PlayLabels.workflowType]: RESUMER_WORKFLOW_TYPE },
      spec: {
        entrypoint: 'resume',
        serviceAccountName: props.serviceAccountName,
        arguments: { parameters: RESUMER_PARAMETERS.map((name) => ({ name, value: '' })) },
        workflowMetadata: { labels: { [PlayLabels.workflowType]: RESUMER_WORKFLOW_TYPE } },
        activeDeadlineSeconds: 600,
        ttlStrategy: { secondsAfterSuccess: 300, secondsAfterFailure: 3600 },
        podGC: { strategy: 'OnPodCompletion' },
        securityContext: HARDENED_POD,
        volumes: [SCRATCH_VOLUME],
      },
    });
    this.addTemplate({
      name: 'resume',
      steps: [
        [{ name: 'find', template: 'find-play' }],
        [{
          name: 'resume-gate',
          template: 'resume-gate',
          when: "'{{steps.find.outputs.parameters.workflow}}' != ''",
          arguments: { parameters: [{ name: 'workflow', value: '{{steps.find.outputs.parameters.workflow}}' }] },
          continueOn: { failed: true },
        }],
        [{
          name: 'confirm',
          template: 'confirm-released',
          when: "'{{steps.find.outputs.parameters.workflow}}' != '' && '{{steps.resume-gate.status}}' != 'Succeeded'",
          arguments: { parameters: [{ name: 'workflow', value: '{{steps.find.outputs.parameters.workflow}}' }] },
        }],
      ],
    });
    this.addTemplate({
      ...hardenedScript({
        name: 'find-play',
        image: props.helperImage,
        source: FIND_PLAY_SCRIPT,
        env: [
          { name: 'GATE', value: parameter(RESUMER_GATE_PARAMETER) },
          { name: 'TASK_ID', value: parameter('task-id') },
          { name: 'REPOSITORY', value: parameter('repository') },
          { name: 'REPOSITORY_LABEL', value: parameter('repository-label') },
          { name: 'RELEASE_CONFIGMAP', value: parameter('release-configmap') },
          { name: 'PR_URL', value: parameter('pr-url') },
          { name: 'PR_NUMBER', value: parameter('pr-number') },
          { name: 'PLAY', value: parameter('play') },
          { name: 'NAMESPACE', value: '{{workflow.namespace}}' },
          { name: 'GATE_INPUT', value: GATE_STAGE_INPUT },
          { name: 'TASK_LABEL', value: PlayLabels.taskId },
          { name: 'REPOSITORY_LABEL_KEY', value: PlayLabels.repository },
          { name: 'TYPE_LABEL', value: PlayLabels.workflowType },
          { name: 'STAGE_LABEL', value: PlayLabels.currentStage },
          { name: 'TRACKING_LABEL', value: PROGRESS_TRACKING_LABEL },
          { name: 'PLAY_TYPE', value: WorkflowTypes.play },
          { name: 'PR_URL_ANNOTATION', value: PlayAnnotations.prUrl },
          { name: 'PR_NUMBER_ANNOTATION', value: PlayAnnotations.prNumber },
        ],
        retryStrategy: { limit: '2', retryPolicy: 'Always', backoff: { duration: '5s', factor: 2, maxDuration: '1m' } },
      }),
      outputs: { parameters: [{ name: 'workflow', valueFrom: { path: WORKFLOW_FILE } }] },
    });
    this.addTemplate(resumeGate(props.argoImage));
    this.addTemplate(hardenedScript({
      name: 'confirm-released',
      image: props.helperImage,
      source: CONFIRM_RELEASED_SCRIPT,
      inputs: { parameters: [{ name: 'workflow' }] },
      env: [
        { name: 'PLAY', value: '{{inputs.parameters.workflow}}' },
        { name: 'GATE', value: parameter(RESUMER_GATE_PARAMETER) },
        { name: 'GATE_INPUT', value: GATE_STAGE_INPUT },
        { name: 'NAMESPACE', value: '{{workflow.namespace}}' },
      ],
      retryStrategy: { limit: '2', retryPolicy: 'Always', backoff: { duration: '5s', factor: 2, maxDuration: '1m' } },
    }));
  }
}

/** `argo resume` of the play the find step named, at the Sensor's gate. */
function resumeGate(argoImage: string): Template {
  return argoResumeTemplate({
    name: 'resume-gate',
    argoImage,
    inputs: { parameters: [{ name: 'workflow' }] },
    workflow: '{{inputs.parameters.workflow}}',
    gate: parameter(RESUMER_GATE_PARAMETER),
  });
}
