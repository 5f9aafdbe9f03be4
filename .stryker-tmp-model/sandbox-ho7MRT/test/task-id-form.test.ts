/**
 * A task id has one form everywhere (the runtime's `canonicalTaskId`: digits without a leading zero, at most
 * MAX_TASK_ID): the Sensors' Go templates take a task from a label or a branch only in that form (a pull
 * request labelled `task-0005` used to be recorded as task 0005 while its play read task 5, and waited at its
 * gate forever), `status` flags a record stored under another spelling, and `resume --task 007` says the form
 * to write.
 */
// @ts-nocheck

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TASK_ID } from '../constructs/model/naming';
import { canonicalNumberPattern, TASK_BRANCH_PATTERN, TASK_LABEL_PATTERN, taskIdTemplate } from '../constructs/model/task-id-template';
import { TASK_PUSH_REF_PATTERN } from '../constructs/remediation/remediation-sensor';
import { canonicalTaskId } from '../constructs/runtime/step-env';
import { progressKeyOf } from '../constructs/progress/progress-layout';
import { renderGoTemplate } from '../src/simulate/engine/go-template';
import { goRegexpMatch } from '../src/simulate/engine/re2';
import { runCapturing } from './support/run-cli';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const RUNS = Number(process.env.FC_RUNS ?? 300);

/** Task ids as people and tools spell them: leading zeros, the edges of the range, too many digits. */
const spelling = fc.oneof(
  fc.nat({ max: 2 * MAX_TASK_ID }).map(String),
  fc.tuple(fc.integer({ min: 1, max: 3 }), fc.nat({ max: 99999 })).map(([zeros, id]) => `${'0'.repeat(zeros)}${id}`),
  fc.constantFrom('0', '00', '2147483647', '2147483648', '9999999999', '21474836470', '1e3', '', '5 ', '٥'),
  fc.stringMatching(/^[0-9]{1,12}$/),
);

const pullRequest = (labels: string[], ref: string) => ({
  Input: { body: { pull_request: { labels: labels.map((name) => ({ name })), head: { ref } } } },
});

describe('one form of task id', () => {
  it('the Sensor patterns, under Go regexp, accept a spelling exactly when the runtime does', () => {
    fc.assert(
      fc.property(spelling, (text) => {
        const canonical = canonicalTaskId(text) !== undefined;
        expect(goRegexpMatch(TASK_LABEL_PATTERN, `task-${text}`), text).toBe(canonical);
        expect(goRegexpMatch(TASK_BRANCH_PATTERN, `feature/task-${text}-implementation`), text).toBe(canonical);
        expect(goRegexpMatch(TASK_PUSH_REF_PATTERN, `refs/heads/feature/task-${text}`), text).toBe(canonical);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("the Sensors' template gives the task a label or branch names in that form, and `none` for any other", () => {
    fc.assert(
      fc.property(spelling, spelling, (label, branch) => {
        const fromLabel = renderGoTemplate(taskIdTemplate(), pullRequest([`task-${label}`], `feature/task-${branch}-x`));
        const expected = canonicalTaskId(label) !== undefined ? label : canonicalTaskId(branch) !== undefined ? branch : 'none';
        expect(fromLabel, `${label} ${branch}`).toBe(expected);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(renderGoTemplate(taskIdTemplate(), pullRequest(['task-0005'], 'feature/task-05-fix'))).toBe('none');
  });

  it('canonicalNumberPattern matches exactly 0..max without leading zeros, for any max', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000_000 }), fc.nat({ max: 20_000_000 }), (max, candidate) => {
        const pattern = `^${canonicalNumberPattern(max)}$`;
        expect(goRegexpMatch(pattern, String(candidate)), `${candidate} <= ${max}`).toBe(candidate <= max);
        expect(goRegexpMatch(pattern, `0${candidate}`)).toBe(false);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('status and resume', () => {
  const record = (task: string) =>
    JSON.stringify({
      repository: '5dlabs/cto-play-test',
      task,
      workflowName: 'play-play-test-task-7',
      startedAt: '2026-11-23T08:00:00Z',
      lastUpdated: '2026-11-23T08:00:00Z',
      stage: 'implementation',
      status: 'in-progress',
    });
  const state = (key: string, task: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: play-progress-shard-3\n  labels:\n    play-tracking: "true"\ndata:\n  ${key}: '${record(task)}'\n`;

  it('status flags a record under a key that spells the task otherwise (task-007.json)', () => {
    const run = runCapturing(['status', '--format', 'json', '-'], { stdin: state('5dlabs.cto-play-test.task-007.json', '7'), env: {} });
    const [task] = JSON.parse(run.out).tasks;
    expect(task).toMatchObject({ task: '007', status: 'unreadable' });
    expect(task.flag).toBe(
      'unreadable record 5dlabs.cto-play-test.task-007.json: the key names task "007", which is not a task id in its one form: the runtime reads and writes the key of task 7; rename the key or delete it',
    );
  });

  it('status flags a record whose own task id is spelled otherwise', () => {
    const run = runCapturing(['status', '--format', 'json', '-'], {
      stdin: state(progressKeyOf('5dlabs/cto-play-test', 7), '007'),
      env: {},
    });
    expect(JSON.parse(run.out).tasks[0].flag).toContain('task: expected the task id in its one form: digits without a leading zero');
  });

  it('resume --task 7 finds the record under task-007.json and says what to fix; --task 007 says the form to write', () => {
    const stdin = state('5dlabs.cto-play-test.task-007.json', '7');
    const config = ['--repository', '5dlabs/cto-play-test', '-'];
    const seven = runCapturing(['resume', '--task', '7', ...config], { stdin, env: {} });
    expect(seven.code).toBe(2);
    expect(seven.err).toContain('the key names task "007", which is not a task id in its one form');
    expect(runCapturing(['resume', '--task', '007', ...config], { stdin, env: {} }).err).toBe(
      'agent-play resume: --task "007": a task id is written without leading zeros, as its records and plays name it: --task 7\n',
    );
  });
});
