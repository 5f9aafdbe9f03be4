/**
 * The bash of the two helpers that make "no lost events" work: the play's check at a gate, and the
 * resumer's find-and-record step. Both read everything from the environment; neither contains `{{`.
 *
 * The protocol: whoever learns of a release records it first (key = gate, in the task's release
 * ConfigMap), then tries to resume. The play, on reaching a gate, labels itself as waiting there, then
 * reads the record, then suspends only when no release is recorded. Either the play sees the record, or
 * the resumer sees the play waiting: an event is never lost, whichever comes first.
 *
 * Each script reads what it needs in as few runs of jq as it can, as shell assignments jq quotes (`@sh`):
 * every start of jq 1.6 costs a pod about 20 ms of CPU, spent compiling jq's own builtins.
 */
import { ARGO_COMPLETED_LABEL } from '../model/argo-api';

/** Where the gate check leaves its answer, `true` or `false` (the step's output parameter). */
export const RELEASED_FILE = '/tmp/released';

/** Where the resumer's find step leaves the name of the play to resume (empty: none). */
export const WORKFLOW_FILE = '/tmp/workflow';

/**
 * Bash that reads the task's plays: the one named PLAY when it is set (the workflow-name strategy), else
 * those with the play's labels (TASK_ID, REPOSITORY_LABEL). It sets `plays_read` to what kubectl printed
 * and `live_plays` to the jq filter that makes of it the JSON list of the live (not completed) plays, for
 * the jq that reads them to start with. A play that cannot be read for another reason than "not found"
 * fails the step. The resumer and the remediator find plays with it alike.
 */
export const LIVE_PLAYS_BASH = String.raw`selector="$TASK_LABEL=$TASK_ID,$REPOSITORY_LABEL_KEY=$REPOSITORY_LABEL,$TYPE_LABEL=$PLAY_TYPE"
live='[.[] | select((.metadata.labels["${ARGO_COMPLETED_LABEL}"] // "false") != "true")]'
if [ -n "$PLAY" ]; then
  errors="$(mktemp)"
  if plays_read="$(kubectl get workflow "$PLAY" -n "$NAMESPACE" -o json 2>"$errors")"; then
    live_plays="[.] | $live"
  elif grep -q NotFound "$errors"; then
    plays_read='[]'
    live_plays="$live"
  else
    echo "cannot read play $PLAY: $(cat "$errors")" >&2
    exit 1
  fi
else
  plays_read="$(kubectl get workflows -n "$NAMESPACE" -l "$selector" -o json)"
  live_plays=".items | $live"
fi`;

/**
 * A jq program over a Workflow (JSON) that prints how many of its suspend nodes wait for a resume at the
 * gate `$gate` (a `Suspend` node in phase `Running` whose `$input` input is the gate), or `unknown` when the
 * node status is offloaded or compressed and kubectl cannot see it. This is the node `argo resume
 * --node-field-selector` would release (argo-workflows `workflow/util/util.go`, `updateSuspendedNode`:
 * only an active suspend node matches).
 */
const WAITING_AT_GATE_JQ = `if ((.status.offloadNodeStatusVersion // "") != "" or (.status.compressedNodes // "") != "") then "unknown"
  else [ (.status.nodes // {})[] | select(.type == "Suspend" and .phase == "Running")
         | select(any(.inputs.parameters[]?; .name == $input and .value == $gate)) ] | length end`;

/**
 * The play's check at a gate. Writes `true` to RELEASED_FILE when the gate (STAGE) has a release of this
 * run recorded in RELEASE_CONFIGMAP (NAMESPACE), `false` when it has none. Any error other than "not
 * found" fails the step, so a broken permission never reads as "not released".
 *
 * Releases belong to one run. A record counts when it was made at or after the play Workflow
 * (WORKFLOW_NAME) was created; a play recreated from its progress record (it carries RESUMED_ANNOTATION)
 * keeps every record, since the events of its run may have come while no Workflow existed. A task run
 * again from its first stage is a new Workflow without that annotation: the previous run's releases are
 * older than it and never pass its gates; every check of a fresh run also removes each such older
 * record (a merge patch that carries the resourceVersion it read, so a record written meanwhile is never
 * lost: on a conflict the clean-up is skipped), so a play later recreated from this run's state cannot
 * take them for its own.
 */
export const CHECK_RELEASE_SCRIPT = String.raw`set -euo pipefail
# stderr apart from the JSON: a warning from kubectl must not end up in what jq reads.
errors="$(mktemp)"
play="$(kubectl get workflow "$WORKFLOW_NAME" -n "$NAMESPACE" -o json)"
if output="$(kubectl get configmap "$RELEASE_CONFIGMAP" -n "$NAMESPACE" -o json 2>"$errors")"; then
  :
elif grep -q NotFound "$errors"; then
  output=""
else
  echo "cannot read $RELEASE_CONFIGMAP: $(cat "$errors")" >&2
  exit 1
fi
# One jq reads the play and its release record together, as shell assignments it quotes, evaluated after
# a checked assignment so that a jq failure stops the script:
# - created: the play's creation, RFC 3339 UTC cut to the second, so that two such texts compare as text;
# - release and released_at: the gate's record and when it was made ("" when the record is not JSON or
#   has no time: it counts as old);
# - stale and cleanup: the records older than the play (sorted, for the message) and the merge patch that
#   removes them, carrying the resourceVersion read so that a record written meanwhile is never lost.
fields="$(jq -r -s --arg key "$RESUMED_ANNOTATION" --arg gate "$STAGE" '
  .[0] as $play | (.[1].data // {}) as $data
  | (($play.metadata.creationTimestamp // "")[0:19]) as $created
  | ($data[$gate] // "") as $release
  | [$data | to_entries[] | select(((.value | fromjson? | .releasedAt?) // "" | tostring | .[0:19]) < $created) | .key] as $stale
  | { metadata: { resourceVersion: (.[1].metadata.resourceVersion | tostring) }, data: ($stale | map({ (.): null }) | add // {}) } as $cleanup
  | @sh "resumed=\($play.metadata.annotations[$key] // "") created=\($created) release=\($release)",
    @sh "released_at=\(($release | fromjson? | .releasedAt?) // "" | tostring | .[0:19]) stale=\($stale | sort | join(", ")) cleanup=\($cleanup | tojson)"' \
  <<<"$play
${'$'}{output:-null}")"
eval "$fields"
if [ -n "$output" ] && [ -z "$resumed" ] && [ -n "$stale" ]; then
  if kubectl patch configmap "$RELEASE_CONFIGMAP" -n "$NAMESPACE" --type merge -p "$cleanup" >/dev/null 2>&1; then
    echo "removed the releases of earlier runs: $stale"
  else
    echo "left the releases of earlier runs for a later check: the record changed meanwhile"
  fi
fi
if [ -n "$release" ] && [ -z "$resumed" ]; then
  if [ -z "$released_at" ] || [[ "$released_at" < "$created" ]]; then
    echo "gate $STAGE has a release from an earlier run of the task (released at \"$released_at\", this run started at $created): ignored"
    release=""
  fi
fi
if [ -n "$release" ]; then
  echo "gate $STAGE was released before the play reached it: $release"
  echo true > ${RELEASED_FILE}
else
  echo "gate $STAGE has no release yet: waiting for one"
  echo false > ${RELEASED_FILE}
fi
`;

/**
 * The resumer's first step. Environment: GATE, TASK_ID ("none" when the event named no task),
 * REPOSITORY, REPOSITORY_LABEL, RELEASE_CONFIGMAP, PR_URL, PR_NUMBER, PLAY (the play's name under the
 * `workflow-name` strategy, empty under `label-selector`), NAMESPACE, GATE_INPUT, and the label keys
 * TASK_LABEL, REPOSITORY_LABEL_KEY, TYPE_LABEL, STAGE_LABEL, TRACKING_LABEL, PLAY_TYPE, plus the annotation
 * keys PR_URL_ANNOTATION and PR_NUMBER_ANNOTATION.
 *
 * An event that names no task ends here, successfully, before anything is written. Otherwise it records
 * the release (with the time, which binds it to the runs that started before it), finds the live play of
 * the task, and writes to WORKFLOW_FILE the name of the play to resume when it waits at this gate now: its
 * stage label says so and its suspend node for the gate is active. Otherwise nothing is resumed, and that
 * is safe: a play that has not suspended yet reads the record after its suspend node exists (the gate runs
 * the two side by side), and a gate already passed (a duplicate delivery) needs nothing.
 */
export const FIND_PLAY_SCRIPT = String.raw`set -euo pipefail
: > ${WORKFLOW_FILE}
now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
if ! [[ "$TASK_ID" =~ ^[0-9]+$ ]]; then
  echo "the event names no task (no task-N label, no feature/task-N branch): not a play pull request"
  exit 0
fi

# One jq for the three writes this script may make, as shell assignments it quotes: the merge patch of the
# gate's key into the task's release record, the record to create when there is none, and the PR
# annotations of the play to resume. Assigned before eval so that a jq failure stops the script.
writes="$(jq -n -r --arg url "$PR_URL" --arg number "$PR_NUMBER" --arg at "$now" --arg gate "$GATE" \
  --arg name "$RELEASE_CONFIGMAP" --arg ns "$NAMESPACE" --arg tracking "$TRACKING_LABEL" --arg taskLabel "$TASK_LABEL" \
  --arg task "$TASK_ID" --arg repoKey "$REPOSITORY_LABEL_KEY" --arg repo "$REPOSITORY_LABEL" \
  --arg uk "$PR_URL_ANNOTATION" --arg nk "$PR_NUMBER_ANNOTATION" '
  ({ prUrl: $url, prNumber: $number, releasedAt: $at } | tojson) as $record
  | { data: { ($gate): $record } } as $patch
  | { apiVersion: "v1", kind: "ConfigMap", metadata: { name: $name, namespace: $ns, labels: { ($tracking): "true", ($taskLabel): $task, ($repoKey): $repo } }, data: { ($gate): $record } } as $manifest
  | { metadata: { annotations: { ($uk): $url, ($nk): $number } } } as $annotations
  | @sh "release_patch=\($patch | tojson) release_manifest=\($manifest | tojson) annotations_patch=\($annotations | tojson)"')"
eval "$writes"

# Merges this gate's key into the task's release record, or creates the record; retried, since two
# resumers may race to create it.
record_release() {
  kubectl patch configmap "$RELEASE_CONFIGMAP" -n "$NAMESPACE" --type merge -p "$release_patch" >/dev/null 2>&1 && return 0
  kubectl create -f - <<<"$release_manifest" >/dev/null
}
for attempt in 1 2 3; do
  record_release && break
  [ "$attempt" -lt 3 ] || { echo "cannot record the release in $RELEASE_CONFIGMAP" >&2; exit 1; }
  sleep "$attempt"
done
echo "recorded the release of $GATE for task $TASK_ID of $REPOSITORY ($PR_URL)"

${LIVE_PLAYS_BASH}
# One jq for what the resume needs, as shell assignments it quotes: how many live plays, and the first one's
# name, stage and suspend nodes waiting at the gate.
fields="$(jq -r --arg key "$STAGE_LABEL" --arg gate "$GATE" --arg input "$GATE_INPUT" "$live_plays"' | @sh "count=\(length) name=\(.[0].metadata.name // "") stage=\(.[0].metadata.labels[$key] // "") waiting=\(.[0] // {} | ${WAITING_AT_GATE_JQ})"' \
  <<<"$plays_read")"
eval "$fields"
if [ "$count" -eq 0 ]; then
  echo "no live play for task $TASK_ID of $REPOSITORY: the release waits in $RELEASE_CONFIGMAP"
  exit 0
fi
if [ "$count" -gt 1 ]; then
  echo "$count live plays match $selector; resuming none: delete the stale ones" >&2
  exit 0
fi
if [ "$stage" != "$GATE" ]; then
  echo "play $name is at stage \"$stage\", not at $GATE: it will pass $GATE on arrival if it gets there"
  exit 0
fi
if [ "$waiting" = "0" ]; then
  echo "play $name has no active suspend node at $GATE: it has passed the gate already, or its gate check will find the record"
  exit 0
fi
kubectl patch workflow "$name" -n "$NAMESPACE" --type merge -p "$annotations_patch" >/dev/null
echo "play $name waits at $GATE: resuming it"
printf '%s' "$name" > ${WORKFLOW_FILE}
`;

/**
 * Runs after a failed `argo resume` of the play PLAY at GATE (NAMESPACE, GATE_INPUT). The resume fails
 * with "no suspend nodes matching" when another resumer released the gate first (a duplicate delivery);
 * that is success, and the resumer must not be left Failed. It fails only while the gate still waits.
 */
export const CONFIRM_RELEASED_SCRIPT = String.raw`set -euo pipefail
waiting="$(kubectl get workflow "$PLAY" -n "$NAMESPACE" -o json | jq -r --arg gate "$GATE" --arg input "$GATE_INPUT" '${WAITING_AT_GATE_JQ}')"
if [ "$waiting" = "0" ]; then
  echo "gate $GATE of $PLAY no longer waits: released by another delivery of the event"
  exit 0
fi
echo "gate $GATE of $PLAY still waits (active suspend nodes: $waiting): the resume failed" >&2
exit 1
`;
