// npm run bench: the CPU time (user + system, GNU time) of a cdk8s app that synthesizes the default platform
// with the library, with and without validatePlatform(app), beside `agent-play validate` of its output: what
// validatePlatform adds should stay near what validating the files costs (issue 25). Medians of several runs.
// Target: validatePlatform adds at most half of what `agent-play validate` of the output costs as a whole
// process (it was 1.05x before the app was checked once per synthesis rather than once per chart).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GNU_TIME = '/usr/bin/time';
const scratch = mkdtempSync(join(tmpdir(), 'agent-play-validate-platform-'));
const build = resolve('build');

const app = (validated, out) => `
const { App } = require('cdk8s');
const { AgentPlatform } = require(${JSON.stringify(join(build, 'index.cjs'))});
const { validatePlatform } = require(${JSON.stringify(join(build, 'validate.cjs'))});
const app = new App({ outdir: ${JSON.stringify(out)} });
new AgentPlatform(app, 'platform');
${validated ? 'validatePlatform(app);' : ''}
app.synth();
`;

/** CPU seconds of one run of `command`. */
function cpu(command) {
  if (!existsSync(GNU_TIME)) throw new Error('needs GNU time (/usr/bin/time)');
  const result = spawnSync(GNU_TIME, ['-f', '%U %S', ...command], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command.join(' ')} failed:\n${result.stderr}`);
  const [user, system] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  return user + system;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function measure(name, command) {
  cpu(command);
  const seconds = median(Array.from({ length: RUNS }, () => cpu(command)));
  console.log(`${name.padEnd(44)} ${seconds.toFixed(2)} s CPU`);
  return seconds;
}

const out = join(scratch, 'out');
const plain = measure('app.synth()', ['node', '-e', app(false, out)]);
const validated = measure('app.synth() with validatePlatform(app)', ['node', '-e', app(true, join(scratch, 'validated'))]);
const files = measure('agent-play validate of the output', ['node', join(build, 'cli.cjs'), 'validate', out]);
const added = validated - plain;
console.log(
  `validatePlatform adds ${added.toFixed(2)} s; agent-play validate costs ${files.toFixed(2)} s (load average ${loadavg()[0].toFixed(1)})`,
);
console.log(`${added <= files / 2 ? 'PASS' : 'MISS'} validatePlatform adds at most half of agent-play validate's CPU`);
rmSync(scratch, { recursive: true, force: true });
