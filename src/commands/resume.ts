import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { loadConfig } from '../config/load-config';
import { readProgressState } from '../state/progress-state';
import { ResumeError, resumeWorkflow } from '../state/resume-plan';
import { type Command, ExitCode, HELP_OPTION, InputError, type Io, printUsage, UsageError } from './command';
import { readInput } from './read-input';

const USAGE = `Usage: agent-play resume --repository OWNER/NAME --task N [FILE|-] [--config FILE] [--parameter NAME=VALUE]...

Prints the Workflow that recreates a task's play at the stage its progress record holds (after its
Workflow was deleted, or failed): the same name, labels and play WorkflowTemplate (so the same workspace
claims) and play parameters, starting at the stored stage. Apply it with kubectl create -f -.

Input (FILE, - for standard input, or a pipe):
  kubectl get cm -l ${PROGRESS_TRACKING_LABEL}=true -o yaml | agent-play resume --repository octo-org/payments --task 5 | kubectl create -f -

Options:
  --repository OWNER/NAME   the task's repository
  --task N                  the task id
  --config FILE             the configuration the platform was synthesized from (default: agent-play.yaml
                            when it exists, else the embedded default)
  --parameter NAME=VALUE    a play parameter overriding the record's, e.g. task-type=backend; needed for
                            records that kept none when a conditional stage is ahead; repeatable
  -h, --help                show this help

Missing, unreadable or inconsistent state is refused with the reason (exit 2), never replaced by a
fresh start from the first stage; so is a completed play.
`;

function parameters(pairs: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new UsageError(`--parameter ${pair}: expected NAME=VALUE`);
    result[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return result;
}

function run(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args,
    options: {
      repository: { type: 'string' },
      task: { type: 'string' },
      config: { type: 'string' },
      parameter: { type: 'string', multiple: true, default: [] },
      ...HELP_OPTION,
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return printUsage(io, USAGE);
  if (!values.repository || !/^[^/\s]+\/[^/\s]+$/.test(values.repository)) throw new UsageError('--repository OWNER/NAME is required');
  if (!values.task || !/^\d+$/.test(values.task)) throw new UsageError('--task N is required (the task id, digits)');
  if (positionals.length > 1) throw new UsageError('expected at most one FILE (or - for standard input)');
  const config = loadConfig({ file: values.config, env: io.env });
  const input = readInput(positionals[0], io, 'the progress ConfigMaps');
  const configMaps = readProgressState(input.text, input.source);
  try {
    const workflow = resumeWorkflow(configMaps, config, { repository: values.repository, task: values.task, parameters: parameters(values.parameter) });
    io.out(stringify(workflow, { lineWidth: 0 }));
  } catch (error) {
    if (error instanceof ResumeError) throw new InputError([error.message]);
    throw error;
  }
  return ExitCode.ok;
}

export const resumeCommand: Command = {
  name: 'resume',
  summary: "print the Workflow that recreates a task's play at its recorded stage",
  usage: USAGE,
  run,
};
