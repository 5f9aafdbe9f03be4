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
// @ts-nocheck


/** The executors the platform knows: a CLI registry entry (`clis.X.executor`) names one of them. */function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
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
  systemPrompt: '@SYSTEM_PROMPT@'
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
const {
  prompt,
  sessionId,
  model,
  systemPrompt
} = ArgumentPlaceholders;

/** claude's print-mode arguments; a new session and a resumed one differ only in the flag before the id. */
function claudeArguments(sessionFlag: '--session-id' | '--resume'): string[] {
  if (stryMutAct_9fa48("178")) {
    {}
  } else {
    stryCov_9fa48("178");
    return stryMutAct_9fa48("179") ? [] : (stryCov_9fa48("179"), [stryMutAct_9fa48("180") ? "" : (stryCov_9fa48("180"), '-p'), stryMutAct_9fa48("181") ? "" : (stryCov_9fa48("181"), '--output-format'), stryMutAct_9fa48("182") ? "" : (stryCov_9fa48("182"), 'json'), sessionFlag, sessionId, stryMutAct_9fa48("183") ? "" : (stryCov_9fa48("183"), '--model'), model, stryMutAct_9fa48("184") ? "" : (stryCov_9fa48("184"), '--append-system-prompt'), systemPrompt, stryMutAct_9fa48("185") ? "" : (stryCov_9fa48("185"), '--permission-mode'), stryMutAct_9fa48("186") ? "" : (stryCov_9fa48("186"), 'bypassPermissions'), prompt]);
  }
}
const CLAUDE: Executor = stryMutAct_9fa48("187") ? {} : (stryCov_9fa48("187"), {
  name: stryMutAct_9fa48("188") ? "" : (stryCov_9fa48("188"), 'claude'),
  direct: stryMutAct_9fa48("189") ? {} : (stryCov_9fa48("189"), {
    binary: stryMutAct_9fa48("190") ? "" : (stryCov_9fa48("190"), 'claude'),
    spawn: claudeArguments(stryMutAct_9fa48("191") ? "" : (stryCov_9fa48("191"), '--session-id')),
    resume: claudeArguments(stryMutAct_9fa48("192") ? "" : (stryCov_9fa48("192"), '--resume')),
    sessionId: stryMutAct_9fa48("193") ? "" : (stryCov_9fa48("193"), 'chosen'),
    sessionIdFilter: stryMutAct_9fa48("194") ? "" : (stryCov_9fa48("194"), '.session_id'),
    resultFilter: stryMutAct_9fa48("195") ? "" : (stryCov_9fa48("195"), '.result'),
    systemPromptFlag: stryMutAct_9fa48("196") ? false : (stryCov_9fa48("196"), true),
    apiKeyVariable: stryMutAct_9fa48("197") ? "" : (stryCov_9fa48("197"), 'ANTHROPIC_API_KEY')
  }),
  sources: stryMutAct_9fa48("198") ? [] : (stryCov_9fa48("198"), [stryMutAct_9fa48("199") ? "" : (stryCov_9fa48("199"), 'https://docs.anthropic.com/en/docs/claude-code/sdk/sdk-headless (-p, --output-format json with session_id and result, --resume, --append-system-prompt)'), stryMutAct_9fa48("200") ? "" : (stryCov_9fa48("200"), 'https://docs.anthropic.com/en/docs/claude-code/cli-reference (--session-id <uuid>, --model, --permission-mode bypassPermissions)')])
});
const CODEX: Executor = stryMutAct_9fa48("201") ? {} : (stryCov_9fa48("201"), {
  name: stryMutAct_9fa48("202") ? "" : (stryCov_9fa48("202"), 'codex'),
  direct: stryMutAct_9fa48("203") ? {} : (stryCov_9fa48("203"), {
    binary: stryMutAct_9fa48("204") ? "" : (stryCov_9fa48("204"), 'codex'),
    // exec's options go before `resume`: --sandbox is not a global option of exec (codex-rs/exec/src/cli.rs).
    spawn: stryMutAct_9fa48("205") ? [] : (stryCov_9fa48("205"), [stryMutAct_9fa48("206") ? "" : (stryCov_9fa48("206"), 'exec'), stryMutAct_9fa48("207") ? "" : (stryCov_9fa48("207"), '--json'), stryMutAct_9fa48("208") ? "" : (stryCov_9fa48("208"), '--sandbox'), stryMutAct_9fa48("209") ? "" : (stryCov_9fa48("209"), 'workspace-write'), stryMutAct_9fa48("210") ? "" : (stryCov_9fa48("210"), '--model'), model, prompt]),
    resume: stryMutAct_9fa48("211") ? [] : (stryCov_9fa48("211"), [stryMutAct_9fa48("212") ? "" : (stryCov_9fa48("212"), 'exec'), stryMutAct_9fa48("213") ? "" : (stryCov_9fa48("213"), '--json'), stryMutAct_9fa48("214") ? "" : (stryCov_9fa48("214"), '--sandbox'), stryMutAct_9fa48("215") ? "" : (stryCov_9fa48("215"), 'workspace-write'), stryMutAct_9fa48("216") ? "" : (stryCov_9fa48("216"), '--model'), model, stryMutAct_9fa48("217") ? "" : (stryCov_9fa48("217"), 'resume'), sessionId, prompt]),
    sessionId: stryMutAct_9fa48("218") ? "" : (stryCov_9fa48("218"), 'output'),
    sessionIdFilter: stryMutAct_9fa48("219") ? "" : (stryCov_9fa48("219"), 'select(.type == "thread.started") | .thread_id'),
    resultFilter: stryMutAct_9fa48("220") ? "" : (stryCov_9fa48("220"), 'select(.type == "item.completed" and .item.type == "agent_message") | .item.text'),
    systemPromptFlag: stryMutAct_9fa48("221") ? true : (stryCov_9fa48("221"), false),
    apiKeyVariable: stryMutAct_9fa48("222") ? "" : (stryCov_9fa48("222"), 'CODEX_API_KEY')
  }),
  sources: stryMutAct_9fa48("223") ? [] : (stryCov_9fa48("223"), [stryMutAct_9fa48("224") ? "" : (stryCov_9fa48("224"), 'https://developers.openai.com/codex/noninteractive (codex exec, --sandbox workspace-write, codex exec resume <SESSION_ID>, CODEX_API_KEY)'), stryMutAct_9fa48("225") ? "" : (stryCov_9fa48("225"), 'openai/codex pull request 4525 (codex exec --json: thread.started with thread_id, item.completed agent_message)'), stryMutAct_9fa48("226") ? "" : (stryCov_9fa48("226"), 'openai/codex codex-rs/exec/src/cli.rs (codex exec [OPTIONS] <COMMAND>: --sandbox parses before resume, --json and --model are global; resume <SESSION_ID> [PROMPT])')])
});
const CURSOR: Executor = stryMutAct_9fa48("227") ? {} : (stryCov_9fa48("227"), {
  name: stryMutAct_9fa48("228") ? "" : (stryCov_9fa48("228"), 'cursor'),
  direct: stryMutAct_9fa48("229") ? {} : (stryCov_9fa48("229"), {
    binary: stryMutAct_9fa48("230") ? "" : (stryCov_9fa48("230"), 'cursor-agent'),
    // --trust: print mode stops at the workspace trust prompt of a folder it has not seen (a new pod's home).
    spawn: stryMutAct_9fa48("231") ? [] : (stryCov_9fa48("231"), [stryMutAct_9fa48("232") ? "" : (stryCov_9fa48("232"), '-p'), stryMutAct_9fa48("233") ? "" : (stryCov_9fa48("233"), '--output-format'), stryMutAct_9fa48("234") ? "" : (stryCov_9fa48("234"), 'json'), stryMutAct_9fa48("235") ? "" : (stryCov_9fa48("235"), '--trust'), stryMutAct_9fa48("236") ? "" : (stryCov_9fa48("236"), '--force'), stryMutAct_9fa48("237") ? "" : (stryCov_9fa48("237"), '--model'), model, prompt]),
    resume: stryMutAct_9fa48("238") ? [] : (stryCov_9fa48("238"), [stryMutAct_9fa48("239") ? "" : (stryCov_9fa48("239"), '-p'), stryMutAct_9fa48("240") ? "" : (stryCov_9fa48("240"), '--output-format'), stryMutAct_9fa48("241") ? "" : (stryCov_9fa48("241"), 'json'), stryMutAct_9fa48("242") ? "" : (stryCov_9fa48("242"), '--trust'), stryMutAct_9fa48("243") ? "" : (stryCov_9fa48("243"), '--force'), stryMutAct_9fa48("244") ? "" : (stryCov_9fa48("244"), '--model'), model, stryMutAct_9fa48("245") ? "" : (stryCov_9fa48("245"), '--resume'), sessionId, prompt]),
    sessionId: stryMutAct_9fa48("246") ? "" : (stryCov_9fa48("246"), 'output'),
    sessionIdFilter: stryMutAct_9fa48("247") ? "" : (stryCov_9fa48("247"), '.session_id'),
    resultFilter: stryMutAct_9fa48("248") ? "" : (stryCov_9fa48("248"), '.result'),
    systemPromptFlag: stryMutAct_9fa48("249") ? true : (stryCov_9fa48("249"), false),
    apiKeyVariable: stryMutAct_9fa48("250") ? "" : (stryCov_9fa48("250"), 'CURSOR_API_KEY')
  }),
  sources: stryMutAct_9fa48("251") ? [] : (stryCov_9fa48("251"), [stryMutAct_9fa48("252") ? "" : (stryCov_9fa48("252"), 'https://cursor.com/docs/cli/reference/output-format (--print with --output-format json: one object with session_id and result)'), stryMutAct_9fa48("253") ? "" : (stryCov_9fa48("253"), 'https://cursor.com/docs/cli/reference/parameters (--resume [chatId], --model, --force, --trust, CURSOR_API_KEY)'), stryMutAct_9fa48("254") ? "" : (stryCov_9fa48("254"), 'github/spec-kit pull request 2631 (headless cursor-agent needs -p --trust --force)')])
});
const FACTORY: Executor = stryMutAct_9fa48("255") ? {} : (stryCov_9fa48("255"), {
  name: stryMutAct_9fa48("256") ? "" : (stryCov_9fa48("256"), 'factory'),
  refusal: stryMutAct_9fa48("257") ? "" : (stryCov_9fa48("257"), '`droid exec -s <id>` resumes a session, but no documented output of `droid exec` names the id of the session a run started, so a retried or remediated stage could not find it'),
  sources: stryMutAct_9fa48("258") ? [] : (stryCov_9fa48("258"), [stryMutAct_9fa48("259") ? "" : (stryCov_9fa48("259"), 'https://docs.factory.ai/reference/cli-reference (droid exec, -s/--session-id <id> continues a session, -o/--output-format)')])
});
const OPENCODE: Executor = stryMutAct_9fa48("260") ? {} : (stryCov_9fa48("260"), {
  name: stryMutAct_9fa48("261") ? "" : (stryCov_9fa48("261"), 'opencode'),
  direct: stryMutAct_9fa48("262") ? {} : (stryCov_9fa48("262"), {
    binary: stryMutAct_9fa48("263") ? "" : (stryCov_9fa48("263"), 'opencode'),
    spawn: stryMutAct_9fa48("264") ? [] : (stryCov_9fa48("264"), [stryMutAct_9fa48("265") ? "" : (stryCov_9fa48("265"), 'run'), stryMutAct_9fa48("266") ? "" : (stryCov_9fa48("266"), '--format'), stryMutAct_9fa48("267") ? "" : (stryCov_9fa48("267"), 'json'), stryMutAct_9fa48("268") ? "" : (stryCov_9fa48("268"), '--model'), model, prompt]),
    resume: stryMutAct_9fa48("269") ? [] : (stryCov_9fa48("269"), [stryMutAct_9fa48("270") ? "" : (stryCov_9fa48("270"), 'run'), stryMutAct_9fa48("271") ? "" : (stryCov_9fa48("271"), '--format'), stryMutAct_9fa48("272") ? "" : (stryCov_9fa48("272"), 'json'), stryMutAct_9fa48("273") ? "" : (stryCov_9fa48("273"), '--session'), sessionId, stryMutAct_9fa48("274") ? "" : (stryCov_9fa48("274"), '--model'), model, prompt]),
    sessionId: stryMutAct_9fa48("275") ? "" : (stryCov_9fa48("275"), 'output'),
    sessionIdFilter: stryMutAct_9fa48("276") ? "" : (stryCov_9fa48("276"), '.sessionID'),
    resultFilter: stryMutAct_9fa48("277") ? "" : (stryCov_9fa48("277"), 'select(.type == "text") | .part.text'),
    systemPromptFlag: stryMutAct_9fa48("278") ? true : (stryCov_9fa48("278"), false),
    apiKeyVariable: stryMutAct_9fa48("279") ? "" : (stryCov_9fa48("279"), '{PROVIDER}_API_KEY')
  }),
  sources: stryMutAct_9fa48("280") ? [] : (stryCov_9fa48("280"), [stryMutAct_9fa48("281") ? "" : (stryCov_9fa48("281"), 'https://opencode.ai/docs/cli (opencode run, --session/-s, --model provider/model, --format json)'), stryMutAct_9fa48("282") ? "" : (stryCov_9fa48("282"), 'anomalyco/opencode packages/opencode/src/cli/cmd/run.ts (--session, --model provider/model, --format json: every event line carries sessionID, text events part.text; an error exits 1)')])
});
const GEMINI: Executor = stryMutAct_9fa48("283") ? {} : (stryCov_9fa48("283"), {
  name: stryMutAct_9fa48("284") ? "" : (stryCov_9fa48("284"), 'gemini'),
  direct: stryMutAct_9fa48("285") ? {} : (stryCov_9fa48("285"), {
    binary: stryMutAct_9fa48("286") ? "" : (stryCov_9fa48("286"), 'gemini'),
    spawn: stryMutAct_9fa48("287") ? [] : (stryCov_9fa48("287"), [stryMutAct_9fa48("288") ? "" : (stryCov_9fa48("288"), '--output-format=stream-json'), stryMutAct_9fa48("289") ? "" : (stryCov_9fa48("289"), '--model'), model, stryMutAct_9fa48("290") ? "" : (stryCov_9fa48("290"), '--approval-mode'), stryMutAct_9fa48("291") ? "" : (stryCov_9fa48("291"), 'yolo'), stryMutAct_9fa48("292") ? "" : (stryCov_9fa48("292"), '-p'), prompt]),
    resume: stryMutAct_9fa48("293") ? [] : (stryCov_9fa48("293"), [stryMutAct_9fa48("294") ? "" : (stryCov_9fa48("294"), '--resume'), sessionId, stryMutAct_9fa48("295") ? "" : (stryCov_9fa48("295"), '--output-format=stream-json'), stryMutAct_9fa48("296") ? "" : (stryCov_9fa48("296"), '--model'), model, stryMutAct_9fa48("297") ? "" : (stryCov_9fa48("297"), '--approval-mode'), stryMutAct_9fa48("298") ? "" : (stryCov_9fa48("298"), 'yolo'), stryMutAct_9fa48("299") ? "" : (stryCov_9fa48("299"), '-p'), prompt]),
    sessionId: stryMutAct_9fa48("300") ? "" : (stryCov_9fa48("300"), 'output'),
    sessionIdFilter: stryMutAct_9fa48("301") ? "" : (stryCov_9fa48("301"), 'select(.type == "init") | .session_id'),
    resultFilter: stryMutAct_9fa48("302") ? "" : (stryCov_9fa48("302"), 'select(.type == "message" and .role == "assistant") | .content'),
    systemPromptFlag: stryMutAct_9fa48("303") ? true : (stryCov_9fa48("303"), false),
    apiKeyVariable: stryMutAct_9fa48("304") ? "" : (stryCov_9fa48("304"), 'GEMINI_API_KEY')
  }),
  sources: stryMutAct_9fa48("305") ? [] : (stryCov_9fa48("305"), [stryMutAct_9fa48("306") ? "" : (stryCov_9fa48("306"), 'https://geminicli.com/docs/cli/headless (-p, --output-format stream-json: an init event with the session id, message events; exit codes)'), stryMutAct_9fa48("307") ? "" : (stryCov_9fa48("307"), 'https://geminicli.com/docs/cli/session-management (--resume <session UUID>)'), stryMutAct_9fa48("308") ? "" : (stryCov_9fa48("308"), 'google-gemini/gemini-cli packages/cli/src/config/config.ts (--model, -p/--prompt, --approval-mode default|auto_edit|yolo; yargs strict: an unknown flag exits 1)')])
});

/** The executor table, by name. */
export const EXECUTOR_TABLE: Readonly<Record<ExecutorName, Executor>> = stryMutAct_9fa48("309") ? {} : (stryCov_9fa48("309"), {
  claude: CLAUDE,
  codex: CODEX,
  cursor: CURSOR,
  factory: FACTORY,
  opencode: OPENCODE,
  gemini: GEMINI
});

/** Whether `name` is one of `EXECUTORS`. */
export function isExecutorName(name: string): name is ExecutorName {
  if (stryMutAct_9fa48("310")) {
    {}
  } else {
    stryCov_9fa48("310");
    return (EXECUTORS as readonly string[]).includes(name);
  }
}

/**
 * The executor of a CLI registry entry: the one it names, else its key when the key is an executor, else
 * `undefined`.
 */
export function executorOfCli(cliName: string, cli: {
  readonly executor?: ExecutorName;
}): ExecutorName | undefined {
  if (stryMutAct_9fa48("311")) {
    {}
  } else {
    stryCov_9fa48("311");
    return stryMutAct_9fa48("312") ? cli.executor && (isExecutorName(cliName) ? cliName : undefined) : (stryCov_9fa48("312"), cli.executor ?? (isExecutorName(cliName) ? cliName : undefined));
  }
}

/** The API key variable of an executor's invocation for a CLI whose provider is `provider`. */
export function apiKeyVariableOf(invocation: DirectInvocation, provider: string | undefined): string {
  if (stryMutAct_9fa48("313")) {
    {}
  } else {
    stryCov_9fa48("313");
    const upper = stryMutAct_9fa48("314") ? (provider ?? 'provider').toLowerCase().replace(/[^A-Z0-9]+/g, '_') : (stryCov_9fa48("314"), (stryMutAct_9fa48("315") ? provider && 'provider' : (stryCov_9fa48("315"), provider ?? (stryMutAct_9fa48("316") ? "" : (stryCov_9fa48("316"), 'provider')))).toUpperCase().replace(stryMutAct_9fa48("318") ? /[A-Z0-9]+/g : stryMutAct_9fa48("317") ? /[^A-Z0-9]/g : (stryCov_9fa48("317", "318"), /[^A-Z0-9]+/g), stryMutAct_9fa48("319") ? "" : (stryCov_9fa48("319"), '_')));
    return invocation.apiKeyVariable.replace(stryMutAct_9fa48("320") ? "" : (stryCov_9fa48("320"), '{PROVIDER}'), upper);
  }
}