/**
 * `agent-play config show`: the effective configuration and where each value came from. YAML puts the
 * source of every value that is not a default at the end of its line; JSON gives every leaf its source.
 */
// @ts-nocheck

import { Document, isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { formatPath } from '../../constructs/model/resolve-config';
import { sourceText, type Source } from './provenance';
import { byCodeUnits } from '../../constructs/model/code-unit-order';

export function showConfigYaml(config: PlatformConfig, sources: ReadonlyMap<string, Source>): string {
  const document = new Document(config);
  annotate(document.contents, [], sources);
  document.commentBefore = ' The effective configuration. A value with no comment is the default; others say where they came from.';
  return document.toString({ lineWidth: 0 });
}

function annotate(node: unknown, path: (string | number)[], sources: ReadonlyMap<string, Source>): void {
  if (isMap(node)) {
    for (const pair of node.items) if (isPair(pair) && isScalar(pair.key)) annotate(pair.value, [...path, String(pair.key.value)], sources);
    if (node.items.length === 0) comment(node, path, sources);
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      annotate(item, [...path, index], sources);
    });
    if (node.items.length === 0) comment(node, path, sources);
  } else if (isScalar(node)) comment(node, path, sources);
}

function comment(node: Node, path: (string | number)[], sources: ReadonlyMap<string, Source>): void {
  const source = sources.get(formatPath(path));
  if (!source || source.from === 'default') return;
  node.comment = ` ${source.from === 'file' ? `file ${source.file}` : `environment ${source.variable}`}`;
}

export function showConfigJson(config: PlatformConfig, sources: ReadonlyMap<string, Source>): string {
  const sorted = [...sources.entries()].sort(([a], [b]) => byCodeUnits(a, b));
  return `${JSON.stringify({ config, sources: Object.fromEntries(sorted.map(([path, source]) => [path, sourceText(source)])) }, null, 2)}\n`;
}
