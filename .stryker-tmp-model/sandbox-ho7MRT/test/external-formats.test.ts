/**
 * Values Kubernetes or git refuse are refused by the config (issue 23 item 10), as they check them: a branch as
 * `git check-ref-format --branch` does (the real git, when it is installed), a Secret key as Kubernetes'
 * IsConfigMapKey, a webhook endpoint without the segments Go's HTTP server redirects.
 */
// @ts-nocheck

import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configMapKeyProblem, gitBranchProblem, webhookEndpointProblem } from '../constructs/model/external-formats';
import { PlatformConfigSchema } from '../constructs/model/config-schema';
import { skipNote } from './support/skip-note';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const HAS_GIT = spawnSync('git', ['--version']).status === 0;

const problemsOf = (config: unknown): string[] => {
  const result = PlatformConfigSchema.safeParse(config);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};
const repository = (fields: Record<string, unknown>) => ({ repositories: [{ name: 'octo/web', service: 'web', ...fields }] });

describe('branches', () => {
  it.each([
    '--upload-pack=touch x',
    '-b',
    'a..b',
    'main.lock',
    'feature/x.lock',
    'main/',
    '/main',
    'a//b',
    '.hidden',
    'x/.y',
    'main.',
    'HEAD',
    '@',
  ])('refuses %s as git does', (branch) => {
    expect(gitBranchProblem(branch)).toBeDefined();
    expect(problemsOf(repository({ branch }))).toEqual([expect.stringMatching(/^repositories\.0\.branch: /)]);
    expect(problemsOf(repository({ docsBranch: branch }))).toEqual([expect.stringMatching(/^repositories\.0\.docsBranch: /)]);
  });

  it.each(['main', 'release/1.2', 'feature/task-5-implementation', 'v1.0-rc_2'])('accepts %s', (branch) => {
    expect(problemsOf(repository({ branch, docsBranch: branch }))).toEqual([]);
  });

  it.skipIf(!HAS_GIT)(
    `agrees with git check-ref-format --branch on names of the config alphabet${skipNote(HAS_GIT, 'no git on this machine')}`,
    () => {
      const name = fc.string({ unit: fc.constantFrom('a', 'b', '1', '.', '/', '-', '_', '.lock', '@', '{'), minLength: 1, maxLength: 12 });
      fc.assert(
        fc.property(name, (branch) => {
          const git = spawnSync('git', ['check-ref-format', '--branch', branch], { encoding: 'utf8' });
          expect(gitBranchProblem(branch) === undefined, `${branch}: git says ${git.status}`).toBe(git.status === 0);
        }),
        { seed: SEED, numRuns: 60 },
      );
    },
    300_000,
  );
});

describe('Secret keys', () => {
  it('refuses . and .. and keys that start with .., as IsConfigMapKey does', () => {
    for (const key of ['.', '..', '..data', '...']) {
      expect(configMapKeyProblem(key), key).toBeDefined();
      expect(problemsOf({ events: { eventSource: { webhookSecret: { key } } } })).toEqual([
        expect.stringMatching(/^events\.eventSource\.webhookSecret\.key: /),
      ]);
    }
    expect(configMapKeyProblem('a'.repeat(254))).toBe('expected 1 to 253 characters');
    for (const key of ['secret', '.secret', 'a..b', 'tls.crt', 'a'.repeat(253)]) expect(configMapKeyProblem(key), key).toBeUndefined();
  });
});

describe('webhook endpoints', () => {
  it('refuses ".", ".." and empty segments, which the server answers with a redirect', () => {
    for (const endpoint of ['/../../x', '/a/./b', '/a/..', '//x', '/x/', '/', '/a//b']) {
      expect(webhookEndpointProblem(endpoint), endpoint).toBeDefined();
      expect(problemsOf({ events: { eventSource: { webhook: { endpoint } } } })).toEqual([
        expect.stringMatching(/^events\.eventSource\.webhook\.endpoint: /),
      ]);
    }
    for (const endpoint of ['/github/webhook', '/push', '/a.b/c..d']) expect(webhookEndpointProblem(endpoint), endpoint).toBeUndefined();
  });
});
