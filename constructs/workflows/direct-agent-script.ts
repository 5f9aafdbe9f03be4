/**
 * The bash a direct agent step runs in the CLI's image: it finds the task's session on the workspace, resumes
 * it with the same CLI or starts a new one (primed from the task's context file when the agent moved to
 * another CLI), runs the CLI once, records the session id and appends the run to the context file. The CLI's
 * exit code is the step's: non-zero fails the attempt, and the template's retries apply. Stopped (SIGTERM or
 * SIGINT), it keeps the session the CLI already announced, appends an interrupted entry, stops the CLI and
 * exits 143 (130), within the pod's grace period.
 *
 * Every value reaches the script as environment (never pasted into its text); the executor's argument
 * vectors are JSON arrays whose placeholder arguments (executors.ts `ArgumentPlaceholders`) are replaced
 * whole, so no value can add an argument. The image needs bash, jq, git, curl and openssl.
 */
import { ArgumentPlaceholders } from '../model/executors';

/** The environment the script reads; the direct agent template sets every one. */
export const DirectAgentEnv = {
  cli: 'CLI',
  agent: 'AGENT',
  binary: 'CLI_BINARY',
  spawnArgs: 'SPAWN_ARGS',
  resumeArgs: 'RESUME_ARGS',
  sessionIdSource: 'SESSION_ID_SOURCE',
  sessionIdFilter: 'SESSION_ID_FILTER',
  resultFilter: 'RESULT_FILTER',
  systemPromptFlag: 'SYSTEM_PROMPT_FLAG',
  systemPromptFile: 'SYSTEM_PROMPT_FILE',
  model: 'MODEL',
  taskId: 'TASK_ID',
  repository: 'REPOSITORY',
  baseBranch: 'BASE_BRANCH',
  round: 'ROUND',
  stage: 'STAGE',
  workflowName: 'WORKFLOW_NAME',
  workspace: 'WORKSPACE',
  checkout: 'CHECKOUT',
  stateFolder: 'STATE_FOLDER',
  githubAppCredentials: 'GITHUB_APP_CREDENTIALS',
  githubApp: 'GITHUB_APP',
  githubApi: 'GITHUB_API',
  gitServer: 'GIT_SERVER',
} as const;

/** The file, in the task's state folder, that holds an agent's session: `{"cli", "id", "agent"}`. */
export const SESSION_FILE_SUFFIX = '.session.json';
/** The task's context file in its state folder: what earlier runs did, for a session that starts over. */
export const CONTEXT_FILE = 'context.md';
/** How many lines of an agent's answer the context file keeps per run. */
export const CONTEXT_ANSWER_LINES = 60;
/**
 * How much of the context file (its end) a new session's first prompt carries. The prompt is one argument,
 * and Linux refuses an argument over 128 KiB (MAX_ARG_STRLEN) with E2BIG, which would fail every attempt;
 * the agent can read the whole file on the workspace.
 */
export const CONTEXT_PROMPT_BYTES = 48 * 1024;

const { prompt, sessionId, model, systemPrompt } = ArgumentPlaceholders;

/**
 * How long the token program hands out the installation token it got: GitHub's installation tokens expire
 * an hour after they are made; ten minutes are left for the longest fetch or push that starts with it.
 */
export const TOKEN_REUSE_SECONDS = 50 * 60;

/** How the file that keeps the token in the pod's temp folder is named: this, then its API and credentials. */
export const KEPT_TOKEN_PREFIX = 'agent-play-github-token-';

/** The JWT header (RS256), base64url-encoded without padding as a JWT carries it. */
const JWT_HEADER = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');

/**
 * A program that prints an installation token of the agent's GitHub App: a JWT signed with the App's private
 * key (RS256; `iat` a minute back for clock drift, `exp` under GitHub's ten-minute cap, `iss` the App id or
 * client id), exchanged at `POST /app/installations/{installation-id}/access_tokens` (docs.github.com,
 * "Generating a JSON Web Token (JWT) for a GitHub App" and "Generating an installation access token for a
 * GitHub App"). Git calls it through a credential helper on every fetch and push. An installation token
 * lasts an hour: the program keeps the one it got in the pod's own temp folder (never on the workspace,
 * which outlives the pod) and hands it out again for 50 minutes, so a step asks GitHub once rather than at
 * every fetch and push, and a run longer than the hour still gets a fresh one. Needs openssl, curl and jq.
 */
export const GITHUB_TOKEN_PROGRAM = String.raw`#!/usr/bin/env bash
set -euo pipefail
# Bash's own time, file reads, substitutions and base64 where they do, and the constant header written once:
# each program started (date, cat, tr, base64, jq) costs every git fetch and push of the step, jq tens of
# milliseconds. openssl signs, curl asks; nothing else runs.
alphabet='ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
# Sets b64 to the base64url (no padding) of the bytes a string of hex digits spells, three bytes at a time:
# a variable, not output, since a command substitution is a process of its own.
hex_b64url() {
  local hex="$1" out="" chunk missing bits i
  for ((i = 0; i < ${'$'}{#hex}; i += 6)); do
    chunk="${'$'}{hex:i:6}"
    missing=$(((6 - ${'$'}{#chunk}) / 2))
    while ((${'$'}{#chunk} < 6)); do chunk+=0; done
    bits=$((16#$chunk))
    out+="${'$'}{alphabet:(bits >> 18) & 63:1}${'$'}{alphabet:(bits >> 12) & 63:1}"
    if ((missing < 2)); then out+="${'$'}{alphabet:(bits >> 6) & 63:1}"; fi
    if ((missing < 1)); then out+="${'$'}{alphabet:bits & 63:1}"; fi
  done
  b64="$out"
}
# Sets the variable named $1 to the whole of file $2 less its final newlines, as $(<file) gives it, with no process.
read_file() {
  local -n into="$1"
  if [ ! -r "$2" ]; then
    echo "github-token: cannot read $2: is the GitHub App's Secret mounted at $GITHUB_APP_CREDENTIALS with its app-id, installation-id and private-key?" >&2
    return 1
  fi
  # read stops at the end of the file with status 1: the whole file is read.
  IFS= read -r -d '' into <"$2" || true
  while [[ "$into" == *$'\n' ]]; do into="${'$'}{into%$'\n'}"; done
}
printf -v now '%(%s)T' -1
key="$GITHUB_API $GITHUB_APP_CREDENTIALS"
kept="${'$'}{TMPDIR:-/tmp}/${KEPT_TOKEN_PREFIX}${'$'}{key//[^A-Za-z0-9]/_}"
if [ -s "$kept" ] && read -r minted token <"$kept" && [[ "$minted" =~ ^[0-9]+$ ]] && [ -n "$token" ] &&
  ((now >= minted && now - minted < ${TOKEN_REUSE_SECONDS})); then
  printf '%s\n' "$token"
  exit 0
fi
read_file issuer "$GITHUB_APP_CREDENTIALS/app-id"
read_file installation "$GITHUB_APP_CREDENTIALS/installation-id"
# Written into the JWT as it is: an App id (digits) or client id (Iv1.…) needs no JSON escape.
if ! [[ "$issuer" =~ ^[A-Za-z0-9._-]+$ ]]; then
  echo "github-token: $GITHUB_APP_CREDENTIALS/app-id holds neither an App id nor a client id" >&2
  exit 1
fi
header='${JWT_HEADER}'
printf -v claims '{"iat":%d,"exp":%d,"iss":"%s"}' "$((now - 60))" "$((now + 540))" "$issuer"
# The claims are ASCII (digits and the issuer checked above): their bytes in hex, one printf per character.
claims_hex=""
for ((i = 0; i < ${'$'}{#claims}; i++)); do printf -v claims_hex '%s%02x' "$claims_hex" "'${'$'}{claims:i:1}"; done
hex_b64url "$claims_hex"
payload="$b64"
# With -hex openssl prints the signature after "(stdin)= " (the digest's name before it differs between
# versions); anything else is refused below rather than sent.
signed="$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -sign "$GITHUB_APP_CREDENTIALS/private-key" -hex)"
signature_hex="${'$'}{signed##*= }"
if ! [[ "$signature_hex" =~ ^[0-9a-f]+$ ]]; then
  echo "github-token: openssl printed no signature with $GITHUB_APP_CREDENTIALS/private-key (expected '(stdin)= <hex>' from dgst -hex): check that it is the App's RSA private key in PEM" >&2
  exit 1
fi
hex_b64url "$signature_hex"
signature="$b64"
answer="$(curl -fsS -X POST -H "Authorization: Bearer $header.$payload.$signature" -H 'Accept: application/vnd.github+json' \
  "$GITHUB_API/app/installations/$installation/access_tokens")"
# GitHub's answer names one "token" (its installation token, ghs_ and letters and digits): bash reads it when its
# characters are ones JSON never escapes; an answer that names more than one, or any other value, is jq's to read.
after_first="${'$'}{answer#*\"token\"}"
if [[ "$answer" =~ \"token\"[[:space:]]*:[[:space:]]*\"([-A-Za-z0-9_.]+)\" ]] && [[ "$after_first" != *\"token\"* ]]; then
  token="${'$'}{BASH_REMATCH[1]}"
else
  token="$(jq -er .token <<<"$answer")"
fi
# Kept for the next fetch or push: readable by this user only, replaced whole.
(umask 077 && printf '%s %s\n' "$now" "$token" >"$kept.$$" && mv -f "$kept.$$" "$kept") || rm -f "$kept.$$"
printf '%s\n' "$token"
`;

/**
 * The git credential helper: answers `get` with the App's installation token. Git runs it on every fetch and
 * push: its folder comes from a parameter expansion rather than dirname, and bash runs the token program
 * rather than its `#!/usr/bin/env` line, two programs fewer each time.
 */
const GIT_CREDENTIAL_HELPER = String.raw`#!/usr/bin/env bash
[ "$#" -gt 0 ] && [ "$1" = get ] || exit 0
folder=.
case "$0" in */*) folder="${'$'}{0%/*}" ;; esac
printf 'username=x-access-token
password=%s
' "$(bash "$folder/github-token")"
`;

/** The file names of the two programs in the agent's home. */
export const GitPrograms = { token: 'github-token', credentialHelper: 'git-credential-agent-play' } as const;

/**
 * The characters of a plain value in the session file (every CLI's session ids, agent and CLI names): JSON
 * writes them as they are, so bash writes and reads such a file without jq.
 */
const PLAIN_VALUE = '[-A-Za-z0-9._:@+=/]*';

/** The bash of a direct agent step (see the top of this file); it reads only `DirectAgentEnv` and HOME. */
export const DIRECT_AGENT_SCRIPT = String.raw`set -uo pipefail
# Every program this script starts costs each step (and each run of its tests) some milliseconds of CPU, jq
# some tens: bash's builtins, parameter expansions and file reads stand in for mktemp, cut, cat and the like,
# and git and jq run only where their answer is not known already.
state="$WORKSPACE/$STATE_FOLDER"
session_file="$state/$AGENT${SESSION_FILE_SUFFIX}"
context_file="$state/${CONTEXT_FILE}"
if [ ! -d "$state" ] || [ ! -d "$HOME" ] || [ ! -d "$WORKSPACE/$CHECKOUT" ]; then
  mkdir -p "$state" "$HOME" "$WORKSPACE/$CHECKOUT" || exit 1
fi
cd "$WORKSPACE/$CHECKOUT" || exit 1
task_branch="feature/task-$TASK_ID-implementation"
# The CLI's output: a new file in the pod's temp folder that only this user can read, as mktemp makes one
# (noclobber creates it with O_EXCL, so it is never another's file).
output="${'$'}{TMPDIR:-/tmp}/agent-play-output.$$.$RANDOM$RANDOM"
(umask 077 && set -C && : >"$output") || exit 1

# Git as the agent's GitHub App: an installation token (the token program's) for every fetch and push to its
# git server (and to no other host), and one for gh: GH_TOKEN on github.com, GH_ENTERPRISE_TOKEN on the
# server GH_HOST names. The server's origin is the URL's first three /-separated fields (what cut -d / -f 1-3
# gives).
[[ "$GIT_SERVER" =~ ^[^/]*(/[^/]*)?(/[^/]*)? ]]
server_origin="${'$'}{BASH_REMATCH[0]}"
# The two programs in the agent's home, written and made executable only when missing or changed: HOME is on
# the workspace, so from the second step on they are there already.
changed_programs=()
install_program() {
  local text current=""
  IFS= read -r -d '' text
  if [ -f "$1" ]; then IFS= read -r -d '' current <"$1"; fi
  if [ "$current" != "$text" ] || [ ! -x "$1" ]; then
    printf '%s' "$text" >"$1" || return 1
    changed_programs+=("$1")
  fi
}
install_program "$HOME/${GitPrograms.token}" <<'GITHUB_TOKEN_PROGRAM' || exit 1
${GITHUB_TOKEN_PROGRAM}GITHUB_TOKEN_PROGRAM
install_program "$HOME/${GitPrograms.credentialHelper}" <<'GIT_CREDENTIAL_HELPER' || exit 1
${GIT_CREDENTIAL_HELPER}GIT_CREDENTIAL_HELPER
if [ "${'$'}{#changed_programs[@]}" -gt 0 ]; then chmod 0700 "${'$'}{changed_programs[@]}" || exit 1; fi
# The global config, read by one git (none when there is no such file yet): each key's number of values and
# its last value. Git then writes only what is not already as it must be: from the second step on, nothing.
declare -A config_count=() config_value=()
if [ -e "$HOME/.gitconfig" ] || [ -e "${'$'}{XDG_CONFIG_HOME:-$HOME/.config}/git/config" ]; then
  # One entry per NUL: the key, then a newline and the value when it has one.
  while IFS= read -r -d '' entry; do
    key="${'$'}{entry%%$'\n'*}"
    config_count[$key]=$((${'$'}{config_count[$key]:-0} + 1))
    config_value[$key]=""
    if [[ "$entry" == *$'\n'* ]]; then config_value[$key]="${'$'}{entry#*$'\n'}"; fi
  done < <(git config --global --list -z 2>/dev/null)
fi
# Sets a global key to a value, unless it holds exactly that one value already.
set_global() {
  if [ "${'$'}{config_count[$1]:-0}" = 1 ] && [ "${'$'}{config_value[$1]}" = "$2" ]; then return 0; fi
  git config --global "$1" "$2"
}
# HOME is on the workspace: a helper for every host that an earlier version of this script set stays there.
if [ "${'$'}{config_count[credential.helper]:-0}" != 0 ]; then
  git config --global --unset-all credential.helper >/dev/null 2>&1 || true
fi
set_global "credential.$server_origin.helper" "$HOME/${GitPrograms.credentialHelper}" &&
  set_global user.name "${'$'}{GITHUB_APP}[bot]" &&
  set_global user.email "${'$'}{GITHUB_APP}[bot]@users.noreply.github.com" || exit 1
# bash runs the token program rather than its #!/usr/bin/env line: one program fewer.
GH_TOKEN="$(bash "$HOME/${GitPrograms.token}")" || { echo "direct-agent: no installation token for $GITHUB_APP" >&2; exit 1; }
GH_ENTERPRISE_TOKEN="$GH_TOKEN"
GH_HOST="${'$'}{server_origin#https://}"
export GH_TOKEN GH_ENTERPRISE_TOKEN GH_HOST

# The checkout on the task branch: the local branch (earlier work of this workspace), else the pushed one,
# else a new branch from the base branch. A fresh clone has fetched every branch already.
if [ ! -d .git ]; then
  git clone --quiet "$GIT_SERVER/$REPOSITORY.git" . || exit 1
else
  git fetch --quiet origin || exit 1
fi
# Both refs the choice needs, read by one git, with the commit each names: the checkout and the merge run only
# when they have something to do.
refs="$(git for-each-ref --format='%(refname) %(objectname)' "refs/heads/$task_branch" "refs/remotes/origin/$task_branch")" || exit 1
local_commit=""
remote_commit=""
while read -r ref commit; do
  case "$ref" in
    "refs/heads/$task_branch") local_commit="$commit" ;;
    "refs/remotes/origin/$task_branch") remote_commit="$commit" ;;
  esac
done <<<"$refs"
head=""
IFS= read -r head <.git/HEAD
if [ -n "$local_commit" ]; then
  if [ "$head" != "ref: refs/heads/$task_branch" ]; then git checkout --quiet "$task_branch" || exit 1; fi
  if [ -n "$remote_commit" ] && [ "$remote_commit" != "$local_commit" ]; then
    git merge --ff-only --quiet "origin/$task_branch" 2>/dev/null || true
  fi
elif [ -n "$remote_commit" ]; then
  git checkout --quiet -b "$task_branch" --track "origin/$task_branch" || exit 1
else
  git checkout --quiet -b "$task_branch" "origin/$BASE_BRANCH" || exit 1
fi

# A session is confirmed once the CLI reported it: only a confirmed session is resumed. The file is one line;
# plain values (PLAIN_VALUE) are written by bash, a value JSON would escape by jq. It is replaced whole, and
# left as it is when it says the same already.
plain='${PLAIN_VALUE}'
write_session() {
  local json current=""
  if [[ "$CLI" =~ ^$plain$ && "$1" =~ ^$plain$ && "$AGENT" =~ ^$plain$ ]]; then
    json="{\"cli\":\"$CLI\",\"id\":\"$1\",\"agent\":\"$AGENT\",\"confirmed\":$2}"
  else
    json="$(jq -c -n --arg cli "$CLI" --arg id "$1" --arg agent "$AGENT" --argjson confirmed "$2" \
      '{cli: $cli, id: $id, agent: $agent, confirmed: $confirmed}')" || return 1
  fi
  if [ -f "$session_file" ]; then IFS= read -r -d '' current <"$session_file"; fi
  if [ "$current" = "$json"$'\n' ]; then return 0; fi
  printf '%s\n' "$json" >"$session_file.tmp" && mv "$session_file.tmp" "$session_file"
}

printf -v task_prompt '%s\n%s\n%s\n%s' \
  "Task $TASK_ID of the repository $REPOSITORY, round $ROUND, stage $STAGE." \
  "Work on the branch $task_branch (checked out); pull requests merge into $BASE_BRANCH." \
  "The repository checkout is the current folder; git and gh (GH_TOKEN) act as the GitHub App $GITHUB_APP." \
  "Play: $WORKFLOW_NAME."

previous_cli=""
previous_id=""
# A file that write_session wrote with plain values is read by bash. Any other (an older script's, escaped
# values) by one jq for both fields, as shell assignments it quotes; a session file it cannot read leaves both
# empty.
session_text=""
if [ -s "$session_file" ]; then IFS= read -r -d '' session_text <"$session_file"; fi
session_line='^[{]"cli":"('"$plain"')","id":"('"$plain"')","agent":"'"$plain"'","confirmed":(true|false)[}]'$'\n''$'
if [[ "$session_text" =~ $session_line ]]; then
  previous_cli="${'$'}{BASH_REMATCH[1]}"
  if [ "${'$'}{BASH_REMATCH[3]}" = true ]; then previous_id="${'$'}{BASH_REMATCH[2]}"; fi
elif [ -n "$session_text" ] &&
  fields="$(jq -r '@sh "previous_cli=\(.cli // "") previous_id=\(if .confirmed == true then .id // "" else "" end)"' "$session_file" 2>/dev/null)"; then
  eval "$fields"
fi

system_prompt="$(<"$SYSTEM_PROMPT_FILE")" || exit 1
if [ "$previous_cli" = "$CLI" ] && [ -n "$previous_id" ]; then
  mode=resume
  session_id="$previous_id"
  arguments="$RESUME_ARGS"
  prompt="$task_prompt"
else
  mode=spawn
  session_id=""
  arguments="$SPAWN_ARGS"
  if [ "$SESSION_ID_SOURCE" = chosen ]; then
    read -r session_id </proc/sys/kernel/random/uuid || exit 1
    write_session "$session_id" false || exit 1
  fi
  prompt="$task_prompt"
  if [ -s "$context_file" ]; then
    context_end="$(tail -c ${CONTEXT_PROMPT_BYTES} "$context_file")"
    printf -v prompt '%s\n\n%s\n\n%s' "Earlier work on this task (the end of the context file $WORKSPACE/$STATE_FOLDER/${CONTEXT_FILE}):" \
      "$context_end" "$prompt"
  fi
  if [ "$SYSTEM_PROMPT_FLAG" != true ]; then
    printf -v prompt '%s\n\n%s' "$system_prompt" "$prompt"
  fi
fi
# Option parsers (commander, clap, yargs) take an argument that starts with a dash for an option, so a prompt
# that opens with YAML front matter (---) would be refused as an unknown option: a plain first line goes before it.
case "$prompt" in
  -*) printf -v prompt 'Instructions:\n\n%s' "$prompt" ;;
esac
if [ -n "$previous_cli" ] && [ "$previous_cli" != "$CLI" ]; then
  echo "direct-agent: $AGENT moved from $previous_cli to $CLI: a new session starts from the context file"
fi

mapfile -d '' -t argv < <(jq -j --arg prompt "$prompt" --arg session "$session_id" --arg model "$MODEL" --arg system "$system_prompt" '
  .[] | (if . == "${prompt}" then $prompt elif . == "${sessionId}" then $session elif . == "${model}" then $model
    elif . == "${systemPrompt}" then $system else . end) + "\u0000"' <<<"$arguments")
echo "direct-agent: $mode session $session_id of $AGENT with $CLI ($CLI_BINARY)"

# What the CLI reported, read from its output by one jq: reported, the first session id it announced
# (SESSION_ID_FILTER; none without that filter), and answer, the last ${CONTEXT_ANSWER_LINES} lines of what it
# answered (RESULT_FILTER). The output is one JSON document or JSON lines, maybe among plain lines: read whole,
# else line by line; read while the CLI runs, a last line it is still writing fails to parse and is skipped.
# shellcheck disable=SC2016 # a jq program: $answers and $answer are jq's variables, not the shell's
reports_jq='($answers | map(. + "\n") | add // "" | split("\n") | .[:-1] | .[-${CONTEXT_ANSWER_LINES}:] | join("\n") | sub("\n+$"; "")) as $answer
  | @sh "reported=\($sessions | map(. + "\n") | add // "" | split("\n") | .[0] // "") answer=\($answer)"'
read_reports() {
  local program fields
  program="[.[] | (${'$'}{SESSION_ID_FILTER:-empty}) // empty | strings] as \$sessions
    | [.[] | ($RESULT_FILTER) // empty | strings] as \$answers | $reports_jq"
  reported=""
  answer=""
  if fields="$(jq -r -s "$program" "$output" 2>/dev/null || jq -R -r -s "split(\"\\n\") | map(fromjson?) | $program" "$output" 2>/dev/null)"; then
    eval "$fields"
  fi
}
# A chosen id (claude's --session-id) names a session only once the CLI wrote its transcript, the file
# --resume reads (~/.claude/projects/<project>/<id>.jsonl; anthropics/claude-code issue 77732: a reported id
# without that file is "No conversation found"). HOME is on the workspace, so the transcript outlives the pod.
# shellcheck disable=SC2317 # called from interrupted, which the TERM and INT traps run
chosen_session_exists() {
  find "${'$'}{CLAUDE_CONFIG_DIR:-$HOME/.claude}/projects" -mindepth 2 -maxdepth 2 -name "$session_id.jsonl" -size +0 2>/dev/null | grep -q .
}
# Appends the run to the context file, with the answer read_reports read.
append_context() {
  {
    printf '\n## Round %s, stage %s: %s with %s (session %s, %s)\n\n' "$ROUND" "$STAGE" "$AGENT" "$CLI" "$session_id" "$1"
    if [ -n "$answer" ]; then printf '%s\n' "$answer"; else printf '%s\n' "(no answer recorded)"; fi
  } >>"$context_file" || echo "direct-agent: could not update the context file" >&2
}

# Stopped with its play (spec.shutdown, a deadline, the remediator): the controller sends SIGTERM to the
# pod's running containers and SIGKILL after the pod's terminationGracePeriodSeconds, 30 s when unset
# (argo-workflows workflow/controller/exec_control.go, workflow/controller/pod/queue.go), and the emissary
# forwards the signal to this script's process group (cmd/argoexec/commands/signal.go,
# workflow/executor/osspecific/signal_linux.go). Within that grace the script keeps the session the CLI has
# announced so far, so the next round resumes it; a session never announced stays unconfirmed, and the next
# attempt starts over from the context file.
cli_pid=""
tail_pid=""
# shellcheck disable=SC2317 # run by the TERM and INT traps
interrupted() {
  trap '' TERM INT
  # TERM for INT too: bash starts a background command with SIGINT ignored when job control is off.
  if [ -n "$cli_pid" ]; then kill -s TERM "$cli_pid" 2>/dev/null; fi
  if [ -n "$tail_pid" ]; then kill "$tail_pid" 2>/dev/null; fi
  read_reports
  if [ -n "$reported" ]; then
    session_id="$reported"
    write_session "$session_id" true || echo "direct-agent: could not record the session of $AGENT" >&2
  elif [ "$mode" = spawn ] && [ "$SESSION_ID_SOURCE" = chosen ] && chosen_session_exists; then
    write_session "$session_id" true || echo "direct-agent: could not record the session of $AGENT" >&2
  fi
  echo "direct-agent: SIG$1: $AGENT's $CLI stopped; session $session_id kept for the next run if its CLI announced it" >&2
  append_context "exit $2, interrupted by SIG$1"
  rm -f "$output"
  exit "$2"
}
trap 'interrupted TERM 143' TERM
trap 'interrupted INT 130' INT

# The CLI runs in the background so that the traps fire while the script waits; it writes its output to a
# file (read even if it is interrupted) that tail copies to the pod's log as it grows. GNU tail looks
# whether the CLI still runs once per --sleep-interval (1 s by default): every step would end up to a
# second after its CLI did.
"$CLI_BINARY" "${'$'}{argv[@]}" </dev/null >"$output" &
cli_pid=$!
tail -n +1 -s 0.1 -f --pid="$cli_pid" "$output" &
tail_pid=$!
wait "$cli_pid"
code=$?
wait "$tail_pid"
trap - TERM INT

read_reports
if [ -n "$reported" ]; then
  session_id="$reported"
  write_session "$session_id" true || echo "direct-agent: could not record the session of $AGENT" >&2
elif [ "$mode" = resume ] && [ "$code" != 0 ]; then
  # A failed resume that reports no session (the CLI lost it): the next attempt starts over from the context file.
  write_session "$session_id" false || echo "direct-agent: could not record the session of $AGENT" >&2
fi

append_context "exit $code"
rm -f "$output"
exit "$code"
`;
