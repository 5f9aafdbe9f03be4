// How long `npm test` takes on a clean clone, as docs/benchmarks.md states it: clones the committed HEAD into
// a scratch folder (beside no ../shared/, as a user's clone is), installs with `npm ci`, runs the test command
// twice (the second run is the one reported: the user cache folder and tsc's build info are warm), and
// prints the wall time, the CPU time of every process the run started, the machine, its load and the date.
//
//   node scripts/test-time.mjs [--runs N]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '2' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs: expected a whole number of at least 1, got "${values.runs}"`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'agent-play-test-time-'));
const clone = join(scratch, 'clone');
try {
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', process.cwd(), clone], { stdio: 'inherit' });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'], { cwd: clone, stdio: 'inherit' });
  const results = [];
  for (let run = 1; run <= runs; run += 1) results.push(timeTests(clone));
  const reported = results[results.length - 1];
  const cpu = cpus();
  console.log(
    [
      `date: ${new Date().toISOString().slice(0, 10)}`,
      `commit: ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}`,
      `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}), Node.js ${process.version}`,
      `load average before the last run: ${reported.loadBefore.toFixed(1)}`,
      `npm test, run ${runs} of ${runs}: ${reported.wall.toFixed(1)} s wall, ${reported.cpu.toFixed(1)} s CPU; exit ${reported.status}`,
      ...results
        .slice(0, -1)
        .map((result, index) => `  (run ${index + 1}: ${result.wall.toFixed(1)} s wall, ${result.cpu.toFixed(1)} s CPU)`),
    ].join('\n'),
  );
  // A failed run's figures are no figures: show why it failed (the end of its output, where npm test summarises).
  for (const result of results.filter((run) => run.status !== 0))
    console.log(`\nA run failed (exit ${result.status}); the end of its output:\n${result.output.split('\n').slice(-80).join('\n')}`);
  process.exitCode = reported.status === 0 ? 0 : 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/** One `npm test` in `folder`: its wall time, and the CPU time of it and every process it waited for. */
function timeTests(folder) {
  const loadBefore = loadavg()[0];
  const started = performance.now();
  // GNU time counts the CPU of every process the run waited for; without it only the wall time is known.
  const gnuTime = spawnSync('/usr/bin/time', ['--version'], { encoding: 'utf8' }).status === 0;
  const command = gnuTime ? ['/usr/bin/time', '-f', 'CPU %U %S', 'npm', 'test'] : ['npm', 'test'];
  const result = spawnSync(command[0], command.slice(1), { cwd: folder, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wall = (performance.now() - started) / 1000;
  const cpu = gnuTime ? cpuFromGnuTime(result.stderr) : Number.NaN;
  return { wall, cpu, status: result.status, loadBefore, output: `${result.stdout}${result.stderr}` };
}

function cpuFromGnuTime(stderr) {
  const line = stderr
    .trim()
    .split('\n')
    .findLast((text) => text.startsWith('CPU '));
  if (line === undefined) return Number.NaN;
  const [, user, system] = line.split(' ').map(Number);
  return user + system;
}
