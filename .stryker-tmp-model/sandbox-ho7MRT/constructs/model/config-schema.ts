/**
 * The configuration of a platform (`agent-play.yaml`), as a zod schema. Every field has a default, so an
 * empty file (or none) is the embedded default platform. Cross-field rules (an agent's CLI exists, a stage's
 * agent exists) are checked here too, each reported at the path of the field to change.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { referenceProblems } from './config-rules';
import { PlatformShapeSchema } from './config-shapes';

export * from './config-shapes';

/**
 * The whole platform configuration (`agent-play.yaml`): parses what a user writes into a `PlatformConfig`,
 * each problem reported at its path: the shapes of config-shapes.ts, then the rules between fields of
 * config-rules.ts.
 * @internal zod's types stay out of the public declarations (`PlatformConfigSchema` of public-schemas.ts is the public one).
 */
export const PlatformConfigSchema = PlatformShapeSchema.superRefine((config, ctx) => {
  for (const problem of referenceProblems(config)) ctx.addIssue({ code: 'custom', ...problem });
});
