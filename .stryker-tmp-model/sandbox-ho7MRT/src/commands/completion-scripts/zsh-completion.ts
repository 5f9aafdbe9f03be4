/** The zsh completion script (`agent-play completion zsh`), written from the command table. */
// @ts-nocheck

import type { OptionSpec } from '../options';
import type { CompletionEntry } from './completion-table';

/** Text inside single quotes, with what _arguments and _describe treat specially escaped. */
const single = (text: string): string => text.replace(/'/g, `'\\''`);
const describe = (text: string): string => single(text.split('\n')[0].replace(/[[\]:\\]/g, (c) => `\\${c}`));

function argumentSpec(option: OptionSpec): string {
  const help = describe(option.description);
  const value =
    option.value === undefined
      ? ''
      : option.choices
        ? `:${option.value.toLowerCase()}:(${option.choices.join(' ')})`
        : option.complete === 'directory'
          ? `:${option.value.toLowerCase()}:_directories`
          : option.complete === 'file'
            ? `:${option.value.toLowerCase()}:_files`
            : `:${option.value.toLowerCase()}: `;
  const repeat = option.multiple ? '*' : '';
  if (option.short === undefined) return `'${repeat}--${option.name}[${help}]${value}'`;
  const exclusive = option.multiple ? '' : `(-${option.short} --${option.name})`;
  return `'${exclusive}'${repeat ? "'*'" : ''}{-${option.short},--${option.name}}'[${help}]${value}'`;
}

function argumentsCall(entry: CompletionEntry): string {
  const specs = entry.options.map(argumentSpec);
  if (entry.files) specs.push(`'*:file:_files'`);
  return `_arguments -s ${specs.join(' \\\n        ')}`;
}

export function zshCompletion(entries: readonly CompletionEntry[], topWords: readonly string[]): string {
  const commands = entries.filter((entry) => entry.path.length === 1);
  const described = commands.map((entry) => `    '${entry.path[0]}:${describe(entry.summary)}'`).join('\n');
  const cases = commands.map((entry) => {
    if (entry.subcommands.length === 0) return `    ${entry.path[0]})\n      ${argumentsCall(entry)}\n      ;;`;
    const subs = entries.filter((candidate) => candidate.path.length === 2 && candidate.path[0] === entry.path[0]);
    const list = subs.map((sub) => `'${sub.path[1]}:${describe(sub.summary)}'`).join(' ');
    const inner = subs.map((sub) => `        ${sub.path[1]})\n          ${argumentsCall(sub)}\n          ;;`).join('\n');
    return `    ${entry.path[0]})
      if (( CURRENT == 2 )); then
        local -a subcommands
        subcommands=(${list})
        _describe -t subcommands 'subcommand' subcommands
        return
      fi
      shift words
      (( CURRENT-- ))
      case $words[1] in
${inner}
      esac
      ;;`;
  });
  return `#compdef agent-play
# zsh completion for agent-play (agent-play completion zsh); written from its command table.
# Load it now: source <(agent-play completion zsh)
# or for good: agent-play completion zsh > "\${fpath[1]}/_agent_play"

_agent_play() {
  local -a commands
  commands=(
${described}
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'command' commands
    compadd -- ${topWords.filter((word) => word.startsWith('-')).join(' ')}
    return
  fi
  local command=$words[2]
  shift words
  (( CURRENT-- ))
  case $command in
    help)
      _describe -t commands 'command' commands
      ;;
${cases.join('\n')}
  esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _agent_play "$@"
else
  compdef _agent_play agent-play
fi
`;
}
