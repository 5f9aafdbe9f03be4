/**
 * The commented `agent-play.yaml` that `agent-play config init` writes: every section with its defaults,
 * ready to edit. The agent and CLI registries are written empty, since whatever they list is merged over
 * the built-in registries; an example shows how to add or change an entry. The file resolves to exactly
 * the embedded default configuration.
 */
// @ts-nocheck

import { Document, isMap, isPair, isScalar } from 'yaml';
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { resolveConfig } from '../../constructs/model/resolve-config';
import { CONFIG_SECTIONS } from './config-sections';

/** The JSON Schema URL an editor can use, written as the yaml-language-server modeline. */
export const SCHEMA_MODELINE = '# yaml-language-server: $schema=./agent-play.schema.json';

const HEADER = [
  ' agent-play configuration. Everything here is optional: a missing file, section or field takes the',
  ' default shown. Order of precedence: environment (AGENT_PLAY_CLI_<AGENT>), then this file, then defaults.',
  ' Check it with `agent-play config validate`; see where each value comes from with `agent-play config show`.',
  ' Editor completion: `agent-play config schema > agent-play.schema.json` (see the modeline above).',
].join('\n');

const REGISTRY_EXAMPLES: Partial<Record<keyof PlatformConfig, string>> = {
  agents:
    ' For example:\n   cleo: { cli: codex }\n   probe: { githubApp: Acme-Probe, role: testing, cli: claude, model: claude-sonnet-4, maxTokens: 32000, temperature: 0.2, systemPrompt: Write end-to-end tests. }',
  clis: ' For example:\n   aider: { image: ghcr.io/acme/aider-runner:v0.9.1 }',
};

/** The text of the commented default configuration. */
export function configTemplate(): string {
  const defaults = resolveConfig({}) as Record<string, unknown>;
  const content: Record<string, unknown> = {};
  for (const key of Object.keys(CONFIG_SECTIONS) as (keyof PlatformConfig)[]) content[key] = key in REGISTRY_EXAMPLES ? {} : defaults[key];
  const document = new Document(content);
  document.commentBefore = HEADER;
  if (isMap(document.contents)) {
    for (const pair of document.contents.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const key = String(pair.key.value) as keyof PlatformConfig;
      const example = REGISTRY_EXAMPLES[key] ? `\n${REGISTRY_EXAMPLES[key]}` : '';
      pair.key.commentBefore = ` ${wrap(CONFIG_SECTIONS[key])}${example}`;
      pair.key.spaceBefore = true;
    }
  }
  return `${SCHEMA_MODELINE}\n${document.toString({ lineWidth: 0 })}`;
}

/** Comment text wrapped at about 110 columns. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > 110 && line !== '') {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n ');
}
