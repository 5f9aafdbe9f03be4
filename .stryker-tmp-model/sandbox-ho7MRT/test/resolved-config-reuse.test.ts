/**
 * AgentPlatform parses its config again, unless it is one resolveConfig has just returned and nothing in it
 * changed since (constructs/model/resolve-config.ts, unchangedResolvedConfig): the copy it then takes must be
 * exactly what a second parse would give, and a changed config must be parsed, and refused when wrong.
 */
// @ts-nocheck

import { App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { AgentPlatform } from '../constructs/platform/agent-platform';
import { resolveConfig, unchangedResolvedConfig } from '../constructs/model/resolve-config';
import type { PlatformConfigInput } from '../constructs/model/config-types.generated';
import { synthesizeApp } from '../src/synth/synthesize-app';

/** A config that sets much of what a user can: namespace, direct execution, remediation rounds, two repositories, a project. */
const RICH_INPUT = {
  namespace: 'agent-plays',
  execution: 'direct',
  agents: { cleo: { execution: 'coderun' } },
  remediation: { maxRounds: 2 },
  repositories: [
    { name: 'octo-org/api', service: 'api' },
    { name: 'octo-org/web', service: 'web' },
  ],
  projects: [{ name: 'launch', repository: 'octo-org/api', tasks: [{ id: 1 }, { id: 2, dependsOn: [1] }] }],
};

const synthesized = (config: unknown): string => {
  const app = new App();
  new AgentPlatform(app, 'platform', { config: config as Record<string, unknown> });
  return JSON.stringify([...synthesizeApp(app)]);
};

describe('a resolved config handed back unchanged', () => {
  it('is copied exactly as a second parse gives it, for the default and for a rich config', () => {
    for (const config of [resolveConfig({}), resolveConfig({ file: structuredClone(RICH_INPUT) as PlatformConfigInput, env: {} })]) {
      const copy = unchangedResolvedConfig(config);
      expect(copy).toStrictEqual(resolveConfig({ file: structuredClone(config), env: {} }));
      expect(copy).not.toBe(config);
    }
  });

  it('builds the same platform as the config parsed again', () => {
    const config = resolveConfig({ file: structuredClone(RICH_INPUT) as PlatformConfigInput, env: {} });
    expect(synthesized(config)).toBe(synthesized(structuredClone(config)));
  });

  it('is parsed again, and refused, once a value in it changed', () => {
    const config = resolveConfig({});
    expect(unchangedResolvedConfig(config)).toBeDefined();
    (config as { namespace: string }).namespace = 'Not A Namespace';
    expect(unchangedResolvedConfig(config)).toBeUndefined();
    expect(() => synthesized(config)).toThrow(/namespace/);
  });

  it('is only a config resolveConfig returned: an equal copy is parsed', () => {
    expect(unchangedResolvedConfig(structuredClone(resolveConfig({})))).toBeUndefined();
    expect(unchangedResolvedConfig(undefined)).toBeUndefined();
  });
});
