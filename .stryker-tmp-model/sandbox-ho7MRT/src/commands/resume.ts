// @ts-nocheck
import type { z } from 'zod';
import { ParameterNameSchema, ParameterValueSchema } from '../../constructs/model/config-schema';
import { MAX_TASK_ID, parseRepository } from '../../constructs/model/naming';
import { toYamlText } from '../../constructs/model/yaml-text';
import { taskIdSpelling } from '../state/task-id-spelling';
import { RESERVED_KEYS } from '../../constructs/model/resolve-config';
import { PROGRESS_TRACKING_LABEL } from '../../constructs/model/labels';
import { loadConfig } from '../config/load-config';
import { CLUSTER_OPTIONS } from './cluster-options';
import { createWorkflow } from '../cluster/create-workflow';
import { resumeWorkflow } from '../state/resume-plan';
import { type Command, ExitCode, type Io, printUsage, UsageError } from './command';
import { CONFIG, formatOption, formatOptions, HELP, type OptionSpec, parseOptions } from './options';
import { progressInput, readProgressCluster, readProgressText } from './progress-input';

const OPTIONS: readonly OptionSpec[] = [
  { name: 'repository', value: 'OWNER/NAME', description: "the task's repository" },
  { name: 'task', value: 'N', description: 'the task id' },
  CONFIG,
  {
    name: 'parameter',
    value: 'NAME=VALUE',
    multiple: true,
    description: `a play parameter overriding the record's, e.g. task-type=backend; needed for
records that kept none when a conditional stage is ahead`,
  },
  formatOption(['yaml', 'json']),
  ...CLUSTER_OPTIONS,
  { name: 'apply', description: 'create the Workflow in the cluster (asks first; needs a terminal unless --yes)' },
  { name: 'yes', short: 'y', description: 'with --apply: create it without asking' },
  HELP,
];

const USAGE = `Usage: agent-play resume --repository OWNER/NAME --task N [FILE|-] [--config FILE] [--parameter NAME=VALUE]...
       agent-play resume --repository OWNER/NAME --task N [--kubeconfig FILE] [--context NAME] [--namespace NAME] [--apply [--yes]]

Prints the Workflow that recreates a task's play at the stage its progress record holds (after its
Workflow was deleted, or failed): the same name, labels and play WorkflowTemplate (so the same workspace
claims) and play parameters, starting at the stored stage. With --apply it creates it in the cluster.

Input: the cluster of the kubeconfig (when a cluster option or --apply is given, or no FILE and no pipe),
or FILE, or - (or a pipe) for standard input:
  agent-play resume --repository octo-org/payments --task 5 -n argo --apply
  kubectl get cm -l ${PROGRESS_TRACKING_LABEL}=true -o yaml | agent-play resume --repository octo-org/payments --task 5 | kubectl create -f -

${formatOptions(OPTIONS)}
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

function run(args: string[], io: Io): number | Promise<number> {
  const options = parseOptions(OPTIONS, args);
  if (options.flag('help')) return printUsage(io, USAGE);
  const repository = repositoryOption(options.string('repository'));
  const task = taskOption(options.string('task'));
  const given = parameters(options.list('parameter'));
  if (options.positionals.length > 1) throw new UsageError('expected at most one FILE (or - for standard input)');
  const apply = options.flag('apply');
  if (options.flag('yes') && !apply) throw new UsageError('--yes: only with --apply');
  const config = loadConfig({ file: options.string('config'), env: io.env });
  const input = progressInput(options, io, apply);
  const print = (workflow: Record<string, unknown>): void =>
    // As synth writes manifests: what kubectl (YAML 1.1) and YAML 1.2 readers read alike, so a stage such as `on`
    // stays a string and a reason holding U+2028 stays one line.
    io.out(options.string('format') === 'json' ? `${JSON.stringify(workflow, null, 2)}\n` : toYamlText(workflow));
  if (input.kind === 'text') {
    print(resumeWorkflow(readProgressText(input.file, io), config, { repository, task, parameters: given }));
    return ExitCode.ok;
  }
  return readProgressCluster(input.target, io, { allNamespaces: false }).then(async ({ cluster, configMaps }) => {
    const workflow = resumeWorkflow(configMaps, config, { repository, task, parameters: given }) as Record<string, any>;
    if (!apply) {
      print(workflow);
      return ExitCode.ok;
    }
    const name = workflow.metadata?.name ?? workflow.metadata?.generateName;
    const namespace = workflow.metadata?.namespace ?? cluster.namespace;
    const question = `create Workflow ${name} in namespace ${namespace} of context ${cluster.context} (${cluster.server}), resuming ${repository} task ${task} at stage ${stageOf(workflow)}? [y/N] `;
    if (!options.flag('yes') && !(await confirmed(io, question))) {
      io.err('nothing created\n');
      return ExitCode.failed;
    }
    const created = await createWorkflow(cluster, workflow);
    io.out(`created Workflow ${created.name} in namespace ${created.namespace}\n`);
    return ExitCode.ok;
  });
}

/** The stage the Workflow starts at, for the question. */
function stageOf(workflow: Record<string, any>): string {
  const parameters: { name: string; value?: string }[] = workflow.spec?.arguments?.parameters ?? [];
  return parameters.find((parameter) => parameter.name === 'start-stage')?.value ?? 'its recorded stage';
}

/** Asks at the terminal; refuses without one (a script passes --yes). */
async function confirmed(io: Io, question: string): Promise<boolean> {
  const interactive = io.interactive ?? (process.stdin.isTTY === true && process.stderr.isTTY === true);
  if (!interactive) throw new UsageError('--apply: no terminal to ask on; pass --yes to create the Workflow without asking');
  const answer = await (io.ask ?? askTerminal)(question);
  return /^(y|yes)$/i.test(answer.trim());
}

async function askTerminal(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
}

export const resumeCommand: Command = {
  name: 'resume',
  summary: "print the Workflow that recreates a task's play at its recorded stage",
  usage: USAGE,
  options: OPTIONS,
  run,
};
