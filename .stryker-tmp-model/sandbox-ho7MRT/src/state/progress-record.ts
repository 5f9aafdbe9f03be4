/**
 * A task's progress record, as the runtime steps write it (`constructs/progress/progress-record.ts`): JSON
 * under the task's key of its progress shard (`constructs/progress/progress-layout.ts`), or of the repository's
 * ConfigMap in the earlier layouts. State lives in the cluster, so
 * this record is what a deleted play is recreated from; anything that does not look exactly like what the
 * script writes is refused, never guessed.
 */
// @ts-nocheck

import { z } from 'zod';
import { ProgressStatuses } from '../../constructs/model/play-contract';
import { recordWithoutReservedKeys } from '../../constructs/model/reserved-keys';
import { yamlBoundsProblem } from '../io/yaml-bounds';
import { canonicalTaskId } from '../../constructs/runtime/step-env';
import { MAX_TASK_ID } from '../../constructs/model/naming';
import { MAX_ROUNDS_LIMIT, ParameterNameSchema, ParameterValueSchema } from '../../constructs/model/config-schema';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const timestamp = z.string().regex(RFC3339, { message: 'expected an RFC 3339 time such as 2026-11-23T08:15:00Z' });

/** A remediation round: no config allows more than MAX_ROUNDS_LIMIT. */
const round = z.number().int().min(1).max(MAX_ROUNDS_LIMIT);

/** The names of a record's play parameters, as the config's (`ParameterNameSchema`). */
function parameterNames(parameters: Record<string, string>, context: z.RefinementCtx): void {
  for (const name of Object.keys(parameters)) {
    const result = ParameterNameSchema.safeParse(name);
    if (!result.success) context.addIssue({ code: 'custom', path: [name], message: `the name: ${result.error.issues[0].message}` });
  }
}

export const StageResultSchema = z.object({ result: z.string().min(1), finishedAt: timestamp });

export const CliUseSchema = z.object({ stage: z.string(), agent: z.string(), cli: z.string(), at: timestamp });

/** One entry of the remediation history: the round it started, why, who asked, and where. */
export const RemediationEntrySchema = z.object({
  round,
  /** `remediate` (changes requested), `stale-work` (a push re-ran the round's reviews). */
  kind: z.string(),
  reason: z.string(),
  /** The reviewer or pusher (a bot login). */
  reviewer: z.string().default(''),
  /** The pull request. */
  url: z.string().default(''),
  eventId: z.string().default(''),
  /** Where the round's play started; empty when the rounds were exhausted (absent in earlier records). */
  startStage: z.string().optional(),
  at: timestamp,
});

/** A gate's release, recorded by whoever learned of it first. */
export const ReleaseSchema = z.object({ prUrl: z.string(), prNumber: z.string(), releasedAt: z.string() });

export const ProgressRecordSchema = z.object({
  repository: z.string().regex(/^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/, { message: 'expected owner/name' }),
  task: z.string().refine((task) => canonicalTaskId(task) !== undefined, {
    message: `expected the task id in its one form: digits without a leading zero, at most ${MAX_TASK_ID}`,
  }),
  workflowName: z.string().min(1),
  startedAt: timestamp,
  lastUpdated: timestamp,
  stage: z.string().min(1),
  status: z.enum(Object.values(ProgressStatuses) as [string, ...string[]]),
  stageResults: recordWithoutReservedKeys(StageResultSchema).default({}),
  /** The agent of the last agent stage; several names joined by "," for a parallel stage. */
  lastAgent: z.string().optional(),
  cliHistory: z.array(CliUseSchema).default([]),
  /** The play parameters stage conditions test (task-type and the declared ones); absent in older records. */
  // Checked as `--parameter` and the config check them: the recreated play prints them into its Workflow.
  parameters: recordWithoutReservedKeys(ParameterValueSchema).superRefine(parameterNames).optional(),
  /** The remediation round the task is in; absent in records written before rounds (round 1). */
  round: round.optional(),
  /** Why the task failed, when the remediator says (rounds exhausted). */
  reason: z.string().optional(),
  /** What sent the task back, or re-ran its stale work, oldest first (the remediator appends). */
  remediations: z.array(RemediationEntrySchema).default([]),
  /** The releases of the task's gates, by gate (absent in the earlier layouts, which kept them apart). */
  releases: recordWithoutReservedKeys(ReleaseSchema).optional(),
});

export type ProgressRecord = z.infer<typeof ProgressRecordSchema>;

/**
 * The record stored as `text`, or why it cannot be used (one line, naming the field).
 */
export function parseProgressRecord(text: string): { record: ProgressRecord } | { problem: string } {
  // JSON is YAML: measured like every input before it is parsed.
  const bounds = yamlBoundsProblem(text);
  if (bounds !== undefined) return { problem: `not JSON (${bounds.message})` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON (${(error as Error).message})` };
  }
  const result = ProgressRecordSchema.safeParse(json);
  if (result.success) return { record: result.data };
  const issue = result.error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the record';
  return { problem: `${where}: ${issue.message}` };
}
