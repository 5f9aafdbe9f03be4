/** Exactly one template type per template (argo-semantics §2 rule 12). */
// @ts-nocheck

import type { LintRule } from '../finding';
import { pathOf, TEMPLATE_TYPES, templatesOf, typesOf, workflowSpecOf, WORKFLOW_KINDS } from './argo-spec';

export const templateTypeRule: LintRule = {
  id: 'template-type',
  severity: 'error',
  description: `every template has exactly one of ${TEMPLATE_TYPES.join(', ')}`,
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    return templatesOf(workflow).flatMap(({ template, name, at }) => {
      const types = typesOf(template);
      if (types.length === 1) return [];
      const message =
        types.length === 0
          ? `template "${name}" has no type: give it one of ${TEMPLATE_TYPES.join(', ')}`
          : `template "${name}" has several types (${types.join(', ')}): split it into one template per type`;
      return [{ path: pathOf(at), message }];
    });
  },
};
