/**
 * Turns what a user wrote (an optional config file and the environment) into a validated platform
 * config: defaults first, then the file, then environment overrides (seed 004's order).
 *
 * Pure: the caller reads the file and passes the environment in.
 */
import { formatPath } from './format-path';
import type { z } from 'zod';
import { DEFAULT_AGENTS, DEFAULT_CLIS } from './default-config';
import { PlatformConfigSchema, type PlatformConfig } from './config-schema';
import { AgentSchema, CliSchema } from './config-shapes';
import type { PlatformConfigInput } from './config-types.generated';
import { nearestName } from './nearest-name';
import { RESERVED_KEYS } from './reserved-keys';
import { isRecord } from './is-record';
import { ProblemsError } from './problems-error';
import { byCodeUnits } from './code-unit-order';

/** The prefix of the environment variables that rebind an agent to another CLI: `AGENT_PLAY_CLI_REX=codex`. */
export const CLI_OVERRIDE_PREFIX = 'AGENT_PLAY_CLI_';

/** Thrown when the configuration is unusable; `problems` holds one line per problem, each naming its path. */
export class ConfigError extends ProblemsError {
  public constructor(problems: readonly string[]) {
    super(problems);
    this.name = 'ConfigError';
  }
}

/** What `resolveConfig` reads: the parsed config file and the environment. */
export interface ConfigInputs {
  /**
   * The config, as a user writes it (the shape of `agent-play.yaml`); a file parsed from YAML or JSON, whose
   * shape is not known yet, is passed as it is read (`as PlatformConfigInput`): every field is checked.
   * @default the embedded default platform
   */
  readonly file?: PlatformConfigInput;
  /**
   * Where the file came from, for messages.
   * @default "config"
   */
  readonly fileName?: string;
  /**
   * The environment; only `AGENT_PLAY_*` variables are read.
   * @default none: no overrides
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The environment variable that rebinds `agent` to another CLI. */
export function cliOverrideVariable(agent: string): string {
  return `${CLI_OVERRIDE_PREFIX}${agent.toUpperCase().replace(/-/g, '_')}`;
}

/**
 * The validated configuration.
 *
 * @throws ConfigError listing every problem, one line each: `agents.cleo.cli: unknown CLI "cursr"; known: ...`
 */
export function resolveConfig(inputs: ConfigInputs = {}): PlatformConfig {
  const given = inputs.file ?? {};
  if (!isRecord(given)) throw new ConfigError([`${inputs.fileName ?? 'config'}: expected a mapping of settings at the top level`]);
  const reserved: string[] = [];
  const file = withoutReservedKeys(given, [], reserved) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...file };
  merged.agents = mergeEntries(DEFAULT_AGENTS, file.agents);
  merged.clis = mergeEntries(DEFAULT_CLIS, file.clis);
  // A misspelt built-in name would be a new entry missing most fields: say which name it meant instead, and
  // leave it out, so that the other problems are found in the same run.
  const misspelt = [
    ...misspeltEntries('agents', 'agent', DEFAULT_AGENTS, merged.agents, AgentSchema),
    ...misspeltEntries('clis', 'CLI', DEFAULT_CLIS, merged.clis, CliSchema),
  ];
  reserved.push(...misspelt);
  const overrides = applyCliOverrides(merged.agents, inputs.env ?? {});
  const result = PlatformConfigSchema.safeParse(merged);
  if (result.success && reserved.length === 0) {
    resolvedJson.set(result.data, JSON.stringify(result.data));
    return result.data;
  }
  const issues = result.success ? [] : result.error.issues.map((issue) => describeIssue(issue, overrides));
  // A rule that checks a field and a rule that derives a name from it may say the same thing once each.
  throw new ConfigError([...new Set([...reserved, ...issues])].sort());
}

/**
 * The JSON of each config `resolveConfig` returned, by the object returned: `AgentPlatform` parses its config
 * again (a config already resolved parses to itself), which the command line, handing it what it has just
 * resolved, need not pay for.
 */
const resolvedJson = new WeakMap<object, string>();

/**
 * A copy of `config` when it is a config `resolveConfig` returned and nothing changed in it since (its JSON
 * is the same); `undefined` otherwise, when it must be resolved.
 */
export function unchangedResolvedConfig(config: unknown): PlatformConfig | undefined {
  if (!isRecord(config)) return undefined;
  const json = resolvedJson.get(config);
  return json !== undefined && json === JSON.stringify(config) ? (JSON.parse(json) as PlatformConfig) : undefined;
}

export { RESERVED_KEYS } from './reserved-keys';

/** A copy of `value` without reserved keys; each one found is reported at its path. */
function withoutReservedKeys(value: unknown, path: (string | number)[], problems: string[]): unknown {
  if (Array.isArray(value)) return value.map((item, index) => withoutReservedKeys(item, [...path, index], problems));
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (RESERVED_KEYS.includes(key)) {
      problems.push(
        `${formatPath([...path, key])}: "${key}" cannot be used as a key (JavaScript reserves it, and the entry would be lost); choose another name`,
      );
      continue;
    }
    Object.defineProperty(copy, key, {
      value: withoutReservedKeys(value[key], [...path, key], problems),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

/**
 * A registry (agents, CLIs) from the file merged over the defaults entry by entry, so that a file can
 * change one field of one agent without restating the rest. Anything that is not a mapping is passed
 * through for the schema to report.
 */
function mergeEntries(defaults: Record<string, object>, fromFile: unknown): unknown {
  if (fromFile === undefined) return structuredClone(defaults);
  if (!isRecord(fromFile)) return fromFile;
  const merged: Record<string, unknown> = structuredClone(defaults);
  for (const [key, entry] of Object.entries(fromFile)) {
    const base = merged[key];
    merged[key] = isRecord(base) && isRecord(entry) ? { ...base, ...entry } : entry;
  }
  return merged;
}

/**
 * The entries of a registry that are new, lack fields a new entry needs, and are a typo away from a built-in
 * name: one problem each (`agents.rexx: unknown agent rexx; did you mean rex?`); each is removed from `merged`.
 */
function misspeltEntries(
  registry: string,
  noun: string,
  defaults: Record<string, object>,
  merged: unknown,
  schema: { safeParse(value: unknown): { success: boolean } },
): string[] {
  if (!isRecord(merged)) return [];
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(merged)) {
    if (Object.hasOwn(defaults, name) || !isRecord(entry) || schema.safeParse(entry).success) continue;
    const meant = nearestName(name, Object.keys(defaults));
    if (meant === undefined) continue;
    problems.push(`${registry}.${name}: unknown ${noun} ${name}; did you mean ${meant}?`);
    delete merged[name];
  }
  return problems;
}

/** Applies `AGENT_PLAY_CLI_<AGENT>`; returns, per config path, the variable that set it. */
function applyCliOverrides(agents: unknown, env: Readonly<Record<string, string | undefined>>): Map<string, string> {
  const sources = new Map<string, string>();
  const unknown: string[] = [];
  for (const [variable, value] of Object.entries(env).sort(([a], [b]) => byCodeUnits(a, b))) {
    if (!variable.startsWith(CLI_OVERRIDE_PREFIX) || value === undefined || value === '') continue;
    const agent = variable.slice(CLI_OVERRIDE_PREFIX.length).toLowerCase().replace(/_/g, '-');
    if (!isRecord(agents) || !isRecord(agents[agent])) {
      unknown.push(`${variable}: no agent "${agent}" to rebind; known: ${isRecord(agents) ? Object.keys(agents).join(', ') : 'none'}`);
      continue;
    }
    agents[agent] = { ...agents[agent], cli: value };
    sources.set(`agents.${agent}.cli`, variable);
  }
  if (unknown.length > 0) throw new ConfigError(unknown);
  return sources;
}

/** Re-exported where callers first found it. */
export { formatPath } from './format-path';

function describeIssue(issue: z.core.$ZodIssue, overrides: Map<string, string>): string {
  const path = formatPath(issue.path);
  const fromEnv = overrides.get(path);
  const origin = fromEnv ? ` (set by ${fromEnv})` : '';
  return `${path}: ${issueMessage(issue)}${origin}`;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown setting${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  if (issue.code === 'invalid_union' && 'discriminator' in issue) return 'unknown stage type: expected type agent, gate or end';
  return issue.message;
}
