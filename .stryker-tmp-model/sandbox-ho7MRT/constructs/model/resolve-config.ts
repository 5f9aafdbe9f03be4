/**
 * Turns what a user wrote (an optional config file and the environment) into a validated platform
 * config: defaults first, then the file, then environment overrides (seed 004's order).
 *
 * Pure: the caller reads the file and passes the environment in.
 */
// @ts-nocheck

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
import { LONE_SURROGATE } from './text-characters';

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
  if (!isRecord(given) || dataProblem(given) !== undefined)
    throw new ConfigError([`${inputs.fileName ?? 'config'}: expected a mapping of settings at the top level`]);
  const reserved: string[] = [];
  const file = withoutReservedKeys(given, [], reserved) as Record<string, unknown>;
  // A value that is not plain data leaves nothing for the schema to check there: its problem is the answer.
  if (holdsNotData(file)) throw new ConfigError([...new Set(reserved)].sort());
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

/**
 * Why a scalar of the config cannot reach a manifest as itself, or `undefined`: a string with a lone
 * surrogate (no UTF-8 text holds one), a number JSON has no form for (NaN would be `.nan` in one file and
 * `null` in another).
 */
function scalarProblem(value: unknown): string | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return `${value} is not a number a manifest can hold; write a number`;
  if (typeof value !== 'string') return undefined;
  const lone = LONE_SURROGATE.exec(value);
  if (!lone) return undefined;
  const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
  return `holds a lone UTF-16 surrogate (U+${code} at character ${lone.index}), which no UTF-8 text, so no manifest, can hold`;
}

/** What stands for a value that is not plain data in the copy: the config is refused before the schema sees it. */
const NOT_DATA = Symbol('not plain data');

/** Whether a copy made by `withoutReservedKeys` holds a value that is not plain data. */
function holdsNotData(value: unknown): boolean {
  if (value === NOT_DATA) return true;
  if (Array.isArray(value)) return value.some(holdsNotData);
  return isRecord(value) && Object.values(value).some(holdsNotData);
}

/** How deep a config may nest: far more than any setting needs, far less than the stack holds. */
const MAX_CONFIG_DEPTH = 64;

/**
 * Why a value of the config is not plain data (what YAML or JSON can say), or `undefined`: a function, a
 * symbol or a bigint, a class instance such as a Date or a Map (a copy would keep none of it).
 */
function dataProblem(value: unknown): string | undefined {
  if (typeof value === 'function') return 'a function is not a setting; write the value itself';
  if (typeof value === 'symbol' || typeof value === 'bigint') return `a ${typeof value} is not a setting; write a string or a number`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return undefined;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return `a ${typeof name === 'string' && name !== '' ? name : 'class instance'} is not plain data; write a mapping, a list or a value`;
}

/**
 * A plain copy of `value` without reserved keys; each reserved key, each scalar no manifest can hold, each
 * value that is not plain data (a function, a class instance, a value that refers to itself, an object whose
 * reading throws, as a revoked Proxy does) is reported at its path instead of failing later with a message
 * that names nothing ("could not be cloned", "Maximum call stack size exceeded").
 */
function withoutReservedKeys(value: unknown, path: (string | number)[], problems: string[], within: Set<object> = new Set()): unknown {
  const report = (problem: string): typeof NOT_DATA => {
    problems.push(`${formatPath(path)}: ${problem}`);
    return NOT_DATA;
  };
  try {
    const notData = dataProblem(value);
    if (notData !== undefined) return report(notData);
    if (typeof value !== 'object' || value === null) {
      const problem = scalarProblem(value);
      if (problem !== undefined) report(problem);
      return value;
    }
    if (within.has(value)) return report('refers to itself (a value that holds itself cannot be written as YAML)');
    if (within.size >= MAX_CONFIG_DEPTH) return report(`nested deeper than ${MAX_CONFIG_DEPTH} levels`);
    within.add(value);
    try {
      return Array.isArray(value)
        ? value.map((item, index) => withoutReservedKeys(item, [...path, index], problems, within))
        : copyOfRecord(value as Record<string, unknown>, path, problems, within);
    } finally {
      within.delete(value);
    }
  } catch (error) {
    return report(`cannot be read (${(error as Error).message})`);
  }
}

function copyOfRecord(value: Record<string, unknown>, path: (string | number)[], problems: string[], within: Set<object>): unknown {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const keyProblem = scalarProblem(key);
    if (keyProblem !== undefined) problems.push(`${formatPath([...path, key])}: the key ${keyProblem}`);
    if (RESERVED_KEYS.includes(key)) {
      problems.push(
        `${formatPath([...path, key])}: "${key}" cannot be used as a key (JavaScript reserves it, and the entry would be lost); choose another name`,
      );
      continue;
    }
    Object.defineProperty(copy, key, {
      value: withoutReservedKeys(value[key], [...path, key], problems, within),
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
