// @ts-nocheck
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { CODERUN_GROUP, CODERUN_KIND, CODERUN_PLURAL, CODERUN_VERSION, codeRunOpenApiSchema } from '../model/coderun-schema';
import { ARGOCD_KEEP_ANNOTATIONS, COMMON_LABELS } from '../model/labels';

/**
 * The CodeRun CustomResourceDefinition (`coderuns.agents.platform`). Its schema is generated from the
 * same zod schema that types the CodeRuns the play creates, so the two cannot drift apart. It carries
 * ArgoCD's `Prune=false,Delete=false`: removing the CRD would cascade to every CodeRun of the cluster.
 */
export class CodeRunCrd extends Construct {
  /** The CRD's name: `coderuns.agents.platform`. */
  public readonly name = `${CODERUN_PLURAL}.${CODERUN_GROUP}`;
  /** The CRD object under the typed surface. */
  protected readonly apiObject: ApiObject;

  /** Takes no props: the CRD follows the model's CodeRun schema, so there is nothing to get wrong. */
  public constructor(scope: Construct, id: string) {
    super(scope, id);
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      // Deleting the CRD deletes every CodeRun with it: ArgoCD must never prune or delete it.
      metadata: { name: this.name, labels: { ...COMMON_LABELS }, annotations: { ...ARGOCD_KEEP_ANNOTATIONS } },
      spec: {
        group: CODERUN_GROUP,
        scope: 'Namespaced',
        names: {
          kind: CODERUN_KIND,
          listKind: `${CODERUN_KIND}List`,
          plural: CODERUN_PLURAL,
          singular: CODERUN_KIND.toLowerCase(),
          shortNames: ['cr'],
        },
        versions: [
          {
            name: CODERUN_VERSION,
            served: true,
            storage: true,
            subresources: { status: {} },
            additionalPrinterColumns: [
              { name: 'Task', type: 'integer', jsonPath: '.spec.taskId' },
              { name: 'Service', type: 'string', jsonPath: '.spec.service' },
              { name: 'Model', type: 'string', jsonPath: '.spec.model' },
              { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
              { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
            ],
            schema: { openAPIV3Schema: codeRunOpenApiSchema() },
          },
        ],
      },
    });
  }
}
