/**
 * The bash of the remediator (`PlayRemediatorTemplate`): decide what an event asks for, stop the play,
 * and replace it with its successor (next round, or the same round after a push), or record that the
 * rounds are exhausted. Everything comes from the environment; no script contains `{{`.
 *
 * Why stop, then delete, then create under the same name: a DAG cannot go back to an earlier task, and a
 * Workflow's spec cannot be rewound. Stopping (`spec.shutdown: Stop`, what `argo stop` patches:
 * argo-workflows `workflow/util/util.go`, `patchShutdownStrategy`; "Stop a workflow but still run exit
 * handlers", `cmd/argo/commands/stop.go`) lets the play's exit handler run, which
 * cancels the play's CodeRuns; deleting it removes them (owner references) and frees its name, which the
 * `workflow-name` strategy relies on.
 */
import { TASK_CONFIGMAP_BASH } from './progress-script';
import { LIVE_PLAYS_BASH } from './release-scripts';
import { ARGO_COMPLETED_LABEL } from '../model/argo-api';

/** Where the decide step leaves its outputs (the step's output parameters). */
export const RemediatorFiles = {
  action: '/tmp/action',
  workflow: '/tmp/workflow',
  successor: '/tmp/successor.json',
  reason: '/tmp/reason',
  round: '/tmp/round',
} as const;

/**
 * A jq program over the live play (JSON) that prints its successor: the play as `playWorkflow()` built it
 * (name, labels, annotations, template reference, arguments), with `$stage` as its start stage and
 * current-stage label, `$round` as its round parameter and label, and the annotations `$resumedKey` (it
 * continues the task's run, so it keeps the releases that still hold) and `$eventKey` (the event that made
 * it, so a retried step never replaces it again). What the controller and the play added at run time
 * (`workflows.argoproj.io/*` labels, the previous stage, the stage history) is left behind.
 */
export const SUCCESSOR_JQ = `{
  apiVersion: .apiVersion, kind: .kind,
  metadata: {
    name: .metadata.name, namespace: .metadata.namespace,
    labels: ((.metadata.labels // {}) | with_entries(select((.key | startswith("workflows.argoproj.io/") | not) and .key != $previousKey))
             | .[$stageKey] = $stage | .[$roundKey] = $round),
    annotations: ((.metadata.annotations // {}) | with_entries(select(.key as $key | $keep | split(" ") | index($key)))
             | .[$resumedKey] = $resumed | .[$reasonKey] = $reason | .[$eventKey] = $event)
  },
  spec: {
    workflowTemplateRef: .spec.workflowTemplateRef,
    arguments: { parameters: (
      ((.spec.arguments.parameters // []) | map(if .name == $stageParameter then .value = $stage elif .name == $roundParameter then .value = $round else . end))
      | if any(.[]; .name == $roundParameter) then . else
          (map(.name) | index($stageParameter)) as $at | .[0:($at + 1)] + [ { name: $roundParameter, value: $round } ] + .[($at + 1):]
        end) }
  }
}`;

/**
 * Decides what the event asks for. Environment: KIND (`remediate` or `stale-work`), TASK_ID, REPOSITORY,
 * REPOSITORY_LABEL, PLAY (the play's name under `workflow-name`), PROGRESS_CONFIGMAP (the base name),
 * PROGRESS_SHARDS, PROGRESS_KEY, NAMESPACE, SENDER, REASON, PR_URL, EVENT_ID, EVENT_AT, MAX_ROUNDS,
 * REMEDIABLE_STAGES and STALE_STAGES (space-separated: where each kind of event counts),
 * IMPLEMENTATION_STAGE and STALE_RESTART_STAGE (where each kind's successor starts),
 * EXHAUSTED_FORMAT (printf of round and maximum), the label keys TASK_LABEL, REPOSITORY_LABEL_KEY,
 * TYPE_LABEL, STAGE_LABEL, PREVIOUS_STAGE_LABEL, ROUND_LABEL, PLAY_TYPE, the annotation keys
 * RESUMED_ANNOTATION, REASON_ANNOTATION, EVENT_ANNOTATION, KEEP_ANNOTATIONS (space-separated), and the
 * parameter names START_STAGE_PARAMETER, ROUND_PARAMETER.
 *
 * Does nothing (action `none`) for an event that names no task, a task without exactly one live play, a
 * play not in one of ELIGIBLE_STAGES (a play already sent back sits at its implementation stage: a second
 * review of the same round changes nothing), an event older than the play (it belongs to an earlier
 * round), and an event already handled (its id is in the record's remediation history). Otherwise
 * `replace` with the successor's manifest, or `exhaust` when a request for changes comes in the last round.
 */
export const DECIDE_SCRIPT = String.raw`set -euo pipefail
printf '%s' none > "$ACTION_FILE"
: > "$WORKFLOW_FILE"
printf '%s' '{}' > "$SUCCESSOR_FILE"
: > "$REASON_FILE"
: > "$ROUND_FILE"
${TASK_CONFIGMAP_BASH}
if ! [[ "$TASK_ID" =~ ^[0-9]+$ ]]; then
  echo "the event names no task: not a play's pull request or branch"
  exit 0
fi
${LIVE_PLAYS_BASH}
# One jq for what the decision reads, as shell assignments it quotes, evaluated after a checked assignment:
# how many live plays, and the first one (as JSON), its name, stage, round and creation time (RFC 3339 UTC
# cut to the second, to compare as text).
fields="$(jq -r --arg stageKey "$STAGE_LABEL" --arg roundKey "$ROUND_LABEL" "$live_plays"' | @sh "count=\(length) play=\(.[0] // {} | tojson) name=\(.[0].metadata.name // "") stage=\(.[0].metadata.labels[$stageKey] // "") round=\(.[0].metadata.labels[$roundKey] // "1") created=\((.[0].metadata.creationTimestamp // "")[0:19])"' \
  <<<"$plays_read")"
eval "$fields"
if [ "$count" -ne 1 ]; then
  echo "$count live plays for task $TASK_ID of $REPOSITORY: nothing to $KIND"
  exit 0
fi
[[ "$round" =~ ^[0-9]+$ ]] || round=1
if [ "$KIND" = "remediate" ]; then
  eligible="$REMEDIABLE_STAGES"
  start="$IMPLEMENTATION_STAGE"
else
  eligible="$STALE_STAGES"
  start="$STALE_RESTART_STAGE"
fi
if [ -z "$eligible" ] || ! [[ " $eligible " == *" $stage "* ]]; then
  echo "play $name is at \"$stage\" (round $round): a $KIND event counts only at: $eligible"
  exit 0
fi
event_at="$(cut -c1-19 <<<"$EVENT_AT")"
if [[ "$event_at" =~ ^[0-9]{4}- ]] && [[ "$event_at" < "$created" ]]; then
  echo "the event ($EVENT_AT) is older than play $name ($created): it belongs to an earlier round"
  exit 0
fi
configmap="$(task_configmap)"
errors="$(mktemp)"
if current="$(kubectl get configmap "$configmap" -n "$NAMESPACE" -o json 2>"$errors")"; then
  # Whether the record's remediation history holds this event already.
  handled="$(jq -r --arg key "$PROGRESS_KEY" --arg id "$EVENT_ID" \
    '((.data[$key] // "{}") | (fromjson? // {})) as $record | $id != "" and any($record.remediations[]?; .eventId == $id)' <<<"$current")"
elif grep -q NotFound "$errors"; then
  handled=false
else
  echo "cannot read $configmap: $(cat "$errors")" >&2
  exit 1
fi
if [ "$handled" = true ]; then
  echo "event $EVENT_ID was handled already (a duplicate delivery): nothing to do"
  exit 0
fi
if [ "$KIND" = "remediate" ] && (( round >= MAX_ROUNDS )); then
  # shellcheck disable=SC2059
  printf "$EXHAUSTED_FORMAT" "$round" "$MAX_ROUNDS" > "$REASON_FILE"
  printf '%s' exhaust > "$ACTION_FILE"
  printf '%s' "$round" > "$ROUND_FILE"
  printf '%s' "$name" > "$WORKFLOW_FILE"
  echo "play $name: $(cat "$REASON_FILE")"
  exit 0
fi
if [ "$KIND" = "remediate" ]; then
  next=$((round + 1))
  reason="round $next: $REASON by $SENDER"
else
  next="$round"
  reason="round $round: $REASON by $SENDER; re-running from $start"
fi
[ -z "$PR_URL" ] || reason="$reason ($PR_URL)"
resumed="$configmap/$PROGRESS_KEY: $KIND of round $round at stage $stage"
jq -c --arg stage "$start" --arg round "$next" --arg stageKey "$STAGE_LABEL" --arg roundKey "$ROUND_LABEL" \
  --arg previousKey "$PREVIOUS_STAGE_LABEL" --arg resumedKey "$RESUMED_ANNOTATION" --arg resumed "$resumed" \
  --arg reasonKey "$REASON_ANNOTATION" --arg reason "$reason" --arg eventKey "$EVENT_ANNOTATION" --arg event "$EVENT_ID" \
  --arg keep "$KEEP_ANNOTATIONS" \
  --arg stageParameter "$START_STAGE_PARAMETER" --arg roundParameter "$ROUND_PARAMETER" "$SUCCESSOR_JQ" <<<"$play" > "$SUCCESSOR_FILE"
printf '%s' "$reason" > "$REASON_FILE"
printf '%s' replace > "$ACTION_FILE"
printf '%s' "$next" > "$ROUND_FILE"
printf '%s' "$name" > "$WORKFLOW_FILE"
echo "play $name (round $round, at $stage): $reason"
`;

/**
 * Stops the play PLAY (NAMESPACE) and waits until it has finished, at most STOP_TIMEOUT seconds. A stop lets
 * the exit handler run, which records the end and cancels the play's CodeRuns (and direct-mode pods end with
 * their Workflow). A play already gone or finished is fine: a retried step finds it so. With REASON set (rounds
 * exhausted), the reason is put on the play as REASON_ANNOTATION first, since `argo stop --message` reaches
 * only a node (argo-workflows `workflow/util/util.go`, `StopWorkflow`) and the controller writes its own
 * "Stopped with strategy 'Stop'" into `status.message` (`workflow/controller/operator.go`).
 */
export const STOP_PLAY_SCRIPT = String.raw`set -euo pipefail
errors="$(mktemp)"
if ! current="$(kubectl get workflow "$PLAY" -n "$NAMESPACE" -o json 2>"$errors")"; then
  grep -q NotFound "$errors" && { echo "play $PLAY is gone already"; exit 0; }
  cat "$errors" >&2
  exit 1
fi
if [ -n "$REASON" ]; then
  patch="$(jq -n -c --arg key "$REASON_ANNOTATION" --arg reason "$REASON" '{ metadata: { annotations: { ($key): $reason } } }')"
  kubectl patch workflow "$PLAY" -n "$NAMESPACE" --type merge -p "$patch" >/dev/null
fi
if [ "$(jq -r '.metadata.labels["${ARGO_COMPLETED_LABEL}"] // "false"' <<<"$current")" != "true" ]; then
  kubectl patch workflow "$PLAY" -n "$NAMESPACE" --type merge -p '{"spec":{"shutdown":"Stop"}}' >/dev/null
  echo "stopped play $PLAY: its exit handler cancels its CodeRuns"
fi
waited=0
while :; do
  completed="$(kubectl get workflow "$PLAY" -n "$NAMESPACE" -o json 2>/dev/null | jq -r '.metadata.labels["${ARGO_COMPLETED_LABEL}"] // "false"' || echo gone)"
  if [ "$completed" = "true" ] || [ "$completed" = "gone" ]; then
    echo "play $PLAY has finished"
    exit 0
  fi
  if (( waited >= STOP_TIMEOUT )); then
    echo "play $PLAY has not finished $STOP_TIMEOUT seconds after its stop" >&2
    exit 1
  fi
  sleep 5
  waited=$((waited + 5))
done
`;

/** The jq that appends one entry to the record's remediation history, unless its event is there already. */
const APPEND_REMEDIATION_JQ = `if any(.remediations[]?; .eventId == $entry.eventId and $entry.eventId != "") then . else .remediations = ((.remediations // []) + [ $entry ]) end`;

/**
 * Bash that writes the task's progress record with `update` (a jq program over the record, given
 * `$entry`, `$now` and `$round`), in an optimistic merge patch retried on conflict, like the progress script.
 */
const RECORD_UPDATE_BASH = String.raw`${TASK_CONFIGMAP_BASH}
configmap="$(task_configmap)"
now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
entry="$(jq -n -c --arg round "$NEXT_ROUND" --arg kind "$KIND" --arg reason "$REASON" --arg reviewer "$SENDER" --arg url "$PR_URL" \
  --arg id "$EVENT_ID" --arg at "$now" --arg start "$START_STAGE" \
  '{ round: ($round | tonumber), kind: $kind, reason: $reason, reviewer: $reviewer, url: $url, eventId: $id, startStage: $start, at: $at }')"
update_record() {
  local current patch
  current="$(kubectl get configmap "$configmap" -n "$NAMESPACE" -o json)" || return 1
  # One jq from the ConfigMap to its patch: the record read, updated, and written back with the
  # resourceVersion it was read at.
  patch="$(jq -c --arg key "$PROGRESS_KEY" --argjson entry "$entry" --arg now "$now" --arg round "$NEXT_ROUND" \
    '(.metadata.resourceVersion | tostring) as $rv | (.data[$key] // "{}") | (fromjson? // {}) | ('"$1"')
    | { metadata: { resourceVersion: $rv }, data: { ($key): tojson, status: (.status // ""), stage: (.stage // ""), "last-updated": $now } }' \
    <<<"$current")" || return 1
  kubectl patch configmap "$configmap" -n "$NAMESPACE" --type merge -p "$patch" >/dev/null
}
update_with_retries() {
  local attempt
  for attempt in 1 2 3 4 5; do
    update_record "$1" && return 0
    [ "$attempt" -lt 5 ] && sleep $((1 << (attempt - 1)))
  done
  echo "cannot update the progress record $PROGRESS_KEY of $configmap" >&2
  return 1
}`;

/**
 * Replaces the stopped play PLAY with SUCCESSOR (a manifest from the decide step; STAGE_LABEL names its start
 * stage), in an order that a retry
 * can repeat: record the round in the progress record (its history keeps each event once), remove the
 * releases that do not hold in the new round (ROUND_GATES, from RELEASE_CONFIGMAP: the pull request gate's
 * record stays, the approvals of the old round go), delete the play unless it already is the successor
 * (it carries EVENT_ANNOTATION = EVENT_ID), and create the successor.
 */
export const REPLACE_PLAY_SCRIPT = String.raw`set -euo pipefail
# One jq for the successor's start stage and the merge patch that removes the old round's releases.
fields="$(jq -r --arg key "$STAGE_LABEL" --arg gates "$ROUND_GATES" \
  '@sh "START_STAGE=\(.metadata.labels[$key] | tostring) removal=\({ data: ([$gates | split(" ")[] | select(. != "") | { (.): null }] | add // {}) } | tojson)"' \
  <<<"$SUCCESSOR")"
eval "$fields"
${RECORD_UPDATE_BASH}
update_with_retries '${APPEND_REMEDIATION_JQ} | .round = ($round | tonumber) | .stage = $entry.startStage' >/dev/null
errors="$(mktemp)"
if ! kubectl patch configmap "$RELEASE_CONFIGMAP" -n "$NAMESPACE" --type merge -p "$removal" >/dev/null 2>"$errors"; then
  grep -q NotFound "$errors" || { cat "$errors" >&2; exit 1; }
fi
echo "removed the releases that do not hold in the new round: $ROUND_GATES"
if current="$(kubectl get workflow "$PLAY" -n "$NAMESPACE" -o json 2>"$errors")"; then
  if [ "$(jq -r --arg key "$EVENT_ANNOTATION" '.metadata.annotations[$key] // ""' <<<"$current")" = "$EVENT_ID" ] && [ -n "$EVENT_ID" ]; then
    echo "play $PLAY is the successor already (a retried step)"
    exit 0
  fi
  kubectl delete workflow "$PLAY" -n "$NAMESPACE" --wait=true >/dev/null
  echo "deleted play $PLAY and its CodeRuns"
elif ! grep -q NotFound "$errors"; then
  cat "$errors" >&2
  exit 1
fi
kubectl create -f - <<<"$SUCCESSOR" >/dev/null
echo "created play $PLAY: $REASON"
`;

/** Records in the task's progress record that its rounds are exhausted: status failed, with the reason. */
export const RECORD_EXHAUSTED_SCRIPT = String.raw`set -euo pipefail
START_STAGE=""
${RECORD_UPDATE_BASH}
update_with_retries '${APPEND_REMEDIATION_JQ} | .status = "failed" | .reason = $entry.reason | .lastUpdated = $now | .round = ($round | tonumber)' >/dev/null
echo "task $TASK_ID: $REASON"
`;
