/** The fish completion script (`agent-play completion fish`), written from the command table. */
// @ts-nocheck

import type { OptionSpec } from '../options';
import type { CompletionEntry } from './completion-table';

const quote = (text: string): string => `'${text.split('\n')[0].replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function optionLine(condition: string, option: OptionSpec): string {
  const names = [option.short !== undefined ? `-s ${option.short}` : '', `-l ${option.name}`].filter(Boolean).join(' ');
  const value =
    option.value === undefined
      ? ''
      : option.choices
        ? ` -x -a ${quote(option.choices.join(' '))}`
        : option.complete === 'directory'
          ? ` -x -a '(__fish_complete_directories)'`
          : option.complete === 'file'
            ? ' -r -F'
            : ' -x';
  return `complete -c agent-play -n ${quote(condition)} ${names}${value} -d ${quote(option.description)}`;
}

export function fishCompletion(entries: readonly CompletionEntry[], topWords: readonly string[]): string {
  const commands = entries.filter((entry) => entry.path.length === 1);
  const names = commands.map((entry) => entry.path[0]).join(' ');
  const lines = [
    '# fish completion for agent-play (agent-play completion fish); written from its command table.',
    '# Load it now: agent-play completion fish | source',
    '# or for good: agent-play completion fish > ~/.config/fish/completions/agent-play.fish',
    '',
    'complete -c agent-play -f',
    ...commands.map((entry) => `complete -c agent-play -n __fish_use_subcommand -a ${entry.path[0]} -d ${quote(entry.summary)}`),
    `complete -c agent-play -n ${quote('__fish_seen_subcommand_from help')} -a ${quote(names)}`,
    ...topWords
      .filter((word) => word.startsWith('--'))
      .map((word) => `complete -c agent-play -n __fish_use_subcommand -l ${word.slice(2)}`),
  ];
  for (const entry of entries) {
    if (entry.subcommands.length > 0) {
      const none = `__fish_seen_subcommand_from ${entry.path[0]}; and not __fish_seen_subcommand_from ${entry.subcommands.join(' ')}`;
      const subs = entries.filter((candidate) => candidate.path.length === 2 && candidate.path[0] === entry.path[0]);
      for (const sub of subs) lines.push(`complete -c agent-play -n ${quote(none)} -a ${sub.path[1]} -d ${quote(sub.summary)}`);
      for (const option of entry.options) lines.push(optionLine(none, option));
      continue;
    }
    const condition =
      entry.path.length === 1
        ? `__fish_seen_subcommand_from ${entry.path[0]}`
        : `__fish_seen_subcommand_from ${entry.path[0]}; and __fish_seen_subcommand_from ${entry.path[1]}`;
    if (entry.files) lines.push(`complete -c agent-play -n ${quote(condition)} -F`);
    for (const option of entry.options) lines.push(optionLine(condition, option));
  }
  return `${lines.join('\n')}\n`;
}
