/**
 * The version package.json pins for a dependency, read where the results of a pure function of that library
 * are kept in the user cache (parsed CEL rules, CEL verdicts, Go regexp verdicts): the cache file is named
 * after it, so that another version of the library computes them again.
 */
// @ts-nocheck

import packageJson from '../package.json';

const DEPENDENCIES: Readonly<Record<string, string>> = (packageJson as { dependencies: Record<string, string> }).dependencies;

/** @throws when package.json does not list `dependency` among its dependencies */
export function pinnedVersion(dependency: string): string {
  const version = DEPENDENCIES[dependency];
  if (version === undefined) throw new Error(`package.json pins no version of ${dependency}: add it to "dependencies"`);
  return version;
}
