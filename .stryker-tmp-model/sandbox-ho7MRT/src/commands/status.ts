// @ts-nocheck
import { durationSeconds } from '../../constructs/model/duration';
import { PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { CLUSTER_OPTIONS } from './cluster-options';
import type { ProgressConfigMap } from '../state/progress-state';
import { formatAge, taskStatuses, type TaskStatus } from '../state/task-status';
import { type Command, ExitCode, type Io, printUsage, UsageError } from './command';
import { count } from './plural';
import { formatOption, formatOptions, HELP, type OptionSpec, parseOptions } from './options';
import { progressInput, readProgressCluster, readProgressText } from './progress-input';
import { followTasks } from './status-watch';

const DEFAULT_STUCK_AFTER = '6h';
const DEFAULT_GATE_STUCK_AFTER = '3d';

const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'stuck-after',
    value: 'DURATION',
    default: DEFAULT_STUCK_AFTER,
    description: `an agent stage without progress this long is stuck (default: ${DEFAULT_STUCK_AFTER})`,
  },
  {
    name: 'gate-stuck-after',
    value: 'DURATION',
    default: DEFAULT_GATE_STUCK_AFTER,
    description: `a play waiting at a gate this long is flagged (default: ${DEFAULT_GATE_STUCK_AFTER})`,
  },
  formatOption(),
  { name: 'fail-on-stuck', description: 'exit 1 when any task is flagged (for CI and alerts)' },
  ...CLUSTER_OPTIONS,
  { name: 'all-namespaces', short: 'A', description: 'read the progress ConfigMaps of every namespace' },
  { name: 'watch', short: 'w', description: 'follow the tasks live from the cluster: one line per change of stage or status' },
  {
    name: 'task',
    value: 'N',
    description: 'with --watch: follow this task only, and stop when its play completes (exit 0) or fails (exit 1)',
  },
  HELP,
];

const USAGE = `Usage: agent-play status [FILE|-] [--stuck-after DURATION] [--gate-stuck-after DURATION] [--format text|json] [--fail-on-stuck]
       agent-play status [--kubeconfig FILE] [--context NAME] [--namespace NAME | -A] [--watch [--task N]]

Lists every task recorded in the progress ConfigMaps: repository, task, stage, status, last agent, last
update and workflow, and flags what needs a look: an agent stage without progress for longer than
--stuck-after, a play waiting at a gate for longer than --gate-stuck-after, a failed play, a record that
cannot be read.

Input: the cluster of the kubeconfig (when a cluster option is given, or no FILE and no pipe), or FILE,
or - (or a pipe) for standard input:
  agent-play status --context prod -n argo
  kubectl get cm -l ${PROGRESS_TRACKING_LABEL}=true -o yaml -A | agent-play status

${formatOptions(OPTIONS)}
Durations: a whole number and s, m, h or d (90m, 6h, 3d).
Exit codes: 0 the report (flags included, unless --fail-on-stuck), 1 flagged tasks with --fail-on-stuck,
2 unusable input or an unreadable cluster.
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
  const summary = `${count(statuses.length, 'task')}, ${flagged.length} flagged`;
  return `${[...lines, ...(notes.length > 0 ? ['', ...notes] : []), '', summary].join('\n')}\n`;
}

function run(args: string[], io: Io): number | Promise<number> {
  const options = parseOptions(OPTIONS, args);
  if (options.flag('help')) return printUsage(io, USAGE);
  if (options.positionals.length > 1) throw new UsageError('expected at most one FILE (or - for standard input)');
  const thresholds = {
    stuckAfter: seconds('--stuck-after', options.string('stuck-after') as string),
    gateStuckAfter: seconds('--gate-stuck-after', options.string('gate-stuck-after') as string),
  };
  const watch = options.flag('watch');
  const task = options.string('task');
  if (task !== undefined && !watch) throw new UsageError('--task: only with --watch (the report lists every task)');
  if (task !== undefined && !/^[1-9]\d{0,15}$/.test(task))
    throw new UsageError(`--task: expected the task id, a positive whole number such as 5, got ${JSON.stringify(task)}`);
  const input = progressInput(options, io, watch || options.flag('all-namespaces'));
  const scope = { allNamespaces: options.flag('all-namespaces') };
  if (input.kind === 'cluster' && watch) {
    return followTasks(input.target, scope, io, { thresholds, task, json: options.string('format') === 'json' });
  }
  const report = (configMaps: readonly ProgressConfigMap[]): number => {
    const now = io.now ? io.now() : new Date();
    const statuses = taskStatuses(
      configMaps.flatMap((configMap) => configMap.entries),
      now,
      thresholds,
    );
    io.out(
      options.string('format') === 'json'
        ? `${JSON.stringify({ now: now.toISOString(), thresholds, tasks: statuses }, null, 2)}\n`
        : table(statuses),
    );
    return options.flag('fail-on-stuck') && statuses.some((status) => status.flag) ? ExitCode.failed : ExitCode.ok;
  };
  if (input.kind === 'text') return report(readProgressText(input.file, io));
  return readProgressCluster(input.target, io, scope).then(({ configMaps }) => report(configMaps));
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'list every task from the progress ConfigMaps, flagging stuck and failed plays',
  usage: USAGE,
  options: OPTIONS,
  run,
};
