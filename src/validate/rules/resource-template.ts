/**
 * Resource templates (argo-semantics §2 rule 16): a known action (unless a placeholder), a manifest (or
 * manifestFrom naming an input artifact) for every action but get and delete, and a manifest that parses as
 * YAML once Argo's placeholders are set aside.
 */
import type { LintRule, Violation } from '../finding';
import { hasPlaceholder, isRecord, namedList, pathOf, templatesOf, workflowSpecOf, WORKFLOW_KINDS, type TemplateAt } from './argo-spec';
import { parseResourceManifest } from './resource-manifest';

const ACTIONS = ['get', 'create', 'apply', 'delete', 'replace', 'patch'];

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
  description: 'resource templates: a known action, a manifest where the action needs one, a manifest that is YAML',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    return workflow ? templatesOf(workflow).flatMap(resourceViolations) : [];
  },
};
