/**
 * A Sensor's triggers (argo-semantics §3c and §3e rules 7-11, and its "not validated" list): triggers
 * present, named uniquely, of one type with what that type needs (an operation for argoWorkflow, a valid one
 * for k8s); parameters whose `src.dependencyName` is a dependency of this Sensor, with a `dest` and a known
 * operation; `conditions` that parse and name existing dependencies.
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { parseBooleanExpression } from './boolean-expression';
import { isRecord, listOf, pathOf, type Json, type Path } from './argo-spec';
import { dependencyNames, TRIGGER_TYPES, triggersOf } from './sensor-spec';

const sensorRule = (id: string, description: string, check: LintRule['check']): LintRule => ({
  id,
  severity: 'error',
  description,
  kinds: ['Sensor'],
  check,
});

export const sensorTriggersRule = sensorRule(
  'sensor-triggers',
  'a Sensor has triggers, each with a template, a unique name and one trigger type',
  (target) => {
    const triggers = triggersOf(target);
    if (triggers.length === 0) return [{ path: 'spec.triggers', message: 'a Sensor needs at least one trigger' }];
    const seen = new Set<string>();
    return triggers.flatMap(({ trigger, template, name, at }) => {
      if (!isRecord(trigger.template)) return [{ path: pathOf(at, 'template'), message: 'every trigger needs a template' }];
      const violations: Violation[] = [];
      if (name === '') violations.push({ path: pathOf(at, 'template', 'name'), message: 'every trigger template needs a name' });
      else if (seen.has(name)) violations.push({ path: pathOf(at, 'template', 'name'), message: `trigger name "${name}" is used twice` });
      seen.add(name);
      const types = TRIGGER_TYPES.filter((type) => template[type] !== undefined);
      if (types.length !== 1)
        violations.push({
          path: pathOf(at, 'template'),
          message:
            types.length === 0
              ? `trigger "${name}" has no type (one of ${TRIGGER_TYPES.join(', ')})`
              : `trigger "${name}" has several types (${types.join(', ')})`,
        });
      return violations;
    });
  },
);

const WORKFLOW_OPERATIONS = ['submit', 'submit-from', 'suspend', 'retry', 'resume', 'resubmit', 'terminate', 'stop'];
const K8S_OPERATIONS = ['', 'create', 'update', 'patch', 'delete'];
const HTTP_METHODS = ['GET', 'DELETE', 'PATCH', 'POST', 'PUT'];

export const sensorTriggerOperationRule = sensorRule(
  'sensor-trigger-operation',
  'argoWorkflow triggers name a valid operation and a source; k8s triggers a valid operation and a source; http triggers a url and a method',
  (target) =>
    triggersOf(target).flatMap(({ template, name, at }) => {
      const violations: Violation[] = [];
      const argo = template.argoWorkflow;
      if (isRecord(argo)) {
        if (!WORKFLOW_OPERATIONS.includes(argo.operation))
          violations.push({
            path: pathOf(at, 'template', 'argoWorkflow', 'operation'),
            message: `trigger "${name}": operation ${argo.operation === undefined ? 'is not set' : JSON.stringify(argo.operation) + ' is unknown'}: use one of ${WORKFLOW_OPERATIONS.join(', ')}`,
          });
        if (!isRecord(argo.source))
          violations.push({
            path: pathOf(at, 'template', 'argoWorkflow', 'source'),
            message: `trigger "${name}" needs a source (the Workflow to act on)`,
          });
      }
      const k8s = template.k8s;
      if (isRecord(k8s)) {
        if (k8s.operation !== undefined && !K8S_OPERATIONS.includes(k8s.operation))
          violations.push({
            path: pathOf(at, 'template', 'k8s', 'operation'),
            message: `trigger "${name}": operation "${k8s.operation}" must be one of create, update, patch, delete`,
          });
        if (!isRecord(k8s.source))
          violations.push({
            path: pathOf(at, 'template', 'k8s', 'source'),
            message: `trigger "${name}" needs a source (the resource to create or change)`,
          });
      }
      const http = template.http;
      if (isRecord(http)) {
        if (typeof http.url !== 'string' || http.url === '')
          violations.push({ path: pathOf(at, 'template', 'http', 'url'), message: `trigger "${name}" needs a url` });
        if (http.method !== undefined && !HTTP_METHODS.includes(http.method))
          violations.push({
            path: pathOf(at, 'template', 'http', 'method'),
            message: `trigger "${name}": method must be one of ${HTTP_METHODS.join(', ')}`,
          });
      }
      return violations;
    }),
);

const PARAMETER_OPERATIONS = ['', 'append', 'overwrite', 'prepend'];

/** Every parameter list of a trigger: the trigger's own and its type's. */
function parameterLists(trigger: Json, template: Json, at: Path): { parameters: unknown[]; at: Path; destOptional: boolean }[] {
  const lists = [{ parameters: listOf(trigger.parameters), at: [...at, 'parameters'], destOptional: false }];
  for (const type of TRIGGER_TYPES) {
    const typed = template[type];
    if (!isRecord(typed)) continue;
    lists.push({ parameters: listOf(typed.parameters), at: [...at, 'template', type, 'parameters'], destOptional: false });
    // An http or custom trigger's payload parameters may leave dest out: they build the body.
    lists.push({ parameters: listOf(typed.payload), at: [...at, 'template', type, 'payload'], destOptional: true });
  }
  return lists;
}

export const sensorParameterRule = sensorRule(
  'sensor-parameter',
  "trigger parameters take src.dependencyName from this Sensor's dependencies, and have a dest and a known operation",
  (target) => {
    const names = dependencyNames(target);
    return triggersOf(target).flatMap(({ trigger, template, at }) =>
      parameterLists(trigger, template, at).flatMap((list) =>
        list.parameters.flatMap((parameter, index): Violation[] => {
          const parameterAt = [...list.at, index];
          if (!isRecord(parameter)) return [];
          const violations: Violation[] = [];
          const dependency = parameter.src?.dependencyName;
          if (!isRecord(parameter.src) || typeof dependency !== 'string' || dependency === '')
            violations.push({
              // Without src the path stops at src: a path into a missing object names nothing to fix.
              path: isRecord(parameter.src) ? pathOf(parameterAt, 'src', 'dependencyName') : pathOf(parameterAt, 'src'),
              message: 'a parameter needs src.dependencyName',
            });
          else if (!names.has(dependency))
            violations.push({
              path: pathOf(parameterAt, 'src', 'dependencyName'),
              message: `"${dependency}" is not a dependency of this Sensor (${[...names].join(', ') || 'none'}): the parameter would never resolve`,
            });
          if (!list.destOptional && (typeof parameter.dest !== 'string' || parameter.dest === ''))
            violations.push({ path: pathOf(parameterAt, 'dest'), message: 'a parameter needs a dest' });
          if (parameter.operation !== undefined && !PARAMETER_OPERATIONS.includes(parameter.operation))
            violations.push({
              path: pathOf(parameterAt, 'operation'),
              message: `operation "${parameter.operation}" must be one of append, overwrite, prepend`,
            });
          return violations;
        }),
      ),
    );
  },
);

/** Dependency names as conditions write them. */
const DEPENDENCY_OPERAND = /[A-Za-z0-9_][-A-Za-z0-9_.]*/;

export const sensorConditionsRule = sensorRule(
  'sensor-conditions',
  'trigger conditions parse (&&, ||, !, parentheses) and name dependencies of this Sensor',
  (target) => {
    const names = dependencyNames(target);
    return triggersOf(target).flatMap(({ template, name, at }) => {
      const conditions = template.conditions;
      if (conditions === undefined || conditions === '') return [];
      const path = pathOf(at, 'template', 'conditions');
      if (typeof conditions !== 'string') return [{ path, message: 'conditions must be a boolean expression over dependency names' }];
      const parsed = parseBooleanExpression(conditions, DEPENDENCY_OPERAND);
      if (!parsed.ok) return [{ path, message: `trigger "${name}": conditions "${conditions}" do not parse: ${parsed.error}` }];
      return parsed.operands
        .map((operand) => (operand.result === undefined ? operand.name : `${operand.name}.${operand.result}`))
        .filter((dependency) => !names.has(dependency))
        .map((dependency) => ({
          path,
          message: `trigger "${name}": conditions name "${dependency}", which is not a dependency of this Sensor (Argo fails at runtime: "Dependency expression and dependency list do not match")`,
        }));
    });
  },
);

export const SENSOR_TRIGGER_RULES: readonly LintRule[] = [
  sensorTriggersRule,
  sensorTriggerOperationRule,
  sensorParameterRule,
  sensorConditionsRule,
];
