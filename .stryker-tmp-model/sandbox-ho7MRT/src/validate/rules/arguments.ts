/**
 * Arguments (argo-semantics §2 D, rules 19-24): every input a called template requires is passed; every
 * argument a step or task passes has a value; a Workflow gives a value to each of its parameters (and to each
 * one the WorkflowTemplate it references leaves open); `valueFrom` on an argument only takes what Argo takes;
 * enums hold their value.
 */
// @ts-nocheck

import type { LintContext, LintRule, ManifestObject, Violation } from '../finding';
import {
  callsOf,
  hasPlaceholder,
  isRecord,
  namedList,
  pathOf,
  templatesOf,
  workflowObjects,
  workflowSpecOf,
  WORKFLOW_KINDS,
  type CallAt,
  type Json,
  type Path,
  type WorkflowSpec,
} from './argo-spec';
import { presentPath } from './present-path';

const hasValue = (parameter: Json): boolean => parameter.value !== undefined && parameter.value !== null;
const ARTIFACT_SOURCES = [
  'from',
  'fromExpression',
  's3',
  'git',
  'http',
  'artifactory',
  'hdfs',
  'raw',
  'oss',
  'gcs',
  'azure',
  'plugin',
  'artifactGC',
];
const ARGUMENT_VALUE_FROM = ['configMapKeyRef', 'event', 'supplied', 'default'];

/** The template a call invokes, when it is in the run: local, or in a referenced WorkflowTemplate of the run. */
function calledTemplate(call: CallAt, local: ReadonlyMap<string, Json>, context: LintContext): Json | undefined {
  if (typeof call.call.template === 'string') return local.get(call.call.template);
  const ref = call.call.templateRef;
  if (!isRecord(ref) || typeof ref.name !== 'string' || hasPlaceholder(ref.name)) return undefined;
  const kind = ref.clusterScope === true ? 'ClusterWorkflowTemplate' : 'WorkflowTemplate';
  const found = workflowObjects(context.objects, [kind]).find(({ target }) => target.name === ref.name);
  return found ? templatesOf(found.workflow).find((template) => template.name === ref.template)?.template : undefined;
}

function suppliedViolations(call: CallAt, template: Json): Violation[] {
  const passed = (key: 'parameters' | 'artifacts'): Set<unknown> =>
    new Set(namedList(call.call.arguments, key).map((argument) => argument.name));
  const parameters = passed('parameters');
  const artifacts = passed('artifacts');
  const missing = [
    ...namedList(template.inputs, 'parameters')
      .filter((input) => !hasValue(input) && input.default === undefined && input.valueFrom === undefined && !parameters.has(input.name))
      .map((input) => `parameter ${input.name}`),
    ...namedList(template.inputs, 'artifacts')
      .filter(
        (input) => input.optional !== true && !ARTIFACT_SOURCES.some((source) => input[source] !== undefined) && !artifacts.has(input.name),
      )
      .map((input) => `artifact ${input.name}`),
  ];
  if (missing.length === 0) return [];
  const callee =
    typeof call.call.template === 'string' ? call.call.template : `${call.call.templateRef?.name}/${call.call.templateRef?.template}`;
  return [
    {
      path: pathOf(call.at, 'arguments'),
      message: `"${call.name}" does not pass ${missing.join(', ')}, which template "${callee}" requires (no value or default): Argo fails the step with "was not supplied"`,
    },
  ];
}

/** The WorkflowTemplate parameters without a value that a Workflow using it must supply. */
function templateRefArgumentViolations(target: ManifestObject, workflow: WorkflowSpec, context: LintContext): Violation[] {
  const ref = workflow.spec.workflowTemplateRef;
  if (!isRecord(ref) || typeof ref.name !== 'string') return [];
  const kind = ref.clusterScope === true ? 'ClusterWorkflowTemplate' : 'WorkflowTemplate';
  const referenced = workflowObjects(context.objects, [kind]).find(({ target: candidate }) => candidate.name === ref.name);
  if (!referenced) return [];
  const given = new Map(namedList(workflow.spec.arguments, 'parameters').map((parameter) => [parameter.name, parameter]));
  const open = namedList(referenced.workflow.spec.arguments, 'parameters').filter(
    (parameter) => !hasValue(parameter) && parameter.valueFrom === undefined,
  );
  const missing = open.filter((parameter) => {
    const argument = given.get(parameter.name);
    return !argument || (!hasValue(argument) && argument.valueFrom === undefined);
  });
  if (missing.length === 0) return [];
  return [
    {
      path: pathOf(presentPath(target.object, [...workflow.at, 'arguments', 'parameters'])),
      message: `${target.kind} ${target.name} must give ${missing.map((parameter) => parameter.name).join(', ')} a value: ${kind} "${ref.name}" declares ${missing.length === 1 ? 'it' : 'them'} without one`,
    },
  ];
}

export const argumentsSuppliedRule: LintRule = {
  id: 'arguments-supplied',
  severity: 'error',
  description:
    'a step or task passes every input its template requires; a Workflow supplies the parameters its WorkflowTemplate leaves open',
  kinds: WORKFLOW_KINDS,
  check: (target, context) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    const local = new Map(templatesOf(workflow).map(({ name, template }) => [name, template]));
    const violations = callsOf(workflow).flatMap((call) => {
      const template = calledTemplate(call, local, context);
      return template ? suppliedViolations(call, template) : [];
    });
    return [...violations, ...templateRefArgumentViolations(target, workflow, context)];
  },
};

function parameterValueViolations(parameter: Json, at: Path, options: { needsValue: boolean; argument: boolean }): Violation[] {
  const violations: Violation[] = [];
  const name = String(parameter.name);
  if (options.needsValue && !hasValue(parameter) && parameter.valueFrom === undefined)
    violations.push({ path: pathOf(at), message: `parameter ${name} needs a value or valueFrom` });
  if (options.argument && isRecord(parameter.valueFrom)) {
    for (const key of Object.keys(parameter.valueFrom).filter((key) => !ARGUMENT_VALUE_FROM.includes(key))) {
      violations.push({
        path: pathOf(at, 'valueFrom', key),
        message: `an argument's valueFrom takes only ${ARGUMENT_VALUE_FROM.join(', ')}; ${key} is for outputs`,
      });
    }
  }
  if (parameter.enum !== undefined) {
    const values = Array.isArray(parameter.enum) ? parameter.enum : [];
    if (values.length === 0) violations.push({ path: pathOf(at, 'enum'), message: `parameter ${name}: enum must list at least one value` });
    else if (hasValue(parameter) && !hasPlaceholder(parameter.value) && !values.includes(parameter.value)) {
      violations.push({
        path: pathOf(at, 'value'),
        message: `parameter ${name}: value "${parameter.value}" is not one of its enum (${values.join(', ')})`,
      });
    }
  }
  return violations;
}

export const argumentValueRule: LintRule = {
  id: 'argument-value',
  severity: 'error',
  description: "arguments passed by steps and tasks, and a Workflow's own parameters, have a value; valueFrom and enum as Argo takes them",
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    const isWorkflow = target.kind === 'Workflow' || target.kind === 'CronWorkflow';
    const own = namedList(workflow.spec.arguments, 'parameters').flatMap((parameter, index) =>
      parameterValueViolations(parameter, [...workflow.at, 'arguments', 'parameters', index], {
        needsValue: isWorkflow && workflow.spec.workflowTemplateRef === undefined,
        argument: true,
      }),
    );
    const passed = callsOf(workflow).flatMap((call) =>
      namedList(call.call.arguments, 'parameters').flatMap((parameter, index) =>
        parameterValueViolations(parameter, [...call.at, 'arguments', 'parameters', index], { needsValue: true, argument: true }),
      ),
    );
    const inputs = templatesOf(workflow).flatMap((holder) =>
      namedList(holder.template.inputs, 'parameters').flatMap((parameter, index) =>
        parameterValueViolations(parameter, [...holder.at, 'inputs', 'parameters', index], { needsValue: false, argument: false }),
      ),
    );
    return [...own, ...passed, ...inputs];
  },
};
