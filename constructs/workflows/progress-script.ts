import { MAX_TASK_ID, PROGRESS_SHARDS, progressTaskKey } from '../model/naming';
import type { EnvVar } from './argo-types';
/**
 * Bash that checks TASK_ID (digits, at most `MAX_TASK_ID`) and prints the ConfigMap of its progress record,
 * `$PROGRESS_CONFIGMAP-$((TASK_ID % PROGRESS_SHARDS))`, as `progressConfigMapOf` names it. A task id that is
 * anything else stops the script before it reaches kubectl. `progressRecordEnv` gives what it reads.
 */
export const TASK_CONFIGMAP_BASH = String.raw`# The ConfigMap of this task's record; a task id that is not digits goes no further.
task_configmap() {
  if ! [[ "$TASK_ID" =~ ^[0-9]{1,${String(MAX_TASK_ID).length}}$ ]] || (( 10#$TASK_ID > ${MAX_TASK_ID} )); then
    echo "task id "$TASK_ID" is not a task id (digits, at most ${MAX_TASK_ID})" >&2
    return 2
  fi
  printf '%s-%d' "$PROGRESS_CONFIGMAP" "$(( 10#$TASK_ID % PROGRESS_SHARDS ))"
}`;

/**
 * Where a task's progress record is, as the scripts read it (`TASK_CONFIGMAP_BASH`, and PROGRESS_KEY):
 * the repository's base ConfigMap name and the task id, each a value or an Argo expression.
 */
export function progressRecordEnv(configMapBase: string, taskId: string): EnvVar[] {
  return [
    { name: 'PROGRESS_CONFIGMAP', value: configMapBase },
    { name: 'PROGRESS_SHARDS', value: String(PROGRESS_SHARDS) },
    { name: 'PROGRESS_KEY', value: progressTaskKey(taskId) },
  ];
}

/**
 * The bash that records a play's progress, run at every stage transition and once more by the exit
 * handler. It reads everything from the environment (names of keys included, so that the label and
 * annotation keys stay defined once, in `model/labels.ts`):
 *
 * - EVENT: `enter` (a stage begins) or `exit` (the play ends);
 * - STAGE, PREVIOUS_STAGE, AGENT, CLI, STATUS: the stage entered (on exit: the stage the play was in);
 * - WORKFLOW_STATUS: on exit, Argo's `workflow.status`;
 * - ROUND: the play's remediation round (digits; 1 when unset), kept in the record;
 * - TASK_ID (digits, checked before anything uses it), WORKFLOW_NAME, NAMESPACE, REPOSITORY, BRANCH,
 *   PROGRESS_CONFIGMAP (the base name), PROGRESS_SHARDS, PROGRESS_KEY;
 * - TRACKING_LABEL, HISTORY_ANNOTATION, ENTERED_AT_ANNOTATION;
 * - PARAMETER_NAMES (space-separated) and PARAMETER_1, PARAMETER_2, ...: the play parameters that stage
 *   conditions test, in that order, kept in the record so that a resume can pass them again.
 *
 * Each task owns one key of one of the repository's progress ConfigMaps (`{base}-{task id mod shards}`, see
 * `progressConfigMapOf`), and every write is a merge patch that carries the resourceVersion it read, retried
 * on conflict: parallel tasks never overwrite each other, and only tasks of one shard ever compete.
 */
export const PROGRESS_SCRIPT = String.raw`set -euo pipefail
now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
${TASK_CONFIGMAP_BASH}
configmap="$(task_configmap)"

# The play parameters, made one JSON object by the jq that writes the record (configmap_patch): names from
# PARAMETER_NAMES, values from PARAMETER_1, PARAMETER_2, ... (a later name given twice wins). The program sets
# $name1 to $value1, then $name2 to $value2, ..., and the values are --arg values only. (The arguments are
# passed as ${'$'}{parameter_arguments[@]+...}: an empty array is an unbound variable under set -u before bash 4.4.)
parameter_arguments=()
parameters_program='{}'
count=0
for name in $(printenv PARAMETER_NAMES || true); do
  count=$((count + 1))
  parameter_arguments+=(--arg "name$count" "$name" --arg "value$count" "$(printenv "PARAMETER_$count" || true)")
  parameters_program+=" | .[\$name$count] = \$value$count"
done
round="$(printenv ROUND || true)"
[[ "$round" =~ ^[0-9]+$ ]] || round=1

# Runs "$@" until it succeeds, at most 5 times, backing off 1, 2, 4, 8 seconds.
retry() {
  local attempt
  for attempt in 1 2 3 4 5; do
    if "$@"; then return 0; fi
    [ "$attempt" -lt 5 ] && sleep $((1 << (attempt - 1)))
  done
  echo "giving up after 5 attempts: $*" >&2
  return 1
}

# Appends the stage to the workflow's stage history annotation (optimistic lock on resourceVersion).
record_on_workflow() {
  local current version history patch
  current="$(kubectl get workflow "$WORKFLOW_NAME" -n "$NAMESPACE" -o json)" || return 1
  # One jq from the Workflow to its patch: the history annotation with this stage appended, the time it was
  # entered, and the resourceVersion read.
  patch="$(jq -c --arg hk "$HISTORY_ANNOTATION" --arg ek "$ENTERED_AT_ANNOTATION" --arg stage "$STAGE" --arg agent "$AGENT" --arg at "$now" \
    '((.metadata.annotations[$hk] // "[]") | (fromjson? // [])) as $history
     | { metadata: { resourceVersion: (.metadata.resourceVersion | tostring),
                     annotations: { ($hk): ($history + [ { stage: $stage, agent: $agent, enteredAt: $at } ] | tojson), ($ek): $at } } }' \
    <<<"$current")" || return 1
  kubectl patch workflow "$WORKFLOW_NAME" -n "$NAMESPACE" --type merge -p "$patch" >/dev/null
}

# Creates the progress ConfigMap with its tracking label when it does not exist yet.
ensure_configmap() {
  kubectl get configmap "$configmap" -n "$NAMESPACE" >/dev/null 2>&1 && return 0
  kubectl create configmap "$configmap" -n "$NAMESPACE" --dry-run=client -o json \
    --from-literal=repository="$REPOSITORY" --from-literal=branch="$BRANCH" --from-literal=started-at="$now" \
    | jq -c --arg tracking "$TRACKING_LABEL" '.metadata.labels[$tracking] = "true"' \
    | kubectl create -f - >/dev/null 2>&1 || kubectl get configmap "$configmap" -n "$NAMESPACE" >/dev/null
}

# The patch of the progress ConfigMap (standard input) for this event, in one jq: the task's record after this
# event, from the record before it (with the play parameters), under its key; the seed-compatible summary
# keys; and the resourceVersion read.
configmap_patch() {
  jq -c --arg key "$PROGRESS_KEY" --arg event "$EVENT" --arg repo "$REPOSITORY" --arg task "$TASK_ID" --arg wf "$WORKFLOW_NAME" \
    --arg now "$now" --arg stage "$STAGE" --arg previous "$PREVIOUS_STAGE" --arg agent "$AGENT" --arg cli "$CLI" --arg status "$STATUS" \
    --arg wfstatus "$WORKFLOW_STATUS" --arg round "$round" ${'$'}{parameter_arguments[@]+"${'$'}{parameter_arguments[@]}"} "($parameters_program) as \$parameters"' |
    (.metadata.resourceVersion | tostring) as $rv
    | (.data[$key] // "{}") | (fromjson? // {})
    | .repository = $repo | .task = $task | .workflowName = $wf | .lastUpdated = $now | .parameters = $parameters
    | .round = ($round | tonumber)
    | .startedAt = (.startedAt // $now)
    | if $event == "enter" then
        .stage = $stage | .status = $status | del(.reason)
        | (if $previous != "" and (.stageResults[$previous] | not) then .stageResults[$previous] = { result: "succeeded", finishedAt: $now } else . end)
        | (if $agent != "" then .lastAgent = $agent | .cliHistory = ((.cliHistory // []) + [ { stage: $stage, agent: $agent, cli: $cli, at: $now } ]) else . end)
      elif $wfstatus == "Succeeded" then .status = (.status // "completed") | .stage = (.stage // $stage)
      else
        .status = "failed" | .stage = (.stage // $stage)
        | .stageResults[.stage] = { result: ($wfstatus | ascii_downcase), finishedAt: $now }
      end
    | . as $record
    | { metadata: { resourceVersion: $rv }, data: { ($key): ($record | tojson), "current-task-id": $record.task,
        "workflow-name": $record.workflowName, status: $record.status, stage: $record.stage, "last-updated": $now } }'
}

# Writes this task's record, and the seed-compatible summary keys, in one optimistic merge patch.
record_progress() {
  local current patch
  ensure_configmap || return 1
  current="$(kubectl get configmap "$configmap" -n "$NAMESPACE" -o json)" || return 1
  patch="$(configmap_patch <<<"$current")" || return 1
  kubectl patch configmap "$configmap" -n "$NAMESPACE" --type merge -p "$patch" >/dev/null
}

if [ "$EVENT" = "enter" ]; then
  retry record_on_workflow
fi
retry record_progress
echo "task $TASK_ID of $REPOSITORY: $EVENT $STAGE (status: $STATUS$WORKFLOW_STATUS)"
`;
