import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { yamlBoundsProblem } from '../io/yaml-bounds';
import { z } from 'zod';
import { readTextFile, type UnreadableFileError } from '../io/read-text-file';
import { formatPath } from '../../constructs/model/resolve-config';
import { recordWithoutReservedKeys } from '../../constructs/model/reserved-keys';
import { ProblemsError } from '../../constructs/model/problems-error';
import { MAX_TASK_ID } from '../../constructs/model/naming';

/** Thrown for an unusable scenario or payload: one line per problem. */
export class ScenarioError extends ProblemsError {
  public constructor(problems: readonly string[]) {
    super(problems);
    this.name = 'ScenarioError';
  }
}

const TaskRef = z.strictObject({
  repository: z.string().regex(/^[^/\s]+\/[^/\s]+$/, { message: 'expected owner/name' }),
  // As the platform reads a task id (the runtime's canonicalTaskId): a CodeRun's taskId is a 32-bit integer.
  task: z
    .number()
    .int()
    .min(0)
    .max(MAX_TASK_ID, { message: `expected a task id of at most ${MAX_TASK_ID}` }),
});

/** The step kinds, as the one-line error for an unknown step names them (docs/simulate.md documents each). */
const STEP_KINDS =
  '{ github, payload }, { agentDone }, { agentFailed }, { deletePlay }, { resumeFromState }, { restart }, { reapplyTemplates } or { evictChunkWatcher }';

/** A project of the configuration (`projects[].name`), as its WorkflowTemplate `project-{name}` names it. */
const projectName = z.string().regex(/^[a-z]([-a-z0-9]*[a-z0-9])?$/, { message: 'expected a project name of the configuration' });

const ScenarioSchema = z.strictObject({
  /** The plays that exist when the scenario starts. */
  plays: z.array(TaskRef.extend({ stage: z.string().min(1), parameters: recordWithoutReservedKeys(z.string()).default({}) })).default([]),
  /** The projects submitted when the scenario starts (`argo submit --from workflowtemplate/project-{name}`), after the plays. */
  projects: z.array(z.strictObject({ name: projectName })).default([]),
  steps: z
    .array(
      z.union(
        [
          z.strictObject({
            /** The X-GitHub-Event header. */
            github: z.string().regex(/^[a-z_]+$/, { message: 'expected a GitHub event name such as pull_request' }),
            /** The webhook body, a JSON file relative to the scenario. */
            payload: z.string().min(1),
            /** The X-GitHub-Delivery header. @default step-{index} */
            delivery: z.string().optional(),
            /** How many attempts of each trigger this delivery fires fail (the API server refuses them). @default 0 */
            triggerFailures: z.number().int().min(0).max(100).optional(),
          }),
          z.strictObject({ agentDone: TaskRef }),
          z.strictObject({ agentFailed: TaskRef.extend({ reason: z.enum(['failed', 'evicted']).default('failed') }) }),
          z.strictObject({ deletePlay: TaskRef }),
          z.strictObject({ resumeFromState: TaskRef }),
          z.strictObject({ restart: TaskRef }),
          z.strictObject({ reapplyTemplates: z.strictObject({}) }),
          z.strictObject({
            /** The pod of a project's `wait-chunk` step watching chunk N (from 1) is evicted while the chunk runs. */
            evictChunkWatcher: z.strictObject({ project: projectName, chunk: z.number().int().min(1) }),
          }),
        ],
        { error: () => `expected a step ${STEP_KINDS}` },
      ),
    )
    .min(1),
});

interface TaskStep {
  readonly repository: string;
  readonly task: number;
}

export type GithubStep = {
  readonly github: string;
  readonly payload: Record<string, unknown>;
  readonly delivery: string;
  readonly triggerFailures?: number;
};
export type AgentDoneStep = { readonly agentDone: TaskStep };
export type AgentFailedStep = { readonly agentFailed: TaskStep & { readonly reason: 'failed' | 'evicted' } };
export type DeletePlayStep = { readonly deletePlay: TaskStep };
export type ResumeFromStateStep = { readonly resumeFromState: TaskStep };
export type RestartStep = { readonly restart: TaskStep };
/** The platform's WorkflowTemplates applied again, changed (a new synth synced while plays run). */
export type ReapplyTemplatesStep = { readonly reapplyTemplates: Record<string, never> };
/** The pod watching a project's chunk (its `wait-chunk` step) is evicted: deleted through the API while the chunk runs. */
export type EvictChunkWatcherStep = { readonly evictChunkWatcher: { readonly project: string; readonly chunk: number } };
export type Step =
  | GithubStep
  | AgentDoneStep
  | AgentFailedStep
  | DeletePlayStep
  | ResumeFromStateStep
  | RestartStep
  | ReapplyTemplatesStep
  | EvictChunkWatcherStep;

export interface Scenario {
  readonly plays: readonly {
    readonly repository: string;
    readonly task: number;
    readonly stage: string;
    readonly parameters?: Readonly<Record<string, string>>;
  }[];
  /** Projects submitted when the scenario starts, after the plays. */
  readonly projects?: readonly { readonly name: string }[];
  readonly steps: readonly Step[];
}

/**
 * Reads a scenario file and the payloads it names (relative to it).
 *
 * @throws ScenarioError with one line per problem, each naming the file and the path in it
 */
export function loadScenario(file: string): Scenario {
  const raw = readYaml(file);
  const result = ScenarioSchema.safeParse(raw);
  if (!result.success) throw new ScenarioError(result.error.issues.map((issue) => `${file}: ${formatPath(issue.path)}: ${issue.message}`));
  const base = dirname(file);
  const steps = result.data.steps.map((step, index): Step => {
    if (!('github' in step)) return step;
    const payload = readPayload(file, index, resolve(base, step.payload), step.payload);
    return {
      github: step.github,
      payload,
      delivery: step.delivery ?? `step-${index}`,
      ...(step.triggerFailures === undefined ? {} : { triggerFailures: step.triggerFailures }),
    };
  });
  return { plays: result.data.plays, projects: result.data.projects, steps };
}

function readYaml(file: string): unknown {
  let text: string;
  try {
    text = readTextFile(file);
  } catch (error) {
    throw new ScenarioError([`${file}: cannot read the scenario (${(error as UnreadableFileError).reason})`]);
  }
  const bounds = yamlBoundsProblem(text);
  if (bounds !== undefined) throw new ScenarioError([`${file}: not valid YAML: line ${bounds.line}: ${bounds.message}`]);
  try {
    return parse(text, { uniqueKeys: true });
  } catch (error) {
    throw new ScenarioError([`${file}: not valid YAML: ${(error as Error).message.split('\n')[0]}`]);
  }
}

function readPayload(file: string, index: number, path: string, written: string): Record<string, unknown> {
  const where = `${file}: steps[${index}].payload`;
  let text: string;
  try {
    text = readTextFile(path);
  } catch (error) {
    throw new ScenarioError([`${where}: cannot read ${written} (${(error as UnreadableFileError).reason})`]);
  }
  const bounds = yamlBoundsProblem(text);
  if (bounds !== undefined) throw new ScenarioError([`${where}: ${written} is not JSON: line ${bounds.line}: ${bounds.message}`]);
  let payload: unknown;
  try {
    // Of duplicate keys the last wins, at every level, as in Argo Events: its GitHub EventSource decodes the
    // body into a map with encoding/json before anything else reads it (argo-events v1.9.11,
    // pkg/eventsources/sources/github/start.go, parseValidateRequest) and hands on that map re-encoded, so the
    // Sensor's gjson lookups, which would take the first of two keys, never see a duplicate.
    payload = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError([`${where}: ${written} is not JSON: ${(error as Error).message}`]);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new ScenarioError([`${where}: ${written} must hold a JSON object (a webhook body)`]);
  return payload as Record<string, unknown>;
}
