/**
 * A step's environment: each kind of field read from a pod's environment, with a one-line error that names
 * the variable, and written into a template's `env` in declaration order; and the task ids the steps take
 * (canonical digits only, so that `007` or `010` can never name task 7 or, read as octal, task 8).
 */
// @ts-nocheck

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TASK_ID } from '../../constructs/model/naming';
import {
  canonicalTaskId,
  count,
  namedValues,
  oneOf,
  optionalText,
  StepEnv,
  StepEnvError,
  taskId,
  taskIdOrNone,
  text,
  words,
} from '../../constructs/runtime/step-env';

/** The error a field's read throws for an environment, as the program prints it. */
function readError(env: StepEnv<never>, environment: Record<string, string | undefined>): string {
  try {
    env.read(environment);
  } catch (error) {
    expect(error).toBeInstanceOf(StepEnvError);
    expect((error as Error).name).toBe('StepEnvError');
    return (error as Error).message;
  }
  throw new Error('expected the read to fail');
}

const one = <T>(field: { name: string; read: (e: Record<string, string | undefined>) => T }) => new StepEnv({ value: field } as never);

describe('canonicalTaskId', () => {
  it.each([
    ['0', 0],
    ['7', 7],
    ['10', 10],
    ['2147483647', MAX_TASK_ID],
    ['1000000000', 1_000_000_000],
  ])('reads %s as %d', (textValue, id) => {
    expect(canonicalTaskId(textValue)).toBe(id);
  });

  it.each(['007', '010', '00', '2147483648', '9999999999', '12345678901', '', ' 7', '7 ', '+7', '-1', '1e3', '0x10', '7.0', 'task-7', '٣'])(
    'refuses %j',
    (textValue) => {
      expect(canonicalTaskId(textValue)).toBeUndefined();
    },
  );

  it('round-trips every id from 0 to the largest', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_TASK_ID }), (id) => {
        expect(canonicalTaskId(String(id))).toBe(id);
      }),
    );
  });

  it('reads a text only when it is the id written back', () => {
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[0-9]{0,12}$/), fc.string({ maxLength: 12 })), (textValue) => {
        const id = canonicalTaskId(textValue);
        if (id !== undefined) expect(String(id)).toBe(textValue);
        else expect(/^(0|[1-9]\d*)$/.test(textValue) && Number(textValue) <= MAX_TASK_ID).toBe(false);
      }),
    );
  });

  it('refuses every id with a leading zero', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 1, max: 3 }), (id, zeros) => {
        expect(canonicalTaskId(`${'0'.repeat(zeros)}${id}`)).toBeUndefined();
      }),
    );
  });
});

describe('fields', () => {
  it('text: set and not empty', () => {
    expect(one(text('NAMESPACE')).read({ NAMESPACE: 'agents' })).toEqual({ value: 'agents' });
    expect(readError(one(text('NAMESPACE')), {})).toBe('NAMESPACE: is not set');
    expect(readError(one(text('NAMESPACE')), { NAMESPACE: '' })).toBe('NAMESPACE: is empty');
  });

  it('optionalText: unset reads as empty', () => {
    expect(one(optionalText('PR_URL')).read({})).toEqual({ value: '' });
    expect(one(optionalText('PR_URL')).read({ PR_URL: 'x y' })).toEqual({ value: 'x y' });
  });

  it('count: digits of at least its minimum', () => {
    expect(one(count('ROUND', 1)).read({ ROUND: '1' })).toEqual({ value: 1 });
    expect(one(count('ROUND', 1)).read({ ROUND: '999999999' })).toEqual({ value: 999_999_999 });
    expect(one(count('POLL')).read({ POLL: '0' })).toEqual({ value: 0 });
    expect(readError(one(count('ROUND', 1)), { ROUND: '0' })).toBe('ROUND: expected a whole number of at least 1, got "0"');
    expect(readError(one(count('ROUND', 2)), { ROUND: '1' })).toBe('ROUND: expected a whole number of at least 2, got "1"');
    expect(readError(one(count('ROUND')), { ROUND: '-1' })).toBe('ROUND: expected a whole number of at least 0, got "-1"');
    expect(readError(one(count('ROUND')), { ROUND: '1.5' })).toContain('got "1.5"');
    expect(readError(one(count('ROUND')), { ROUND: ' 1' })).toContain('got " 1"');
    expect(readError(one(count('ROUND')), { ROUND: '1 ' })).toContain('got "1 "');
    expect(readError(one(count('ROUND')), { ROUND: '' })).toContain('got ""');
    expect(readError(one(count('ROUND')), { ROUND: '1234567890' })).toContain('got "1234567890"');
    expect(readError(one(count('ROUND')), {})).toBe('ROUND: is not set');
  });

  it('words: split on spaces, empty words dropped', () => {
    expect(one(words('STAGES')).read({ STAGES: ' a  b c ' })).toEqual({ value: ['a', 'b', 'c'] });
    expect(one(words('STAGES')).read({ STAGES: '' })).toEqual({ value: [] });
    expect(one(words('STAGES')).read({})).toEqual({ value: [] });
  });

  it('oneOf: one of its words, else a message listing them', () => {
    const field = oneOf('KIND', ['remediate', 'stale-work']);
    expect(one(field).read({ KIND: 'stale-work' })).toEqual({ value: 'stale-work' });
    expect(readError(one(field), { KIND: 'other' })).toBe('KIND: expected one of remediate, stale-work, got "other"');
    expect(readError(one(field), {})).toBe('KIND: is not set');
  });

  it('taskId: a canonical id, else a message with the text', () => {
    expect(one(taskId('TASK_ID')).read({ TASK_ID: '7' })).toEqual({ value: 7 });
    expect(readError(one(taskId('TASK_ID')), { TASK_ID: '007' })).toBe(
      `TASK_ID: expected a task id (digits without a leading zero, at most ${MAX_TASK_ID}), got "007"`,
    );
    expect(readError(one(taskId('TASK_ID')), { TASK_ID: '2147483648' })).toContain('got "2147483648"');
    expect(readError(one(taskId('TASK_ID')), {})).toBe('TASK_ID: is not set');
  });

  it('taskIdOrNone: anything but a canonical id is none', () => {
    expect(one(taskIdOrNone('TASK_ID')).read({ TASK_ID: '42' })).toEqual({ value: 42 });
    for (const value of ['010', '', 'abc', undefined])
      expect(one(taskIdOrNone('TASK_ID')).read({ TASK_ID: value })).toEqual({ value: undefined });
  });

  it('namedValues: the names in PREFIX_NAMES, each value in order, any characters kept', () => {
    const field = namedValues('PARAMETER_');
    expect(field.name).toBe('PARAMETER_NAMES');
    const written = field.write([
      { name: 'task-type', value: 'backend' },
      { name: 'notes', value: 'a "b" $c\nd' },
    ]);
    expect(written).toEqual([
      { name: 'PARAMETER_NAMES', value: 'task-type notes' },
      { name: 'PARAMETER_1', value: 'backend' },
      { name: 'PARAMETER_2', value: 'a "b" $c\nd' },
    ]);
    const environment = Object.fromEntries(written.map((variable) => [variable.name, variable.value]));
    expect(field.read(environment)).toEqual({ 'task-type': 'backend', notes: 'a "b" $c\nd' });
    expect(field.read({ PARAMETER_NAMES: '  only  ' })).toEqual({ only: '' });
    expect(field.read({})).toEqual({});
    expect(field.write([])).toEqual([{ name: 'PARAMETER_NAMES', value: '' }]);
  });
});

describe('StepEnv', () => {
  // Built in each test, not when the file is collected: a mutation run activates its mutant for the tests only.
  const envOf = () =>
    new StepEnv({
      namespace: text('NAMESPACE'),
      task: taskId('TASK_ID'),
      round: count('ROUND', 1),
      parameters: namedValues('P_'),
    });

  it('reads every field by its key', () => {
    expect(envOf().read({ NAMESPACE: 'agents', TASK_ID: '12', ROUND: '3', P_NAMES: 'a', P_1: 'x' })).toEqual({
      namespace: 'agents',
      task: 12,
      round: 3,
      parameters: { a: 'x' },
    });
  });

  it('names the first variable in declaration order that is wrong, in one line', () => {
    const message = readError(envOf() as never, { TASK_ID: '010', ROUND: 'x' });
    expect(message).toBe('NAMESPACE: is not set');
    expect(readError(envOf() as never, { NAMESPACE: 'a', TASK_ID: '010', ROUND: 'x' })).toMatch(/^TASK_ID: /);
    expect(readError(envOf() as never, { NAMESPACE: 'a', TASK_ID: '10', ROUND: 'x' })).toMatch(/^ROUND: /);
    expect(message).not.toContain('\n');
  });

  it('writes the template env in declaration order, each field by its own key', () => {
    expect(envOf().vars({ namespace: '{{workflow.namespace}}', task: '5', round: '1', parameters: [{ name: 'a', value: 'b' }] })).toEqual([
      { name: 'NAMESPACE', value: '{{workflow.namespace}}' },
      { name: 'TASK_ID', value: '5' },
      { name: 'ROUND', value: '1' },
      { name: 'P_NAMES', value: 'a' },
      { name: 'P_1', value: 'b' },
    ]);
  });

  it('passes an error that is not a field message on as it is', () => {
    const broken = new StepEnv({
      bad: {
        name: 'BAD',
        read: () => {
          throw new Error('boom');
        },
        write: () => [],
      },
    });
    expect(readError(broken as never, {})).toBe('BAD: boom');
  });
});
