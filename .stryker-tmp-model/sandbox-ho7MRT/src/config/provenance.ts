/**
 * Where each value of the effective configuration came from: the embedded `default`, the config `file`, or
 * the `environment` (an `AGENT_PLAY_CLI_<AGENT>` variable). A value the file sets is the file's, and so is
 * everything under a list the file gives (the list replaces the default one as a whole); registry entries
 * (agents, CLIs) are merged field by field, so a field the file leaves out stays a default.
 */
// @ts-nocheck

import type { PlatformConfig } from '../../constructs/model/config-schema';
import { cliOverrideVariable } from '../../constructs/model/resolve-config';
import { formatPath } from '../../constructs/model/resolve-config';
import { isRecord } from '../is-record';

export type Source =
  | { readonly from: 'default' }
  | { readonly from: 'file'; readonly file: string }
  | { readonly from: 'environment'; readonly variable: string };

/** `default`, `file:agent-play.yaml`, `environment:AGENT_PLAY_CLI_REX`. */
export const sourceText = (source: Source): string =>
  source.from === 'default' ? 'default' : source.from === 'file' ? `file:${source.file}` : `environment:${source.variable}`;

export interface ProvenanceInputs {
  readonly config: PlatformConfig;
  /** The parsed config file, if any. */
  readonly file?: unknown;
  readonly fileName?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Every leaf of the effective configuration, by path (`agents.rex.cli`, `stages[0].name`), with its source. */
export function configSources(inputs: ProvenanceInputs): Map<string, Source> {
  const sources = new Map<string, Source>();
  const fileSource: Source = { from: 'file', file: inputs.fileName ?? 'config' };
  const visit = (value: unknown, path: (string | number)[], fromFile: unknown, wholeFromFile: boolean): void => {
    const inFile = wholeFromFile || fromFile !== undefined;
    if (Array.isArray(value)) {
      // A list in the file replaces the default list: all of it is the file's.
      value.forEach((item, index) => {
        visit(item, [...path, index], undefined, inFile);
      });
      if (value.length === 0) sources.set(formatPath(path), inFile ? fileSource : { from: 'default' });
      return;
    }
    if (isRecord(value)) {
      const entries = Object.entries(value);
      for (const [key, child] of entries) visit(child, [...path, key], isRecord(fromFile) ? fromFile[key] : undefined, wholeFromFile);
      if (entries.length === 0) sources.set(formatPath(path), inFile ? fileSource : { from: 'default' });
      return;
    }
    sources.set(formatPath(path), inFile ? fileSource : { from: 'default' });
  };
  visit(inputs.config, [], inputs.file, false);
  for (const agent of Object.keys(inputs.config.agents)) {
    const variable = cliOverrideVariable(agent);
    if (inputs.env[variable]) sources.set(formatPath(['agents', agent, 'cli']), { from: 'environment', variable });
  }
  return sources;
}
