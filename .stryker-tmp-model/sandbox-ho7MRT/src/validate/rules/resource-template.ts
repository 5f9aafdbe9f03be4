/**
 * Resource templates (argo-semantics §2 rule 16): a known action (unless a placeholder), a manifest (or
 * manifestFrom naming an input artifact) for every action but get and delete, and a manifest that parses as
 * YAML once Argo's placeholders are set aside. And never `apply`, `replace` or `patch` a play Workflow: the
 * remediator replaces a play with its successor under the same name (docs/remediation.md), which a re-applied
 * manifest would overwrite with the original round; a play is created once and waited on through its
 * progress record (`constructs/workflows/project-task-templates.ts`).
 */
// @ts-nocheck

import { PlayLabels, WorkflowTypes } from '../../../constructs/model/labels';
import type { LintRule, Violation } from '../finding';
import { hasPlaceholder, isRecord, namedList, pathOf, templatesOf, workflowSpecOf, WORKFLOW_KINDS, type TemplateAt } from './argo-spec';
import { parseResourceManifest } from './resource-manifest';

const ACTIONS = ['get', 'create', 'apply', 'delete', 'replace', 'patch'];
/** The actions that write over an existing object. */
const OVERWRITING_ACTIONS = ['apply', 'replace', 'patch'];

/** Whether a manifest document is a play Workflow (kind Workflow, labelled as a play). */
function isPlay(value: unknown): boolean {
  return isRecord(value) && value.kind === 'Workflow' && isRecord(value.metadata) && isRecord(value.metadata.labels)
    ? value.metadata.labels[PlayLabels.workflowType] === WorkflowTypes.play
    : false;
}

function resourceViolations({ template, name, at }: TemplateAt): Violation[] {
  const resource = template.resource;
  if (!isRecord(resource)) return [];
  const violations: Violation[] = [];
  const action = resource.action;
  if (typeof action !== 'string' || (!ACTIONS.includes(action) && !hasPlaceholder(action))) {
    violations.push({
      path: pathOf(at, 'resource', 'action'),
      message: `resource template "${name}": action must be one of ${ACTIONS.join(', ')}`,
    });
  }
  const needsManifest = action !== 'get' && action !== 'delete';
  if (needsManifest && resource.manifest === undefined && resource.manifestFrom === undefined) {
    violations.push({ path: pathOf(at, 'resource'), message: `resource template "${name}" (${action}) needs a manifest or manifestFrom` });
  }
  if (typeof resource.manifest === 'string') {
    const { errors } = parseResourceManifest(resource.manifest);
    if (errors.length > 0) violations.push({ path: pathOf(at, 'resource', 'manifest'), message: `the manifest is not YAML: ${errors[0]}` });
    if (
      typeof action === 'string' &&
      OVERWRITING_ACTIONS.includes(action) &&
      parseResourceManifest(resource.manifest).values.some(isPlay)
    ) {
      violations.push({
        path: pathOf(at, 'resource', 'action'),
        message: `resource template "${name}" would ${action} over a play, and so over the remediator's successor of it; create the play once (AlreadyExists is the task's play) and wait on its progress record`,
      });
    }
  }
  const artifact = resource.manifestFrom?.artifact?.name;
  if (typeof artifact === 'string' && !namedList(template.inputs, 'artifacts').some((input) => input.name === artifact)) {
    violations.push({
      path: pathOf(at, 'resource', 'manifestFrom', 'artifact', 'name'),
      message: `manifestFrom names artifact "${artifact}", which is not an input artifact of "${name}"`,
    });
  }
  return violations;
}

export const resourceTemplateRule: LintRule = {
  id: 'resource-template',
  severity: 'error',
  description: 'resource templates: a known action, a manifest where the action needs one, a manifest that is YAML, no apply over a play',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    return workflow ? templatesOf(workflow).flatMap(resourceViolations) : [];
  },
};
