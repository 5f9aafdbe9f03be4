/** Creates a Workflow (what `resume --apply` does), failing with one line that says why. */
// @ts-nocheck

import { ClusterError, clusterFailure } from './cluster-error';
import type { Cluster } from './connect';

/** The Workflow as created: its name (which the server may have made from generateName) and namespace. */
export interface Created {
  readonly name: string;
  readonly namespace: string;
}

/** @throws ClusterError: exists already (409), Argo Workflows not installed (404), forbidden, unreachable */
export async function createWorkflow(cluster: Cluster, workflow: Record<string, any>): Promise<Created> {
  const namespace: string = workflow.metadata?.namespace ?? cluster.namespace;
  const name: string = workflow.metadata?.name ?? workflow.metadata?.generateName ?? '';
  const doing = `creating Workflow ${name} in namespace ${JSON.stringify(namespace)}`;
  try {
    const created = (await cluster.custom.createNamespacedCustomObject(
      {
        group: 'argoproj.io',
        version: 'v1alpha1',
        namespace,
        plural: 'workflows',
        body: { ...workflow, metadata: { ...workflow.metadata, namespace } },
      },
      cluster.requestOptions(),
    )) as { metadata?: { name?: string; namespace?: string } };
    return { name: created.metadata?.name ?? name, namespace: created.metadata?.namespace ?? namespace };
  } catch (error) {
    const failure = clusterFailure(
      error,
      doing,
      cluster.server,
      `no Workflow resource there: is Argo Workflows installed, and does namespace ${JSON.stringify(namespace)} exist?`,
    );
    if (failure.status === 409)
      throw new ClusterError(
        `${doing} at ${cluster.server}: a Workflow of that name exists already; the play is running (see agent-play status), or delete it first`,
        409,
      );
    throw failure;
  }
}
