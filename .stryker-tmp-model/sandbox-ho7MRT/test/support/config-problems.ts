/** The problem lines a configuration, or a platform built from one, is refused with. */
// @ts-nocheck

import { expect } from 'vitest';
import type { PlatformConfigInput } from '../../constructs/model/config-types.generated';
import { ConfigError, resolveConfig } from '../../constructs/model/resolve-config';

/** The lines of the ConfigError `action` throws; fails the test when it throws none. */
export function refusedWith(action: () => unknown): readonly string[] {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected the configuration to be refused');
}

/** The lines `resolveConfig` refuses `file` with (no environment). */
export function problemsOf(file: unknown): readonly string[] {
  return refusedWith(() => resolveConfig({ file: file as PlatformConfigInput, env: {} }));
}
