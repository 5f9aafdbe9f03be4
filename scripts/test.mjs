// npm test: the type check, the lint and format check, and every test, run at once rather than one after
// the other: on two cores the type check (one thread, CPU-bound) fills the gaps the test workers leave while
// they wait on the programs some tests run (npm pack, bash, the cdk8s CLI). Each check's output is printed
// whole when it ends (the tests' as they run), then one line per check with its time; the run fails when
// any check fails.
//
// The type check and the lint are pure functions of the project's files and the installed packages: a pass
// is remembered under the hash of every file git does not ignore (tracked or not, content and path) and of
// node_modules/.package-lock.json (what `npm ci` installed), and the check is skipped while that hash is the
// same (scripts/check-cache.mjs). Any edit, new file or install runs it again. The tests always run.
// AGENT_PLAY_NO_CHECK_CACHE=1 runs every check regardless.
//
//   node scripts/test.mjs [vitest arguments...]     e.g. `npm test -- test/events.test.ts`
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { checkCache } from './check-cache.mjs';

const TSC_BUILD_INFO = 'node_modules/.cache/agent-play/tsc.tsbuildinfo';
const vitestArgs = process.argv.slice(2);

/** The checks: the tests' output is streamed; the others' is held back so that it does not cut through. */
const CHECKS = [
  {
    name: 'vitest',
    command: ['node_modules/vitest/vitest.mjs', 'run', ...vitestArgs],
    stream: true,
    cached: false,
  },
  {
    name: 'tsc',
    // Incremental: once its build info exists (in node_modules, which a clean clone lacks), about 4 s of CPU instead of 14 s.
    command: ['node_modules/typescript/bin/tsc', '--noEmit', '--incremental', '--tsBuildInfoFile', TSC_BUILD_INFO, '-p', 'tsconfig.json'],
    stream: false,
    cached: true,
  },
  {
    name: 'biome',
    command: ['node_modules/@biomejs/biome/bin/biome', 'ci', '--diagnostic-level=error', '.'],
    stream: false,
    cached: true,
  },
];

mkdirSync('node_modules/.cache/agent-play', { recursive: true });
const started = performance.now();
const children = new Set();
const cache = checkCache(process.env.AGENT_PLAY_NO_CHECK_CACHE === '1');

async function run(check) {
  if (!check.cached) return spawnCheck(check);
  if (cache.passed(check.name)) return { name: check.name, code: 0, seconds: (performance.now() - started) / 1000, skipped: true };
  const result = await spawnCheck(check);
  if (result.code === 0) cache.remember(check.name);
  return result;
}

function spawnCheck({ name, command, stream }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, command, { stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const output = [];
    if (!stream) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.on('error', (error) => {
      children.delete(child);
      resolve({ name, code: 1, output: `${error.message}\n`, seconds: (performance.now() - started) / 1000 });
    });
    child.on('close', (code, signal) => {
      children.delete(child);
      const seconds = (performance.now() - started) / 1000;
      const text = Buffer.concat(output).toString('utf8');
      if (!stream && (code !== 0 || text.trim() !== '')) process.stdout.write(`\n== ${name}\n${text}`);
      resolve({ name, code: code ?? (signal ? 1 : 0), seconds });
    });
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exitCode = 130;
  });
}

const results = await Promise.all(CHECKS.map(run));
console.log('');
for (const { name, code, seconds, skipped } of results)
  console.log(
    `${code === 0 ? 'pass' : 'FAIL'}  ${name.padEnd(6)} ${skipped ? 'passed before on these very files (check cache), not run' : `done after ${seconds.toFixed(1)} s`}`,
  );
const failed = results.filter((result) => result.code !== 0);
if (failed.length > 0) {
  console.log(`npm test failed: ${failed.map((result) => result.name).join(', ')}`);
  process.exitCode = 1;
}
