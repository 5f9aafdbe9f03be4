/**
 * Library props that are not plain data (issue 23 item 13): a Proxy, a function, a class instance or a value
 * that holds itself in `config`, a `stages` that is not a StageMachine, a task id that is not one: each is
 * refused with a message that names the prop, never "could not be cloned", "Maximum call stack size
 * exceeded" or "stages.some is not a function", and never a name such as `play-web-task-NaN`.
 */
// @ts-nocheck

import { App } from 'cdk8s';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentPlatform, ConfigError, playWorkflowName, StageMachineBuilder } from '../constructs';
import { legacyReleaseConfigMapName } from '../constructs/model/play-contract';
import { resolveConfig } from '../constructs/model/resolve-config';

const SEED = Number(process.env.FC_SEED ?? 20261123);

/** The lines a ConfigError holds, or the message of any other error, or "" when nothing is thrown. */
function problemsOf(build: () => unknown): string[] {
  try {
    build();
    return [];
  } catch (error) {
    return error instanceof ConfigError ? [...error.problems] : [`${(error as Error).name}: ${(error as Error).message}`];
  }
}
const platform = (props: Record<string, unknown>) => () => new AgentPlatform(new App(), 'p', props as never);

describe('config', () => {
  it('a function, a symbol, a bigint, a Date or a Map is refused at its path', () => {
    const settings = { timeout: () => 5, tag: Symbol('x'), size: 10n, at: new Date(0), map: new Map() };
    expect(problemsOf(platform({ config: { clis: { codex: { settings } } } }))).toEqual([
      'clis.codex.settings.at: a Date is not plain data; write a mapping, a list or a value',
      'clis.codex.settings.map: a Map is not plain data; write a mapping, a list or a value',
      'clis.codex.settings.size: a bigint is not a setting; write a string or a number',
      'clis.codex.settings.tag: a symbol is not a setting; write a string or a number',
      'clis.codex.settings.timeout: a function is not a setting; write the value itself',
    ]);
  });

  it('a value that holds itself is refused at its path, and a shared one is not', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(problemsOf(platform({ config: { clis: { codex: { settings: loop } } } }))).toEqual([
      'clis.codex.settings.self: refers to itself (a value that holds itself cannot be written as YAML)',
    ]);
    const shared = { model: 'gpt-5' };
    expect(problemsOf(() => resolveConfig({ file: { clis: { codex: { settings: { a: shared, b: shared } } } } }))).toEqual([]);
  });

  it('a Proxy over plain data is read as that data; one whose reading throws is refused at its path', () => {
    const proxied = new Proxy({ namespace: 'agents' }, {});
    expect(problemsOf(platform({ config: proxied }))).toEqual([]);
    const { proxy, revoke } = Proxy.revocable({ model: 'x' }, {});
    revoke();
    const [line] = problemsOf(platform({ config: { clis: { codex: { settings: proxy } } } }));
    expect(line).toMatch(/^clis\.codex\.settings: cannot be read \(.*revoked.*\)$/);
    const throwing = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no keys for you');
        },
      },
    );
    expect(problemsOf(platform({ config: { agents: { rex: throwing } } }))).toEqual(['agents.rex: cannot be read (no keys for you)']);
  });

  it('nesting past the limit is refused at its path, not a stack overflow', () => {
    let deep: unknown = 'x';
    for (let level = 0; level < 100_000; level += 1) deep = { deep };
    const [line] = problemsOf(platform({ config: { clis: { codex: { settings: deep } } } }));
    expect(line).toMatch(/^clis\.codex\.settings(\.deep)+: nested deeper than 64 levels$/);
  });

  it('whatever a setting holds, the answer is the config or lines naming paths (fast-check)', () => {
    const odd = fc.oneof(
      fc.constant(() => 1),
      fc.constant(Symbol('s')),
      fc.bigInt(),
      fc.constant(Number.NaN),
      fc.constant(Number.POSITIVE_INFINITY),
      fc.date(),
      fc.string(),
      fc.integer(),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(odd, fc.array(odd, { maxLength: 3 })), { maxKeys: 4 }),
        (settings) => {
          for (const line of problemsOf(() => resolveConfig({ file: { clis: { codex: { settings } } } })))
            expect(line).toMatch(/^clis\.codex\.settings\.[a-z]+(\[\d+\])?: /);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('stages', () => {
  it('a stages prop that is not a StageMachine is refused by name', () => {
    expect(problemsOf(platform({ stages: { stages: 'x' } }))).toEqual([
      'AgentPlatform stages: expected a StageMachine (from StageMachineBuilder or StageMachine.fromConfig)',
    ]);
    expect(problemsOf(() => StageMachineBuilder.from('x' as never, { agents: [] } as never))).toEqual([
      'TypeError: StageMachineBuilder.from: stages: expected a StageMachine or a list of stage definitions',
    ]);
  });
});

describe('task ids in names', () => {
  it.each([Number.NaN, 1.5, -1, 2 ** 31, Number.POSITIVE_INFINITY, '007', '5 ', '', 'x', '{{a}}{{b}}'])(
    'playWorkflowName refuses %s',
    (taskId) => {
      expect(() => playWorkflowName('web', taskId as never)).toThrow(
        /^playWorkflowName: taskId .*: expected a task id, a whole number from 0 to 2147483647/,
      );
      expect(() => legacyReleaseConfigMapName('web', taskId as never)).toThrow(/^legacyReleaseConfigMapName: taskId /);
    },
  );

  it('takes a task id, its digits, or an Argo expression', () => {
    expect(playWorkflowName('web', 7)).toBe('play-web-task-7');
    expect(playWorkflowName('web', '2147483647')).toBe('play-web-task-2147483647');
    expect(playWorkflowName('web', '{{inputs.parameters.task-id}}')).toBe('play-web-task-{{inputs.parameters.task-id}}');
  });
});
