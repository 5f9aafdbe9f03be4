/**
 * The scenario list of `npm run e2e` (e2e/scenarios.yaml): every entry names a scenario file (and config)
 * that exists, a hold names a step the scenario has, and the outcomes
 * written at the top of the scenarios added for the real controllers are what the simulator gives. The run
 * on the real controllers itself needs Go and root: `npm run e2e`, in CI (docs/e2e.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/cli';

const ROOT = resolve(__dirname, '..');

interface Entry {
  readonly file: string;
  readonly name?: string;
  readonly config?: string;
  readonly expect?: string;
  readonly hold?: { readonly nodeName: string; readonly until: number };
  readonly controller?: { readonly templateReferencing?: string; readonly namespaceParallelism?: number };
  readonly plays?: { readonly phase: string; readonly message?: string };
  /** A Go duration: how long each step may take to settle. */
  readonly stepLimit?: string;
}

/** An entry's name in the table: its own, or its scenario's folder (as the harness names it). */
const entryName = (entry: Entry): string => entry.name ?? (entry.file.split('/').at(-2) as string);

const entries = (parse(readFileSync(resolve(ROOT, 'e2e', 'scenarios.yaml'), 'utf8')) as { scenarios: Entry[] }).scenarios;

async function simulate(entry: Entry): Promise<any> {
  let out = '';
  let err = '';
  const args = ['simulate', resolve(ROOT, entry.file), '--json', ...(entry.config ? ['--config', resolve(ROOT, entry.config)] : [])];
  const code = await runCli(args, { out: (text) => (out += text), err: (text) => (err += text), env: {} });
  expect(err).toBe('');
  expect(code).toBe(0);
  return JSON.parse(out);
}

const stages = (report: any): Record<string, string> =>
  Object.fromEntries(report.plays.map((play: any) => [`${play.repository}#${play.task}`, play.stage]));

describe('e2e/scenarios.yaml', () => {
  it('lists scenarios, each name once', () => {
    expect(entries.length).toBeGreaterThanOrEqual(10);
    const names = entries.map(entryName);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(entries.map((entry) => [entry.file, entry] as const))('%s: exists, and its hold names a step of it', (_, entry) => {
    expect(existsSync(resolve(ROOT, entry.file))).toBe(true);
    if (entry.config) expect(existsSync(resolve(ROOT, entry.config))).toBe(true);
    if (entry.expect !== undefined) expect(entry.expect).toBe('disagree');
    if (entry.controller) {
      const { templateReferencing, namespaceParallelism, ...unknown } = entry.controller;
      expect(unknown).toEqual({});
      if (templateReferencing !== undefined) expect(['Strict', 'Secure']).toContain(templateReferencing);
      if (namespaceParallelism !== undefined) expect(Number.isInteger(namespaceParallelism) && namespaceParallelism > 0).toBe(true);
      expect(templateReferencing ?? namespaceParallelism).toBeDefined();
    }
    if (entry.plays) expect(['Succeeded', 'Failed', 'Error', 'Running']).toContain(entry.plays.phase);
    const scenario = parse(readFileSync(resolve(ROOT, entry.file), 'utf8')) as { steps: unknown[] };
    expect(scenario.steps.length).toBeGreaterThan(0);
    if (entry.stepLimit !== undefined) expect(entry.stepLimit).toMatch(/^\d+(s|m|h)$/);
    if (entry.hold) {
      expect(() => new RegExp(entry.hold?.nodeName ?? '')).not.toThrow();
      expect(entry.hold.until).toBeGreaterThanOrEqual(0);
      expect(entry.hold.until).toBeLessThan(scenario.steps.length);
    }
  });
});

describe('the scenarios added for the real controllers', () => {
  const entry = (name: string): Entry => {
    const found = entries.find((candidate) => entryName(candidate) === name);
    if (!found) throw new Error(`${name} is not in e2e/scenarios.yaml`);
    return found;
  };

  it('two-repositories-at-once: the events of one repository never move the other play of the same task', async () => {
    const report = await simulate(entry('two-repositories-at-once'));
    expect(stages(report)).toEqual({ '5dlabs/cto-play-test#5': 'testing', '5dlabs/cto-play-web#5': 'waiting-pr-created' });
    const recorded = report.steps.flatMap((step: any) => step.recorded.map((release: any) => `${release.repository} ${release.gate}`));
    expect(recorded).toEqual(['5dlabs/cto-play-test waiting-pr-created', '5dlabs/cto-play-test waiting-ready-for-qa']);
  });

  it('gate-released-before-check: the delivery releases the waiting gate and the play moves on', async () => {
    const report = await simulate(entry('gate-released-before-check'));
    expect(stages(report)).toEqual({ '5dlabs/cto-play-test#5': 'code-quality' });
    expect(report.steps[1].resumed.map((gate: any) => gate.gate)).toEqual(['waiting-pr-created']);
  });

  it('project-chunk-watcher-evicted: with the small project the real controllers run, the retried watcher reads the chunk to its end', async () => {
    const report = await simulate(entry('project-chunk-watcher-evicted'));
    expect(report.projects).toEqual([
      {
        name: 'evicted-watcher',
        phase: 'Succeeded',
        chunksCompleted: 1,
        tasksCompleted: 12,
        chunks: [{ chunk: 'chunk-1', phase: 'Succeeded', tasks: 12, tasksCompleted: 12, watcherPods: 2 }],
      },
    ]);
    expect(report.coderuns.map((run: any) => `${run.stage} ${run.contextVersion} ${run.phase}`)).toEqual(['implementation 1 Succeeded']);
  });

  it('template-reapplied: the play waiting while the templates are applied again goes on with its stored spec to the end', async () => {
    const report = await simulate(entry('template-reapplied'));
    expect(stages(report)).toEqual({ '5dlabs/cto-play-test#5': 'completed' });
    expect(report.steps[1].ignored).toBeUndefined();
    expect(report.coderuns.map((coderun: any) => `${coderun.stage}:${coderun.phase}`)).toEqual([
      'implementation:Succeeded',
      'code-quality:Succeeded',
      'testing:Succeeded',
    ]);
  });

  it('queued-play: the play the controller queued is found once the one before it is gone, and reaches its gate', async () => {
    const queued = entry('queued-play');
    expect(queued.controller).toEqual({ namespaceParallelism: 1 });
    const report = await simulate(queued);
    expect(stages(report)).toEqual({ '5dlabs/cto-play-test#6': 'waiting-pr-created' });
    expect(report.coderuns.map((coderun: any) => `${coderun.task} ${coderun.stage}:${coderun.phase}`)).toEqual([
      '6 implementation:Succeeded',
    ]);
  });

  it('template-reapplied-secure: the simulator (the default controller) releases the gate; Secure ends the play in Error', async () => {
    const secure = entry('template-reapplied-secure');
    expect(secure.controller?.templateReferencing).toBe('Secure');
    expect(secure.expect).toBe('disagree');
    expect(secure.plays).toEqual({ phase: 'Error', message: 'WorkflowSpec may not change during execution' });
    const report = await simulate(secure);
    expect(stages(report)).toEqual({ '5dlabs/cto-play-test#5': 'code-quality' });
    expect(entry('template-reapplied-strict').controller?.templateReferencing).toBe('Strict');
  });
});
