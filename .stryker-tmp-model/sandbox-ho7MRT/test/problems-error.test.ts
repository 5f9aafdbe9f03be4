/**
 * One base class for "a list of problems" (constructs/model/problems-error.ts): every such error extends it,
 * and only src/cli.ts turns one into an exit code.
 */
// @ts-nocheck

import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProblemsError } from '../constructs/model/problems-error';
import { ProjectError } from '../constructs/project/project';
import { ConfigError } from '../constructs/model/resolve-config';
import { runCli } from '../src/cli';
import { InputError } from '../src/commands/command';
import { ScenarioError } from '../src/simulate/scenario';
import { ResumeError } from '../src/state/resume-plan';
import { SynthError } from '../src/synth/synthesize';

describe('ProblemsError', () => {
  const cases: Array<[string, (problems: string[]) => ProblemsError]> = [
    ['ConfigError', (problems) => new ConfigError(problems)],
    ['ProjectError', (problems) => new ProjectError(problems)],
    ['SynthError', (problems) => new SynthError(problems)],
    ['ScenarioError', (problems) => new ScenarioError(problems)],
    ['InputError', (problems) => new InputError(problems)],
    ['ResumeError', (problems) => new ResumeError(problems.join('; '))],
  ];

  it.each(cases)('is the base of %s, which keeps its name and its problems', (name, make) => {
    const error = make(['a: expected x', 'b: expected y']);
    expect(error).toBeInstanceOf(ProblemsError);
    expect(error.name).toBe(name);
    expect(error.problems.join('\n')).toContain('a: expected x');
    expect(error.message).toBe(error.problems.join('\n'));
  });

  it('copies its problems, so a later change to the list does not reach the error', () => {
    const problems = ['one'];
    const error = new ProblemsError(problems);
    problems.push('two');
    expect(error.problems).toEqual(['one']);
  });
});

describe('exit codes', () => {
  it('are chosen by src/cli.ts alone: no other file of src/ exits or sets an exit code', () => {
    const root = path.join(__dirname, '..', 'src');
    // closed-pipe.ts ends the process when stdout closes under it (`| head`), with the code already set.
    // start-cli.ts is the compiled command line's front door: it runs runCli and sets the code runCli chose.
    // exit-when-written.ts ends the process with the code a front door hands it.
    const allowed = new Set([
      'cli.ts',
      'main.ts',
      'start-cli.ts',
      path.join('commands', 'closed-pipe.ts'),
      path.join('commands', 'exit-when-written.ts'),
    ]);
    const offenders = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !allowed.has(file))
      .filter((file) => /process\.exit|process\.exitCode/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('report a problem list one line per problem, as unusable input (2)', () => {
    let err = '';
    const code = runCli(['resume', '--repository', 'nobody/none', '--task', '1', '-'], {
      out: () => {},
      err: (text) => {
        err += text;
      },
      env: {},
      stdin: () => '[]',
    });
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
  });
});
