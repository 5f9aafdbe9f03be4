/** The bash completion script (`agent-play completion bash`), written from the command table. */
// @ts-nocheck

import type { CompletionEntry } from './completion-table';
import { spellings } from './completion-table';

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** What bash offers for an option's value: its choices, files, folders, or nothing to guess. */
function valueCase(entry: CompletionEntry): string[] {
  return entry.options
    .filter((option) => option.value !== undefined)
    .map((option) => {
      const words = spellings(option).join('|');
      if (option.choices) return `      ${words}) _agent_play_words ${quote(option.choices.join(' '))}; return ;;`;
      if (option.complete === 'directory') return `      ${words}) _agent_play_dirs; return ;;`;
      if (option.complete === 'file') return `      ${words}) _agent_play_files; return ;;`;
      return `      ${words}) return ;;`;
    });
}

function entryCase(entry: CompletionEntry, depth: number): string {
  const options = entry.options.flatMap(spellings).join(' ');
  const lines = [`    ${quote(entry.path.join(' '))})`];
  if (entry.subcommands.length > 0)
    lines.push(
      `      if [ "$COMP_CWORD" -eq ${depth + 1} ]; then _agent_play_words ${quote([...entry.subcommands, ...entry.options.flatMap(spellings)].join(' '))}; return; fi`,
    );
  lines.push('      case "$prev" in', ...valueCase(entry).map((line) => `  ${line}`), '      esac');
  const files = entry.files ? `      case "$cur" in -*) ;; *) _agent_play_files; return ;; esac` : '';
  if (files) lines.push(files);
  lines.push(`      _agent_play_words ${quote(options)}`, '      ;;');
  return lines.join('\n');
}

export function bashCompletion(entries: readonly CompletionEntry[], topWords: readonly string[]): string {
  const commands = entries.filter((entry) => entry.path.length === 1);
  return `# bash completion for agent-play (agent-play completion bash); written from its command table.
# Load it now: source <(agent-play completion bash)
# or for good: agent-play completion bash > ~/.local/share/bash-completion/completions/agent-play

_agent_play_words() {
  mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur")
}

_agent_play_files() {
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

_agent_play_dirs() {
  mapfile -t COMPREPLY < <(compgen -d -- "$cur")
}

_agent_play() {
  local cur prev path
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    _agent_play_words ${quote(topWords.join(' '))}
    return
  fi
  if [ "\${COMP_WORDS[1]}" = help ]; then
    _agent_play_words ${quote(commands.map((entry) => entry.path[0]).join(' '))}
    return
  fi
  path="\${COMP_WORDS[1]}"
  case "$path" in
${commands
  .filter((entry) => entry.subcommands.length > 0)
  .map((entry) => `    ${quote(entry.path[0])}) if [ "$COMP_CWORD" -gt 2 ]; then path="$path \${COMP_WORDS[2]}"; fi ;;`)
  .join('\n')}
  esac
  case "$path" in
${entries.map((entry) => entryCase(entry, entry.path.length)).join('\n')}
  esac
}

complete -F _agent_play agent-play
`;
}
