import { parseArgs } from 'node:util';
import { durationSeconds } from '../../constructs/model/duration';
import { PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { readProgressState } from '../state/progress-state';
import { formatAge, taskStatuses, type TaskStatus } from '../state/task-status';
import { type Command, ExitCode, HELP_OPTION, type Io, printUsage, UsageError } from './command';
import { readInput } from './read-input';

const DEFAULT_STUCK_AFTER = '6h';
const DEFAULT_GATE_STUCK_AFTER = '3d';

const USAGE = `Usage: agent-play status [FILE|-] [--stuck-after DURATION] [--gate-stuck-after DURATION] [--format text|json] [--fail-on-stuck]

Lists every task recorded in the progress ConfigMaps: repository, task, stage, status, last agent, last
update and workflow, and flags what needs a look: an agent stage without progress for longer than
--stuck-after, a play waiting at a gate for longer than --gate-stuck-after, a failed play, a record that
cannot be read.

Input (FILE, - for standard input, or a pipe):
  kubectl get cm -l ${PROGRESS_TRACKING_LABEL}=true -o yaml -A | agent-play status

Options:
  --stuck-after DURATION       an agent stage without progress this long is stuck (default: ${DEFAULT_STUCK_AFTER})
  --gate-stuck-after DURATION  a play waiting at a gate this long is flagged (default: ${DEFAULT_GATE_STUCK_AFTER})
  --format FORMAT              text (default) or json
  --fail-on-stuck              exit 1 when any task is flagged (for CI and alerts)
  -h, --help                   show this help

Durations: a whole number and s, m, h or d (90m, 6h, 3d).
Exit codes: 0 the report (flags included, unless --fail-on-stuck), 1 flagged tasks with --fail-on-stuck,
2 unusable input.
`;

function seconds(option: string, text: string): number {
  try {
    return durationSeconds(text);
  } catch (error) {
    throw new UsageError(`${option}: ${(error as Error).message}`);
  }
}

const COLUMNS: readonly [string, (status: TaskStatus) => string][] = [
  ['REPOSITORY', (status) => status.repository],
  ['TASK', (status) => status.task],
  ['STAGE', (status) => status.stage],
  ['STATUS', (status) => status.status],
  ['ROUND', (status) => (status.round === undefined ? '-' : String(status.round))],
  ['LAST AGENT', (status) => status.lastAgent || '-'],
  ['LAST UPDATE', (status) => status.lastUpdated || '-'],
  ['AGE', (status) => (status.ageSeconds === undefined ? '-' : formatAge(status.ageSeconds))],
  ['WORKFLOW', (status) => status.workflowName || '-'],
];

function table(statuses: readonly TaskStatus[]): string {
  const rows = [COLUMNS.map(([title]) => title), ...statuses.map((status) => COLUMNS.map(([, cell]) => cell(status)))];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
  const flagged = statuses.filter((status) => status.flag);
  const notes = flagged.map((status) => `! ${status.repository} task ${status.task}: ${status.flag}`);
  const rounds = statuses.flatMap((status) =>
    (status.remediations ?? []).map(
      (entry) => `  ${status.repository} task ${status.task} round ${entry.round}: ${entry.reason} (${entry.kind}, ${entry.at})`,
    ),
  );
  if (rounds.length > 0) notes.push('', 'remediation rounds:', ...rounds);
  const summary = `${statuses.length} task(s), ${flagged.length} flagged`;
  return `${[...lines, ...(notes.length > 0 ? ['', ...notes] : []), '', summary].join('\n')}\n`;
}

function run(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args,
    options: {
      'stuck-after': { type: 'string', default: DEFAULT_STUCK_AFTER },
      'gate-stuck-after': { type: 'string', default: DEFAULT_GATE_STUCK_AFTER },
      format: { type: 'string', default: 'text' },
      'fail-on-stuck': { type: 'boolean' },
      ...HELP_OPTION,
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return printUsage(io, USAGE);
  if (positionals.length > 1) throw new UsageError('expected at most one FILE (or - for standard input)');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format: expected text or json, got "${values.format}"`);
  const thresholds = {
    stuckAfter: seconds('--stuck-after', values['stuck-after']),
    gateStuckAfter: seconds('--gate-stuck-after', values['gate-stuck-after']),
  };
  const input = readInput(positionals[0], io, 'the progress ConfigMaps');
  const configMaps = readProgressState(input.text, input.source);
  const now = io.now ? io.now() : new Date();
  const statuses = taskStatuses(
    configMaps.flatMap((configMap) => configMap.entries),
    now,
    thresholds,
  );
  io.out(
    values.format === 'json' ? `${JSON.stringify({ now: now.toISOString(), thresholds, tasks: statuses }, null, 2)}\n` : table(statuses),
  );
  return values['fail-on-stuck'] && statuses.some((status) => status.flag) ? ExitCode.failed : ExitCode.ok;
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'list every task from the progress ConfigMaps, flagging stuck and failed plays',
  usage: USAGE,
  run,
};
