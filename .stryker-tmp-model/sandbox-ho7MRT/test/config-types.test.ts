/**
 * The configuration's public types (constructs/model/config-types.generated.ts) are plain TypeScript, generated
 * from the zod schemas that validate the config: the committed file is the generator's output, and each type is
 * exactly zod's own input or output type (checked by the compiler: `npm test` type-checks this file).
 */
// @ts-nocheck

import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { CodeRunSpecSchema, CodeRunStatusSchema } from '../constructs/model/coderun-schema';
import type {
  AgentSchema,
  AgentStageSchema,
  CliSchema,
  EventsSchema,
  GateStageSchema,
  PlatformShapeSchema,
  ProjectSchema,
  ReleaseSchema,
  RemediationSchema,
  RepositorySchema,
  StageSchema,
  WhenSchema,
} from '../constructs/model/config-shapes';
import type * as generated from '../constructs/model/config-types.generated';
import type { AgentResourcesSchema, DirectSchema, GithubEndpointsSchema, ResourcesSchema } from '../constructs/model/direct-execution';
import { CONFIG_TYPES_FILE, configTypesSource } from '../scripts/generate-config-types';

describe('the generated config types', () => {
  it('are what the generator writes from the schemas today (npm run config-types)', () => {
    expect(readFileSync(CONFIG_TYPES_FILE, 'utf8')).toBe(configTypesSource());
  });

  it("are zod's output types, field for field", () => {
    expectTypeOf<generated.PlatformConfig>().toEqualTypeOf<z.output<typeof PlatformShapeSchema>>();
    expectTypeOf<generated.AgentConfig>().toEqualTypeOf<z.output<typeof AgentSchema>>();
    expectTypeOf<generated.CliConfig>().toEqualTypeOf<z.output<typeof CliSchema>>();
    expectTypeOf<generated.RepositoryConfig>().toEqualTypeOf<z.output<typeof RepositorySchema>>();
    expectTypeOf<generated.StageConfig>().toEqualTypeOf<z.output<typeof StageSchema>>();
    expectTypeOf<generated.AgentStageConfig>().toEqualTypeOf<z.output<typeof AgentStageSchema>>();
    expectTypeOf<generated.GateStageConfig>().toEqualTypeOf<z.output<typeof GateStageSchema>>();
    expectTypeOf<generated.ReleaseConfig>().toEqualTypeOf<z.output<typeof ReleaseSchema>>();
    expectTypeOf<generated.WhenConfig>().toEqualTypeOf<z.output<typeof WhenSchema>>();
    expectTypeOf<generated.EventsConfig>().toEqualTypeOf<z.output<typeof EventsSchema>>();
    expectTypeOf<generated.ProjectConfig>().toEqualTypeOf<z.output<typeof ProjectSchema>>();
    expectTypeOf<generated.RemediationConfig>().toEqualTypeOf<z.output<typeof RemediationSchema>>();
    expectTypeOf<generated.DirectConfig>().toEqualTypeOf<z.output<typeof DirectSchema>>();
    expectTypeOf<generated.AgentResources>().toEqualTypeOf<z.output<typeof ResourcesSchema>>();
    expectTypeOf<generated.AgentResourcesOverride>().toEqualTypeOf<z.output<typeof AgentResourcesSchema>>();
    expectTypeOf<generated.GithubEndpoints>().toEqualTypeOf<z.output<typeof GithubEndpointsSchema>>();
  });

  it("are zod's input types, registry entries partial (merged over the built-in ones)", () => {
    type Registries = 'agents' | 'clis';
    expectTypeOf<Omit<generated.PlatformConfigInput, Registries>>().toEqualTypeOf<Omit<z.input<typeof PlatformShapeSchema>, Registries>>();
    expectTypeOf<NonNullable<generated.PlatformConfigInput['agents']>[string]>().toEqualTypeOf<Partial<z.input<typeof AgentSchema>>>();
    expectTypeOf<NonNullable<generated.PlatformConfigInput['clis']>[string]>().toEqualTypeOf<Partial<z.input<typeof CliSchema>>>();
    expectTypeOf<generated.AgentConfigInput>().toEqualTypeOf<z.input<typeof AgentSchema>>();
    expectTypeOf<generated.CliConfigInput>().toEqualTypeOf<z.input<typeof CliSchema>>();
    expectTypeOf<generated.StageConfigInput>().toEqualTypeOf<z.input<typeof StageSchema>>();
    expectTypeOf<generated.CodeRunSpec>().toEqualTypeOf<z.input<typeof CodeRunSpecSchema>>();
    expectTypeOf<generated.CodeRunStatus>().toEqualTypeOf<z.input<typeof CodeRunStatusSchema>>();
  });
});
