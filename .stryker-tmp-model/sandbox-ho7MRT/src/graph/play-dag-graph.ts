/**
 * The play DAG as Argo will run it, read from the synthesized play WorkflowTemplate (not rebuilt from the
 * config): each task of the main DAG with the template it runs and the `when` that may skip it, and an edge
 * for each task its `depends` names, labelled with the result when the expression asks for one.
 */
// @ts-nocheck

import { parseAllDocuments } from 'yaml';
import type { PlatformConfig } from '../../constructs/model/config-schema';
import { PlayTemplates } from '../../constructs/model/play-contract';
import { StageMachine } from '../../constructs/model/stage-machine';
import { playTemplateOf } from '../../constructs/registry/registry-entries';
import { PlatformCharts } from '../../constructs/platform/agent-platform';
import { synthesizePlatform } from '../synth/synthesize';
import { parseBooleanExpression } from '../validate/rules/boolean-expression';
import { label, nodeId } from './mermaid';

type Json = Record<string, any>;

const TASK_OPERAND = /[a-zA-Z0-9][-a-zA-Z0-9]*(\.[A-Z][a-zA-Z]+)?/;

function shapeOf(task: Json): [string, string] {
  if (task.template === PlayTemplates.gate) return ['{{', '}}'];
  if (task.template === PlayTemplates.enterStage) return ['([', '])'];
  return ['[', ']'];
}

/** The play WorkflowTemplate that runs a repository, as synth writes it, read back from the YAML. */
export function synthesizedPlayTemplate(config: PlatformConfig, repository: string): Json | undefined {
  const name = playTemplateOf({ ...config, stageAgents: StageMachine.fromConfig(config).agents }, repository);
  const plays = synthesizePlatform(config).get(`${PlatformCharts.plays}.yaml`) ?? '';
  return parseAllDocuments(plays)
    .map((document) => document.toJS() as Json)
    .find((object) => object?.metadata?.name === name);
}

/** `{{=expression}}` as the bare expression, which reads better in a box; other text as it is. */
const unwrapExpression = (text: string): string => text.replace(/^\{\{=?\s*([\s\S]*?)\s*\}\}$/, '$1');

/** The Mermaid flowchart of the main DAG of a play WorkflowTemplate. */
export function playDagGraph(playTemplate: Json): string {
  const main = (playTemplate.spec?.templates ?? []).find((template: Json) => template.name === playTemplate.spec?.entrypoint);
  const tasks: Json[] = main?.dag?.tasks ?? [];
  const lines = ['flowchart TD', `  %% ${playTemplate.metadata?.name}: the ${tasks.length} tasks of its ${main?.name} DAG`];
  for (const task of tasks) {
    const [open, close] = shapeOf(task);
    const when = typeof task.when === 'string' ? [`when: ${unwrapExpression(task.when)}`] : [];
    lines.push(`  ${nodeId('task', task.name)}${open}${label(task.name, `template: ${task.template}`, ...when)}${close}`);
  }
  for (const task of tasks) {
    if (typeof task.depends !== 'string') continue;
    const parsed = parseBooleanExpression(task.depends, TASK_OPERAND);
    if (!parsed.ok) continue;
    for (const operand of parsed.operands) {
      const arrow = operand.result ? `-- ${label(operand.result)} -->` : '-->';
      lines.push(`  ${nodeId('task', operand.name)} ${arrow} ${nodeId('task', task.name)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
