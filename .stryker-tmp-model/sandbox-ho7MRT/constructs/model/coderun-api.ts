/**
 * Where the CodeRun custom resource lives in the API and the phases the play waits for: what the CRD, the
 * play's templates and the runtime steps share. Apart from the zod schema of its fields
 * (`coderun-schema.ts`), so that the runtime program carries no schema library.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

/** The API group of the CodeRun custom resource. */
export const CODERUN_GROUP = 'agents.platform';
/** The API version of the CodeRun custom resource within its group. */
export const CODERUN_VERSION = 'v1';
/** The kind of the CodeRun custom resource. */
export const CODERUN_KIND = 'CodeRun';
/** The plural resource name of CodeRuns (RBAC rules and the CRD name use it). */
export const CODERUN_PLURAL = 'coderuns';
/** The `apiVersion` of a CodeRun: `agents.platform/v1`. */
export const CODERUN_API_VERSION = `${CODERUN_GROUP}/${CODERUN_VERSION}`;

/** The phases the play waits for: the run succeeded, or it failed. */
export const CodeRunPhases = { succeeded: 'Succeeded', failed: 'Failed' } as const;
