// @ts-nocheck
import { existsSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { readTextFile, UnreadableFileError } from '../io/read-text-file';
import { assertYamlBounds, describeYamlFailure, readYamlValue, YamlSyntaxError } from '../validate/kubernetes-yaml';
import { ConfigError, resolveConfig } from '../../constructs/model/resolve-config';
import type { PlatformConfig } from '../../constructs/model/config-schema';

/** The file `npm run synth` reads when it exists and no `--config` is given. */
export const DEFAULT_CONFIG_FILE = 'agent-play.yaml';

export interface LoadConfigOptions {
  /** An explicit config file; it must exist. @default agent-play.yaml when it exists, else none */
  readonly file?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Reads and validates the configuration: the embedded defaults, then the file, then the environment.
 *
 * @throws ConfigError with one line per problem, each naming the path to change
 */
export function loadConfig(options: LoadConfigOptions = {}): PlatformConfig {
  const file = configFileName(options.file);
  const parsed = file === undefined ? undefined : readConfigFile(file);
  return resolveConfig({ file: parsed ?? undefined, fileName: file, env: options.env ?? process.env });
}

/** The config file that applies: the one named, else `agent-play.yaml` when it exists, else none. */
export function configFileName(explicit: string | undefined): string | undefined {
  return explicit ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
}

/**
 * The parsed config file (duplicate keys refused), read with the limits of every input: a regular file of
 * bounded size, bounded nesting and aliases.
 * @throws ConfigError when it cannot be read or is not YAML, naming every YAML error at once
 */
export function readConfigFile(file: string): unknown {
  let text: string;
  try {
    text = readTextFile(file);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    throw new ConfigError([`${file}: cannot read the config file (${error.reason})`]);
  }
  try {
    assertYamlBounds(text);
  } catch (error) {
    if (error instanceof YamlSyntaxError) throw new ConfigError([`${file}: not valid YAML: ${error.message}`]);
    throw error;
  }
  // Duplicate keys are an error: the original platform lost a whole `templates:` list to one.
  const documents = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true });
  if (!Array.isArray(documents)) return undefined;
  const errors = documents.flatMap((document) => document.errors);
  if (errors.length > 0) {
    // One cause (a stack overflow, an unclosed bracket) can surface at many positions: say each cause once.
    const byCause = new Map(errors.reverse().map((error) => [describeYamlFailure(error), error]));
    throw new ConfigError([...byCause].reverse().map(([cause, error]) => `${file}${where(error.linePos?.[0])}: not valid YAML: ${cause}`));
  }
  if (documents.length > 1) throw new ConfigError([`${file}: holds ${documents.length} YAML documents; a config file is one`]);
  if (documents.length === 0) return undefined;
  try {
    return readYamlValue(documents[0]);
  } catch (error) {
    if (error instanceof YamlSyntaxError) throw new ConfigError([`${file}: not valid YAML: ${error.message}`]);
    throw error;
  }
}

const where = (position: { line: number; col: number } | undefined): string => (position ? `:${position.line}:${position.col}` : '');
