/**
 * How a sensor reads the task id from a pull request event: the first `task-N` label, else the branch
 * `feature/task-N-...`, else `none`. It is a Go template (text/template with Sprig), because Argo Events
 * evaluates trigger parameters with Go templates; the simulator runs this same text.
 *
 * Pure: no cdk8s, no I/O.
 */

/** The value of the task id when the event names none. */
export const NO_TASK = 'none';

/** The label that names a task on a pull request: `task-5`. */
export const TASK_LABEL_PATTERN = '^task-[0-9]+$';

/** The branch that implements a task: `feature/task-5-implementation`. */
export const TASK_BRANCH_PATTERN = '^feature/task-([0-9]+)(-.*)?$';

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
