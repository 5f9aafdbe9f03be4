/**
 * Every gate a Sensor resumes exists in a WorkflowTemplate of the run: the drift that broke the original
 * system (Sensors waiting on gates that had been renamed). Gates are found the way plays declare them: a
 * step or task that passes a literal value to the input `GATE_STAGE_INPUT` of a template that declares it.
 * Both resume shapes are checked: a trigger that submits the resumer WorkflowTemplate with a `gate`
 * argument, and an argoWorkflow `resume` trigger whose `--node-field-selector` selects a gate's suspend node.
 * A run without any play WorkflowTemplate (a Sensor validated alone) is not checked.
 */
// @ts-nocheck

import { GATE_STAGE_INPUT, RESUMER_TEMPLATE_NAME } from '../../../constructs/model/play-contract';
import { RESUMER_GATE_PARAMETER } from '../../../constructs/resumer/resumer-contract';
import type { LintContext, LintRule, Violation } from '../finding';
import { callsOf, hasPlaceholder, isRecord, listOf, namedList, pathOf, templatesOf, workflowObjects } from './argo-spec';
import { triggersOf } from './sensor-spec';

/** `inputs.parameters.<input>.value=<gate>`: the form `gateNodeSelector` writes (a test holds them together). */
export const NODE_SELECTOR = /^inputs\.parameters\.(?<input>[^.=]+)\.value=(?<gate>.+)$/;

/** The gates declared in the run's WorkflowTemplates, by name. */
function gatesOf(context: LintContext): Set<string> {
  const gates = new Set<string>();
  for (const { workflow } of workflowObjects(context.objects, ['WorkflowTemplate', 'ClusterWorkflowTemplate'])) {
    const gateTemplates = new Set(
      templatesOf(workflow)
        .filter(({ template }) => namedList(template.inputs, 'parameters').some((input) => input.name === GATE_STAGE_INPUT))
        .map(({ name }) => name),
    );
    for (const { call } of callsOf(workflow)) {
      if (!gateTemplates.has(call.template)) continue;
      const value = namedList(call.arguments, 'parameters').find((parameter) => parameter.name === GATE_STAGE_INPUT)?.value;
      if (typeof value === 'string' && !hasPlaceholder(value)) gates.add(value);
    }
  }
  return gates;
}

const missing = (gate: string, gates: ReadonlySet<string>): string =>
  `gate "${gate}" is not a gate of any WorkflowTemplate in this run (gates: ${[...gates].sort().join(', ')}): this Sensor would resume nothing; regenerate the Sensors from the same stages`;

export const sensorGateExistsRule: LintRule = {
  id: 'sensor-gate-exists',
  severity: 'error',
  description: 'every gate a Sensor resumes (resumer argument or node field selector) exists in a WorkflowTemplate of the run',
  kinds: ['Sensor'],
  check: (target, context) => {
    const gates = gatesOf(context);
    if (gates.size === 0) return [];
    return triggersOf(target).flatMap(({ template, at }): Violation[] => {
      const violations: Violation[] = [];
      const resource = template.k8s?.source?.resource ?? template.argoWorkflow?.source?.resource;
      const typeKey = isRecord(template.k8s) ? 'k8s' : 'argoWorkflow';
      if (isRecord(resource) && resource.spec?.workflowTemplateRef?.name === RESUMER_TEMPLATE_NAME) {
        namedList(resource.spec.arguments, 'parameters').forEach((parameter, index) => {
          if (
            parameter.name === RESUMER_GATE_PARAMETER &&
            typeof parameter.value === 'string' &&
            !hasPlaceholder(parameter.value) &&
            !gates.has(parameter.value)
          ) {
            violations.push({
              path: pathOf(at, 'template', typeKey, 'source', 'resource', 'spec', 'arguments', 'parameters', index, 'value'),
              message: missing(parameter.value, gates),
            });
          }
        });
      }
      const args = listOf(template.argoWorkflow?.args);
      args.forEach((arg, index) => {
        if (args[index - 1] !== '--node-field-selector' || typeof arg !== 'string') return;
        const match = NODE_SELECTOR.exec(arg);
        if (!match?.groups) return;
        const path = pathOf(at, 'template', 'argoWorkflow', 'args', index);
        if (match.groups.input !== GATE_STAGE_INPUT)
          violations.push({
            path,
            message: `the selector names input "${match.groups.input}"; gates are selected by input "${GATE_STAGE_INPUT}"`,
          });
        else if (!hasPlaceholder(match.groups.gate) && !gates.has(match.groups.gate))
          violations.push({ path, message: missing(match.groups.gate, gates) });
      });
      return violations;
    });
  },
};
