/**
 * A step or DAG task whose template runs `argo resume ... --node-field-selector ...` and whose failure is not
 * accepted. With a node field selector the CLI resumes through `updateSuspendedNode` (argo-workflows
 * `workflow/util/util.go`), which fails with "no suspend nodes matching nodeFieldSelector" when no matching
 * suspend node is active: a node that someone else resumed a moment before (a duplicate delivery, the
 * play's own check) makes the resume fail although what it wanted has happened. A retry fails the same way,
 * and the failed step fails its steps group (`workflow/controller/steps.go`, `executeStepGroup`) or its DAG
 * (`workflow/controller/dag.go`, `assessDAGPhase`), and with it the workflow. `argo resume NAME` without a
 * selector resumes through `ResumeWorkflow`, which succeeds when nothing is suspended, so it is not reported.
 *
 * Accepted: `continueOn: { failed: true }` on the step or task (a non-zero exit is Failed; `error` is for a
 * lost pod), a DAG task another task depends on with `X.Failed` (the DAG takes the dependent's phase for that
 * branch: `assessDAGPhase`), or a script that tolerates the failure itself (`|| true`, `|| :` after it).
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { callsOf, isRecord, listOf, pathOf, templatesOf, workflowSpecOf, WORKFLOW_KINDS, type CallAt, type Json } from './argo-spec';

/** One shell statement that runs the Argo CLI's resume with a node field selector; group 1 is what follows it. */
const SELECTIVE_RESUME = /(?:^|[\s;&|(`/])argo\s(?:[^\n;&|]*\s)?resume\s[^\n;&|]*--node-field-selector[^\n;&|]*(.*)$/m;
/** What, after the statement, makes its failure harmless. */
const TOLERATED = /^\s*\|\|\s*(?:true|:)\s*(?:$|[;\n&)])/;

/** The command line of each container of a template, and a script's source. */
function commandTexts(template: Json): string[] {
  const containers = [template.container, template.script, ...listOf(template.containerSet?.containers)].filter(isRecord);
  const texts = containers.map((container) => [...listOf(container.command), ...listOf(container.args)].map(String).join(' '));
  if (isRecord(template.script) && typeof template.script.source === 'string') texts.push(template.script.source);
  return texts;
}

/** Whether the template runs a selective resume whose failure fails the pod. */
export function runsSelectiveResume(template: Json): boolean {
  return commandTexts(template).some((text) => {
    // A statement continued over several lines (`\` at the end of a line) is one statement.
    const match = SELECTIVE_RESUME.exec(text.replace(/\\\n/g, ' '));
    return match !== null && !TOLERATED.test(match[1]);
  });
}

/** Whether the step or task lets the template fail without failing its group. */
function failureAccepted({ call, name, holder }: CallAt): boolean {
  if (isRecord(call.continueOn) && call.continueOn.failed === true) return true;
  const onFailure = new RegExp(`(^|[^\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(Failed|AllFailed)\\b`);
  return listOf(holder.template.dag?.tasks).some(
    (task) => isRecord(task) && typeof task.depends === 'string' && onFailure.test(task.depends),
  );
}

export const argoResumeContinueOnRule: LintRule = {
  id: 'argo-resume-continue-on',
  severity: 'warning',
  description: 'a step or task that runs `argo resume --node-field-selector` accepts its failure: a node resumed already makes it fail',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    const resuming = new Set(
      templatesOf(workflow)
        .filter(({ template }) => runsSelectiveResume(template))
        .map(({ name }) => name),
    );
    if (resuming.size === 0) return [];
    return callsOf(workflow)
      .filter((call) => typeof call.call.template === 'string' && resuming.has(call.call.template) && !failureAccepted(call))
      .map(
        (call): Violation => ({
          path: pathOf(call.at),
          message: `"${call.name}" runs template "${call.call.template}", which runs \`argo resume --node-field-selector\`: when the node was resumed already (a duplicate event, or the workflow's own check) updateSuspendedNode finds no active suspend node and the CLI fails (workflow/util/util.go), every retry too, and the failed step fails its ${call.holder.template.dag ? 'DAG' : 'steps group'} and the workflow; treat "already resumed" as success: continueOn: { failed: true } (then check the node), or ${call.holder.template.dag ? `a task that depends on ${call.name}.Failed and confirms the node is no longer suspended` : 'a script that checks the node before failing'}`,
        }),
      );
  },
};
