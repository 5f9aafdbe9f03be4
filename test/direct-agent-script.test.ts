import { workflowOutput } from '../constructs/model/argo-expressions';
import { AgentOutputs, RepositoryOutputs } from '../constructs/registry/registry-layout';
import { repositoryReferences } from '../constructs/workflows/agent-run';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createVerify } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../constructs/model/resolve-config';
import { DEFAULT_DIRECT_RESOURCES, taskStateFolder } from '../constructs/model/direct-execution';
import { directAgentTemplates } from '../constructs/workflows/direct-agent-run';
import {
  CONTEXT_ANSWER_LINES,
  CONTEXT_FILE,
  CONTEXT_PROMPT_BYTES,
  DIRECT_AGENT_SCRIPT,
  DirectAgentEnv,
  GitPrograms,
  KEPT_TOKEN_PREFIX,
  SESSION_FILE_SUFFIX,
  TOKEN_REUSE_SECONDS,
} from '../constructs/workflows/direct-agent-script';
import { runBash, type ScriptRun } from './support/run-bash';
import { useScratchDirs } from './support/scratch-dir';

/**
 * The direct agent script runs for real (bash, jq, git and openssl) with the environment its synthesized
 * template gives it, against a fake CLI on PATH: the fake records its argument vector, its folder, branch and
 * GH_TOKEN, and prints the JSON the real CLI prints (executors.ts), then exits with the code the test asks
 * for; asked to, it writes claude's transcript of the id it was given and then works (sleeps) until stopped. GitHub is a local bare repository (GIT_SERVER) and a fake curl that answers the installation token
 * request and records it. Every assertion is on what the fakes received and on the files and checkout the
 * script leaves on the workspace.
 */

/** Longer than any run takes, git and openssl included, on a loaded machine: a hung script is stopped. */
const RUN_TIMEOUT_MS = 30_000;
const CONFIG = resolveConfig({ env: {} });
const REPOSITORY = CONFIG.repositories[0];
const TASK_ID = '7';
const ROUND = '2';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SYSTEM_PROMPT = 'You are Rex, a careful backend engineer.';
/** A GitHub Enterprise Server: the template's URLs, which the fake curl and git (through insteadOf) must see. */
const GHE = { apiUrl: 'https://ghe.example.test/api/v3', serverUrl: 'https://ghe.example.test' };

/**
 * A fake CLI: records `$@` (NUL-separated, one file per call), prints FAKE_OUTPUT's file with `@SESSION@`
 * replaced by the id it was given (`--session-id` or `--resume`, as claude echoes it), exits FAKE_EXIT.
 */
const FAKE_CLI = `#!/usr/bin/env bash
# Bash builtins where they do (no find, wc or sed): each program started costs every run of the suite.
shopt -s nullglob
recorded=("$FAKE_ARGV_DIR"/*.argv)
calls="\${#recorded[@]}"
printf '%s\\0' "$@" >"$FAKE_ARGV_DIR/$calls.argv"
# The branch checked out, from .git/HEAD ("ref: refs/heads/NAME"; a commit id when detached) rather than a
# git rev-parse in a subshell: two processes fewer per call.
head=""
[ -f .git/HEAD ] && IFS= read -r head <.git/HEAD
head="\${head#ref: refs/heads/}"
printf '%s\\t%s\\t%s\\t%s\\t%s' "$PWD" "$head" "$GH_TOKEN" "$GH_ENTERPRISE_TOKEN" "$GH_HOST" >"$FAKE_ARGV_DIR/$calls.env"
given=""
previous=""
for argument in "$@"; do
  case "$previous" in --session-id | --resume) given="$argument" ;; esac
  previous="$argument"
done
# The whole file, its last newline (or its lack of one) included.
IFS= read -r -d '' output <"$FAKE_OUTPUT" || true
printf '%s' "\${output//@SESSION@/$given}"
if [ -n "\${FAKE_TRANSCRIPT:-}" ] && [ -n "$given" ]; then
  mkdir -p "$HOME/.claude/projects/-workspace" && printf '{"type":"user","sessionId":"%s"}\\n' "$given" >"$HOME/.claude/projects/-workspace/$given.jsonl"
fi
if [ -n "\${FAKE_SLEEP:-}" ]; then
  printf '%s' "$$" >"$FAKE_ARGV_DIR/announced"
  exec sleep "$FAKE_SLEEP"
fi
exit "$FAKE_EXIT"
`;

/**
 * A fake curl: records its arguments (NUL-separated), and a line per call, and answers GitHub's token endpoint
 * (with the file FAKE_CURL_ANSWER when a test gives one).
 */
const FAKE_CURL = `#!/usr/bin/env bash
printf '%s\\0' "$@" >"$FAKE_CURL_LOG"
printf 'call\\n' >>"$FAKE_CURL_LOG.calls"
if [ -n "\${FAKE_CURL_ANSWER:-}" ]; then
  IFS= read -r -d '' answer <"$FAKE_CURL_ANSWER" || true
  printf '%s' "$answer"
else
  printf '%s\\n' '{"token":"ghs_test-token","expires_at":"2030-01-01T00:00:00Z"}'
fi
`;

const APP_ID = '12345';
const INSTALLATION_ID = '67890';
const scratch = useScratchDirs('direct-agent-');
let keys: string;
beforeAll(() => {
  keys = scratch();
  execFileSync('openssl', ['genrsa', '-out', join(keys, 'private-key'), '2048'], { stdio: 'ignore' });
  execFileSync('openssl', ['rsa', '-in', join(keys, 'private-key'), '-pubout', '-out', join(keys, 'public-key')], { stdio: 'ignore' });
});

/** git as the test's own user, with `home` as its HOME (no global config but what a test writes there). */
const gitAs = (home: string, cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
const git = (cwd: string, ...args: string[]) => gitAs(root, cwd, ...args);
const serverRepository = () => join(root, 'server', `${REPOSITORY.name}.git`);

/**
 * A bare repository with one commit on the base branch, made once: each test's "GitHub" starts as a copy
 * of it (six git runs per test were a tenth of this file's processes).
 */
let seededServer: string;
beforeAll(() => {
  const folder = scratch();
  seededServer = join(folder, 'server.git');
  mkdirSync(seededServer);
  gitAs(folder, seededServer, 'init', '--quiet', '--bare', '-b', REPOSITORY.branch);
  const seed = join(folder, 'seed');
  gitAs(folder, folder, 'clone', '--quiet', seededServer, seed);
  writeFileSync(join(seed, 'README.md'), 'hello\n');
  gitAs(folder, seed, 'checkout', '--quiet', '-b', REPOSITORY.branch);
  gitAs(folder, seed, 'add', 'README.md');
  gitAs(folder, seed, 'commit', '--quiet', '-m', 'first');
  gitAs(folder, seed, 'push', '--quiet', 'origin', REPOSITORY.branch);
});

/** The "GitHub" of a test: a bare repository with one commit on the base branch, and the App's credentials. */
function setUpGithub(): void {
  cpSync(seededServer, serverRepository(), { recursive: true });
  const credentials = join(root, 'github-app');
  mkdirSync(credentials);
  writeFileSync(join(credentials, 'app-id'), APP_ID);
  writeFileSync(join(credentials, 'installation-id'), INSTALLATION_ID);
  writeFileSync(join(credentials, 'private-key'), readFileSync(join(keys, 'private-key')));
}

/** A test's folder: the same path in every test (made anew each time), so that a saved run can be put back. */
let root: string;
let saved: string;
beforeAll(() => {
  const folder = scratch();
  root = join(folder, 'root');
  saved = join(folder, 'first-claude-run');
});
beforeEach(() => {
  mkdirSync(root);
  setUpGithub();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The environment of the template the play builds for rex on `cli`, with run-time values filled in. */
function templateEnvironment(cli: string): Record<string, string> {
  const agent = { ...CONFIG.agents.rex, cli };
  const [, script] = directAgentTemplates({
    name: 'run-implementation',
    stage: 'implementation',
    agentName: 'rex',
    agent,
    cliName: cli,
    cli: CONFIG.clis[cli],
    repository: repositoryReferences('rex'),
    timeoutSeconds: 600,
    retries: 1,
    resources: structuredClone(DEFAULT_DIRECT_RESOURCES) as never,
    agentsConfigMap: 'controller-agents',
    github: GHE,
    executorServiceAccountName: 'agent-play',
  });
  const runtime: Record<string, string> = {
    '{{workflow.parameters.task-id}}': TASK_ID,
    '{{workflow.parameters.round}}': ROUND,
    '{{workflow.name}}': 'play-test-abcde',
    // What the play's first step resolves from the registry.
    [workflowOutput(RepositoryOutputs.name)]: REPOSITORY.name,
    [workflowOutput(RepositoryOutputs.branch)]: REPOSITORY.branch,
    [workflowOutput(RepositoryOutputs.workingDirectory)]: REPOSITORY.workingDirectory ?? REPOSITORY.service,
    [workflowOutput(AgentOutputs.claim('rex'))]: `workspace-${REPOSITORY.service}`,
  };
  const env: Record<string, string> = {};
  for (const variable of script.script!.env!) {
    if (variable.valueFrom) env[variable.name] = 'test-api-key';
    else env[variable.name] = (variable.value ?? '').replace(/\{\{[^}]*\}\}/g, (reference) => runtime[reference] ?? reference);
  }
  return env;
}

interface Run {
  readonly code: number | null;
  readonly argv: string[][];
  /** Per call of the CLI: its folder, the branch checked out there, its GH_TOKEN, GH_ENTERPRISE_TOKEN and GH_HOST. */
  readonly where: { folder: string; branch: string; token: string; enterpriseToken: string; host: string }[];
  readonly stdout: string;
  /** When the run started (milliseconds since the epoch): a run put back from a save carries its own. */
  readonly startedAt: number;
}

/** The environment a run gets: the template's, with the test's workspace, GitHub and fakes. */
function scriptEnvironment(cli: string, bin: string): Record<string, string> {
  return {
    ...templateEnvironment(cli),
    PATH: `${bin}:${process.env.PATH}`,
    HOME: join(root, 'workspace', '.agent-play', 'home', 'rex'),
    TMPDIR: root,
    [DirectAgentEnv.workspace]: join(root, 'workspace'),
    [DirectAgentEnv.systemPromptFile]: join(root, 'prompt.md'),
    [DirectAgentEnv.githubAppCredentials]: join(root, 'github-app'),
    // The template's server URL stays; git maps it to the local bare repositories (git-config `url.<base>.insteadOf`).
    GIT_CONFIG_COUNT: '3',
    GIT_CONFIG_KEY_0: `url.file://${join(root, 'server')}/.insteadOf`,
    GIT_CONFIG_VALUE_0: `${GHE.serverUrl}/`,
    // No housekeeping after a fetch or a push (`git maintenance run --auto`, `git gc --auto`): a process each,
    // in every run, on repositories of a commit or two; nothing the script does depends on it.
    GIT_CONFIG_KEY_1: 'maintenance.auto',
    GIT_CONFIG_VALUE_1: 'false',
    GIT_CONFIG_KEY_2: 'gc.auto',
    GIT_CONFIG_VALUE_2: '0',
    FAKE_CURL_LOG: join(root, 'curl.log'),
  };
}

/**
 * The first run of a task on a fresh workspace, with claude answering "Started.": what several tests look at
 * from different sides. Run once, by the first test that asks; the folder it leaves is saved and put back (the
 * same path) for the next test that asks, with the same result: each such run was 45 processes of bash, git,
 * jq and openssl. Call it first in a test, on the untouched folder of beforeEach.
 */
let firstClaudeRun: Run | undefined;
async function runFirstClaude(): Promise<Run> {
  if (firstClaudeRun !== undefined && existsSync(saved)) {
    rmSync(root, { recursive: true, force: true });
    cpSync(saved, root, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    return firstClaudeRun;
  }
  const run = await runAgent('claude', claudeOutput('@SESSION@', 'Started.'));
  cpSync(root, saved, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  firstClaudeRun = run;
  return run;
}

/** Runs the script as the template does, with `cli`'s fake printing `output` and exiting with `exit`. */
async function runAgent(cli: string, output: string, exit = 0): Promise<Run> {
  return runScript(cli, output, { FAKE_EXIT: String(exit) }, (_argvDir, env) => runBash(DIRECT_AGENT_SCRIPT, env, RUN_TIMEOUT_MS));
}

/** How a stop reaches the script: to its process group, as the emissary forwards it, or to the script alone. */
type StopTarget = 'group' | 'script';

/**
 * Runs the script with `cli`'s fake printing `output` and then working until stopped; once the fake has
 * printed, sends `signal` to the script (or its process group) as a stopped play's pod gets it.
 */
async function stopAgent(cli: string, output: string, signal: 'SIGTERM' | 'SIGINT', target: StopTarget, transcript = false) {
  let cliPid = 0;
  const run = await runScript(
    cli,
    output,
    { FAKE_SLEEP: '60', FAKE_EXIT: '0', ...(transcript ? { FAKE_TRANSCRIPT: '1' } : {}) },
    (argvDir, env) =>
      new Promise((resolve, reject) => {
        const child = spawn('bash', ['-c', DIRECT_AGENT_SCRIPT], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        const started = Date.now();
        const poll = setInterval(() => {
          const announced = join(argvDir, 'announced');
          if (existsSync(announced) && readFileSync(announced, 'utf8') !== '') {
            clearInterval(poll);
            cliPid = Number(readFileSync(announced, 'utf8'));
            process.kill(target === 'group' ? -child.pid! : child.pid!, signal);
          } else if (Date.now() - started > RUN_TIMEOUT_MS) {
            clearInterval(poll);
            process.kill(-child.pid!, 'SIGKILL');
          }
        }, 50);
        child.on('error', reject);
        child.on('close', (code, closedBy) => {
          clearInterval(poll);
          resolve({ code, signal: closedBy, stdout, stderr });
        });
      }),
  );
  return { ...run, cliPid };
}

/** Whether process `pid` has ended (gone, or a zombie nobody reaped yet), waiting a little for it. */
async function processEnds(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 100; tries++) {
    const stat = join('/proc', String(pid), 'stat');
    if (!existsSync(stat) || readFileSync(stat, 'utf8').split(') ')[1]?.startsWith('Z')) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function runScript(
  cli: string,
  output: string,
  fake: Record<string, string>,
  execute: (argvDir: string, env: Record<string, string>) => Promise<ScriptRun>,
): Promise<Run> {
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  const env = scriptEnvironment(cli, bin);
  writeFileSync(join(bin, env[DirectAgentEnv.binary]), FAKE_CLI);
  chmodSync(join(bin, env[DirectAgentEnv.binary]), 0o755);
  writeFileSync(join(bin, 'curl'), FAKE_CURL);
  chmodSync(join(bin, 'curl'), 0o755);
  writeFileSync(join(root, 'prompt.md'), SYSTEM_PROMPT);
  writeFileSync(join(root, 'output'), output);
  const argvDir = join(root, `argv-${cli}`);
  rmSync(argvDir, { recursive: true, force: true });
  mkdirSync(argvDir);
  const startedAt = Date.now();
  const result = await execute(argvDir, { ...env, FAKE_ARGV_DIR: argvDir, FAKE_OUTPUT: join(root, 'output'), ...fake });
  const calls = readdirSync(argvDir)
    .filter((file) => file.endsWith('.argv'))
    .sort();
  const argv = calls.map((call) => readFileSync(join(argvDir, call), 'utf8').split('\0').slice(0, -1));
  const where = calls.map((call) => {
    const [folder, branch, token, enterpriseToken, host] = readFileSync(join(argvDir, call.replace(/\.argv$/, '.env')), 'utf8').split('\t');
    return { folder, branch, token, enterpriseToken, host };
  });
  return { code: result.code, argv, where, stdout: result.stdout + result.stderr, startedAt };
}

const stateFolder = () => join(root, 'workspace', taskStateFolder(TASK_ID));
const session = (): { cli: string; id: string; agent: string; confirmed: boolean } =>
  JSON.parse(readFileSync(join(stateFolder(), `rex${SESSION_FILE_SUFFIX}`), 'utf8'));
const context = (): string => readFileSync(join(stateFolder(), CONTEXT_FILE), 'utf8');
const valueAfter = (argv: readonly string[], flag: string): string => argv[argv.indexOf(flag) + 1];

const claudeOutput = (id: string, result: string) => `${JSON.stringify({ type: 'result', subtype: 'success', result, session_id: id })}\n`;
const codexOutput = (thread: string, text: string) =>
  [
    { type: 'thread.started', thread_id: thread },
    { type: 'turn.started' },
    { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text } },
    { type: 'turn.completed', usage: {} },
  ]
    .map((event) => JSON.stringify(event))
    .join('\n');

describe('the direct agent script', () => {
  it('first run: starts a claude session with an id chosen up front, the task prompt and the system prompt flag', async () => {
    const run = await runFirstClaude();
    expect(run.code).toBe(0);
    expect(run.argv).toHaveLength(1);
    const [argv] = run.argv;
    expect(argv.slice(0, 3)).toEqual(['-p', '--output-format', 'json']);
    const id = valueAfter(argv, '--session-id');
    expect(id).toMatch(UUID);
    expect(argv).not.toContain('--resume');
    expect(valueAfter(argv, '--model')).toBe(CONFIG.agents.rex.model);
    expect(valueAfter(argv, '--append-system-prompt')).toBe(SYSTEM_PROMPT);
    expect(valueAfter(argv, '--permission-mode')).toBe('bypassPermissions');
    const prompt = argv[argv.length - 1];
    expect(prompt).toContain(`Task ${TASK_ID} of the repository ${REPOSITORY.name}, round ${ROUND}, stage implementation.`);
    expect(prompt).toContain(`feature/task-${TASK_ID}-implementation`);
    expect(prompt).not.toContain(SYSTEM_PROMPT);
    expect(session()).toEqual({ cli: 'claude', id, agent: 'rex', confirmed: true });
    expect(context()).toContain(`## Round ${ROUND}, stage implementation: rex with claude (session ${id}, exit 0)`);
  });

  it('retry: resumes the same claude session with the task prompt only, and records the answer', async () => {
    await runFirstClaude();
    const { id } = session();
    const run = await runAgent('claude', claudeOutput(id, 'Opened pull request 12.'));
    expect(run.code).toBe(0);
    const [argv] = run.argv;
    expect(valueAfter(argv, '--resume')).toBe(id);
    expect(argv).not.toContain('--session-id');
    expect(argv[argv.length - 1]).not.toContain('Earlier work on this task');
    expect(session().id).toBe(id);
    expect(context()).toContain('Opened pull request 12.');
  });

  it("reads JSON lines among plain lines: the first session announced, each answer once, the answer's last lines", async () => {
    const thread = '0199a0b1-0000-7000-8000-00000000000a';
    const events = (texts: readonly string[]) =>
      [
        JSON.stringify({ type: 'thread.started', thread_id: thread }),
        ...texts.map((text, index) =>
          JSON.stringify({ type: 'item.completed', item: { id: `item_${index}`, type: 'agent_message', text } }),
        ),
        'warning: a plain line after the answers',
        JSON.stringify({ type: 'thread.started', thread_id: 'a-later-thread' }),
      ].join('\n');
    const entry = (run: number) => context().split(`(session ${thread}, exit 0)\n\n`)[run];
    expect((await runAgent('codex', events(['First answer.', 'Second answer.']))).code).toBe(0);
    expect(session()).toMatchObject({ cli: 'codex', id: thread, confirmed: true });
    expect(entry(1)).toBe('First answer.\nSecond answer.\n');
    const long = Array.from({ length: CONTEXT_ANSWER_LINES + 5 }, (_, line) => `line ${line + 1}`).join('\n');
    expect((await runAgent('codex', events(['An older answer.', long]))).code).toBe(0);
    expect(entry(2)).toBe(`${Array.from({ length: CONTEXT_ANSWER_LINES }, (_, line) => `line ${line + 6}`).join('\n')}\n`);
  });

  it('CLI changed: a new codex session primed from the context file, its id read from the JSON output', async () => {
    await runAgent('claude', claudeOutput('@SESSION@', 'Implemented the handler; tests pass.'));
    const claudeSession = session().id;
    const run = await runAgent('codex', codexOutput('0199a0b1-0000-7000-8000-000000000001', 'Reviewed and extended the tests.'));
    expect(run.code).toBe(0);
    const [argv] = run.argv;
    expect(argv.slice(0, -1)).toEqual(['exec', '--json', '--sandbox', 'workspace-write', '--model', CONFIG.agents.rex.model]);
    const prompt = argv[argv.length - 1];
    expect(prompt.startsWith(SYSTEM_PROMPT)).toBe(true);
    expect(prompt).toContain('Earlier work on this task');
    expect(prompt).toContain('Implemented the handler; tests pass.');
    expect(prompt).toContain(`round ${ROUND}, stage implementation`);
    expect(session()).toEqual({ cli: 'codex', id: '0199a0b1-0000-7000-8000-000000000001', agent: 'rex', confirmed: true });
    expect(claudeSession).not.toBe(session().id);
    expect(run.stdout).toContain('moved from claude to codex');
  });

  it("failure: the CLI's exit code is the step's, and the session it started is kept for the retry", async () => {
    const failed = await runAgent('codex', codexOutput('0199a0b1-0000-7000-8000-000000000002', 'Ran out of time.'), 3);
    expect(failed.code).toBe(3);
    expect(session()).toEqual({ cli: 'codex', id: '0199a0b1-0000-7000-8000-000000000002', agent: 'rex', confirmed: true });
    expect(context()).toContain('exit 3');
    const retried = await runAgent('codex', codexOutput('0199a0b1-0000-7000-8000-000000000002', 'Done.'));
    expect(retried.code).toBe(0);
    expect(retried.argv[0].slice(-3)).toEqual([
      'resume',
      '0199a0b1-0000-7000-8000-000000000002',
      retried.argv[0][retried.argv[0].length - 1],
    ]);
    expect(retried.argv[0][retried.argv[0].length - 1]).not.toContain(SYSTEM_PROMPT);
  });

  it('checks out the task branch of the configured git server, with git and gh as the GitHub App there only', async () => {
    const run = await runFirstClaude();
    expect(run.code).toBe(0);
    const checkout = join(root, 'workspace', REPOSITORY.workingDirectory ?? REPOSITORY.service);
    expect(run.where[0]).toEqual({
      folder: checkout,
      branch: `feature/task-${TASK_ID}-implementation`,
      token: 'ghs_test-token',
      enterpriseToken: 'ghs_test-token',
      host: 'ghe.example.test',
    });
    expect(readFileSync(join(checkout, 'README.md'), 'utf8')).toBe('hello\n');
    expect(git(checkout, 'config', '--local', 'remote.origin.url')).toBe(`${GHE.serverUrl}/${REPOSITORY.name}.git`);
    const home = join(root, 'workspace', '.agent-play', 'home', 'rex');
    const gitconfig = join(home, '.gitconfig');
    expect(git(checkout, 'config', '--file', gitconfig, 'user.name')).toBe(`${CONFIG.agents.rex.githubApp}[bot]`);
    expect(git(checkout, 'config', '--file', gitconfig, `credential.${GHE.serverUrl}.helper`)).toBe(
      join(home, GitPrograms.credentialHelper),
    );
    // git asks the credential helper, which mints a token through the same program; another host gets nothing.
    const fill = (host: string) =>
      spawnSync('git', ['credential', 'fill'], {
        cwd: checkout,
        input: `protocol=https\nhost=${host}\n\n`,
        env: { ...scriptEnvironment('claude', join(root, 'bin')), GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' },
        encoding: 'utf8',
      });
    expect(fill('ghe.example.test').stdout).toContain('username=x-access-token\npassword=ghs_test-token');
    const elsewhere = fill('github.com');
    expect(elsewhere.stdout).not.toContain('ghs_test-token');
    expect(elsewhere.status).not.toBe(0);
  });

  it('drops a credential helper for every host that an earlier run left in the home on the workspace', async () => {
    const home = join(root, 'workspace', '.agent-play', 'home', 'rex');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, '.gitconfig'), `[credential]\n\thelper = ${join(home, GitPrograms.credentialHelper)}\n`);
    const run = await runAgent('claude', claudeOutput('@SESSION@', 'Started.'));
    expect(run.code).toBe(0);
    const helpers = spawnSync('git', ['config', '--file', join(home, '.gitconfig'), '--get-regexp', '^credential\\.'], {
      encoding: 'utf8',
    });
    expect(helpers.stdout.trim().split('\n')).toEqual([`credential.${GHE.serverUrl}.helper ${join(home, GitPrograms.credentialHelper)}`]);
  });

  it("asks GitHub for an installation token with a JWT signed by the App's key", async () => {
    const run = await runFirstClaude();
    const args = readFileSync(join(root, 'curl.log'), 'utf8').split('\0');
    expect(args).toContain(`${GHE.apiUrl}/app/installations/${INSTALLATION_ID}/access_tokens`);
    expect(args[args.indexOf('-X') + 1]).toBe('POST');
    const bearer = args.find((arg) => arg.startsWith('Authorization: Bearer '))!.slice('Authorization: Bearer '.length);
    const [header, payload, signature] = bearer.split('.');
    const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT' });
    const claims = decode(payload);
    expect(claims.iss).toBe(APP_ID);
    expect(claims.exp - claims.iat).toBe(600);
    // Issued a minute before the run's time (the first run may have been put back from a save made earlier).
    expect(Math.abs(claims.iat + 60 - run.startedAt / 1000)).toBeLessThan(30);
    const verify = createVerify('RSA-SHA256').update(`${header}.${payload}`);
    expect(verify.verify(readFileSync(join(keys, 'public-key')), Buffer.from(signature, 'base64url'))).toBe(true);
  });

  it("asks GitHub once per step: every fetch and push gets the token kept in the pod's temp folder, for its user only", async () => {
    const run = await runFirstClaude();
    expect(run.code).toBe(0);
    // The token for gh, then the clone and the fetch through the credential helper: one request.
    expect(readFileSync(join(root, 'curl.log.calls'), 'utf8')).toBe('call\n');
    const kept = readdirSync(root).filter((name) => name.startsWith(KEPT_TOKEN_PREFIX));
    expect(kept).toHaveLength(1);
    expect(statSync(join(root, kept[0])).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(root, kept[0]), 'utf8')).toMatch(/^\d+ ghs_test-token\n$/);
    expect(readdirSync(join(root, 'workspace'), { recursive: true, encoding: 'utf8' }).filter((name) => name.includes('token-'))).toEqual(
      [],
    );
  });

  it('asks GitHub again once the kept token is 50 minutes old', async () => {
    await runFirstClaude();
    const [kept] = readdirSync(root).filter((name) => name.startsWith(KEPT_TOKEN_PREFIX));
    const program = join(root, 'workspace', '.agent-play', 'home', 'rex', GitPrograms.token);
    const token = () => execFileSync(program, { env: scriptEnvironment('claude', join(root, 'bin')), encoding: 'utf8' });
    const now = Math.floor(Date.now() / 1000);
    writeFileSync(join(root, kept), `${now - TOKEN_REUSE_SECONDS + 60} ghs_still-good\n`);
    expect(token()).toBe('ghs_still-good\n');
    writeFileSync(join(root, kept), `${now - TOKEN_REUSE_SECONDS} ghs_too-old\n`);
    expect(token()).toBe('ghs_test-token\n');
    expect(readFileSync(join(root, 'curl.log.calls'), 'utf8')).toBe('call\ncall\n');
  });

  it("reads the token from GitHub's answer as laid out, with jq only for an answer bash cannot read for sure", async () => {
    await runFirstClaude();
    const [kept] = readdirSync(root).filter((name) => name.startsWith(KEPT_TOKEN_PREFIX));
    const bin = join(root, 'bin');
    // A jq that says it ran, then runs the real one.
    const realJq = execFileSync('bash', ['-c', 'command -v jq'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'jq'), `#!/usr/bin/env bash\nprintf 'jq\\n' >>"${join(root, 'jq.calls')}"\nexec ${realJq} "$@"\n`);
    chmodSync(join(bin, 'jq'), 0o755);
    const program = join(root, 'workspace', '.agent-play', 'home', 'rex', GitPrograms.token);
    const answerFile = join(root, 'answer.json');
    const tokenFor = (answer: string) => {
      rmSync(join(root, kept), { force: true });
      rmSync(join(root, 'jq.calls'), { force: true });
      writeFileSync(answerFile, answer);
      const run = spawnSync(program, { env: { ...scriptEnvironment('claude', bin), FAKE_CURL_ANSWER: answerFile }, encoding: 'utf8' });
      return { code: run.status, token: run.stdout, jq: existsSync(join(root, 'jq.calls')) };
    };
    const pretty = `{\n  "token" : "ghs_pretty_1",\n  "expires_at": "2030-01-01T00:00:00Z",\n  "permissions": { "contents": "write" }\n}\n`;
    expect(tokenFor(pretty)).toEqual({ code: 0, token: 'ghs_pretty_1\n', jq: false });
    // Another "token" in the answer (here a repository's name): which one is the token is jq's to say.
    const twice = JSON.stringify({ repositories: [{ name: 'token' }], token: 'ghs_top' });
    expect(tokenFor(twice)).toEqual({ code: 0, token: 'ghs_top\n', jq: true });
    // A character JSON may escape (here a slash, which may come as \/): jq reads it.
    expect(tokenFor('{"token":"ghs_a\\/b"}')).toEqual({ code: 0, token: 'ghs_a/b\n', jq: true });
    expect(tokenFor(JSON.stringify({ message: 'Bad credentials' }))).toMatchObject({ code: 1, token: '', jq: true });
    const calls = readFileSync(join(root, 'curl.log.calls'), 'utf8');
    // An openssl that prints no signature stops it before it asks GitHub, naming the key to check.
    writeFileSync(join(bin, 'openssl'), '#!/usr/bin/env bash\necho "unexpected output"\n');
    chmodSync(join(bin, 'openssl'), 0o755);
    rmSync(join(root, kept), { force: true });
    const unsigned = spawnSync(program, { env: scriptEnvironment('claude', bin), encoding: 'utf8' });
    expect([unsigned.status, unsigned.stdout]).toEqual([1, '']);
    expect(unsigned.stderr).toContain(`github-token: openssl printed no signature with ${join(root, 'github-app', 'private-key')}`);
    rmSync(join(bin, 'openssl'));
    // A credential file it cannot read stops it before it asks GitHub.
    rmSync(join(root, 'github-app', 'installation-id'));
    const unread = spawnSync(program, { env: scriptEnvironment('claude', bin), encoding: 'utf8' });
    expect([unread.status, unread.stdout]).toEqual([1, '']);
    expect(unread.stderr).toContain(
      `github-token: cannot read ${join(root, 'github-app', 'installation-id')}: is the GitHub App's Secret mounted at ${join(root, 'github-app')}`,
    );
    expect(readFileSync(join(root, 'curl.log.calls'), 'utf8')).toBe(calls);
  });

  it('refuses an App id that is neither digits nor a client id, before it signs anything', async () => {
    writeFileSync(join(root, 'github-app', 'app-id'), '12345", "admin": "true');
    const run = await runAgent('claude', claudeOutput('@SESSION@', 'Started.'));
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain('app-id holds neither an App id nor a client id');
    expect(existsSync(join(root, 'curl.log'))).toBe(false);
  });

  it('an isolated workspace checks out the task branch another agent pushed, and keeps its own later work', async () => {
    const other = join(root, 'other');
    git(root, 'clone', '--quiet', serverRepository(), other);
    git(other, 'checkout', '--quiet', '-b', `feature/task-${TASK_ID}-implementation`);
    writeFileSync(join(other, 'feature.txt'), 'pushed\n');
    git(other, 'add', 'feature.txt');
    git(other, 'commit', '--quiet', '-m', 'feature');
    git(other, 'push', '--quiet', 'origin', `feature/task-${TASK_ID}-implementation`);
    await runAgent('codex', codexOutput('0199a0b1-0000-7000-8000-000000000005', 'Reviewed.'));
    const checkout = join(root, 'workspace', REPOSITORY.workingDirectory ?? REPOSITORY.service);
    expect(readFileSync(join(checkout, 'feature.txt'), 'utf8')).toBe('pushed\n');
    writeFileSync(join(checkout, 'local.txt'), 'not pushed yet\n');
    const again = await runAgent('codex', codexOutput('0199a0b1-0000-7000-8000-000000000005', 'Again.'));
    expect(again.code).toBe(0);
    expect(again.where[0].branch).toBe(`feature/task-${TASK_ID}-implementation`);
    expect(readFileSync(join(checkout, 'local.txt'), 'utf8')).toBe('not pushed yet\n');
  });

  it('no installation token: the step fails before the CLI runs', async () => {
    rmSync(join(root, 'github-app', 'private-key'));
    const run = await runAgent('claude', claudeOutput('@SESSION@', 'Started.'));
    expect(run.code).not.toBe(0);
    expect(run.argv).toEqual([]);
    expect(run.stdout).toContain('no installation token for');
  });

  it('a chosen id the CLI never reported (it crashed first) is not resumed: the retry starts a new session', async () => {
    const crashed = await runAgent('claude', 'panic: no JSON\n', 1);
    expect(crashed.code).toBe(1);
    const first = valueAfter(crashed.argv[0], '--session-id');
    expect(session()).toEqual({ cli: 'claude', id: first, agent: 'rex', confirmed: false });
    const retried = await runAgent('claude', claudeOutput('@SESSION@', 'Done.'));
    expect(retried.argv[0]).not.toContain('--resume');
    expect(valueAfter(retried.argv[0], '--session-id')).toMatch(UUID);
    expect(valueAfter(retried.argv[0], '--session-id')).not.toBe(first);
    expect(retried.argv[0][retried.argv[0].length - 1]).toContain('Earlier work on this task');
  });

  it('a resume that fails without reporting its session (the CLI lost it) makes the next attempt start over', async () => {
    await runAgent('codex', codexOutput('0199a0b1-0000-7000-8000-000000000003', 'First pass.'));
    const lost = await runAgent('codex', 'error: thread not found\n', 1);
    expect(lost.argv[0]).toContain('resume');
    expect(session().confirmed).toBe(false);
    const next = await runAgent('codex', codexOutput('0199a0b1-0000-7000-8000-000000000004', 'Second pass.'));
    expect(next.argv[0]).not.toContain('resume');
    expect(next.argv[0][next.argv[0].length - 1]).toContain('First pass.');
    expect(session()).toEqual({ cli: 'codex', id: '0199a0b1-0000-7000-8000-000000000004', agent: 'rex', confirmed: true });
  });

  it('a new session carries only the end of a long context file, so its prompt stays one legal argument', async () => {
    mkdirSync(stateFolder(), { recursive: true });
    const early = 'round 1: the earliest note\n';
    writeFileSync(join(stateFolder(), CONTEXT_FILE), `${early}${`${'x'.repeat(99)}\n`.repeat(2000)}round 9: the latest note\n`);
    const run = await runAgent('claude', claudeOutput('@SESSION@', 'Done.'));
    expect(run.code).toBe(0);
    const prompt = run.argv[0][run.argv[0].length - 1];
    expect(prompt).toContain('round 9: the latest note');
    expect(prompt).not.toContain(early.trim());
    expect(Buffer.byteLength(prompt)).toBeLessThan(CONTEXT_PROMPT_BYTES + 2048);
  });

  it('a system prompt that opens with front matter (---) reaches a CLI without a system prompt flag as an argument no parser takes for an option', async () => {
    const frontMatter = join(root, 'front-matter.md');
    writeFileSync(frontMatter, `---\nname: rex\n---\n${SYSTEM_PROMPT}`);
    const run = await runScript(
      'codex',
      codexOutput('0199a0b1-0000-7000-8000-000000000002', 'Done.'),
      { FAKE_EXIT: '0' },
      (_argvDir, env) => runBash(DIRECT_AGENT_SCRIPT, { ...env, [DirectAgentEnv.systemPromptFile]: frontMatter }, RUN_TIMEOUT_MS),
    );
    expect(run.code).toBe(0);
    const prompt = run.argv[0][run.argv[0].length - 1];
    expect(prompt.startsWith('-')).toBe(false);
    expect(prompt).toContain(`---\nname: rex\n---\n${SYSTEM_PROMPT}`);
  });

  it('a CLI missing from the image fails the step (exit 127) and leaves no session behind', async () => {
    const bin = join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'curl'), FAKE_CURL);
    chmodSync(join(bin, 'curl'), 0o755);
    writeFileSync(join(root, 'prompt.md'), SYSTEM_PROMPT);
    const result = await runBash(
      DIRECT_AGENT_SCRIPT,
      { ...scriptEnvironment('codex', bin), [DirectAgentEnv.binary]: 'no-such-cli-binary' },
      RUN_TIMEOUT_MS,
    );
    expect(result.code).toBe(127);
    expect(existsSync(join(stateFolder(), `rex${SESSION_FILE_SUFFIX}`))).toBe(false);
  });
});

it("follows the CLI's output with a tail that notices the CLI's end within a tenth of a second", () => {
  // GNU tail --pid looks whether the process lives once per --sleep-interval, 1 s by default: each step
  // would outlive its CLI by up to a second.
  const follower = DIRECT_AGENT_SCRIPT.split('\n').filter((line) => /^tail .*--pid=/.test(line));
  expect(follower).toHaveLength(1);
  const interval = /(?:^| )-s ([0-9.]+) /.exec(follower[0]);
  expect(interval, follower[0]).not.toBeNull();
  expect(Number(interval?.[1])).toBeGreaterThan(0);
  expect(Number(interval?.[1])).toBeLessThanOrEqual(0.1);
});
/** The first event codex prints: the id of the thread it started (executors.ts). */
const codexAnnouncement = (thread: string) => `${JSON.stringify({ type: 'thread.started', thread_id: thread })}\n`;

describe('the direct agent script, stopped while the CLI works', () => {
  it('TERM: keeps the session codex announced, appends an interrupted entry, stops the CLI, exits 143; the next run resumes', async () => {
    const thread = '0199a0b1-0000-7000-8000-0000000000a1';
    const stopped = await stopAgent('codex', `${codexAnnouncement(thread)}{"type":"turn.started"}\n{"type":"item.sta`, 'SIGTERM', 'script');
    expect(stopped.code).toBe(143);
    expect(await processEnds(stopped.cliPid)).toBe(true);
    expect(session()).toEqual({ cli: 'codex', id: thread, agent: 'rex', confirmed: true });
    expect(context()).toContain(
      `## Round ${ROUND}, stage implementation: rex with codex (session ${thread}, exit 143, interrupted by SIGTERM)`,
    );
    const next = await runAgent('codex', codexOutput(thread, 'Finished.'));
    expect(next.code).toBe(0);
    expect(next.argv[0].slice(-3, -1)).toEqual(['resume', thread]);
  });

  it('INT: keeps the session gemini announced in its init event and exits 130', async () => {
    const init = `${JSON.stringify({ type: 'init', timestamp: 't', session_id: 'gem-7', model: 'gemini-2.5-pro' })}\n`;
    const stopped = await stopAgent('gemini', init, 'SIGINT', 'script');
    expect(stopped.code).toBe(130);
    expect(await processEnds(stopped.cliPid)).toBe(true);
    expect(session()).toEqual({ cli: 'gemini', id: 'gem-7', agent: 'rex', confirmed: true });
    expect(context()).toContain('(session gem-7, exit 130, interrupted by SIGINT)');
    const next = await runAgent('gemini', SAMPLE_OUTPUTS.gemini.output.replaceAll('gem-1', 'gem-7'));
    expect(next.argv[0].slice(0, 2)).toEqual(['--resume', 'gem-7']);
  });

  it('claude: a chosen id whose transcript the CLI wrote is kept, and the next run resumes it', async () => {
    const stopped = await stopAgent('claude', '', 'SIGTERM', 'group', true);
    expect(stopped.code).toBe(143);
    const id = valueAfter(stopped.argv[0], '--session-id');
    expect(session()).toEqual({ cli: 'claude', id, agent: 'rex', confirmed: true });
    expect(context()).toContain(`(session ${id}, exit 143, interrupted by SIGTERM)`);
    const next = await runAgent('claude', claudeOutput(id, 'Done.'));
    expect(valueAfter(next.argv[0], '--resume')).toBe(id);
    expect(next.argv[0]).not.toContain('--session-id');
  });

  it('claude: a chosen id without a transcript is not resumed; the next run starts over from the context file', async () => {
    const stopped = await stopAgent('claude', '', 'SIGTERM', 'group');
    expect(stopped.code).toBe(143);
    const id = valueAfter(stopped.argv[0], '--session-id');
    expect(session()).toEqual({ cli: 'claude', id, agent: 'rex', confirmed: false });
    const next = await runAgent('claude', claudeOutput('@SESSION@', 'Done.'));
    expect(next.argv[0]).not.toContain('--resume');
    expect(valueAfter(next.argv[0], '--session-id')).not.toBe(id);
    expect(next.argv[0][next.argv[0].length - 1]).toContain('interrupted by SIGTERM');
  });

  it('a CLI stopped before it announced a session leaves none: the next run starts over from the context file', async () => {
    const stopped = await stopAgent('codex', 'loading...\n', 'SIGTERM', 'group');
    expect(stopped.code).toBe(143);
    expect(existsSync(join(stateFolder(), `rex${SESSION_FILE_SUFFIX}`))).toBe(false);
    expect(context()).toContain('rex with codex (session , exit 143, interrupted by SIGTERM)');
    const next = await runAgent('codex', codexOutput('0199a0b1-0000-7000-8000-0000000000a2', 'Done.'));
    expect(next.argv[0]).not.toContain('resume');
    expect(next.argv[0][next.argv[0].length - 1]).toContain('interrupted by SIGTERM');
  });

  it('a resumed session stopped before the CLI announced it again stays confirmed', async () => {
    const thread = '0199a0b1-0000-7000-8000-0000000000a3';
    await runAgent('codex', codexOutput(thread, 'First pass.'));
    const stopped = await stopAgent('codex', '', 'SIGTERM', 'group');
    expect(stopped.code).toBe(143);
    expect(stopped.argv[0]).toContain('resume');
    expect(session()).toEqual({ cli: 'codex', id: thread, agent: 'rex', confirmed: true });
    const next = await runAgent('codex', codexOutput(thread, 'Done.'));
    expect(next.argv[0].slice(-3, -1)).toEqual(['resume', thread]);
  });
});

/** What each CLI prints (executors.ts names the source of each shape): its session id and its answer. */
const SAMPLE_OUTPUTS: Readonly<Record<string, { readonly output: string; readonly id: string | undefined; readonly answer: string }>> = {
  claude: {
    output: claudeOutput('c0ffee00-0000-4000-8000-000000000001', 'claude answer'),
    id: 'c0ffee00-0000-4000-8000-000000000001',
    answer: 'claude answer',
  },
  codex: {
    output: codexOutput('0199a0b1-0000-7000-8000-00000000000c', 'codex answer'),
    id: '0199a0b1-0000-7000-8000-00000000000c',
    answer: 'codex answer',
  },
  cursor: {
    output: `${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'cursor answer', session_id: 'chat-42', request_id: 'r' })}\n`,
    id: 'chat-42',
    answer: 'cursor answer',
  },
  opencode: {
    output: [
      { type: 'step_start', timestamp: 1, sessionID: 'ses_abc', part: { type: 'step-start' } },
      { type: 'text', timestamp: 2, sessionID: 'ses_abc', part: { type: 'text', text: 'opencode answer' } },
      { type: 'step_finish', timestamp: 3, sessionID: 'ses_abc', part: { type: 'step-finish' } },
    ]
      .map((event) => JSON.stringify(event))
      .join('\n'),
    id: 'ses_abc',
    answer: 'opencode answer',
  },
  gemini: {
    output: [
      { type: 'init', timestamp: 't', session_id: 'gem-1', model: 'gemini-2.5-pro' },
      { type: 'message', timestamp: 't', role: 'user', content: 'the prompt' },
      { type: 'message', timestamp: 't', role: 'assistant', content: 'gemini answer', delta: true },
      { type: 'result', timestamp: 't', status: 'success', stats: {} },
    ]
      .map((event) => JSON.stringify(event))
      .join('\n'),
    id: 'gem-1',
    answer: 'gemini answer',
  },
};

describe.each(Object.keys(SAMPLE_OUTPUTS))('executor %s', (cli) => {
  it('spawns with its own arguments, records the session id it reports, and resumes that session', async () => {
    const sample = SAMPLE_OUTPUTS[cli];
    const env = templateEnvironment(cli);
    const spawn: string[] = JSON.parse(env[DirectAgentEnv.spawnArgs]);
    const resume: string[] = JSON.parse(env[DirectAgentEnv.resumeArgs]);
    const first = await runAgent(cli, sample.output);
    expect(first.code).toBe(0);
    const fill = (args: readonly string[], argv: readonly string[], id: string) =>
      args.map((arg, index) =>
        arg === '@PROMPT@'
          ? argv[index]
          : arg === '@SESSION_ID@'
            ? id
            : arg === '@MODEL@'
              ? CONFIG.agents.rex.model
              : arg === '@SYSTEM_PROMPT@'
                ? SYSTEM_PROMPT
                : arg,
      );
    const chosen = spawn.includes('@SESSION_ID@') ? first.argv[0][spawn.indexOf('@SESSION_ID@')] : '';
    expect(first.argv[0]).toEqual(fill(spawn, first.argv[0], chosen));
    expect(session()).toEqual({ cli, id: sample.id, agent: 'rex', confirmed: true });
    expect(context()).toContain(sample.answer);
    const second = await runAgent(cli, sample.output);
    expect(second.argv[0]).toEqual(fill(resume, second.argv[0], sample.id!));
  });
});

/**
 * The script skips what an earlier step of the workspace already did (a checkout or a merge with nothing to
 * do, git config and programs already as they must be) and writes and reads the session file without jq for
 * plain values: these are the cases where skipping or bash's own reading must still come out as before.
 */
describe('the direct agent script on a workspace an earlier step left', () => {
  const taskBranch = `feature/task-${TASK_ID}-implementation`;
  const checkout = () => join(root, 'workspace', REPOSITORY.workingDirectory ?? REPOSITORY.service);
  const home = () => join(root, 'workspace', '.agent-play', 'home', 'rex');

  it('resumes a session file an older script wrote (indented JSON), and starts over from an unconfirmed one', async () => {
    const thread = '0199a0b1-0000-7000-8000-0000000000b1';
    mkdirSync(stateFolder(), { recursive: true });
    const file = join(stateFolder(), `rex${SESSION_FILE_SUFFIX}`);
    writeFileSync(file, `${JSON.stringify({ cli: 'codex', id: thread, agent: 'rex', confirmed: true }, null, 2)}\n`);
    const resumed = await runAgent('codex', codexOutput(thread, 'Resumed.'));
    expect(resumed.argv[0].slice(-3, -1)).toEqual(['resume', thread]);
    writeFileSync(file, `${JSON.stringify({ cli: 'codex', id: thread, agent: 'rex', confirmed: false }, null, 2)}\n`);
    const started = await runAgent('codex', codexOutput('0199a0b1-0000-7000-8000-0000000000b2', 'Started.'));
    expect(started.argv[0]).not.toContain('resume');
    expect(session()).toEqual({ cli: 'codex', id: '0199a0b1-0000-7000-8000-0000000000b2', agent: 'rex', confirmed: true });
  });

  it('records a session id that JSON must escape as the CLI reported it, and resumes it', async () => {
    const thread = 'thread "7" \\ of\ttask';
    expect((await runAgent('codex', codexOutput(thread, 'First.'))).code).toBe(0);
    expect(session()).toEqual({ cli: 'codex', id: thread, agent: 'rex', confirmed: true });
    const next = await runAgent('codex', codexOutput(thread, 'Second.'));
    expect(next.argv[0].slice(-3, -1)).toEqual(['resume', thread]);
  });

  it('fast-forwards the local task branch to what another agent pushed since', async () => {
    await runFirstClaude();
    const other = join(root, 'other');
    git(root, 'clone', '--quiet', serverRepository(), other);
    git(other, 'checkout', '--quiet', '-b', taskBranch);
    writeFileSync(join(other, 'pushed.txt'), 'from another agent\n');
    git(other, 'add', 'pushed.txt');
    git(other, 'commit', '--quiet', '-m', 'pushed');
    git(other, 'push', '--quiet', 'origin', taskBranch);
    const run = await runAgent('claude', claudeOutput('@SESSION@', 'Again.'));
    expect(run.code).toBe(0);
    expect(run.where[0].branch).toBe(taskBranch);
    expect(readFileSync(join(checkout(), 'pushed.txt'), 'utf8')).toBe('from another agent\n');
    expect(git(checkout(), 'rev-parse', 'HEAD')).toBe(git(other, 'rev-parse', 'HEAD'));
  });

  it('checks the task branch out again when the checkout was left on another branch', async () => {
    await runFirstClaude();
    git(checkout(), 'checkout', '--quiet', REPOSITORY.branch);
    const run = await runAgent('claude', claudeOutput('@SESSION@', 'Again.'));
    expect(run.code).toBe(0);
    expect(run.where[0].branch).toBe(taskBranch);
  });

  it('replaces the git programs an older script left in the home, executable by the agent only, and keeps one value per git setting', async () => {
    await runFirstClaude();
    const token = join(home(), GitPrograms.token);
    const helper = join(home(), GitPrograms.credentialHelper);
    const fresh = readFileSync(token, 'utf8');
    writeFileSync(token, '#!/usr/bin/env bash\necho an-older-program\n');
    chmodSync(token, 0o755);
    chmodSync(helper, 0o600);
    const run = await runAgent('claude', claudeOutput('@SESSION@', 'Again.'));
    expect(run.code).toBe(0);
    expect(run.where[0].token).toBe('ghs_test-token');
    expect(readFileSync(token, 'utf8')).toBe(fresh);
    expect(statSync(token).mode & 0o777).toBe(0o700);
    expect(statSync(helper).mode & 0o777).toBe(0o700);
    const settings = spawnSync('git', ['config', '--file', join(home(), '.gitconfig'), '--list'], { encoding: 'utf8' });
    expect(settings.stdout.trim().split('\n').sort()).toEqual(
      [
        `credential.${GHE.serverUrl}.helper=${helper}`,
        `user.email=${CONFIG.agents.rex.githubApp}[bot]@users.noreply.github.com`,
        `user.name=${CONFIG.agents.rex.githubApp}[bot]`,
      ].sort(),
    );
  });
});
