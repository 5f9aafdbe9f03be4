/**
 * The CodeRun custom resource (`agents.platform/v1`): one agent's run on one task (seed 002,
 * seed-origin section 3.1). This zod schema is the single description of its fields: it types the CodeRun
 * manifests the play creates, and the CRD is generated from it (`codeRunOpenApiSchema`).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { z } from 'zod';
import { RELATIVE_PATH_PATTERN } from './relative-path';

export {
  CODERUN_API_VERSION,
  CODERUN_GROUP,
  CODERUN_KIND,
  CODERUN_PLURAL,
  CODERUN_VERSION,
  CodeRunPhases,
} from './coderun-api';

/**
 * A CodeRun's `cliConfig`: the CLI, model and settings one run uses.
 * @internal zod's types stay out of the public declarations.
 */
export const CliRunConfigSchema = z.strictObject({
  /** The CLI that runs the agent: claude, codex, cursor, factory, opencode, gemini, or another configured one. */
  cliType: z
    .string()
    .min(1)
    .regex(/^[a-z][a-z0-9-]*$/)
    .describe('CLI that runs the agent, e.g. claude, codex'),
  model: z.string().min(1).describe('Model the CLI uses'),
  maxTokens: z.number().int().positive().max(2147483647).optional().describe('Largest response, in tokens'),
  temperature: z.number().min(0).max(2).optional().describe('Sampling temperature'),
  settings: z.record(z.string(), z.unknown()).optional().describe('CLI-specific settings, passed through'),
  modelRotation: z.array(z.string()).optional().describe('Models to rotate through on retries'),
});

/**
 * An environment variable of a CodeRun filled from a Secret key.
 * @internal zod's types stay out of the public declarations.
 */
export const SecretEnvSchema = z.strictObject({
  name: z.string().min(1),
  secretName: z.string().min(1),
  secretKey: z.string().min(1),
});

/** A folder inside the checkout, as the config requires it: the API server refuses any other (relative-path.ts). */
const RELATIVE_PATH = new RegExp(RELATIVE_PATH_PATTERN);

/**
 * A CodeRun's `spec`: the task, repository, agent and CLI of one run.
 * @internal zod's types stay out of the public declarations.
 */
export const CodeRunSpecSchema = z.strictObject({
  taskId: z.number().int().min(0).max(4294967295).describe('Task id'),
  service: z.string().min(1).describe('Service: the key of the workspace PVCs'),
  repositoryUrl: z.string().min(1).describe('Repository the agent works in (owner/name or URL)'),
  docsRepositoryUrl: z.string().min(1).describe('Repository that holds the task documents'),
  docsProjectDirectory: z.string().regex(RELATIVE_PATH).optional().describe('Folder of the task documents (relative, no ..)'),
  docsBranch: z.string().default('main').describe('Branch of the docs repository'),
  workingDirectory: z.string().regex(RELATIVE_PATH).optional().describe('Where the agent works (relative, no ..); defaults to the service'),
  model: z.string().min(1).describe('Legacy model field; cliConfig.model is preferred'),
  githubApp: z.string().min(1).describe('GitHub App the agent acts as, e.g. 5DLabs-Rex'),
  localTools: z.string().optional().describe('Comma-separated local tools'),
  remoteTools: z.string().optional().describe('Comma-separated remote tools'),
  contextVersion: z.number().int().min(1).max(2147483647).default(1).describe('Incremented on each retry'),
  promptModification: z.string().optional(),
  continueSession: z.boolean().default(false).describe('Resume from the agent memory file on the workspace'),
  overwriteMemory: z.boolean().default(false),
  env: z.record(z.string(), z.string()).optional().describe('Extra environment of the agent job'),
  envFromSecrets: z.array(SecretEnvSchema).optional(),
  enableDocker: z.boolean().default(true),
  taskRequirements: z.string().optional().describe('Base64 requirements.yaml'),
  serviceAccountName: z.string().optional(),
  cliConfig: CliRunConfigSchema,
});

const ConditionSchema = z.strictObject({
  type: z.string(),
  status: z.string(),
  lastTransitionTime: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
});

/**
 * A CodeRun's `status`, as the controller writes it; the play waits on `phase`.
 * @internal zod's types stay out of the public declarations.
 */
export const CodeRunStatusSchema = z.strictObject({
  phase: z.string().optional().describe('Pending, Running, Succeeded or Failed'),
  message: z.string().optional(),
  lastUpdate: z.string().optional(),
  jobName: z.string().optional(),
  pullRequestUrl: z.string().optional(),
  remediationStatus: z.string().optional(),
  qaStatus: z.string().optional(),
  retryCount: z.number().int().min(0).max(2147483647).optional(),
  conditions: z.array(ConditionSchema).optional(),
  configmapName: z.string().optional(),
  contextVersion: z.number().int().min(0).max(2147483647).optional(),
  promptModification: z.string().optional(),
  promptMode: z.string().optional(),
  sessionId: z.string().optional(),
  finishedAt: z.string().optional(),
  expireAt: z.string().optional(),
  cleanupCompletedAt: z.string().optional(),
  workCompleted: z.boolean().optional(),
});

// Their types: plain interfaces generated from these schemas (scripts/generate-config-types.ts).
export type { CodeRunSpec, CodeRunStatus } from './config-types.generated';

type JsonSchema = { [key: string]: unknown };

/**
 * The OpenAPI v3 schema of the CodeRun CRD, derived from the zod schemas above and made structural as
 * Kubernetes requires: no `additionalProperties: false` beside `properties`, free-form maps kept with
 * `x-kubernetes-preserve-unknown-fields`.
 */
export function codeRunOpenApiSchema(): JsonSchema {
  // Converted once per process (the CRD and the validator both want it); each caller gets its own copy.
  openApiText ??= JSON.stringify(buildCodeRunOpenApiSchema());
  return JSON.parse(openApiText) as JsonSchema;
}

let openApiText: string | undefined;

function buildCodeRunOpenApiSchema(): JsonSchema {
  const spec = toStructural(z.toJSONSchema(CodeRunSpecSchema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }));
  const status = toStructural(z.toJSONSchema(CodeRunStatusSchema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }));
  return {
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec,
      status,
    },
  };
}

function toStructural(node: unknown): JsonSchema {
  const source = node as JsonSchema;
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === '$schema' || key === 'additionalProperties' || key === 'id') continue;
    if (key === 'properties') result.properties = mapValues(value as Record<string, unknown>, toStructural);
    else if (key === 'items') result.items = toStructural(value);
    else result[key] = value;
  }
  const extra = source.additionalProperties;
  if (typeof extra === 'object' && extra !== null) {
    if (Object.keys(extra).length === 0) result['x-kubernetes-preserve-unknown-fields'] = true;
    else result.additionalProperties = toStructural(extra);
  }
  if (result.type === undefined && result.properties === undefined) return { 'x-kubernetes-preserve-unknown-fields': true, ...result };
  return result;
}

function mapValues(record: Record<string, unknown>, map: (value: unknown) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}
