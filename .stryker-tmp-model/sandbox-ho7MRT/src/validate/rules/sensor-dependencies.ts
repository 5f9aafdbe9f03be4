/**
 * A Sensor's dependencies and their filters (argo-semantics §3b and §3e rules 1-6), plus what the
 * controller does not validate and fails on later: regexes that do not compile, numbers and booleans that do
 * not parse, and string filters that match more than they say (`main` matches `domain`).
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { isRecord, listOf, pathOf, type Json, type Path } from './argo-spec';
import { goRegexpProblem, isAnchored } from './go-regexp';
import { dependenciesOf } from './sensor-spec';

const sensorRule = (id: string, severity: LintRule['severity'], description: string, check: LintRule['check']): LintRule => ({
  id,
  severity,
  description,
  kinds: ['Sensor'],
  check,
});

export const sensorDependenciesRule = sensorRule(
  'sensor-dependencies',
  'error',
  'a Sensor has dependencies, each with a unique name, an eventSourceName and an eventName',
  (target) => {
    const dependencies = dependenciesOf(target);
    if (dependencies.length === 0) return [{ path: 'spec.dependencies', message: 'a Sensor needs at least one dependency' }];
    const seen = new Set<string>();
    return dependencies.flatMap(({ dependency, at }) => {
      const violations: Violation[] = [];
      for (const field of ['name', 'eventSourceName', 'eventName']) {
        if (typeof dependency[field] !== 'string' || dependency[field] === '')
          violations.push({ path: pathOf(at, field), message: `every dependency needs ${field}` });
      }
      if (typeof dependency.name === 'string' && seen.has(dependency.name))
        violations.push({
          path: pathOf(at, 'name'),
          message: `dependency name "${dependency.name}" is used twice: conditions and parameters could not tell them apart`,
        });
      seen.add(dependency.name);
      return violations;
    });
  },
);

const OPERATORS = ['and', 'or', ''];

export const sensorLogicalOperatorRule = sensorRule(
  'sensor-logical-operator',
  'error',
  'filtersLogicalOperator, dataLogicalOperator and exprLogicalOperator are and, or or empty (lower case)',
  (target) =>
    dependenciesOf(target).flatMap(({ dependency, at }) => {
      const fields: [unknown, Path][] = [
        [dependency.filtersLogicalOperator, [...at, 'filtersLogicalOperator']],
        [dependency.filters?.dataLogicalOperator, [...at, 'filters', 'dataLogicalOperator']],
        [dependency.filters?.exprLogicalOperator, [...at, 'filters', 'exprLogicalOperator']],
      ];
      return fields.flatMap(([value, path]) =>
        value === undefined || OPERATORS.includes(value as string)
          ? []
          : [{ path: pathOf(path), message: `${JSON.stringify(value)} is not a logical operator: use and or or (lower case)` }],
      );
    }),
);

const TYPES = ['string', 'number', 'bool'];
const COMPARATORS = ['>=', '>', '=', '!=', '<', '<=', ''];
const GO_BOOLS = ['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'];

interface DataFilterAt {
  readonly filter: Json;
  readonly at: Path;
}

const dataFiltersOf = (target: Parameters<LintRule['check']>[0]): DataFilterAt[] =>
  dependenciesOf(target).flatMap(({ dependency, at }) =>
    listOf(dependency.filters?.data).flatMap((filter, index) =>
      isRecord(filter) ? [{ filter, at: [...at, 'filters', 'data', index] }] : [],
    ),
  );

function valueViolations(filter: Json, at: Path): Violation[] {
  const values = listOf(filter.value);
  return values.flatMap((value, index): Violation[] => {
    const path = pathOf(at, 'value', index);
    if (typeof value !== 'string' || value === '') return [{ path, message: 'filter values must be non-empty strings' }];
    if (filter.type === 'number' && !Number.isFinite(Number(value)))
      return [{ path, message: `"${value}" is not a number, so this number filter never matches` }];
    if (filter.type === 'bool' && !GO_BOOLS.includes(value))
      return [{ path, message: `"${value}" is not a boolean Go parses (true, false, 1, 0, t, f)` }];
    if (filter.type === 'string') {
      const problem = goRegexpProblem(value);
      if (problem) return [{ path, message: `"${value}" is not a valid regular expression: ${problem}` }];
    }
    return [];
  });
}

export const sensorDataFilterRule = sensorRule(
  'sensor-data-filter',
  'error',
  'data filters: a path, a type (string, number, bool), values that parse for that type, a comparator Argo knows',
  (target) =>
    dataFiltersOf(target).flatMap(({ filter, at }) => {
      const violations: Violation[] = [];
      if (typeof filter.path !== 'string' || filter.path === '')
        violations.push({ path: pathOf(at, 'path'), message: 'a data filter needs a path' });
      if (!TYPES.includes(filter.type))
        violations.push({ path: pathOf(at, 'type'), message: `type ${JSON.stringify(filter.type)} must be one of ${TYPES.join(', ')}` });
      if (listOf(filter.value).length === 0)
        violations.push({ path: pathOf(at, 'value'), message: 'a data filter needs at least one value' });
      if (filter.comparator !== undefined && !COMPARATORS.includes(filter.comparator))
        violations.push({
          path: pathOf(at, 'comparator'),
          message: `comparator ${JSON.stringify(filter.comparator)} must be one of ${COMPARATORS.filter(Boolean).join(' ')}`,
        });
      if (filter.type === 'string' && ['>=', '>', '<', '<='].includes(filter.comparator))
        violations.push({
          path: pathOf(at, 'comparator'),
          message: `a string filter only matches with = or !=; ${filter.comparator} never matches`,
        });
      return [...violations, ...valueViolations(filter, at)];
    }),
);

export const sensorDataFilterRegexRule = sensorRule(
  'sensor-data-filter-regex',
  'warning',
  'string filter values are regular expressions matched anywhere: anchor them (^main$), or main also matches domain',
  (target) =>
    dataFiltersOf(target)
      .filter(({ filter }) => filter.type === 'string' && filter.template === undefined)
      .flatMap(({ filter, at }) =>
        listOf(filter.value).flatMap((value, index) =>
          typeof value === 'string' && value !== '' && !isAnchored(value) && goRegexpProblem(value) === undefined
            ? [
                {
                  path: pathOf(at, 'value', index),
                  message: `"${value}" is not anchored, so it also matches any value that contains it: write ^${value.replace(/^\(\?[imsU]+\)/, '')}$ to match it exactly`,
                },
              ]
            : [],
        ),
      ),
);

export const sensorExprFilterRule = sensorRule(
  'sensor-expr-filter',
  'error',
  'expr filters: an expression and fields, each field with a name and a path',
  (target) =>
    dependenciesOf(target).flatMap(({ dependency, at }) =>
      listOf(dependency.filters?.exprs).flatMap((expr, index): Violation[] => {
        const exprAt = [...at, 'filters', 'exprs', index];
        if (!isRecord(expr)) return [];
        const violations: Violation[] = [];
        if (typeof expr.expr !== 'string' || expr.expr === '')
          violations.push({ path: pathOf(exprAt, 'expr'), message: 'an expr filter needs an expression' });
        const fields = listOf(expr.fields);
        if (fields.length === 0)
          violations.push({ path: pathOf(exprAt, 'fields'), message: 'an expr filter needs fields binding names to paths' });
        fields.forEach((field, fieldIndex) => {
          for (const key of ['name', 'path'])
            if (!isRecord(field) || typeof field[key] !== 'string' || field[key] === '')
              violations.push({ path: pathOf(exprAt, 'fields', fieldIndex, key), message: `every field needs a ${key}` });
        });
        return violations;
      }),
    ),
);

const CLOCK = /^([01]?\d|2[0-3]):[0-5]\d:[0-5]\d$/;

export const sensorContextTimeFilterRule = sensorRule(
  'sensor-context-time-filter',
  'error',
  'a context filter names at least one attribute; a time filter has start and stop as hh:mm:ss, not equal',
  (target) =>
    dependenciesOf(target).flatMap(({ dependency, at }) => {
      const violations: Violation[] = [];
      const context = dependency.filters?.context;
      if (
        isRecord(context) &&
        !['type', 'subject', 'source', 'datacontenttype'].some((key) => typeof context[key] === 'string' && context[key] !== '')
      ) {
        violations.push({
          path: pathOf(at, 'filters', 'context'),
          message: 'a context filter needs at least one of type, subject, source, datacontenttype',
        });
      }
      const time = dependency.filters?.time;
      if (isRecord(time)) {
        for (const key of ['start', 'stop'])
          if (typeof time[key] !== 'string' || !CLOCK.test(time[key]))
            violations.push({ path: pathOf(at, 'filters', 'time', key), message: `${key} must be a time of day hh:mm:ss` });
        if (time.start !== undefined && time.start === time.stop)
          violations.push({ path: pathOf(at, 'filters', 'time'), message: 'start and stop are equal: the window is empty' });
      }
      return violations;
    }),
);

export const SENSOR_DEPENDENCY_RULES: readonly LintRule[] = [
  sensorDependenciesRule,
  sensorLogicalOperatorRule,
  sensorDataFilterRule,
  sensorDataFilterRegexRule,
  sensorExprFilterRule,
  sensorContextTimeFilterRule,
];
