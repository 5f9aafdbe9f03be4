/**
 * `{{workflow.labels.K}}` for a key K of `spec.workflowMetadata.labelsFrom`. Argo lint accepts it
 * (`workflow/validate/validate.go` puts labelsFrom keys among the globals), but the controller makes such a
 * key a workflow variable only in the one reconciliation that starts the workflow (argo-workflows
 * `workflow/controller/operator.go`, `updateWorkflowMetadata`, run while the phase is still empty); every
 * later reconciliation builds the globals again in `setGlobalParameters`, which skips every key that
 * labelsFrom sets ("if the Label will get overridden by a LabelsFrom expression later, don't set it now"),
 * also when the same key is in `workflowMetadata.labels` or the Workflow's own labels. So a step that runs
 * after the first pass (an exit handler, any later stage) gets the text `{{workflow.labels.K}}` itself, and
 * an expression (`{{=workflow.labels['K']}}`) is left unevaluated. `{{workflow.labels.json}}` is built from
 * the Workflow's labels and does hold the key once the first pass stored it.
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { isRecord, pathOf, workflowSpecOf, WORKFLOW_KINDS, type Json } from './argo-spec';
import { taggedStringsIn } from './variables';

const TAG = /\{\{([^{}]*)\}\}/g;
const SIMPLE = /^workflow\.labels\.(.+)$/;
/** `workflow.labels.K` (an identifier) or `workflow.labels['K']` / `["K"]` inside an expression. */
const IN_EXPRESSION = /workflow\.labels(?:\.([A-Za-z_][\w]*)|\[\s*(['"])([^'"]*)\2\s*\])/g;

/** The label keys an expression tag reads. */
function expressionKeys(expression: string): string[] {
  return [...expression.matchAll(IN_EXPRESSION)].map((match) => match[1] ?? match[3]);
}

/** The labelsFrom keys a `{{...}}` tag reads as workflow variables. */
function keysRead(tag: string, fromKeys: ReadonlySet<string>): string[] {
  const inner = tag.trim();
  if (inner.startsWith('=')) return expressionKeys(inner.slice(1)).filter((key) => fromKeys.has(key));
  const key = SIMPLE.exec(inner)?.[1];
  return key !== undefined && fromKeys.has(key) ? [key] : [];
}

export const labelsFromVariableRule: LintRule = {
  id: 'labels-from-variable',
  severity: 'error',
  description: '{{workflow.labels.K}} (or workflow.labels in an expression) never names a key set by workflowMetadata.labelsFrom',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    const labelsFrom = isRecord(workflow?.spec.workflowMetadata) ? workflow.spec.workflowMetadata.labelsFrom : undefined;
    if (!workflow || !isRecord(labelsFrom)) return [];
    const fromKeys = new Set(Object.keys(labelsFrom));
    if (fromKeys.size === 0) return [];
    const { workflowMetadata: _own, ...rest } = workflow.spec as Json;
    // A play template is large and rarely reads a label: one native pass over its text says so before any walk.
    if (!JSON.stringify(rest).includes('workflow.labels')) return [];
    const violations: Violation[] = [];
    for (const { text, at } of taggedStringsIn(rest, workflow.at)) {
      for (const match of text.matchAll(TAG)) {
        for (const key of keysRead(match[1], fromKeys)) {
          violations.push({
            path: pathOf(at),
            message: `{{${match[1].trim()}}} reads label ${key}, which spec.workflowMetadata.labelsFrom sets: Argo makes a labelsFrom key a workflow variable only in the reconciliation that starts the workflow and skips it in every later one (operator.go, setGlobalParameters), so a step that runs later gets the text unresolved; read the label from the Workflow object, or pass the value as a parameter`,
          });
        }
      }
    }
    return violations;
  },
};
