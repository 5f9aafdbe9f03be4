/**
 * The schemas the library exports, typed with our own `Schema` interface: the values are zod schemas, but a
 * user's compiler reads no zod declaration (zod's CommonJS declarations need `esModuleInterop`, which a stock
 * `cdk8s init` project does not set).
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { CodeRunSpecSchema as codeRunSpec, CodeRunStatusSchema as codeRunStatus } from './coderun-schema';
import { PlatformConfigSchema as platformConfig } from './config-schema';
import { RemediationSchema as remediation } from './config-shapes';
import type { CodeRunSpec, CodeRunStatus, PlatformConfig, RemediationConfig } from './config-types.generated';

/** One problem a schema found: where, and what is wrong. */
export interface SchemaIssue {
  /** The path of the value with the problem, from the value checked. */
  readonly path: readonly PropertyKey[];
  /** What is wrong, in words. */
  readonly message: string;
  /** The kind of problem, e.g. `invalid_type`, `unrecognized_keys`, `custom`. */
  readonly code: string;
}

/** The answer of `Schema.safeParse`: the parsed value, or every problem found. */
export type SchemaResult<T> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly error: { readonly issues: readonly SchemaIssue[] } };

/** A schema of the library: checks a value and returns it parsed (defaults applied). */
export interface Schema<T> {
  /**
   * The value, parsed.
   * @throws when the value does not fit, with every problem found
   */
  parse(value: unknown): T;
  /** The value, parsed, or every problem found, without throwing. */
  safeParse(value: unknown): SchemaResult<T>;
}

/**
 * The whole platform configuration (`agent-play.yaml`), with the rules between its fields; `resolveConfig`
 * adds the merge of agents and CLIs over the built-in ones and the environment's overrides.
 */
export const PlatformConfigSchema: Schema<PlatformConfig> = platformConfig;
/** The platform's remediation settings (`remediation`). */
export const RemediationSchema: Schema<RemediationConfig> = remediation;
/** A CodeRun's `spec`: the task, repository, agent and CLI of one run. */
export const CodeRunSpecSchema: Schema<CodeRunSpec> = codeRunSpec;
/** A CodeRun's `status`, as the controller writes it; the play waits on `phase`. */
export const CodeRunStatusSchema: Schema<CodeRunStatus> = codeRunStatus;
