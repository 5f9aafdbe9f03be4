// @ts-nocheck
// npm run bench: synthesis time and peak memory of a platform with one project of 100, 1,000 and 10,000
// tasks, each in its own process (GNU time gives the maximum RSS), and the growth factor from 1,000 to
// 10,000 tasks, which should stay near 10x (linear). Medians of a few runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SIZES = [100, 1_000, 10_000];
const GNU_TIME = '/usr/bin/time';
/** Linear growth is 10x; allow what start-up costs and garbage collection add around it. */
const MAX_GROWTH = 13;

function once(tasks) {
  const command = ['node', 'build/project-app.cjs', String(tasks)];
  const result = existsSync(GNU_TIME)
    ? spawnSync(GNU_TIME, ['-f', '%M', ...command], { encoding: 'utf8' })
    : spawnSync(command[0], command.slice(1), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`project of ${tasks} tasks failed:\n${result.stderr}`);
  const report = JSON.parse(result.stdout.trim());
  const lines = result.stderr.trim().split('\n');
  return { ...report, peakMiB: existsSync(GNU_TIME) ? Number(lines[lines.length - 1]) / 1024 : NaN };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

execFileSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
const results = SIZES.map((tasks) => {
  const runs = Array.from({ length: RUNS }, () => once(tasks));
  return {
    tasks,
    milliseconds: median(runs.map((run) => run.milliseconds)),
    peakMiB: median(runs.map((run) => run.peakMiB)),
    bytes: runs[0].bytes,
  };
});

console.log(`project synthesis, median of ${RUNS} runs (in-process synthesis time; peak memory of the whole process)`);
for (const result of results) {
  console.log(
    `${String(result.tasks).padStart(6)} tasks  ${result.milliseconds.toFixed(0).padStart(6)} ms  ${result.peakMiB.toFixed(0).padStart(4)} MiB peak  ${(result.bytes / 1024).toFixed(0).padStart(6)} KiB of YAML`,
  );
}
const [, thousand, tenThousand] = results;
const growth = tenThousand.milliseconds / thousand.milliseconds;
console.log(
  `growth 10,000 / 1,000 tasks: ${growth.toFixed(1)}x time, ${(tenThousand.bytes / thousand.bytes).toFixed(1)}x output  ${growth <= MAX_GROWTH ? 'PASS' : 'MISS'} (linear is 10x; at most ${MAX_GROWTH}x)`,
);
if (growth > MAX_GROWTH) process.exitCode = 1;
