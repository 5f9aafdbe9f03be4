/**
 * The Argo Workflows version the platform is built and tested against, and the Argo CLI image that goes
 * with it. `argo resume` edits the Workflow's node status the way its own controller version does
 * (argo-workflows `workflow/util/util.go`), so the CLI should be the controller's version: set
 * `images.argo` when the cluster runs another one.
 *
 * Pure: no cdk8s, no I/O.
 */

/** The controller version our defaults follow. */
export const ARGO_WORKFLOWS_VERSION = 'v3.7.9';

/** The Argo CLI image of an Argo Workflows version. */
export function argoCliImage(version: string = ARGO_WORKFLOWS_VERSION): string {
  return `quay.io/argoproj/argocli:${version}`;
}
