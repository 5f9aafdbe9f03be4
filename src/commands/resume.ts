import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { ParameterNameSchema, ParameterValueSchema } from '../../constructs/model/config-schema';
import { MAX_TASK_ID, parseRepository } from '../../constructs/model/naming';
import { RESERVED_KEYS } from '../../constructs/model/resolve-config';
import { PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { toYamlText } from '../../constructs/model/yaml-text';
import { loadConfig } from '../config/load-config';
import { readProgressState } from '../state/progress-state';
import { resumeWorkflow } from '../state/resume-plan';
import { taskIdSpelling } from '../state/task-id-spelling';
import { type Command, ExitCode, HELP_OPTION, type Io, printUsage, UsageError } from './command';
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

/** `--parameter NAME=VALUE`s, each name and value checked by the rules of the config's play parameters. */
function parameters(pairs: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new UsageError(`--parameter ${pair}: expected NAME=VALUE`);
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    const problem = issueOf(ParameterNameSchema, name, 'the name') ?? issueOf(ParameterValueSchema, value, 'the value');
    if (problem !== undefined) throw new UsageError(`--parameter ${pair}: ${problem}`);
    if (RESERVED_KEYS.includes(name))
      throw new UsageError(
        `--parameter ${pair}: "${name}" cannot be a parameter name (JavaScript reserves it); use a parameter the play template declares`,
      );
    result[name] = value;
  }
  return result;
}

function issueOf(schema: z.ZodType, value: string, what: string): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : `${what}: ${result.error.issues[0].message}`;
}

/** The repository named by `--repository`, checked as the config checks a repository. */
function repositoryOption(value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError('--repository OWNER/NAME is required');
  try {
    parseRepository(value);
  } catch (error) {
    throw new UsageError(`--repository ${JSON.stringify(value)}: ${(error as Error).message}`);
  }
  return value;
}

/**
 * The task id named by `--task`, in the one form every part of the platform writes and reads (the runtime's
 * `canonicalTaskId`): digits without a leading zero, at most MAX_TASK_ID. `007` is refused with the form to
 * write, never read as 7 in silence.
 */
function taskOption(value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError('--task N is required (the task id, digits)');
  const spelling = taskIdSpelling(value);
  if (spelling.form === 'canonical') return value;
  if (spelling.form === 'leading-zeros')
    throw new UsageError(
      `--task ${JSON.stringify(value)}: a task id is written without leading zeros, as its records and plays name it: --task ${spelling.id}`,
    );
  if (spelling.form === 'too-large')
    throw new UsageError(`--task ${JSON.stringify(value)}: more than the largest task id (${MAX_TASK_ID})`);
  throw new UsageError(`--task ${JSON.stringify(value)}: expected the task id, a whole number such as 5`);
}

/**
 * `--task -1` as `--task=-1`: the parser would take the value for an option and refuse the line as
 * ambiguous, saying nothing about the value; joined, the value is checked and its problem named.
 */
function joinNegativeValues(args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const next = args[index + 1];
    if ((args[index] === '--task' || args[index] === '--repository') && next !== undefined && /^-[^-]/.test(next) && next !== '-') {
      joined.push(`${args[index]}=${next}`);
      index += 1;
    } else joined.push(args[index]);
  }
  return joined;
}

function run(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args: joinNegativeValues(args),
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
  const repository = repositoryOption(values.repository);
  const task = taskOption(values.task);
  const given = parameters(values.parameter);
  if (positionals.length > 1) throw new UsageError('expected at most one FILE (or - for standard input)');
  const config = loadConfig({ file: values.config, env: io.env });
  const input = readInput(positionals[0], io, 'the progress ConfigMaps');
  const configMaps = readProgressState(input.text, input.source);
  const workflow = resumeWorkflow(configMaps, config, { repository, task, parameters: given });
  // As synth writes manifests: what kubectl (YAML 1.1) and YAML 1.2 readers read alike, so a stage such as `on`
  // stays a string and a reason holding U+2028 stays one line.
  io.out(toYamlText(workflow));
  return ExitCode.ok;
}

export const resumeCommand: Command = {
  name: 'resume',
  summary: "print the Workflow that recreates a task's play at its recorded stage",
  usage: USAGE,
  run,
};
