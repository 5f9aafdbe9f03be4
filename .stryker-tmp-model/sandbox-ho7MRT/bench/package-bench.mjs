// @ts-nocheck
// npm run bench: the package against a minimal cdk8s app (one cdk8s-plus-28 Deployment and one ConfigMap,
// bench/minimal-app.ts) run the same way, whole processes, runs alternating between the two sides so that
// the load of the machine weighs on both alike. Targets (issue 12):
//   agent-play synth (the installed command, no rebuild)   <= 1.3x  node build/minimal-app.cjs
//   npm run synth (rebuilds only when a source changed)     <= 1.5x  npm run bench:minimal
//   agent-play validate dist-manifests/ (built-in schemas)  <= 3x    node build/minimal-app.cjs
//   agent-play validate --crds ../shared/argo, second run   <= 1.5 s (compiled validators in the user cache)
//   agent-play --help                                       <= 1.5x  node -e 0, + 50 ms
// Medians of BENCH_RUNS runs (default 7) after one warm-up each, wall time (what the targets are on) and,
// on Linux, CPU time (user + system), which the load of a shared machine distorts less. The validator cache is a scratch folder
// (AGENT_PLAY_CACHE_DIR), filled by the warm-up runs, as a user's is after their first run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
  // As after an edit of every WorkflowTemplate: no CEL verdict kept (src/validate/schema/cel-verdict-cache.ts).
  synthNewCelVerdicts: () => {
    const cel = join(scratch, 'cache', 'cel');
    for (const file of existsSync(cel) ? readdirSync(cel) : []) if (file.startsWith('cel-verdicts-')) rmSync(join(cel, file));
    return ['node', [BIN, 'synth', '--out', out()]];
  },
  minimal: () => ['node', ['build/minimal-app.cjs', '--out', out()]],
  npmSynth: () => ['npm', ['run', '--silent', 'synth', '--', '--out', out()]],
  npmMinimal: () => ['npm', ['run', '--silent', 'bench:minimal', '--', '--out', out()]],
  validate: () => ['node', [BIN, 'validate', 'dist-manifests']],
  validateCrds: () => ['node', [BIN, 'validate', 'dist-manifests', '--crds', UPSTREAM]],
  help: () => ['node', [BIN, '--help']],
  nodeEmpty: () => ['node', ['-e', '0']],
};

/**
 * CPU seconds (user + system) of this process's finished children, from /proc (Linux; `undefined`
 * elsewhere): on a loaded machine the wall time mostly measures the other processes, the CPU time much less.
 */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // After "pid (comm) ": state is field 3, cutime and cstime are fields 16 and 17, in clock ticks (USER_HZ, 100).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** Wall and CPU seconds of one whole run of the named command. */
function seconds(name) {
  const [command, args] = commands[name]();
  const cpuBefore = childrenCpuSeconds();
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuAfter = childrenCpuSeconds();
  return { wall, cpu: cpuBefore === undefined || cpuAfter === undefined ? NaN : cpuAfter - cpuBefore };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Median wall and CPU seconds of the named commands, run in turn (a, b, c, a, b, c, ...) after one warm-up each. */
function alternating(...names) {
  for (const name of names) seconds(name);
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (let run = 0; run < RUNS; run += 1) for (const name of names) runs[name].push(seconds(name));
  return Object.fromEntries(
    names.map((name) => [name, { wall: median(runs[name].map((run) => run.wall)), cpu: median(runs[name].map((run) => run.cpu)) }]),
  );
}

execFileSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
const rows = [];
/** The target is on wall time; the CPU ratio is printed beside it because the machines are shared. */
const compare = (label, ours, base, limit, extraSeconds = 0) => {
  const allowed = base.wall * limit + extraSeconds;
  rows.push({ label, ours, base, allowed, pass: ours.wall <= allowed });
};

const synth = alternating('synth', 'minimal', 'validate', 'synthNewCelVerdicts');
compare('agent-play synth vs node minimal-app', synth.synth, synth.minimal, 1.3);
// No target: what the first synth after changing every WorkflowTemplate costs, CEL rules evaluated again.
rows.push({
  label: 'agent-play synth, no CEL verdict kept (for information)',
  ours: synth.synthNewCelVerdicts,
  base: synth.minimal,
  info: true,
});
compare('agent-play validate vs node minimal-app', synth.validate, synth.minimal, 3);
const npm = alternating('npmSynth', 'npmMinimal');
compare('npm run synth vs npm run bench:minimal', npm.npmSynth, npm.npmMinimal, 1.5);
const help = alternating('help', 'nodeEmpty');
compare('agent-play --help vs node -e 0 (+50 ms)', help.help, help.nodeEmpty, 1.5, 0.05);
if (existsSync(UPSTREAM)) {
  const crds = alternating('validateCrds');
  rows.push({
    label: `agent-play validate --crds ${UPSTREAM} (second run)`,
    ours: crds.validateCrds,
    allowed: 1.5,
    pass: crds.validateCrds.wall <= 1.5,
  });
} else console.log(`(skipped --crds ${UPSTREAM}: not beside this checkout)`);
rmSync(scratch, { recursive: true, force: true });

const cpuText = (seconds) => (Number.isNaN(seconds) ? '' : `, cpu ${seconds.toFixed(3)} s`);
console.log(`medians of ${RUNS} alternating runs, whole processes; the machine is shared, so compare ratios, not seconds`);
for (const row of rows) {
  const versus = row.base ? ` vs ${row.base.wall.toFixed(3)} s = ${(row.ours.wall / row.base.wall).toFixed(2)}x` : '';
  const cpuRatio =
    row.base && !Number.isNaN(row.ours.cpu)
      ? ` (cpu ${row.ours.cpu.toFixed(3)} s vs ${row.base.cpu.toFixed(3)} s = ${(row.ours.cpu / row.base.cpu).toFixed(2)}x)`
      : cpuText(row.ours.cpu);
  const verdict = row.info ? 'INFO' : row.pass ? 'PASS' : 'MISS';
  const allowedText = row.info ? '' : ` (allowed ${row.allowed.toFixed(3)} s)`;
  console.log(`${verdict} ${row.label.padEnd(58)} ${row.ours.wall.toFixed(3)} s${versus}${cpuRatio}${allowedText}`);
}
