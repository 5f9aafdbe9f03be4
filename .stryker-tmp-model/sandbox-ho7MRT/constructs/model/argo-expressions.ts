/**
 * Argo's `{{...}}` references and `{{=...}}` expressions, built in one place: templates, sensors and
 * manifests take them from here instead of pasting braces together, so a reference is always well formed
 * and names a variable Argo defines (argo-workflows `workflow/common/common.go` lists the global variables,
 * `workflow/controller/operator.go` the template-scoped ones).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/** `{{path}}`: a simple reference, substituted as text. */
export function argoReference(path: string): string {
  return `{{${path}}}`;
}

/** `{{=expression}}`: an expr-lang expression, evaluated by Argo when it runs the template. */
export function argoExpression(expression: string): string {
  return `{{=${expression}}}`;
}

/** `{{inputs.parameters.NAME}}`: an input parameter of the template the reference appears in. */
export function inputParameter(name: string): string {
  return argoReference(`inputs.parameters.${name}`);
}

/** `{{workflow.parameters.NAME}}`: a parameter of the Workflow. */
export function workflowParameter(name: string): string {
  return argoReference(`workflow.parameters.${name}`);
}

/**
 * `{{workflow.outputs.parameters.NAME}}`: a global output parameter, set by an earlier step whose output
 * declares it as `globalName` (the play's `resolve-repository` step gives the repository's settings so).
 */
export function workflowOutput(name: string): string {
  return argoReference(`workflow.outputs.parameters.${name}`);
}

/** The expr-lang form of a global output parameter, `workflow.outputs.parameters['NAME']`. */
export function workflowOutputExpression(name: string): string {
  return `workflow.outputs.parameters['${name}']`;
}

/** `{{steps.STEP.outputs.parameters.NAME}}`: an output parameter of an earlier step. */
export function stepOutput(step: string, name: string): string {
  return argoReference(`steps.${step}.outputs.parameters.${name}`);
}

/** `{{steps.STEP.status}}`: the phase an earlier step ended in. */
export function stepStatus(step: string): string {
  return argoReference(`steps.${step}.status`);
}

/** The Workflow's own global variables. */
export const WorkflowVariables = {
  name: argoReference('workflow.name'),
  namespace: argoReference('workflow.namespace'),
  uid: argoReference('workflow.uid'),
  /** The Workflow's phase; an exit handler reads it. */
  status: argoReference('workflow.status'),
} as const;

/** `{{retries}}`: the 0-based attempt of the template that carries the retryStrategy. */
export const RETRIES = argoReference('retries');

/**
 * The expr-lang form of a workflow parameter, `workflow.parameters['NAME']` (names with `-` need the index
 * form), for `{{=...}}` expressions and `labelsFrom`.
 */
export function workflowParameterExpression(name: string): string {
  return `workflow.parameters['${name}']`;
}
