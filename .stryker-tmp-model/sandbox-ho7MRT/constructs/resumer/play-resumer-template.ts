// @ts-nocheck
import type { Construct } from 'constructs';
import { workflowParameter, WorkflowVariables } from '../model/argo-expressions';
import { pinnedImageProblem } from '../model/image-reference';
import { PlayLabels } from '../model/labels';
import { checkProp } from '../model/prop-checks';
import { type ServiceAccountRef, serviceAccountNameOf } from '../rbac/service-account-ref';
import { DEFAULT_RUNTIME_IMAGE } from '../runtime/runtime-layout';
import { runtimeStepTemplate } from '../runtime/runtime-step-template';
import type { PlayStrategy } from '../runtime/live-plays';
import { eventHelperSpec } from '../events/event-helper-spec';
import { WorkflowTemplate } from '../workflows/workflow-template';
import { resumeGateStep } from './resume-gate-step';
import {
  RESUMER_GATE_PARAMETER,
  RESUMER_PARAMETERS,
  RESUMER_TEMPLATE_NAME,
  RESUMER_WORKFLOW_TYPE,
  ResumerTemplates,
  type ResumerParameter,
} from './resumer-contract';

/** The resumer's contract lives beside it; it is exported here too, where users first found it. */
export { RESUMER_GATE_PARAMETER, RESUMER_PARAMETERS, RESUMER_WORKFLOW_TYPE, type ResumerParameter } from './resumer-contract';

/** What `new PlayResumerTemplate(scope, id, props)` takes. */
export interface PlayResumerTemplateProps {
  /** The image the runtime step runs in (Node.js 20 or later), pinned. @default DEFAULT_RUNTIME_IMAGE */
  readonly runtimeImage?: string;
  /**
   * The service account of the resumer's pods (its name, or a cdk8s-plus service account): it records releases
   * and resumes plays (`RESUMER_GRANTS`).
   */
  readonly serviceAccountName: ServiceAccountRef;
  /** How the resumer finds the task's play: by its labels, or by its name (from the registry's service). @default label-selector */
  readonly strategy?: PlayStrategy;
  /** `metadata.name`, which gate Sensors reference. @default play-resumer */
  readonly name?: string;
  /** `metadata.namespace`. @default - the chart's namespace */
  readonly namespace?: string;
}

function parameter(name: ResumerParameter): string {
  return workflowParameter(name);
}

/**
 * The resumer: started by a gate's Sensor with the event's values, one runtime step (`resume-gate`) records
 * the release in the task's progress record (when the event's repository and branch are the platform's),
 * finds the one live play of the task (by its labels, or by its name under the `workflow-name` strategy),
 * checks that it waits at this gate, records the pull request on it,
 * and releases exactly that gate. A miss is logged and ends successfully: the record lets the play pass later.
 * A gate released already (a duplicate delivery, or the play's own check came first) ends successfully too.
 */
export class PlayResumerTemplate extends WorkflowTemplate {
  /** @throws when the image is not pinned or the service account name is illegal, naming the prop and what to change */
  public constructor(scope: Construct, id: string, props: PlayResumerTemplateProps) {
    const owner = `PlayResumerTemplate ${props.name ?? RESUMER_TEMPLATE_NAME}`;
    if (props.runtimeImage !== undefined) checkProp(owner, 'runtimeImage', props.runtimeImage, pinnedImageProblem(props.runtimeImage));
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
      steps: [[{ name: ResumerTemplates.resumeGate, template: ResumerTemplates.resumeGate }]],
    });
    this.addTemplate(
      runtimeStepTemplate({
        name: ResumerTemplates.resumeGate,
        step: resumeGateStep,
        image: props.runtimeImage ?? DEFAULT_RUNTIME_IMAGE,
        env: {
          namespace: WorkflowVariables.namespace,
          gate: parameter(RESUMER_GATE_PARAMETER),
          repository: parameter('repository'),
          task: parameter('task-id'),
          prUrl: parameter('pr-url'),
          prNumber: parameter('pr-number'),
          baseBranch: parameter('base-branch'),
          strategy: props.strategy ?? 'label-selector',
        },
        retry: { limit: 2, backoffSeconds: 5 },
      }),
    );
  }
}
