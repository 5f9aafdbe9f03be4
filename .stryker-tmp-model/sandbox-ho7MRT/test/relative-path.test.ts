/**
 * The folders the steps `cd` and clone into (`workingDirectory`, `docsProjectDirectory`) stay inside the
 * repository's checkout: whatever the config says, an accepted path resolves inside it, and a refused one is
 * one line at its config path. The CodeRun CRD's pattern (checked by the API server, in RE2) accepts exactly
 * the same paths.
 */
// @ts-nocheck

import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goRegexpMatch } from '../src/simulate/engine/re2';
import { ConfigError, resolveConfig } from '../constructs/model/resolve-config';
import { RELATIVE_PATH_PATTERN, relativePathProblem } from '../constructs/model/relative-path';
import { codeRunOpenApiSchema } from '../constructs/model/coderun-schema';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const RUNS = Number(process.env.FC_RUNS ?? 500);

const segment = fc.oneof(
  fc.constantFrom('..', '.', '', '-x', '--upload-pack', '...', '..a', '.git', 'a..b', 'web', 'svc_1', '~', 'a b', '$(id)', '%2e%2e'),
  fc.stringMatching(/^[A-Za-z0-9._-]{1,6}$/),
);
const path = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => segments.join('/')),
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((segments) => `/${segments.join('/')}`),
);

const CHECKOUT = '/workspace/checkout';
const staysInside = (candidate: string): boolean => {
  const resolved = posix.resolve(CHECKOUT, candidate);
  return resolved === CHECKOUT || resolved.startsWith(`${CHECKOUT}/`);
};

function problemsOf(repository: Record<string, unknown>): readonly string[] {
  try {
    resolveConfig({ file: { repositories: [{ name: 'octo/web', service: 'web', ...repository }] }, env: {} });
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
}

describe('a folder inside the checkout', () => {
  it('is accepted only when it resolves inside the checkout, never as an option, absolute or with ..', () => {
    fc.assert(
      fc.property(path, (candidate) => {
        const accepted = relativePathProblem(candidate) === undefined;
        if (accepted) {
          expect(staysInside(candidate), candidate).toBe(true);
          expect(candidate.split('/').some((part) => part === '..' || part === '' || part.startsWith('-'))).toBe(false);
        } else {
          expect(relativePathProblem(candidate), candidate).toMatch(/^(is |holds |expected )/);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('is what the CodeRun CRD pattern accepts, under RE2 as the API server reads it', () => {
    const properties = (codeRunOpenApiSchema() as { properties: { spec: { properties: Record<string, { pattern?: string }> } } }).properties
      .spec.properties;
    expect(properties.workingDirectory.pattern).toBe(properties.docsProjectDirectory.pattern);
    const crdPattern = properties.workingDirectory.pattern ?? '';
    fc.assert(
      fc.property(path, (candidate) => {
        expect(goRegexpMatch(crdPattern, candidate), candidate).toBe(relativePathProblem(candidate) === undefined);
        expect(goRegexpMatch(RELATIVE_PATH_PATTERN, candidate)).toBe(relativePathProblem(candidate) === undefined);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it.each([
    ['workingDirectory', '../../etc', 'holds a ".." segment, which leads out of the repository: expected a folder inside it'],
    ['workingDirectory', '/etc', 'is absolute: expected a folder relative to the repository, such as services/web'],
    ['docsProjectDirectory', '../..', 'holds a ".." segment, which leads out of the repository: expected a folder inside it'],
    ['docsProjectDirectory', 'docs/../../x', 'holds a ".." segment, which leads out of the repository: expected a folder inside it'],
    ['workingDirectory', '--upload-pack=x', 'holds a segment starting with "-", which a command reads as an option'],
    ['workingDirectory', 'services//web', 'holds an empty segment ("//" or a "/" at the end): expected a path such as services/web'],
  ])('%s %s is one line at its path', (field, value, message) => {
    expect(problemsOf({ [field]: value })).toEqual([`repositories[0].${field}: ${message}`]);
  });

  it('keeps the folders people use', () => {
    for (const value of ['services/web', '.', 'apps/.config', 'docs', 'a/b/c_d-e.f', '..hidden'])
      expect(problemsOf({ workingDirectory: value })).toEqual([]);
  });
});
