/**
 * Progress state written by the original system (5dlabs/cto): `status` lists it and `resume` recreates its
 * play, and a labelled ConfigMap or key that neither format explains is flagged, never skipped in silence.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { legacyStage, parseLegacyRecord } from '../src/state/legacy-progress';
import { readProgressState } from '../src/state/progress-state';
import { runCapturing } from './support/run-cli';

const NOW = new Date('2026-11-23T10:00:00Z');

/** A progress ConfigMap exactly as the original's `progress.rs` writes it: one task per repository, flat keys. */
const legacyData = (overrides: Record<string, string> = {}) => ({
  repository: '5dlabs/cto-play-test',
  branch: 'main',
  'current-task-id': '42',
  'workflow-name': 'play-42-abcde',
  status: 'suspended',
  stage: 'waiting-pr-merged',
  'started-at': '2026-11-20T08:00:00Z',
  'last-updated': '2026-11-23T09:00:00Z',
  ...overrides,
});

const configMap = (name: string, data?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'agents', labels: { 'play-tracking': 'true' } },
  ...(data ? { data } : {}),
});

const list = (...items: unknown[]): string => stringify({ apiVersion: 'v1', kind: 'List', items });

describe('the 5dlabs/cto progress format', () => {
  it('is read as one task record, its stage names mapped as the original resume step mapped them', () => {
    const [read] = readProgressState(list(configMap('play-progress-5dlabs-cto-play-test', legacyData())), 'in');
    expect(read.entries).toHaveLength(1);
    expect(read.entries[0]).toMatchObject({
      task: '42',
      repository: '5dlabs/cto-play-test',
      record: { task: '42', stage: 'waiting-pr-merged', status: 'suspended', workflowName: 'play-42-abcde' },
    });
    expect(legacyStage('testing-in-progress')).toBe('testing');
    expect(legacyStage('pending')).toBe('implementation');
    expect(legacyStage('waiting-pr-merged')).toBe('waiting-pr-merged');
  });

  it('status lists its task; resume recreates the play at the stored stage', () => {
    const input = list(configMap('play-progress-5dlabs-cto-play-test', legacyData()));
    const status = runCapturing(['status', '-', '--format', 'json'], { stdin: input, now: NOW });
    expect(status.code, status.err).toBe(0);
    expect(JSON.parse(status.out).tasks).toMatchObject([
      { repository: '5dlabs/cto-play-test', task: '42', stage: 'waiting-pr-merged', status: 'suspended' },
    ]);
    const resume = runCapturing(['resume', '--repository', '5dlabs/cto-play-test', '--task', '42', '-'], { stdin: input, env: {} });
    expect(resume.code, resume.err).toBe(0);
    expect(resume.out).toContain('name: play-play-test-task-42');
    expect(resume.out).toMatch(/- name: start-stage\n\s+value: waiting-pr-merged/);
  });

  it('a record with a missing or broken key is flagged with the key, and resume refuses it', () => {
    const broken = legacyData({ 'last-updated': 'yesterday' });
    expect(parseLegacyRecord(broken)).toEqual({
      problem: '5dlabs/cto progress format: key last-updated: expected an RFC 3339 time such as 2026-11-23T08:15:00Z',
    });
    const { 'workflow-name': _dropped, ...withoutName } = legacyData();
    expect(parseLegacyRecord(withoutName)).toEqual({ problem: '5dlabs/cto progress format: key workflow-name: missing' });
    const input = list(configMap('play-progress-5dlabs-cto-play-test', broken));
    expect(runCapturing(['resume', '--repository', '5dlabs/cto-play-test', '--task', '42', '-'], { stdin: input, env: {} })).toMatchObject({
      code: 2,
      err: expect.stringContaining('key last-updated: expected an RFC 3339 time'),
    });
  });

  it('beside our task records, the flat keys are our summary, not a second task', () => {
    const record = {
      repository: '5dlabs/cto-play-test',
      task: '7',
      workflowName: 'play-play-test-task-7',
      startedAt: '2026-11-23T08:00:00Z',
      lastUpdated: '2026-11-23T09:00:00Z',
      stage: 'testing',
      status: 'in-progress',
    };
    const [read] = readProgressState(
      list(configMap('play-progress-5dlabs-cto-play-test', { ...legacyData(), 'task-7.json': JSON.stringify(record) })),
      'in',
    );
    expect(read.entries.map((entry) => entry.task)).toEqual(['7']);
  });
});

describe('what neither format explains is flagged', () => {
  it('a labelled ConfigMap without task records or a current-task-id, or without data', () => {
    const status = runCapturing(['status', '-'], {
      stdin: list(configMap('play-progress-odd', { hello: 'world' }), configMap('play-progress-empty')),
      now: NOW,
    });
    expect(status.code).toBe(0);
    expect(status.out).toContain(
      '! ? task ?: unreadable record ConfigMap play-progress-odd: labelled as progress but holds no task record: neither task-{id}.json keys (agent-play) nor current-task-id (5dlabs/cto); keys: hello',
    );
    expect(status.out).toContain(
      '! ? task ?: unreadable record ConfigMap play-progress-empty: labelled as progress but holds no task record',
    );
    expect(status.out).toContain('unreadable record hello: in ConfigMap play-progress-odd, neither a task record');
    expect(status.out).toMatch(/3 tasks, 3 flagged\n$/);
    expect(runCapturing(['status', '-', '--fail-on-stuck'], { stdin: list(configMap('play-progress-empty')), now: NOW }).code).toBe(1);
  });

  it('an odd key such as task-abc.json beside real records', () => {
    const record = {
      repository: '5dlabs/cto-play-test',
      task: '7',
      workflowName: 'w',
      startedAt: '2026-11-23T08:00:00Z',
      lastUpdated: '2026-11-23T09:00:00Z',
      stage: 'testing',
      status: 'in-progress',
    };
    const [read] = readProgressState(
      list(
        configMap('play-progress-5dlabs-cto-play-test', {
          repository: '5dlabs/cto-play-test',
          'task-7.json': JSON.stringify(record),
          'task-abc.json': '{}',
        }),
      ),
      'in',
    );
    expect(read.entries.map((entry) => [entry.key, entry.problem ?? 'ok'])).toEqual([
      ['task-7.json', 'ok'],
      [
        'task-abc.json',
        expect.stringContaining(
          'in ConfigMap play-progress-5dlabs-cto-play-test, neither a task record (task-{id}.json, the id in digits)',
        ),
      ],
    ]);
  });
});
