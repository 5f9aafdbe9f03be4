/**
 * An Argo CLI image (`quay.io/argoproj/argocli:vX.Y.Z`, from any registry) of another major version than the
 * Argo Workflows the platform targets: the release whose schemas agent-play carries
 * (`BUILT_IN_ARGO_VERSIONS.workflows`, `schemas/PROVENANCE.json`). The CLI changes a Workflow by get, modify
 * and Update of the whole object with its own types (argo-workflows `workflow/util/util.go`, e.g.
 * `updateSuspendedNode` for `argo resume`): a v3 CLI decodes a v4 controller's node status into v3's
 * `NodeStatus`, which has no `failedPodRestarts` or `restartingPodUID` (`pkg/apis/workflow/v1alpha1/
 * workflow_types.go`), and its Update writes every node back without them. Checked wherever an image is
 * named: any `image` field of any kind, and the manifests of resource templates. A tag without a version
 * (`latest`, a digest alone) is not checked.
 */
// @ts-nocheck

import { ANY_KIND } from './object-size';
import { BUILT_IN_ARGO_VERSIONS } from '../schema/argo-built-in';
import { fieldPath, type LintRule, type Violation } from '../finding';
import { isRecord, templatesOf, workflowSpecOf, WORKFLOW_KINDS, type Path } from './argo-spec';
import { parseResourceManifest } from './resource-manifest';

/** The major version of an Argo CLI image's tag, e.g. 3 for `quay.io/argoproj/argocli:v3.7.9`; else undefined. */
export function argoCliMajor(image: string): number | undefined {
  const match = /(?:^|\/)argocli:v?(\d+)\.\d+[^@\s]*(?:@\S+)?$/.exec(image.trim());
  return match ? Number(match[1]) : undefined;
}

/** The major version of Argo Workflows the platform targets. */
export const TARGET_ARGO_MAJOR = Number(/^v?(\d+)\./.exec(BUILT_IN_ARGO_VERSIONS.workflows)?.[1]);

/**
 * Every `image` string in a value that names an Argo CLI, with its path. One path grows and shrinks as the
 * walk goes and is copied only for an image found: the rule looks at every object of every kind, and a copy
 * of the path per node cost more than the rest of the rule.
 */
function imagesIn(value: unknown, at: Path): { image: string; at: Path }[] {
  const found: { image: string; at: Path }[] = [];
  const path: (string | number)[] = [...at];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        path.push(index);
        visit(item);
        path.pop();
      });
      return;
    }
    if (!isRecord(node)) return;
    for (const [key, child] of Object.entries(node)) {
      if (typeof child === 'string') {
        if (key === 'image' && child.includes('argocli')) found.push({ image: child, at: [...path, key] });
        continue;
      }
      path.push(key);
      visit(child);
      path.pop();
    }
  };
  visit(value);
  return found;
}

/** The images of the object's resource templates' manifests, each at its manifest's path. */
function manifestImages(target: Parameters<LintRule['check']>[0]): { image: string; at: Path }[] {
  if (!WORKFLOW_KINDS.includes(target.kind)) return [];
  const workflow = workflowSpecOf(target);
  if (!workflow) return [];
  return templatesOf(workflow).flatMap(({ template, at }) => {
    const manifest = isRecord(template.resource) ? template.resource.manifest : undefined;
    if (typeof manifest !== 'string' || !manifest.includes('argocli')) return [];
    const where = [...at, 'resource', 'manifest'];
    return parseResourceManifest(manifest).values.flatMap((document) => imagesIn(document, []).map(({ image }) => ({ image, at: where })));
  });
}

/** The Argo CLI images an object names. Most objects name none: one native pass over their text says so before any walk. */
function cliImagesOf(target: Parameters<LintRule['check']>[0]): { image: string; at: Path }[] {
  if (!JSON.stringify(target.object).includes('argocli')) return [];
  return [...imagesIn(target.object, []), ...manifestImages(target)];
}

export const argoCliVersionRule: LintRule = {
  id: 'argo-cli-version',
  severity: 'error',
  description: `an Argo CLI image (argocli:vX...) is of the Argo Workflows major the platform targets (v${TARGET_ARGO_MAJOR})`,
  kinds: [ANY_KIND],
  check: (target) =>
    cliImagesOf(target).flatMap(({ image, at }): Violation[] => {
      const major = argoCliMajor(image);
      if (major === undefined || major === TARGET_ARGO_MAJOR) return [];
      return [
        {
          path: fieldPath(...at),
          message: `${image} is the Argo CLI of v${major}, but the platform targets Argo Workflows v${TARGET_ARGO_MAJOR} (${BUILT_IN_ARGO_VERSIONS.workflows}): the CLI reads and updates whole Workflows with its own types (workflow/util/util.go), so the node status fields one major has and the other lacks are dropped on every write (a v3 CLI drops v4's failedPodRestarts and restartingPodUID); use an argocli image of v${TARGET_ARGO_MAJOR}`,
        },
      ];
    }),
};
