// @ts-nocheck
// npm run bench: a platform of many repositories. Its output must grow with what differs between them (their
// registry entries and workspaces), not with the play templates, Sensors or Roles. Targets:
//   1,000 repositories: everything but the workspace PVCs within 2 MiB, synth within 2 s, and
//                       `agent-play validate` of the whole output passes;
//   5,000 repositories: synth within 8 s and 1 GB, no object over 128 KiB (ArgoCD's client-side apply keeps a
//                       whole object in a 256 KiB annotation).
// Whole-process wall time and peak RSS (GNU time) of `node build/cli.cjs synth`, median of a few runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const GNU_TIME = '/usr/bin/time';
const KIB = 1024;
const MIB = 1024 * KIB;
const scratch = mkdtempSync(join(tmpdir(), 'agent-play-repositories-bench-'));

/** `count` repositories over eight organizations; every fifth merges into `develop`. */
function configOf(count) {
  const lines = ['repositories:'];
  for (let index = 0; index < count; index += 1) {
    const service = `service-${String(index).padStart(4, '0')}`;
    lines.push(`  - name: octo-org-${index % 8}/${service}`, `    service: ${service}`);
    if (index % 5 === 0) lines.push('    branch: develop');
  }
  return `${lines.join('\n')}\n`;
}

function run(args) {
  const command = ['node', 'build/cli.cjs', ...args];
  const started = process.hrtime.bigint();
  const result = existsSync(GNU_TIME)
    ? spawnSync(GNU_TIME, ['-f', '%U %S %M', ...command], { encoding: 'utf8', maxBuffer: 64 * MIB })
    : spawnSync(command[0], command.slice(1), { encoding: 'utf8', maxBuffer: 64 * MIB });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const lines = result.stderr.trim().split('\n');
  // On a busy machine the wall time is the CPU time stretched by the wait for a core: both are reported.
  const [user, system, peakKiB] = existsSync(GNU_TIME) ? lines[lines.length - 1].split(' ').map(Number) : [Number.NaN, 0, Number.NaN];
  return { status: result.status, seconds, cpuSeconds: user + system, peakMiB: peakKiB / 1024, output: `${result.stdout}${result.stderr}` };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The output's size without the workspace PVCs, its largest object, and its object count. */
function measureOutput(folder) {
  let bytesWithoutPvcs = 0;
  let objects = 0;
  let largest = { name: '', bytes: 0 };
  for (const file of readdirSync(folder)) {
    const text = readFileSync(join(folder, file), 'utf8');
    for (const document of parseAllDocuments(text)) {
      const object = document.toJS();
      if (object === null) continue;
      objects += 1;
      const bytes = Buffer.byteLength(JSON.stringify(object));
      if (bytes > largest.bytes) largest = { name: `${object.kind}/${object.metadata.name}`, bytes };
      if (object.kind !== 'PersistentVolumeClaim') bytesWithoutPvcs += Buffer.byteLength(String(document));
    }
  }
  const total = readdirSync(folder).reduce((sum, file) => sum + statSync(join(folder, file)).size, 0);
  return { total, bytesWithoutPvcs, objects, largest };
}

function bench(count) {
  const config = join(scratch, `repositories-${count}.yaml`);
  writeFileSync(config, configOf(count));
  const runs = [];
  for (let index = 0; index <= RUNS; index += 1) {
    const out = join(scratch, `out-${count}-${index}`);
    const result = run(['synth', '--config', config, '--out', out]);
    if (result.status !== 0) throw new Error(`synth of ${count} repositories failed:\n${result.output}`);
    if (index > 0) runs.push(result);
  }
  const out = join(scratch, `out-${count}-1`);
  return {
    count,
    out,
    seconds: median(runs.map((result) => result.seconds)),
    cpuSeconds: median(runs.map((result) => result.cpuSeconds)),
    peakMiB: median(runs.map((result) => result.peakMiB)),
    ...measureOutput(out),
  };
}

const thousand = bench(1000);
const validation = run(['validate', thousand.out]);
const fiveThousand = bench(5000);
rmSync(scratch, { recursive: true, force: true });

console.log(
  `median of ${RUNS} runs of node build/cli.cjs synth (after one warm-up), whole process; load average ${loadavg()[0].toFixed(1)}`,
);
for (const result of [thousand, fiveThousand]) {
  console.log(
    `${String(result.count).padStart(5)} repositories: ${result.seconds.toFixed(2)} s (${result.cpuSeconds.toFixed(2)} s CPU), ${result.peakMiB.toFixed(0)} MiB peak, ` +
      `${(result.total / MIB).toFixed(2)} MiB output (${(result.bytesWithoutPvcs / MIB).toFixed(2)} MiB without PVCs), ` +
      `${result.objects} objects, largest ${result.largest.name} ${(result.largest.bytes / KIB).toFixed(1)} KiB`,
  );
}
const verdicts = [
  [thousand.bytesWithoutPvcs <= 2 * MIB, `1,000: all but the PVCs within 2 MiB (${(thousand.bytesWithoutPvcs / MIB).toFixed(2)} MiB)`],
  [thousand.seconds <= 2, `1,000: synth within 2 s (${thousand.seconds.toFixed(2)} s)`],
  [validation.status === 0, `1,000: agent-play validate passes (exit ${validation.status})`],
  [fiveThousand.seconds <= 8, `5,000: synth within 8 s (${fiveThousand.seconds.toFixed(2)} s)`],
  [fiveThousand.peakMiB <= 1000, `5,000: synth within 1 GB (${fiveThousand.peakMiB.toFixed(0)} MiB)`],
  [
    fiveThousand.largest.bytes <= 128 * KIB,
    `5,000: no object over 128 KiB (largest ${fiveThousand.largest.name}, ${(fiveThousand.largest.bytes / KIB).toFixed(1)} KiB)`,
  ],
];
for (const [ok, text] of verdicts) console.log(`${ok ? 'PASS' : 'MISS'} ${text}`);
if (validation.status !== 0) console.log(validation.output.split('\n').slice(-5).join('\n'));
