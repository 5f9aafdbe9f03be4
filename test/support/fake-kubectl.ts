/**
 * A fake `kubectl` for testing the helper scripts the platform runs in its pods (bash, kubectl and jq).
 *
 * It is a bash script (with jq programs beside it) written into a temporary folder, to be put first on
 * the script's PATH. It keeps every object as one JSON file under a temporary state folder and implements
 * exactly the calls the progress script and the release scripts (`release-scripts.ts`) make, with the API
 * server's semantics that matter to them:
 *
 * - `get workflow|configmap NAME -n NS [-o json]`: NotFound (exit 1) when absent;
 * - `get workflows -n NS -l SELECTOR -o json`: a List (`{apiVersion: "v1", kind: "List", items}`) of the
 *   Workflows of NS whose labels match every term of the selector, by name; only `key=value` terms,
 *   comma-separated (other selector syntax is unsupported), and a key or value that is not a legal label
 *   is a BadRequest (exit 1);
 * - `create configmap NAME -n NS --dry-run=client -o json [--from-literal=KEY=VALUE]...`: prints the
 *   object, stores nothing;
 * - `create -f - [-n NS]`: stores the object read from standard input, in the namespace of its metadata
 *   or of `-n` (they must agree; `default` when neither), AlreadyExists (exit 1) when present,
 *   resourceVersion "1";
 * - `patch workflow|configmap NAME -n NS --type merge -p JSON`: a JSON merge patch (RFC 7386); a
 *   `metadata.resourceVersion` in the patch that is not the stored one is a Conflict (exit 1); a patch
 *   that changes something bumps the resourceVersion. ConfigMap data, labels and annotations must stay
 *   maps of strings, as the API server demands.
 *
 * - `delete workflow NAME -n NS --wait=true`: removes the Workflow (the remediator's replacement of a play);
 *   NotFound (exit 1) when absent.
 *
 * Any other call fails loudly (exit 97) and is recorded, so a test notices when a script starts using
 * something new. Every call is logged with its exit code. A test can also queue writes by "another
 * writer" (see {@link FakeCluster.interleave}) to provoke a conflict between a script's read and its patch,
 * and deny a verb on a kind (see {@link FakeCluster.forbid}), as a missing RBAC rule would: Forbidden (exit 1).
 *
 * Fast on purpose: `get` of one object is a `cat`, and every other call runs jq once at most.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { join } from 'node:path';
import { useScratchDirs } from './scratch-dir';

/** The kinds the fake stores, as the scripts name them on the command line. */
export type FakeKind = 'workflow' | 'configmap';

/** A Kubernetes object as the fake stores it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [field: string]: unknown;
  };
  [field: string]: any;
}

/** One call of the fake, in the order they were made. */
export interface KubectlCall {
  readonly args: readonly string[];
  readonly exitCode: number;
}

const KIND_DIRECTORIES: Readonly<Record<string, FakeKind>> = { Workflow: 'workflow', ConfigMap: 'configmap' };

/** Helpers shared by the jq programs. */
const JQ_PRELUDE = String.raw`
def fail($message): "\($message)\n" | halt_error(1);
def unsupported($what): "fake kubectl: unsupported: \($what)\n" | halt_error(97);
def resource:
  if .kind == "ConfigMap" then "configmaps"
  elif .kind == "Workflow" then "workflows.argoproj.io"
  else unsupported("objects of kind \(.kind)") end;
def string_map: . == null or (type == "object" and all(.[]; type == "string"));
def ensure_valid:
  if (.metadata.name // "" | test("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$") | not) then
    fail("Error from server (Invalid): metadata.name: Invalid value: \(.metadata.name | tojson)")
  elif (.metadata.labels | string_map | not) then
    fail("Error from server (BadRequest): json: cannot unmarshal metadata.labels: every value must be a string")
  elif (.metadata.annotations | string_map | not) then
    fail("Error from server (BadRequest): json: cannot unmarshal metadata.annotations: every value must be a string")
  elif .kind == "ConfigMap" and (.data | string_map | not) then
    fail("Error from server (BadRequest): json: cannot unmarshal into Go struct field ConfigMap.data of type string")
  elif .kind == "ConfigMap" and ((.data // {}) | keys | any(test("^[-._a-zA-Z0-9]+$") | not)) then
    fail("Error from server (Invalid): ConfigMap \(.metadata.name | tojson) is invalid: data: a valid config key must consist of alphanumeric characters, '-', '_' or '.'")
  else . end;
`;

/** `create configmap NAME -n NS --dry-run=client -o json --from-literal=...`; run with -R -s, $name, $ns, the arguments NUL-separated. */
const JQ_DRY_RUN = String.raw`
[ split("\u0000")[] | select(startswith("--from-literal=")) | ltrimstr("--from-literal=") ]
| map(
    if test("^[^=]+=") then . else fail("error: invalid literal source \(.), expected key=value") end
    | split("=") as $parts | { key: $parts[0], value: ($parts[1:] | join("=")) })
| if (map(.key) | unique | length) != length then fail("error: a key was given twice with --from-literal") else . end
| { kind: "ConfigMap", apiVersion: "v1", metadata: { name: $name, namespace: $ns, creationTimestamp: null } }
  + (if length > 0 then { data: from_entries } else {} end)
| ensure_valid
`;

/**
 * `create -f -`, on the object read from standard input; run with -r and $ns (the -n flag, may be empty).
 * Prints "kind TAB namespace TAB name", then the object to store on one line.
 */
const JQ_CREATE = String.raw`
if type != "object" then fail("error: no objects passed to create") else . end
| (KIND_DIRECTORIES[.kind] // unsupported("create -f - of kind \(.kind)")) as $kind
| if .metadata.resourceVersion != null then
    fail("Error from server (BadRequest): resourceVersion should not be set on objects to be created")
  else . end
| if .metadata.namespace != null and $ns != "" and .metadata.namespace != $ns then
    fail("error: the namespace from the provided object \(.metadata.namespace | tojson) does not match the namespace \($ns | tojson)")
  else . end
| .metadata.namespace = (.metadata.namespace // (if $ns == "" then "default" else $ns end))
| del(.metadata.creationTimestamp)
| .metadata.resourceVersion = "1"
| ensure_valid
| "\($kind)\t\(.metadata.namespace)\t\(.metadata.name)", tojson
`.replace('KIND_DIRECTORIES', JSON.stringify(KIND_DIRECTORIES));

/** `patch KIND NAME -n NS --type merge -p JSON`, on the stored object; run with -c and $patch. */
const JQ_PATCH = String.raw`
def merge($p):
  if ($p | type) == "object" then
    reduce ($p | keys_unsorted[]) as $k ((if type == "object" then . else {} end);
      if $p[$k] == null then del(.[$k]) else .[$k] |= merge($p[$k]) end)
  else $p end;
. as $stored
| (if $patch == "" then null else ($patch | try fromjson catch null) end) as $p
| if ($p | type) != "object" then fail("error: unable to parse \($patch | tojson): not a JSON object") else . end
| ($p | .metadata? | .resourceVersion?) as $expected
| if $expected != null and $expected != $stored.metadata.resourceVersion then
    fail("Error from server (Conflict): Operation cannot be fulfilled on \($stored | resource) \($stored.metadata.name | tojson): the object has been modified; please apply your changes to the latest version and try again")
  else . end
| merge($p) as $merged
| if [$merged | .kind, .apiVersion, .metadata.name, .metadata.namespace] != [$stored | .kind, .apiVersion, .metadata.name, .metadata.namespace] then
    fail("Error from server (BadRequest): a patch may not change the kind, apiVersion, name or namespace")
  else . end
| if ($merged | del(.metadata.resourceVersion)) == ($stored | del(.metadata.resourceVersion)) then $stored
  else $merged | .metadata.resourceVersion = ($stored.metadata.resourceVersion | tonumber + 1 | tostring) end
| ensure_valid
`;

/**
 * `get workflows -n NS -l SELECTOR -o json`, on the stored Workflows of NS (read with -n and `inputs`);
 * run with $selector, whose terms the fake has checked are all `key=value`.
 */
const JQ_LIST = String.raw`
def label_name: test("^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$") and length <= 63;
def label_key:
  (split("/") | length) as $parts
  | if $parts == 1 then label_name
    elif $parts == 2 then (split("/") | (.[0] | length <= 253 and test("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")) and (.[1] | label_name))
    else false end;
def label_value: . == "" or label_name;
[ $selector | split(",")[] | capture("^(?<key>[^=]*)=(?<value>.*)$")
  | if (.key | label_key) and (.value | label_value) then .
    else fail("Error from server (BadRequest): unable to parse requirement: \(.key)=\(.value): not a legal label key and value") end ] as $terms
| { apiVersion: "v1", kind: "List",
    items: [ inputs | select(. as $object | all($terms[]; $object.metadata.labels[.key] == .value)) ] | sort_by(.metadata.name) }
`;

/** The fake itself. It reads FAKE_KUBECTL_STATE (the state folder) and finds its jq programs beside itself. */
const KUBECTL = String.raw`#!/usr/bin/env bash
# Fake kubectl (test/support/fake-kubectl.ts): only the calls the helper scripts make.
set -euo pipefail
state="$FAKE_KUBECTL_STATE"
# Found on PATH, so $0 is the fake's path. Parameter expansion and printf -v instead of command
# substitutions: the scripts call kubectl hundreds of times in a test run, and each fork or dirname counts.
case "$0" in */*) here="${'$'}{0%/*}" ;; *) here=. ;; esac

# The call log: one record per call, written at exit in one append (the calls of a pipeline run at once).
printf -v logged '%s\037' "$@"
trap 'code=$?; printf "%s\035%s\036" "$logged" "$code" >>"$state/calls.log"' EXIT

# Refuses a call the fake does not implement: "unsupported REASON ARGS...".
unsupported() {
  local reason="$1"
  shift
  printf 'fake kubectl: unsupported call (%s): kubectl' "$reason" >&2
  printf ' %q' "$@" >&2
  printf '\n' >&2
  { printf '%s: kubectl %s' "$reason" "$*"; printf '\036'; } >>"$state/unsupported.log"
  exit 97
}

# Runs jq, leaving its output in $result; exit 97 from a jq program means an unsupported call.
run_jq() {
  local status=0
  result="$(jq "$@")" || status=$?
  if [ "$status" -eq 97 ]; then { printf '%s' "(jq program refused the call)"; printf '\036'; } >>"$state/unsupported.log"; fi
  return "$status"
}

# Parse: positionals pos1..pos4, and the flags the scripts use; anything else is unsupported.
pos1="" pos2="" pos3="" pos4="" count=0
ns="" output="" file="" ptype="" patch="" has_patch="" dryrun="" literals="" selector="" has_selector="" expect="" waited=""
for arg in "$@"; do
  if [ -n "$expect" ]; then printf -v "$expect" '%s' "$arg"; expect=""; continue; fi
  case "$arg" in
    -n) expect=ns ;;
    -o) expect=output ;;
    -f) expect=file ;;
    --type) expect=ptype ;;
    -p) expect=patch; has_patch=yes ;;
    -l) expect=selector; has_selector=yes ;;
    --dry-run=client) dryrun=client ;;
    --wait=true) waited=yes ;;
    --from-literal=*) literals=yes ;;
    -*) unsupported "unknown flag $arg" "$@" ;;
    *)
      count=$((count + 1))
      [ "$count" -le 4 ] || unsupported "too many arguments" "$@"
      printf -v "pos$count" '%s' "$arg"
      ;;
  esac
done
[ -z "$expect" ] || unsupported "a flag without its value" "$@"

verb="$pos1" kind="$pos2" name="$pos3"

# Kinds and names become paths: accept only what the API server would.
valid_name() {
  case "$1" in ''|*[!a-z0-9.-]*|.*|-*) return 1 ;; esac
}
resource() {
  case "$1" in
    configmap) echo "configmaps" ;;
    workflow) echo "workflows.argoproj.io" ;;
  esac
}
# Sets path to the file of object KIND NS NAME (no command substitution: see above).
object_file() { path="$state/objects/$1/$2/$3.json"; }
not_found() {
  echo "Error from server (NotFound): $(resource "$kind") \"$name\" not found" >&2
  exit 1
}
# Denies VERB on KIND when the test forbade it (FakeCluster.forbid): "authorize VERB KIND NS [NAME]".
authorize() {
  [ -e "$state/forbidden/$1.$2" ] || return 0
  local plural group what
  IFS=. read -r plural group <<<"$(resource "$2")"
  what="$(resource "$2")"
  if [ "$#" -eq 4 ]; then what="$what \"$4\""; fi
  echo "Error from server (Forbidden): $what is forbidden: User \"system:serviceaccount:$3:default\" cannot $1 resource \"$plural\" in API group \"$group\" in the namespace \"$3\"" >&2
  exit 1
}

case "$verb" in
  get)
    if [ -n "$has_selector" ]; then
      [ "$count" -eq 2 ] && [ "$kind" = workflows ] && [ -n "$ns" ] && [ "$output" = json ] && [ -z "$file$ptype$has_patch$dryrun$literals" ] \
        || unsupported "get list form (only get workflows -n NS -l SELECTOR -o json)" "$@"
      term='[^=!(),[:space:]]+=[^=!(),[:space:]]*'
      [[ "$selector" =~ ^$term(,$term)*$ ]] || unsupported "label selector \"$selector\" (only key=value terms)" "$@"
      authorize list workflow "$ns"
      # The stored Workflows of NS become the positional parameters (none: jq reads an empty input).
      set --
      if valid_name "$ns"; then
        shopt -s nullglob
        set -- "$state/objects/workflow/$ns"/*.json
        shopt -u nullglob
      fi
      run_jq -n -c --arg selector "$selector" -f "$here/prelude-list.jq" "$@" </dev/null
      printf '%s\n' "$result"
      exit 0
    fi
    [ "$count" -eq 3 ] && [ -n "$ns" ] && [ -z "$file$ptype$has_patch$dryrun$literals" ] || unsupported "get form" "$@"
    case "$kind" in workflow|configmap) ;; *) unsupported "get of kind $kind" "$@" ;; esac
    case "$output" in ''|json) ;; *) unsupported "output $output" "$@" ;; esac
    valid_name "$name" && valid_name "$ns" || not_found
    authorize get "$kind" "$ns" "$name"
    object_file "$kind" "$ns" "$name"
    # One read, as the API server answers: an object the test deletes meanwhile is NotFound, never a failed cat.
    stored="$(cat "$path" 2>/dev/null)" || not_found
    if [ "$output" = json ]; then printf '%s\n' "$stored"; else printf 'NAME\tAGE\n%s\t1s\n' "$name"; fi
    ;;

  create)
    if [ "$kind" = configmap ]; then
      [ "$count" -eq 3 ] && [ -n "$ns" ] && [ "$dryrun" = client ] && [ "$output" = json ] && [ -z "$file$ptype$has_patch$has_selector" ] \
        || unsupported "create configmap form (only --dry-run=client -o json)" "$@"
      valid_name "$name" && valid_name "$ns" || { echo "error: invalid name or namespace" >&2; exit 1; }
      # The arguments reach jq NUL-separated on standard input (jq 1.6 would take "--from-literal" for an option).
      run_jq -R -s --arg name "$name" --arg ns "$ns" -f "$here/prelude-dry-run.jq" < <(printf '%s\0' "$@")
      printf '%s\n' "$result"
    else
      [ "$count" -eq 1 ] && [ "$file" = "-" ] && [ -z "$output$ptype$has_patch$dryrun$literals$has_selector" ] || unsupported "create form" "$@"
      input="$(cat)"
      run_jq -r --arg ns "$ns" -f "$here/prelude-create.jq" <<<"$input"
      { IFS=$'\t' read -r kind objns name; IFS= read -r object; } <<<"$result"
      valid_name "$objns" || { echo "error: invalid namespace" >&2; exit 1; }
      authorize create "$kind" "$objns"
      object_file "$kind" "$objns" "$name"
      if [ -e "$path" ]; then
        echo "Error from server (AlreadyExists): error when creating \"STDIN\": $(resource "$kind") \"$name\" already exists" >&2
        exit 1
      fi
      mkdir -p "${'$'}{path%/*}"
      printf '%s\n' "$object" >"$path.tmp" && mv "$path.tmp" "$path"
      echo "$kind/$name created"
    fi
    ;;

  patch)
    [ "$count" -eq 3 ] && [ -n "$ns" ] && [ "$ptype" = merge ] && [ -n "$has_patch" ] && [ -z "$output$file$dryrun$literals$has_selector" ] \
      || unsupported "patch form (only --type merge -p)" "$@"
    case "$kind" in workflow|configmap) ;; *) unsupported "patch of kind $kind" "$@" ;; esac
    valid_name "$name" && valid_name "$ns" || not_found
    authorize patch "$kind" "$ns" "$name"
    object_file "$kind" "$ns" "$name"
    [ -f "$path" ] || not_found
    # Another writer's queued patch lands between the caller's read and its patch.
    for queued in "$state/interleave/$kind.$ns.$name"/*.json; do
      [ -f "$queued" ] || break
      run_jq -c --arg patch "$(cat "$queued")" -f "$here/prelude-patch.jq" "$path"
      printf '%s\n' "$result" >"$path.tmp" && mv "$path.tmp" "$path"
      rm "$queued"
      break
    done
    run_jq -c --arg patch "$patch" -f "$here/prelude-patch.jq" "$path"
    printf '%s\n' "$result" >"$path.tmp" && mv "$path.tmp" "$path"
    case "$kind" in workflow) echo "workflow.argoproj.io/$name patched" ;; *) echo "$kind/$name patched" ;; esac
    ;;

  delete)
    [ "$count" -eq 3 ] && [ "$kind" = workflow ] && [ -n "$ns" ] && [ -n "$waited" ] && [ -z "$output$file$ptype$has_patch$dryrun$literals$has_selector" ] \
      || unsupported "delete form (only delete workflow NAME -n NS --wait=true)" "$@"
    valid_name "$name" && valid_name "$ns" || not_found
    object_file "$kind" "$ns" "$name"
    [ -f "$path" ] || not_found
    rm "$path"
    echo "workflow.argoproj.io \"$name\" deleted"
    ;;

  *)
    unsupported "verb $verb" "$@"
    ;;
esac
`;

/**
 * The fake's `sleep`, first on PATH with kubectl: it records each wait a script asks for (a line of
 * `sleeps.log`) and waits a hundredth of a whole number of seconds (a back-off: 1 s is 10 ms, so that a
 * retried write does not hold the suite for seconds while the order of events stays), and a fraction of a
 * second as asked (a poll interval, which a test paces its changes by).
 */
const SLEEP = String.raw`#!/usr/bin/env bash
printf '%s
' "$*" >>"$FAKE_KUBECTL_STATE/sleeps.log"
if [[ "$*" =~ ^[0-9]+$ ]]; then
  printf -v scaled '%d.%02d' $(($1 / 100)) $(($1 % 100))
  exec /usr/bin/sleep "$scaled"
fi
exec /usr/bin/sleep "$@"
`;

/** A fake cluster: the fake kubectl's folder, its state, and the test's view of the stored objects. */
export class FakeCluster {
  /**
   * Creates the fake in `root`, a new empty folder (one of useScratchDirs, test/support/scratch-dir.ts);
   * {@link dispose} removes it.
   */
  public static create(root: string): FakeCluster {
    return new FakeCluster(root);
  }

  /** Holds `kubectl`, its jq programs and `sleep`: put it first on PATH. */
  public readonly binDir: string;
  /** Holds the objects (`objects/KIND/NS/NAME.json`), the call log and the queued writes. */
  public readonly stateDir: string;
  /** The scripts' TMPDIR: what they make with mktemp (and, as in a pod, never remove) goes with the fake. */
  public readonly tmpDir: string;

  private constructor(public readonly root: string) {
    this.binDir = join(root, 'bin');
    this.stateDir = join(root, 'state');
    this.tmpDir = join(root, 'tmp');
    mkdirSync(this.binDir, { recursive: true });
    mkdirSync(this.tmpDir);
    mkdirSync(join(this.stateDir, 'objects'), { recursive: true });
    writeFileSync(join(this.stateDir, 'calls.log'), '');
    writeFileSync(join(this.stateDir, 'unsupported.log'), '');
    writeFileSync(join(this.binDir, 'prelude-dry-run.jq'), JQ_PRELUDE + JQ_DRY_RUN);
    writeFileSync(join(this.binDir, 'prelude-create.jq'), JQ_PRELUDE + JQ_CREATE);
    writeFileSync(join(this.binDir, 'prelude-patch.jq'), JQ_PRELUDE + JQ_PATCH);
    writeFileSync(join(this.binDir, 'prelude-list.jq'), JQ_PRELUDE + JQ_LIST);
    writeFileSync(join(this.binDir, 'kubectl'), KUBECTL);
    chmodSync(join(this.binDir, 'kubectl'), 0o755);
    writeFileSync(join(this.binDir, 'sleep'), SLEEP);
    chmodSync(join(this.binDir, 'sleep'), 0o755);
    writeFileSync(join(this.stateDir, 'sleeps.log'), '');
  }

  /** The waits the scripts asked for (`sleep`'s arguments), in order; the fake shortens back-offs (see SLEEP). */
  public sleeps(): string[] {
    return readFileSync(join(this.stateDir, 'sleeps.log'), 'utf8').split('\n').slice(0, -1);
  }

  /** The environment the fake needs (add it to the script's environment). */
  public get env(): Record<string, string> {
    return { FAKE_KUBECTL_STATE: this.stateDir };
  }

  /**
   * The whole, clean environment of a script run against this cluster: the fake first on PATH, a
   * kubeconfig that points nowhere (should anything reach a real kubectl), the fake's state, then `vars`.
   */
  public scriptEnv(vars: Record<string, string>): Record<string, string> {
    return {
      PATH: `${this.binDir}:/usr/bin:/bin`,
      LC_ALL: 'C.UTF-8',
      KUBECONFIG: join(this.root, 'no-kubeconfig'),
      TMPDIR: this.tmpDir,
      ...this.env,
      ...vars,
    };
  }

  /** Stores an object as if it existed in the cluster (resourceVersion "1" unless it has one). */
  public put(object: KubeObject): void {
    const kind = kindDirectory(object.kind);
    const stored: KubeObject = { ...object, metadata: { resourceVersion: '1', ...object.metadata } };
    const path = this.objectPath(kind, stored.metadata.namespace, stored.metadata.name);
    mkdirSync(join(path, '..'), { recursive: true });
    // Written aside and renamed, as the fake's own writes are: a script reading meanwhile sees the old object
    // or the new one, never a truncated file.
    writeFileSync(`${path}.put`, `${JSON.stringify(stored)}\n`);
    renameSync(`${path}.put`, path);
  }

  /** Removes an object, as `kubectl delete` would (a test's own step, not a call the scripts make). */
  public delete(kind: FakeKind, namespace: string, name: string): void {
    rmSync(this.objectPath(kind, namespace, name), { force: true });
  }

  /** The stored object, or undefined when absent. */
  public get(kind: FakeKind, namespace: string, name: string): KubeObject | undefined {
    const path = this.objectPath(kind, namespace, name);
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as KubeObject) : undefined;
  }

  /**
   * Queues merge patches by another writer: each one is applied (bumping the resourceVersion) just before
   * the next `kubectl patch` of that object is handled, so a patch carrying the version read before fails
   * with a Conflict.
   */
  public interleave(kind: FakeKind, namespace: string, name: string, ...patches: object[]): void {
    const folder = join(this.stateDir, 'interleave', `${kind}.${namespace}.${name}`);
    mkdirSync(folder, { recursive: true });
    const start = readdirSync(folder).length;
    patches.forEach((patch, index) => {
      writeFileSync(join(folder, `${String(start + index).padStart(4, '0')}.json`), JSON.stringify(patch));
    });
  }

  /**
   * Denies a verb on a kind from now on, as a missing RBAC rule would: the call fails with Forbidden
   * (exit 1) before the object is looked at. `list` is `get workflows -l`.
   */
  public forbid(verb: 'get' | 'list' | 'create' | 'patch', kind: FakeKind): void {
    mkdirSync(join(this.stateDir, 'forbidden'), { recursive: true });
    writeFileSync(join(this.stateDir, 'forbidden', `${verb}.${kind}`), '');
  }

  /** Every call so far, oldest first. */
  public calls(): KubectlCall[] {
    return readFileSync(join(this.stateDir, 'calls.log'), 'utf8')
      .split('\x1e')
      .filter((record) => record !== '')
      .map((record) => {
        const [args, exitCode] = record.split('\x1d');
        return { args: args.split('\x1f').slice(0, -1), exitCode: Number(exitCode) };
      });
  }

  /** The calls the fake refused because it does not implement them (should stay empty). */
  public unsupported(): string[] {
    return readFileSync(join(this.stateDir, 'unsupported.log'), 'utf8')
      .split('\x1e')
      .filter((call) => call !== '');
  }

  /** Removes the fake and its state. */
  public dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  private objectPath(kind: FakeKind, namespace: string, name: string): string {
    return join(this.stateDir, 'objects', kind, namespace, `${name}.json`);
  }
}

function kindDirectory(kind: string): FakeKind {
  const directory = KIND_DIRECTORIES[kind];
  if (!directory) throw new Error(`the fake kubectl does not store objects of kind ${kind}`);
  return directory;
}

/**
 * A vitest `test` whose tests each get their own harness (made by `create` from a new empty folder, holding
 * a fake cluster); afterwards no call may have been refused by the fake, and the cluster's folder is removed.
 * Call it where the test file is collected.
 */
export function testWithFakeCluster<H extends { readonly cluster: FakeCluster }>(create: (folder: string) => H) {
  const scratch = useScratchDirs('fake-kubectl-');
  return test.extend<{ h: H }>({
    h: async ({}, use) => {
      const harness = create(scratch());
      try {
        await use(harness);
        expect(harness.cluster.unsupported(), 'kubectl calls the fake does not implement').toEqual([]);
      } finally {
        harness.cluster.dispose();
      }
    },
  });
}
