// How long `npm test` takes on a clean clone, as docs/benchmarks.md states it: clones the committed HEAD into
// a scratch folder (beside no ../shared/, as a user's clone is), installs with `npm ci`, runs the test command
// twice (the second run is the one reported: the user cache folder and tsc's build info are warm), and
// prints the wall time, the CPU time of every process the run started, the machine, its load (before the run,
// and the lowest, mean and highest one-minute load average sampled every 5 s while it ran: the machine may be
// shared) and the date, then the same as a row of the table in docs/benchmarks.md.
//
//   node scripts/test-time.mjs [--runs N]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
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
  for (let run = 1; run <= runs; run += 1) results.push(await timeTests(clone));
  const reported = results[results.length - 1];
  const cpu = cpus();
  const date = new Date().toISOString().slice(0, 10);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const machine = `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}), Node.js ${process.version}`;
  const figures = (result) => `${result.wall.toFixed(1)} s wall, ${result.cpu.toFixed(1)} s CPU`;
  console.log(
    [
      `date: ${date}`,
      `commit: ${commit}`,
      `machine: ${machine}`,
      `load average before the last run: ${reported.loadBefore.toFixed(1)}; during it: ${loadText(reported.load)}`,
      `npm test, run ${runs} of ${runs}: ${figures(reported)}; exit ${reported.status}`,
      ...results.slice(0, -1).map((result, index) => `  (run ${index + 1}: ${figures(result)}; load during it ${loadText(result.load)})`),
      ...(reported.parts.length > 0 ? [`parts of the last run: ${reported.parts.join('; ')}`] : []),
      '',
      'As a row of the table in docs/benchmarks.md:',
      `| \`node scripts/test-time.mjs\` | ${machine} | ${reported.loadBefore.toFixed(1)} before, ${loadText(reported.load)} during | ${date} | ${commit} | ${figures(reported)} |`,
    ].join('\n'),
  );
  // A failed run's figures are no figures: show why it failed (the end of its output, where npm test summarises).
  for (const result of results.filter((run) => run.status !== 0))
    console.log(`\nA run failed (exit ${result.status}); the end of its output:\n${result.output.split('\n').slice(-80).join('\n')}`);
  process.exitCode = reported.status === 0 ? 0 : 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/**
 * One `npm test` in `folder`: its wall time, the CPU time of it and every process it waited for, the load
 * average before it and as sampled while it ran, and the lines scripts/test.mjs prints per check.
 */
async function timeTests(folder) {
  const loadBefore = loadavg()[0];
  const samples = [];
  const sampler = setInterval(() => samples.push(loadavg()[0]), 5000);
  const started = performance.now();
  // GNU time counts the CPU of every process the run waited for; without it only the wall time is known.
  const gnuTime = spawnSync('/usr/bin/time', ['--version'], { encoding: 'utf8' }).status === 0;
  const command = gnuTime ? ['/usr/bin/time', '-f', 'CPU %U %S', 'npm', 'test'] : ['npm', 'test'];
  const { status, stdout, stderr } = await run(command, folder);
  const wall = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const cpu = gnuTime ? cpuFromGnuTime(stderr) : Number.NaN;
  const parts = stdout
    .split('\n')
    .filter((line) => /^(pass|FAIL) {2}\S/.test(line))
    .map((line) =>
      line.replace(
        /^(pass|FAIL) {2}(\S+) +(?:done after (.*)|passed before.*)$/,
        (_, verdict, name, after) =>
          `${name} ${after === undefined ? 'skipped (check cache)' : `done after ${after}`}${verdict === 'FAIL' ? ', failed' : ''}`,
      ),
    );
  return { wall, cpu, status, loadBefore, load: samples, parts, output: `${stdout}${stderr}` };
}

/** Runs `command` in `cwd` without blocking this process (the load is sampled meanwhile): its exit and output. */
function run(command, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', (error) => resolve({ status: 1, stdout: '', stderr: `${error.message}\n` }));
    child.on('close', (code, signal) =>
      resolve({
        status: code ?? (signal ? 1 : 0),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

/** The lowest, mean and highest of the load samples, or that there were none (a run under 5 s). */
function loadText(samples) {
  if (samples.length === 0) return 'not sampled';
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return `${Math.min(...samples).toFixed(1)} to ${Math.max(...samples).toFixed(1)} (mean ${mean.toFixed(1)})`;
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
