/**
 * The executor table: how each agent CLI runs one task turn on its own, without a controller (direct
 * execution). For every CLI it names the binary, the non-interactive argument vector of a new session and of
 * a resumed one, where the session id comes from (chosen before the run, or read from the CLI's JSON output),
 * and how its final answer is read. Every fact here was looked up in the CLI's own documentation or source;
 * docs/executors.md names the source of each. A CLI whose non-interactive session cannot be confirmed carries
 * a `refusal` instead of an invocation, and direct execution refuses it (seed 004: executors spawn and resume,
 * session flags are the CLI's own and never configured).
 *
 * Pure: no cdk8s, no I/O.
 */

/** The executors the platform knows: a CLI registry entry (`clis.X.executor`) names one of them. */
export const EXECUTORS = ['claude', 'codex', 'cursor', 'factory', 'opencode', 'gemini'] as const;

/** One of `EXECUTORS`. */
export type ExecutorName = (typeof EXECUTORS)[number];

/**
 * The placeholders of an argument vector, each a whole argument the direct script replaces: the task prompt,
 * the session id, the agent's model and its system prompt (the text of the mounted prompt file).
 */
export const ArgumentPlaceholders = {
  prompt: '@PROMPT@',
  sessionId: '@SESSION_ID@',
  model: '@MODEL@',
  systemPrompt: '@SYSTEM_PROMPT@',
} as const;

/**
 * Where a session id comes from: `chosen` ids are made up before the run (a UUID) and handed to the CLI;
 * `output` ids are read from the CLI's JSON output after the run. Either way `sessionIdFilter`, when set,
 * reads the id the CLI reports, which wins over a chosen one.
 */
export type SessionIdSource = 'chosen' | 'output';

/** How an executor runs one turn of an agent non-interactively. */
export interface DirectInvocation {
  /** The program, found on the image's PATH. */
  readonly binary: string;
  /** The arguments that start a new session (placeholders from `ArgumentPlaceholders`). */
  readonly spawn: readonly string[];
  /** The arguments that continue the session `@SESSION_ID@`. */
  readonly resume: readonly string[];
  /** Where the session id comes from. */
  readonly sessionId: SessionIdSource;
  /** A jq filter over each JSON line of the output that yields the session id. @default - none (chosen ids only) */
  readonly sessionIdFilter?: string;
  /** A jq filter over each JSON line of the output that yields the agent's answer text. */
  readonly resultFilter: string;
  /**
   * Whether the arguments carry the system prompt (`@SYSTEM_PROMPT@`); a CLI without such a flag gets the
   * system prompt at the head of the first prompt of a session instead.
   */
  readonly systemPromptFlag: boolean;
  /** The environment variable the CLI reads its API key from; `{PROVIDER}` is the CLI's provider, upper case. */
  readonly apiKeyVariable: string;
}

/** An executor: its invocation, or why direct execution refuses it. */
export interface Executor {
  readonly name: ExecutorName;
  /** How it runs; `undefined` when direct execution refuses the CLI. */
  readonly direct?: DirectInvocation;
  /** Why direct execution refuses the CLI (set exactly when `direct` is not). */
  readonly refusal?: string;
  /** Where each fact was confirmed: documentation URLs or repository paths. */
  readonly sources: readonly string[];
}

const { prompt, sessionId, model, systemPrompt } = ArgumentPlaceholders;

/** claude's print-mode arguments; a new session and a resumed one differ only in the flag before the id. */
function claudeArguments(sessionFlag: '--session-id' | '--resume'): string[] {
  return [
    '-p',
    '--output-format',
    'json',
    sessionFlag,
    sessionId,
    '--model',
    model,
    '--append-system-prompt',
    systemPrompt,
    '--permission-mode',
    'bypassPermissions',
    prompt,
  ];
}

const CLAUDE: Executor = {
  name: 'claude',
  direct: {
    binary: 'claude',
    spawn: claudeArguments('--session-id'),
    resume: claudeArguments('--resume'),
    sessionId: 'chosen',
    sessionIdFilter: '.session_id',
    resultFilter: '.result',
    systemPromptFlag: true,
    apiKeyVariable: 'ANTHROPIC_API_KEY',
  },
  sources: [
    'https://docs.anthropic.com/en/docs/claude-code/sdk/sdk-headless (-p, --output-format json with session_id and result, --resume, --append-system-prompt)',
    'https://docs.anthropic.com/en/docs/claude-code/cli-reference (--session-id <uuid>, --model, --permission-mode bypassPermissions)',
  ],
};

const CODEX: Executor = {
  name: 'codex',
  direct: {
    binary: 'codex',
    // exec's options go before `resume`: --sandbox is not a global option of exec (codex-rs/exec/src/cli.rs).
    spawn: ['exec', '--json', '--sandbox', 'workspace-write', '--model', model, prompt],
    resume: ['exec', '--json', '--sandbox', 'workspace-write', '--model', model, 'resume', sessionId, prompt],
    sessionId: 'output',
    sessionIdFilter: 'select(.type == "thread.started") | .thread_id',
    resultFilter: 'select(.type == "item.completed" and .item.type == "agent_message") | .item.text',
    systemPromptFlag: false,
    apiKeyVariable: 'CODEX_API_KEY',
  },
  sources: [
    'https://developers.openai.com/codex/noninteractive (codex exec, --sandbox workspace-write, codex exec resume <SESSION_ID>, CODEX_API_KEY)',
    'openai/codex pull request 4525 (codex exec --json: thread.started with thread_id, item.completed agent_message)',
    'openai/codex codex-rs/exec/src/cli.rs (codex exec [OPTIONS] <COMMAND>: --sandbox parses before resume, --json and --model are global; resume <SESSION_ID> [PROMPT])',
  ],
};

const CURSOR: Executor = {
  name: 'cursor',
  direct: {
    binary: 'cursor-agent',
    // --trust: print mode stops at the workspace trust prompt of a folder it has not seen (a new pod's home).
    spawn: ['-p', '--output-format', 'json', '--trust', '--force', '--model', model, prompt],
    resume: ['-p', '--output-format', 'json', '--trust', '--force', '--model', model, '--resume', sessionId, prompt],
    sessionId: 'output',
    sessionIdFilter: '.session_id',
    resultFilter: '.result',
    systemPromptFlag: false,
    apiKeyVariable: 'CURSOR_API_KEY',
  },
  sources: [
    'https://cursor.com/docs/cli/reference/output-format (--print with --output-format json: one object with session_id and result)',
    'https://cursor.com/docs/cli/reference/parameters (--resume [chatId], --model, --force, --trust, CURSOR_API_KEY)',
    'github/spec-kit pull request 2631 (headless cursor-agent needs -p --trust --force)',
  ],
};

const FACTORY: Executor = {
  name: 'factory',
  refusal:
    '`droid exec -s <id>` resumes a session, but no documented output of `droid exec` names the id of the session a run started, so a retried or remediated stage could not find it',
  sources: ['https://docs.factory.ai/reference/cli-reference (droid exec, -s/--session-id <id> continues a session, -o/--output-format)'],
};

const OPENCODE: Executor = {
  name: 'opencode',
  direct: {
    binary: 'opencode',
    spawn: ['run', '--format', 'json', '--model', model, prompt],
    resume: ['run', '--format', 'json', '--session', sessionId, '--model', model, prompt],
    sessionId: 'output',
    sessionIdFilter: '.sessionID',
    resultFilter: 'select(.type == "text") | .part.text',
    systemPromptFlag: false,
    apiKeyVariable: '{PROVIDER}_API_KEY',
  },
  sources: [
    'https://opencode.ai/docs/cli (opencode run, --session/-s, --model provider/model, --format json)',
    'anomalyco/opencode packages/opencode/src/cli/cmd/run.ts (--session, --model provider/model, --format json: every event line carries sessionID, text events part.text; an error exits 1)',
  ],
};

const GEMINI: Executor = {
  name: 'gemini',
  direct: {
    binary: 'gemini',
    spawn: ['--output-format=stream-json', '--model', model, '--approval-mode', 'yolo', '-p', prompt],
    resume: ['--resume', sessionId, '--output-format=stream-json', '--model', model, '--approval-mode', 'yolo', '-p', prompt],
    sessionId: 'output',
    sessionIdFilter: 'select(.type == "init") | .session_id',
    resultFilter: 'select(.type == "message" and .role == "assistant") | .content',
    systemPromptFlag: false,
    apiKeyVariable: 'GEMINI_API_KEY',
  },
  sources: [
    'https://geminicli.com/docs/cli/headless (-p, --output-format stream-json: an init event with the session id, message events; exit codes)',
    'https://geminicli.com/docs/cli/session-management (--resume <session UUID>)',
    'google-gemini/gemini-cli packages/cli/src/config/config.ts (--model, -p/--prompt, --approval-mode default|auto_edit|yolo; yargs strict: an unknown flag exits 1)',
  ],
};

/** The executor table, by name. */
export const EXECUTOR_TABLE: Readonly<Record<ExecutorName, Executor>> = {
  claude: CLAUDE,
  codex: CODEX,
  cursor: CURSOR,
  factory: FACTORY,
  opencode: OPENCODE,
  gemini: GEMINI,
};

/** Whether `name` is one of `EXECUTORS`. */
export function isExecutorName(name: string): name is ExecutorName {
  return (EXECUTORS as readonly string[]).includes(name);
}

/**
 * The executor of a CLI registry entry: the one it names, else its key when the key is an executor, else
 * `undefined`.
 */
export function executorOfCli(cliName: string, cli: { readonly executor?: ExecutorName }): ExecutorName | undefined {
  return cli.executor ?? (isExecutorName(cliName) ? cliName : undefined);
}

/** The API key variable of an executor's invocation for a CLI whose provider is `provider`. */
export function apiKeyVariableOf(invocation: DirectInvocation, provider: string | undefined): string {
  const upper = (provider ?? 'provider').toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  return invocation.apiKeyVariable.replace('{PROVIDER}', upper);
}
