// @ts-nocheck
// npm run bench: whole-process wall time and peak memory of `npm run synth` (the default platform), beside
// a minimal cdk8s app run the same way, and their ratio. Targets (issue 2): under 1.5 s wall, under 2x the
// minimal app. Medians of several runs; peak memory is the largest process's maximum RSS (GNU time).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const GNU_TIME = '/usr/bin/time';
const scratch = mkdtempSync(join(tmpdir(), 'agent-play-bench-'));

function once(script, out) {
  const command = ['npm', 'run', '--silent', script, '--', '--out', out];
  const started = process.hrtime.bigint();
  const result = existsSync(GNU_TIME)
    ? spawnSync(GNU_TIME, ['-f', '%M', ...command], { encoding: 'utf8' })
    : spawnSync(command[0], command.slice(1), { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`${script} failed:\n${result.stderr}`);
  const lines = result.stderr.trim().split('\n');
  const peakKiB = existsSync(GNU_TIME) ? Number(lines[lines.length - 1]) : NaN;
  return { seconds, peakMiB: peakKiB / 1024 };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function measure(script) {
  once(script, join(scratch, `${script}-warmup`));
  const runs = Array.from({ length: RUNS }, (_, index) => once(script, join(scratch, `${script}-${index}`)));
  return { seconds: median(runs.map((run) => run.seconds)), peakMiB: median(runs.map((run) => run.peakMiB)) };
}

execFileSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
const platform = measure('synth');
const minimal = measure('bench:minimal');
rmSync(scratch, { recursive: true, force: true });

const ratio = platform.seconds / minimal.seconds;
const rows = [
  ['npm run synth (default platform)', platform],
  ['minimal cdk8s app, same way', minimal],
];
console.log(`median of ${RUNS} runs, whole process (npm included)`);
for (const [name, result] of rows) console.log(`${name.padEnd(36)} ${result.seconds.toFixed(2)} s   ${result.peakMiB.toFixed(0)} MiB peak`);
console.log(`ratio platform / minimal: ${ratio.toFixed(2)}x wall, ${(platform.peakMiB / minimal.peakMiB).toFixed(2)}x memory`);
const verdicts = [
  [platform.seconds < 1.5, `platform synth under 1.5 s (${platform.seconds.toFixed(2)} s)`],
  [ratio < 2, `platform under 2x the minimal app (${ratio.toFixed(2)}x)`],
];
for (const [ok, text] of verdicts) console.log(`${ok ? 'PASS' : 'MISS'} ${text}`);
