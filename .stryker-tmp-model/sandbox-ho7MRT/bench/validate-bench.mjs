// @ts-nocheck
// npm run bench: how fast `agent-play validate` checks the default platform (dist-manifests/). Target
// (issue 4): under 300 ms after schema compilation, which is paid once per process. Measured in-process
// (median of several runs after a warm-up) with the built-in schemas and with the upstream Argo schemas
// (--crds ../shared/argo), plus the whole `node build/cli.cjs validate` process for reference.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_MS = 300;
const MANIFESTS = 'dist-manifests';
const UPSTREAM = '../shared/argo';

execFileSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
const { readManifestPaths, SchemaCatalog, LINT_RULES, validateObjects } = createRequire(import.meta.url)('../build/validate.cjs');

const milliseconds = (started) => Number(process.hrtime.bigint() - started) / 1e6;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function validateOnce(catalog) {
  const started = process.hrtime.bigint();
  const manifests = readManifestPaths([MANIFESTS]);
  const report = validateObjects({ objects: manifests.objects, readingFindings: manifests.findings, catalog, rules: LINT_RULES });
  if (report.errors > 0) throw new Error(`${MANIFESTS} has ${report.errors} errors`);
  return milliseconds(started);
}

function measure(name, makeCatalog) {
  const started = process.hrtime.bigint();
  const catalog = makeCatalog();
  const firstRun = validateOnce(catalog);
  const compileMs = milliseconds(started);
  const runs = Array.from({ length: RUNS }, () => validateOnce(catalog));
  return { name, compileMs, firstRun, validateMs: median(runs) };
}

function processWall(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync('node', ['build/cli.cjs', 'validate', MANIFESTS, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`validate failed:\n${result.stdout}${result.stderr}`);
  return milliseconds(started);
}

const results = [measure('built-in schemas', () => SchemaCatalog.builtIn())];
if (existsSync(UPSTREAM)) results.push(measure(`--crds ${UPSTREAM}`, () => SchemaCatalog.fromDirectories([UPSTREAM])));

console.log(`validate ${MANIFESTS}/ in-process: schema loading and compilation once, then the median of ${RUNS} runs`);
for (const result of results) {
  console.log(
    `${result.name.padEnd(28)} compile+first ${result.compileMs.toFixed(0).padStart(6)} ms   validate ${result.validateMs.toFixed(1).padStart(6)} ms   ${result.validateMs < TARGET_MS ? 'PASS' : 'MISS'} (< ${TARGET_MS} ms)`,
  );
}
const wall = median(Array.from({ length: 3 }, () => processWall([])));
console.log(`whole process, node build/cli.cjs validate ${MANIFESTS}: ${wall.toFixed(0)} ms (Node start-up and module loading included)`);
if (existsSync(UPSTREAM))
  console.log(
    `whole process with --crds ${UPSTREAM}: ${processWall(['--crds', UPSTREAM]).toFixed(0)} ms (reads and compiles megabytes of CRDs)`,
  );
if (results.some((result) => result.validateMs >= TARGET_MS)) process.exitCode = 1;
