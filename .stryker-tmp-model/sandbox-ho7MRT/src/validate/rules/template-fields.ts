/**
 * The per-template fields Argo restricts (argo-semantics §2 rules 13, 17, 25-27, 43): timeouts on leaf
 * templates only and never a bare integer; parallelism on steps and DAGs only; suspend durations and retry
 * policies Argo can parse; at most one loop source; output parameters taken the way their template type
 * allows.
 */
// @ts-nocheck

import type { LintRule, Violation } from '../finding';
import { isArgoDuration, isGoDuration } from './go-duration';
import {
  callsOf,
  hasPlaceholder,
  isRecord,
  namedList,
  pathOf,
  templatesOf,
  typesOf,
  workflowSpecOf,
  WORKFLOW_KINDS,
  type TemplateAt,
} from './argo-spec';

const templateRule = (id: string, description: string, check: (holder: TemplateAt) => Violation[]): LintRule => ({
  id,
  severity: 'error',
  description,
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    return workflow ? templatesOf(workflow).flatMap(check) : [];
  },
});

const isNonLeaf = (template: Record<string, unknown>): boolean => template.steps !== undefined || template.dag !== undefined;

export const templateTimeoutRule = templateRule(
  'template-timeout',
  'timeout is a Go duration (not a bare integer) on a leaf template',
  ({ template, name, at }) => {
    const timeout = template.timeout;
    if (timeout === undefined || timeout === '' || hasPlaceholder(timeout)) return [];
    if (isNonLeaf(template))
      return [
        {
          path: pathOf(at, 'timeout'),
          message: `template "${name}": timeout only applies to leaf templates; set it on the templates the steps or tasks call`,
        },
      ];
    if (typeof timeout !== 'string' || !isGoDuration(timeout))
      return [
        {
          path: pathOf(at, 'timeout'),
          message: `template "${name}": timeout ${JSON.stringify(timeout)} is not a duration such as "30s" or "2h" (a bare number is refused)`,
        },
      ];
    return [];
  },
);

export const templateParallelismRule = templateRule(
  'template-parallelism',
  'parallelism only on steps and DAG templates',
  ({ template, name, at }) =>
    template.parallelism !== undefined && !isNonLeaf(template)
      ? [{ path: pathOf(at, 'parallelism'), message: `template "${name}": parallelism is only valid for steps and dag templates` }]
      : [],
);

export const suspendDurationRule = templateRule(
  'suspend-duration',
  'suspend.duration parses as Argo parses it (seconds or a Go duration)',
  ({ template, name, at }) => {
    const duration = isRecord(template.suspend) ? template.suspend.duration : undefined;
    if (duration === undefined || hasPlaceholder(duration)) return [];
    const text = typeof duration === 'number' ? String(duration) : duration;
    return typeof text === 'string' && isArgoDuration(text)
      ? []
      : [
          {
            path: pathOf(at, 'suspend', 'duration'),
            message: `template "${name}": suspend duration ${JSON.stringify(duration)} is neither seconds nor a Go duration such as "10m"`,
          },
        ];
  },
);

const RETRY_POLICIES = ['Always', 'OnFailure', 'OnError', 'OnTransientError', ''];

export const retryStrategyRule = templateRule(
  'retry-strategy',
  'retryStrategy: a known retryPolicy, a limit of at least 0, a backoff with a base duration, backoff durations Argo parses',
  ({ template, name, at }) => {
    const retry = template.retryStrategy;
    if (!isRecord(retry)) return [];
    const violations: Violation[] = [];
    if (retry.retryPolicy !== undefined && !RETRY_POLICIES.includes(retry.retryPolicy)) {
      violations.push({
        path: pathOf(at, 'retryStrategy', 'retryPolicy'),
        message: `template "${name}": retryPolicy must be one of ${RETRY_POLICIES.filter(Boolean).join(', ')}`,
      });
    }
    const limit = retry.limit;
    if (limit !== undefined && !hasPlaceholder(limit) && !(Number.isInteger(Number(limit)) && Number(limit) >= 0)) {
      violations.push({
        path: pathOf(at, 'retryStrategy', 'limit'),
        message: `template "${name}": retry limit ${JSON.stringify(limit)} must be a whole number of at least 0`,
      });
    }
    // argo-workflows `workflow/controller/operator.go` (processNodeRetries): a backoff without a base duration
    // fails the node with "no base duration specified for retryStrategy" the moment a retry is due.
    if (isRecord(retry.backoff) && (retry.backoff.duration === undefined || retry.backoff.duration === '')) {
      violations.push({
        path: pathOf(at, 'retryStrategy', 'backoff'),
        message: `template "${name}": backoff needs a duration: without one Argo fails the node ("no base duration specified for retryStrategy") instead of retrying`,
      });
    }
    for (const field of ['duration', 'maxDuration']) {
      const value = isRecord(retry.backoff) ? retry.backoff[field] : undefined;
      if (value === undefined || hasPlaceholder(value)) continue;
      if (!isArgoDuration(String(value)))
        violations.push({
          path: pathOf(at, 'retryStrategy', 'backoff', field),
          message: `template "${name}": backoff ${field} ${JSON.stringify(value)} is neither seconds nor a Go duration`,
        });
    }
    return violations;
  },
);

/** Where each template type takes its output parameters from. */
const OUTPUT_SOURCES: Readonly<Record<string, readonly string[]>> = {
  container: ['path', 'supplied', 'default'],
  script: ['path', 'supplied', 'default'],
  containerSet: ['path', 'supplied', 'default'],
  resource: ['jqFilter', 'jsonPath', 'supplied', 'default'],
  steps: ['parameter', 'expression', 'supplied', 'default'],
  dag: ['parameter', 'expression', 'supplied', 'default'],
  suspend: ['supplied', 'default'],
};

export const outputValueFromRule = templateRule(
  'output-value-from',
  'each output parameter has a value or one valueFrom source that its template type supports',
  ({ template, at }) => {
    const [type] = typesOf(template);
    const allowed = OUTPUT_SOURCES[type];
    return namedList(template.outputs, 'parameters').flatMap((output, index): Violation[] => {
      const path = pathOf(at, 'outputs', 'parameters', index);
      if (output.value !== undefined && output.valueFrom !== undefined)
        return [{ path, message: `output ${output.name} has both value and valueFrom: keep one` }];
      if (output.value !== undefined) return [];
      if (!isRecord(output.valueFrom)) return [{ path, message: `output ${output.name} needs a value or a valueFrom` }];
      const sources = Object.keys(output.valueFrom).filter((key) => key !== 'default');
      if (sources.length !== 1)
        return [
          {
            path: pathOf(at, 'outputs', 'parameters', index, 'valueFrom'),
            message: `output ${output.name}: valueFrom needs exactly one source (has ${sources.join(', ') || 'none'})`,
          },
        ];
      if (allowed && !allowed.includes(sources[0]))
        return [
          {
            path: pathOf(at, 'outputs', 'parameters', index, 'valueFrom', sources[0]),
            message: `output ${output.name}: a ${type} template takes outputs from ${allowed.filter((source) => source !== 'default').join(' or ')}, not ${sources[0]}`,
          },
        ];
      return [];
    });
  },
);

export const loopSourceRule: LintRule = {
  id: 'loop-source',
  severity: 'error',
  description: 'a step or task loops over at most one of withItems, withParam, withSequence',
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    return callsOf(workflow).flatMap(({ call, name, at }) => {
      const loops = ['withItems', 'withParam', 'withSequence'].filter((loop) => call[loop] !== undefined);
      return loops.length > 1
        ? [{ path: pathOf(at), message: `"${name}" sets ${loops.join(' and ')}: a step or task loops over one source` }]
        : [];
    });
  },
};

export const TEMPLATE_FIELD_RULES: readonly LintRule[] = [
  templateTimeoutRule,
  templateParallelismRule,
  suspendDurationRule,
  retryStrategyRule,
  outputValueFromRule,
  loopSourceRule,
];
