// npm run bench: the package against a minimal cdk8s app (one cdk8s-plus-28 Deployment and one ConfigMap,
// bench/minimal-app.ts) run the same way, whole processes, runs alternating between the two sides so that
// the load of the machine weighs on both alike. Targets (issue 12):
//   agent-play synth (the installed command, no rebuild)   <= 1.3x  node build/minimal-app.cjs
//   npm run synth (rebuilds only when a source changed)     <= 1.5x  npm run bench:minimal
//   agent-play validate dist-manifests/ (built-in schemas)  <= 3x    node build/minimal-app.cjs
//   agent-play validate --crds ../shared/argo, second run   <= 1.5 s (compiled validators in the user cache)
//   agent-play --help                                       <= 1.5x  node -e 0, + 50 ms
// Medians of BENCH_RUNS runs (default 7) after one warm-up each. The validator cache is a scratch folder
// (AGENT_PLAY_CACHE_DIR), filled by the warm-up runs, as a user's is after their first run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const UPSTREAM = '../shared/argo';
const scratch = mkdtempSync(join(tmpdir(), 'agent-play-package-bench-'));
const env = { ...process.env, AGENT_PLAY_CACHE_DIR: join(scratch, 'cache') };
let outputs = 0;
const out = () => join(scratch, `out-${outputs++}`);

const BIN = 'bin/agent-play.cjs';
const commands = {
  synth: () => ['node', [BIN, 'synth', '--out', out()]],
  minimal: () => ['node', ['build/minimal-app.cjs', '--out', out()]],
  npmSynth: () => ['npm', ['run', '--silent', 'synth', '--', '--out', out()]],
  npmMinimal: () => ['npm', ['run', '--silent', 'bench:minimal', '--', '--out', out()]],
  validate: () => ['node', [BIN, 'validate', 'dist-manifests']],
  validateCrds: () => ['node', [BIN, 'validate', 'dist-manifests', '--crds', UPSTREAM]],
  help: () => ['node', [BIN, '--help']],
  nodeEmpty: () => ['node', ['-e', '0']],
};

function seconds(name) {
  const [command, args] = commands[name]();
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Medians of the named commands, run in turn (a, b, c, a, b, c, ...) after one warm-up each. */
function alternating(...names) {
  for (const name of names) seconds(name);
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (let run = 0; run < RUNS; run += 1) for (const name of names) runs[name].push(seconds(name));
  return Object.fromEntries(names.map((name) => [name, median(runs[name])]));
}

execFileSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
const rows = [];
const compare = (label, ours, base, limit, extraSeconds = 0) => {
  const allowed = base * limit + extraSeconds;
  rows.push({ label, ours, base, allowed, pass: ours <= allowed, ratio: ours / base });
};

const synth = alternating('synth', 'minimal', 'validate');
compare('agent-play synth vs node minimal-app', synth.synth, synth.minimal, 1.3);
compare('agent-play validate vs node minimal-app', synth.validate, synth.minimal, 3);
const npm = alternating('npmSynth', 'npmMinimal');
compare('npm run synth vs npm run bench:minimal', npm.npmSynth, npm.npmMinimal, 1.5);
const help = alternating('help', 'nodeEmpty');
compare('agent-play --help vs node -e 0 (+50 ms)', help.help, help.nodeEmpty, 1.5, 0.05);
if (existsSync(UPSTREAM)) {
  const crds = alternating('validateCrds');
  rows.push({ label: `agent-play validate --crds ${UPSTREAM} (second run)`, ours: crds.validateCrds, base: NaN, allowed: 1.5, pass: crds.validateCrds <= 1.5, ratio: NaN });
} else console.log(`(skipped --crds ${UPSTREAM}: not beside this checkout)`);
rmSync(scratch, { recursive: true, force: true });

console.log(`medians of ${RUNS} alternating runs, whole processes; the machine is shared, so compare ratios, not seconds`);
for (const row of rows) {
  const ratio = Number.isNaN(row.ratio) ? '' : ` = ${row.ratio.toFixed(2)}x`;
  const base = Number.isNaN(row.base) ? '' : ` vs ${row.base.toFixed(3)} s`;
  console.log(`${row.pass ? 'PASS' : 'MISS'} ${row.label.padEnd(58)} ${row.ours.toFixed(3)} s${base}${ratio} (allowed ${row.allowed.toFixed(3)} s)`);
}
