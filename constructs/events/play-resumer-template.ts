import { Construct } from 'constructs';
import { inputParameter, stepOutput, stepStatus, workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import { PlayAnnotations, PlayLabels, PROGRESS_TRACKING_LABEL, WorkflowTypes } from '../model/labels';
import { pinnedImageProblem } from '../model/image-reference';
import { checkProp } from '../model/prop-checks';
import { type ServiceAccountRef, serviceAccountNameOf } from '../rbac/service-account-ref';
import { GATE_STAGE_INPUT } from '../model/play-contract';
import {
  RESUMER_FIND_STEP,
  RESUMER_GATE_PARAMETER,
  RESUMER_PARAMETERS,
  RESUMER_TEMPLATE_NAME,
  RESUMER_WORKFLOW_OUTPUT,
  RESUMER_WORKFLOW_TYPE,
  ResumerTemplates,
  type ResumerParameter,
} from '../model/resumer-contract';
import { argoResumeTemplate } from '../workflows/argo-resume';
import type { Template } from '../workflows/argo-types';
import { hardenedScript } from '../workflows/hardened-script';
import { eventHelperSpec } from './event-helper-spec';
import { CONFIRM_RELEASED_SCRIPT, FIND_PLAY_SCRIPT, WORKFLOW_FILE } from '../workflows/release-scripts';
import { WorkflowTemplate } from '../workflows/workflow-template';

/** The resumer's contract lives in the model; it is exported here too, where users first found it. */
export { RESUMER_GATE_PARAMETER, RESUMER_PARAMETERS, RESUMER_WORKFLOW_TYPE, type ResumerParameter } from '../model/resumer-contract';

/** What `new PlayResumerTemplate(scope, id, props)` takes. */
export interface PlayResumerTemplateProps {
  /** Image with bash, kubectl and jq, pinned by tag or digest (never `latest`). */
  readonly helperImage: string;
  /** Image with the Argo CLI, pinned by tag or digest: the controller's version (`argoCliImage()`). */
  readonly argoImage: string;
  /**
   * The service account of the resumer's pods (its name, or a cdk8s-plus service account): it records releases
   * and resumes plays (`RESUMER_GRANTS`).
   */
  readonly serviceAccountName: ServiceAccountRef;
  /** `metadata.name`, which gate Sensors reference. @default play-resumer */
  readonly name?: string;
  /** `metadata.namespace`. @default - the chart's namespace */
  readonly namespace?: string;
}

function parameter(name: ResumerParameter): string {
  return workflowParameter(name);
}

/** The play the find step named; empty when there is none to resume. */
const FOUND_WORKFLOW = stepOutput(RESUMER_FIND_STEP, RESUMER_WORKFLOW_OUTPUT);

/**
 * The resumer: started by a gate's Sensor with the event's values, it records the release in the task's
 * release ConfigMap, finds the one live play of the task (by its labels, or by its name under the
 * `workflow-name` strategy), checks that it waits at this gate, records the PR on it, and resumes exactly
 * that gate with `argo resume --node-field-selector`. A miss is logged and ends successfully; the record
 * lets the play pass later. A resume that fails because another delivery released the gate first ends
 * successfully too (`confirm`), so a duplicate delivery leaves no Failed resumer.
 */
export class PlayResumerTemplate extends WorkflowTemplate {
  /** @throws when an image is not pinned or the service account name is illegal, naming the prop and what to change */
  public constructor(scope: Construct, id: string, props: PlayResumerTemplateProps) {
    const owner = `PlayResumerTemplate ${props.name ?? RESUMER_TEMPLATE_NAME}`;
    checkProp(owner, 'helperImage', props.helperImage, pinnedImageProblem(props.helperImage));
    checkProp(owner, 'argoImage', props.argoImage, pinnedImageProblem(props.argoImage));
    const serviceAccountName = serviceAccountNameOf(owner, 'serviceAccountName', props.serviceAccountName);
    super(scope, id, {
      name: props.name ?? RESUMER_TEMPLATE_NAME,
      namespace: props.namespace,
      labels: { [PlayLabels.workflowType]: RESUMER_WORKFLOW_TYPE },
      spec: eventHelperSpec({
        entrypoint: ResumerTemplates.main,
        serviceAccountName,
        parameters: RESUMER_PARAMETERS,
        workflowType: RESUMER_WORKFLOW_TYPE,
        activeDeadlineSeconds: 600,
      }),
    });
    this.addTemplate({
      name: ResumerTemplates.main,
      steps: [
        [{ name: RESUMER_FIND_STEP, template: ResumerTemplates.findPlay }],
        [
          {
            name: ResumerTemplates.resumeGate,
            template: ResumerTemplates.resumeGate,
            when: `'${FOUND_WORKFLOW}' != ''`,
            arguments: { parameters: [{ name: 'workflow', value: FOUND_WORKFLOW }] },
            continueOn: { failed: true },
          },
        ],
        [
          {
            name: 'confirm',
            template: ResumerTemplates.confirmReleased,
            when: `'${FOUND_WORKFLOW}' != '' && '${stepStatus(ResumerTemplates.resumeGate)}' != 'Succeeded'`,
            arguments: { parameters: [{ name: 'workflow', value: FOUND_WORKFLOW }] },
          },
        ],
      ],
    });
    this.addTemplate({
      ...hardenedScript({
        name: ResumerTemplates.findPlay,
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
          { name: 'NAMESPACE', value: WorkflowVariables.namespace },
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
      outputs: { parameters: [{ name: RESUMER_WORKFLOW_OUTPUT, valueFrom: { path: WORKFLOW_FILE } }] },
    });
    this.addTemplate(resumeGate(props.argoImage));
    this.addTemplate(
      hardenedScript({
        name: ResumerTemplates.confirmReleased,
        image: props.helperImage,
        source: CONFIRM_RELEASED_SCRIPT,
        inputs: { parameters: [{ name: 'workflow' }] },
        env: [
          { name: 'PLAY', value: inputParameter('workflow') },
          { name: 'GATE', value: parameter(RESUMER_GATE_PARAMETER) },
          { name: 'GATE_INPUT', value: GATE_STAGE_INPUT },
          { name: 'NAMESPACE', value: WorkflowVariables.namespace },
        ],
        retryStrategy: { limit: '2', retryPolicy: 'Always', backoff: { duration: '5s', factor: 2, maxDuration: '1m' } },
      }),
    );
  }
}

/** `argo resume` of the play the find step named, at the Sensor's gate. */
function resumeGate(argoImage: string): Template {
  return argoResumeTemplate({
    name: ResumerTemplates.resumeGate,
    argoImage,
    inputs: { parameters: [{ name: 'workflow' }] },
    workflow: inputParameter('workflow'),
    gate: parameter(RESUMER_GATE_PARAMETER),
  });
}
