/**
 * Simulator edge cases (issue 23 item 15). Duplicate keys in a webhook body: Argo Events' GitHub EventSource
 * decodes the body into a map with encoding/json (the last of duplicate keys wins, at every level) and hands
 * that map on re-encoded (argo-events v1.9.11, pkg/eventsources/sources/github/start.go, parseValidateRequest),
 * so the Sensor's gjson, which takes the first of two keys, never sees one: the simulator answers as the last
 * key says. Task ids in a scenario are those the platform reads: at most 2147483647.
 */
// @ts-nocheck

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type Io } from '../src/cli';
import { pullRequestEvent } from './support/github-payloads';
import { useScratchDirs } from './support/scratch-dir';

const REPO = '5dlabs/cto-play-test';
const scratch = useScratchDirs('agent-play-sim-edge-');

async function simulate(scenario: string, payload?: string): Promise<{ code: number; out: string; err: string }> {
  const folder = scratch();
  mkdirSync(join(folder, 'payloads'));
  if (payload !== undefined) writeFileSync(join(folder, 'payloads', 'event.json'), payload);
  writeFileSync(join(folder, 'scenario.yaml'), scenario);
  let out = '';
  let err = '';
  const io: Io = { out: (text) => (out += text), err: (text) => (err += text), env: {} };
  const code = await runCli(['simulate', join(folder, 'scenario.yaml'), '--json'], io);
  return { code, out, err };
}

const atGate = `plays:
  - { repository: ${REPO}, task: 5, stage: waiting-pr-created }
steps:
  - github: pull_request
    payload: payloads/event.json
`;

/** The JSON text of a pull request event with `extra` written before its own keys (so its keys come first). */
const withLeadingKeys = (event: Record<string, unknown>, extra: string): string => `{${extra},${JSON.stringify(event).slice(1)}`;
/** The JSON text of a pull request event with `extra` written after its own keys (so its keys come last). */
const withTrailingKeys = (event: Record<string, unknown>, extra: string): string => `${JSON.stringify(event).slice(0, -1)},${extra}}`;

describe('duplicate keys in a webhook body: the last wins, as the GitHub EventSource decodes it', () => {
  const opened = pullRequestEvent('opened', { repository: REPO, labels: ['task-5'], headRef: 'feature/task-5-implementation' });

  it('an action "opened" written after "closed" releases the gate', async () => {
    const run = await simulate(atGate, withLeadingKeys(opened, '"action":"closed"'));
    expect(run.err).toBe('');
    expect(JSON.parse(run.out).steps[0].resumed).toEqual([{ repository: REPO, task: 5, gate: 'waiting-pr-created' }]);
  });

  it('an action "closed" written after "opened" releases nothing', async () => {
    const run = await simulate(atGate, withTrailingKeys(opened, '"action":"closed"'));
    expect(JSON.parse(run.out).steps[0].resumed).toEqual([]);
  });

  it('inside the pull request too: the labels written last name the task', async () => {
    const body = JSON.stringify(opened).replace('"pull_request":{', '"pull_request":{"labels":[{"name":"task-9"}],');
    expect(body.indexOf('"name":"task-9"')).toBeLessThan(body.indexOf('"name":"task-5"'));
    const run = await simulate(atGate, body);
    expect(JSON.parse(run.out).steps[0].resumed).toEqual([{ repository: REPO, task: 5, gate: 'waiting-pr-created' }]);
  });

  it('an X-GitHub-Event key in the body is the header, whatever the body said', async () => {
    const run = await simulate(atGate, withTrailingKeys(opened, '"X-GitHub-Event":"push"'));
    expect(JSON.parse(run.out).steps[0].resumed).toEqual([{ repository: REPO, task: 5, gate: 'waiting-pr-created' }]);
  });
});

describe('task ids in a scenario', () => {
  it.each(['2147483648', '1e20', '99999999999999999999'])('%s is refused with the path', async (task) => {
    const run = await simulate(`steps:\n  - agentDone: { repository: ${REPO}, task: ${task} }\n`);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/steps\[0\]\.agentDone\.task: expected a task id of at most 2147483647\n$/);
  });

  it('2147483647 is a task id', async () => {
    const run = await simulate(
      `plays:\n  - { repository: ${REPO}, task: 2147483647, stage: implementation }\nsteps:\n  - agentDone: { repository: ${REPO}, task: 2147483647 }\n`,
    );
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
  });
});
