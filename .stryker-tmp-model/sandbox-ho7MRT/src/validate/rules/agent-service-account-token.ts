/**
 * An agent's pod with a Kubernetes token in the agent's container. A template runs an agent when its pod is
 * labelled with the agent's GitHub App (`github-app`, `CodeRunLabels.githubApp`: the direct agent templates
 * of `constructs/workflows/direct-agent-run.ts` carry it, as the CodeRuns do); its CLI follows a prompt that
 * text from pull requests and issues reaches, so it must hold no credentials for the cluster. Argo mounts the
 * pod's service-account token in every container unless the template (else the workflow) sets
 * `automountServiceAccountToken: false` (argo-workflows `workflow/controller/workflowpod.go`,
 * `setupServiceAccount`); a play's account may patch Workflows and task results, so a prompt-injected CLI could
 * release its own gates or forge a step's outputs. With the token off, `executor.serviceAccountName` gives
 * Argo's own containers theirs (mounted in them alone); without one the controller refuses to create the pod
 * ("executor.serviceAccountName must not be empty if automountServiceAccountToken is false", same function).
 */
// @ts-nocheck

import { CodeRunLabels } from '../../../constructs/model/labels';
import type { LintRule, Violation } from '../finding';
import { isRecord, pathOf, templatesOf, workflowSpecOf, WORKFLOW_KINDS, type Json, type TemplateAt } from './argo-spec';

/** The template types whose pod runs the template's own containers. */
const POD_TYPES = ['container', 'script', 'containerSet'] as const;

/** Whether the template's pod runs an agent: a pod type, labelled with the agent's GitHub App. */
function runsAgent(template: Json): boolean {
  const labels = isRecord(template.metadata) ? template.metadata.labels : undefined;
  return POD_TYPES.some((type) => isRecord(template[type])) && isRecord(labels) && CodeRunLabels.githubApp in labels;
}

const executorAccount = (holder: Json): unknown => (isRecord(holder.executor) ? holder.executor.serviceAccountName : undefined);

function tokenViolations({ template, name, at }: TemplateAt, spec: Json): Violation[] {
  if (!runsAgent(template)) return [];
  // Argo fills a template's unset fields from `templateDefaults` before it builds the pod.
  const defaults: Json = isRecord(spec.templateDefaults) ? spec.templateDefaults : {};
  const automount = template.automountServiceAccountToken ?? defaults.automountServiceAccountToken ?? spec.automountServiceAccountToken;
  if (automount !== false)
    return [
      {
        path: pathOf(at),
        message: `template "${name}" runs an agent (label ${CodeRunLabels.githubApp}) and its container gets the pod's service-account token (workflowpod.go, setupServiceAccount): a prompt-injected CLI could use the account's rights on plays (patch a Workflow, forge a task result); set automountServiceAccountToken: false and executor.serviceAccountName on the template`,
      },
    ];
  const executor = executorAccount(template) ?? executorAccount(defaults) ?? executorAccount(spec);
  if (typeof executor !== 'string' || executor === '')
    return [
      {
        path: pathOf(at),
        message: `template "${name}" turns the service-account token off without an executor.serviceAccountName (template or workflow): Argo refuses to create the pod ("executor.serviceAccountName must not be empty if automountServiceAccountToken is false", workflowpod.go)`,
      },
    ];
  return [];
}

export const agentServiceAccountTokenRule: LintRule = {
  id: 'agent-service-account-token',
  severity: 'error',
  description:
    "an agent's pod (label github-app) mounts no service-account token in the agent's container, and names the executor's account",
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    return workflow ? templatesOf(workflow).flatMap((template) => tokenViolations(template, workflow.spec)) : [];
  },
};
