/**
 * How a sensor reads the task id from a pull request event: the first `task-N` label, else the branch
 * `feature/task-N-...`, else `none`. It is a Go template (text/template with Sprig), because Argo Events
 * evaluates trigger parameters with Go templates; the simulator runs this same text.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { MAX_TASK_ID } from './naming';

/** The value of the task id when the event names none. */
export const NO_TASK = 'none';

/**
 * The decimal numbers from 0 to `max` in their one canonical form (no leading zero), as an RE2 expression
 * without captures: `0`, the shorter numbers, then the numbers of `max`'s length digit by digit below it.
 */
export function canonicalNumberPattern(max: number): string {
  const digits = String(max);
  const alternatives = ['0'];
  if (digits.length > 1) alternatives.push(digits.length === 2 ? '[1-9]' : `[1-9][0-9]{0,${digits.length - 2}}`);
  for (let at = 0; at < digits.length; at += 1) {
    const lowest = at === 0 ? 1 : 0;
    const below = Number(digits[at]) - 1;
    if (below < lowest) continue;
    const rest = digits.length - at - 1;
    const range = below === lowest ? String(lowest) : `[${lowest}-${below}]`;
    alternatives.push(`${digits.slice(0, at)}${range}${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  }
  if (max > 0) alternatives.push(digits);
  return `(?:${alternatives.join('|')})`;
}

/**
 * A task id as every part of the platform writes and reads it (the runtime's `canonicalTaskId`): digits
 * without a leading zero, at most `MAX_TASK_ID`. `task-0005` or `feature/task-05-x` name no task: the Sensor
 * recorded `...-task-0005` while the play read `...-task-5`, and waited at its gate forever.
 */
const TASK_ID = canonicalNumberPattern(MAX_TASK_ID);

/** The label that names a task on a pull request: `task-5`. */
export const TASK_LABEL_PATTERN = `^task-${TASK_ID}$`;

/** The branch that implements a task: `feature/task-5-implementation`; the task id is its first group. */
export const TASK_BRANCH_PATTERN = `^feature/task-(${TASK_ID})(-.*)?$`;

/** The Go template statements that leave the task id in `$task`. */
const TASK_ID_STATEMENTS = [
  '{{- $task := "" -}}',
  '{{- range .Input.body.pull_request.labels -}}',
  `{{- if and (eq $task "") (regexMatch "${TASK_LABEL_PATTERN}" .name) -}}{{- $task = trimPrefix "task-" .name -}}{{- end -}}`,
  '{{- end -}}',
  `{{- if eq $task "" -}}{{- $task = regexReplaceAll "${TASK_BRANCH_PATTERN}" (regexFind "${TASK_BRANCH_PATTERN}" .Input.body.pull_request.head.ref) "\${1}" -}}{{- end -}}`,
  `{{- if eq $task "" -}}{{- $task = "${NO_TASK}" -}}{{- end -}}`,
].join('');

/** A Go template that renders `prefix`, the task id, then `suffix`. */
export function taskIdTemplate(prefix = '', suffix = ''): string {
  return `${TASK_ID_STATEMENTS}${prefix}{{ $task }}${suffix}`;
}
