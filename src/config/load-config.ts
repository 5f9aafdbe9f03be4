import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
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
 * The parsed config file (duplicate keys refused).
 * @throws ConfigError when it cannot be read or is not YAML
 */
export function readConfigFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([`${file}: cannot read the config file (${(error as NodeJS.ErrnoException).code ?? 'error'})`]);
  }
  try {
    // Duplicate keys are an error: the original platform lost a whole `templates:` list to one.
    return parse(text, { uniqueKeys: true, prettyErrors: true });
  } catch (error) {
    const position = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    const where = position ? `:${position.line}:${position.col}` : '';
    const message = (error as Error).message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigError([`${file}${where}: not valid YAML: ${message}`]);
  }
}
