/**
 * `npm run oracle`: asks Argo's own Go code what agent-play's TypeScript answers on its own, and keeps the
 * answers as goldens the tests compare with (no Go needed to run the tests).
 *
 * 1. Builds the two Go programs of `oracle/` (Go 1.26 from /usr/local/go/bin or PATH; modules from the Go
 *    module proxy, pinned by their go.mod and go.sum): `oracle/events` (Argo Events v1.9.11 and the libraries
 *    at the versions it pins) and `oracle/workflows` (Argo Workflows v4.0.5, Kubernetes' apiextensions and
 *    Pod Security admission).
 * 2. Writes `test/golden/<engine>.json` from the engine vectors (`test/golden/vectors/`).
 * 3. Asks both programs about the inputs of test/oracle-inputs.ts (the upstream corpus, the platforms, the
 *    lint fixtures, the CRD cases, the Sensor runs) and writes their answers to `test/golden/oracle/`.
 * 4. Compares agent-play's answers with Argo's (test/oracle-compare.ts) and writes the differences that remain,
 *    each a rule of ours that is stricter on purpose, to `test/golden/oracle/differences.json`.
 *
 *   npm run oracle               regenerate the goldens (review the diff)
 *   npm run oracle -- --check    fail, writing nothing, when a golden would change (CI)
 *
 * AGENT_PLAY_ORACLE_BIN=DIR uses the programs already built in DIR (oracle-events, oracle-workflows).
 *
 * Needs `../shared/argo/` (the upstream CRDs and example corpus).
 */
// @ts-nocheck

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  type GoAnswer,
  type GoObject,
  GOLDEN_FILES,
  goldenText,
  groupGoldens,
  runGoldens,
  type GroupsGolden,
  type RunsGolden,
} from '../test/oracle-goldens';
import { differencesOf, type Difference } from '../test/oracle-compare';
import {
  ARGO_SCHEMAS_DIR,
  corpusGroups,
  HAS_UPSTREAM_ARGO,
  crdCaseGroups,
  type InputGroup,
  lintFixtureGroups,
  platformGroup,
  platforms,
  sensorRuns,
  upstreamCrds,
} from '../test/oracle-inputs';

const ROOT = path.resolve(__dirname, '..');
const GOLDEN_DIR = path.join(ROOT, 'test', 'golden');
const check = process.argv.includes('--check');

/**
 * Go: /usr/local/go/bin first (where the project's machines have 1.26), then PATH. Without cgo: Argo
 * Workflows links a SQLite driver the oracle never opens, whose C code would otherwise take most of a cold
 * build.
 */
function goEnvironment(): NodeJS.ProcessEnv {
  const local = '/usr/local/go/bin';
  return {
    ...process.env,
    PATH: existsSync(local) ? `${local}${path.delimiter}${process.env.PATH}` : process.env.PATH,
    GOFLAGS: '-mod=readonly',
    CGO_ENABLED: '0',
  };
}

/** Builds one module's program into `out` (niced: the machines are shared). */
function build(module: string, out: string): string {
  const binary = path.join(out, `oracle-${module}`);
  const started = performance.now();
  execFileSync('nice', ['-n', '10', 'go', 'build', '-trimpath', '-o', binary, '.'], {
    cwd: path.join(ROOT, 'oracle', module),
    env: goEnvironment(),
    stdio: 'inherit',
  });
  console.log(`built oracle/${module} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return binary;
}

function ask(binary: string, request: string, out: string): GoAnswer {
  const answer = path.join(out, `${path.basename(binary)}.answer.json`);
  execFileSync(binary, ['answer', request, answer], { stdio: 'inherit' });
  return JSON.parse(readFileSync(answer, 'utf8')) as GoAnswer;
}

/** Writes (or, with --check, compares) one golden file; returns whether it changed. */
function keep(file: string, text: string): boolean {
  const target = path.join(GOLDEN_DIR, file);
  const before = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
  if (before === text) return false;
  if (!check) {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(`${target}.tmp`, text);
    renameSync(`${target}.tmp`, target);
  }
  return true;
}

/** The engine goldens, written by oracle-events into a scratch folder, then kept like the others. */
function engineGoldens(binary: string, out: string): string[] {
  const scratch = path.join(out, 'engines');
  mkdirSync(scratch);
  execFileSync(binary, ['engines', path.join(GOLDEN_DIR, 'vectors'), scratch], { stdio: 'inherit' });
  return readdirSync(scratch)
    .sort()
    .filter((file) => keep(file, readFileSync(path.join(scratch, file), 'utf8')));
}

async function main(): Promise<void> {
  if (!HAS_UPSTREAM_ARGO) throw new Error(`npm run oracle needs the upstream CRDs and example corpus in ${ARGO_SCHEMAS_DIR}`);
  const out = mkdtempSync(path.join(tmpdir(), 'agent-play-oracle-'));
  try {
    const prebuilt = process.env.AGENT_PLAY_ORACLE_BIN;
    const events = prebuilt ? path.join(prebuilt, 'oracle-events') : build('events', out);
    const workflows = prebuilt ? path.join(prebuilt, 'oracle-workflows') : build('workflows', out);
    const changed = engineGoldens(events, out);

    const allPlatforms = platforms();
    const sets: Record<keyof typeof GOLDEN_FILES.groups, InputGroup[]> = {
      corpus: corpusGroups(),
      platforms: allPlatforms.map(platformGroup),
      fixtures: [...lintFixtureGroups(), ...crdCaseGroups()],
    };
    const runs = sensorRuns(allPlatforms);
    const groups = Object.values(sets).flat();
    const request = path.join(out, 'request.json');
    writeFileSync(request, JSON.stringify({ groups, sensorRuns: runs, crds: upstreamCrds() }));
    const started = performance.now();
    const answers = { events: ask(events, request, out), workflows: ask(workflows, request, out) };
    console.log(`Argo answered in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const objects: GoObject[] = [...answers.events.objects, ...answers.workflows.objects];
    const generatedWith = { events: answers.events.generatedWith, workflows: answers.workflows.generatedWith };

    const groupFiles: Record<string, GroupsGolden> = {};
    for (const [name, inputs] of Object.entries(sets)) {
      const golden = groupGoldens(generatedWith, inputs, objects);
      groupFiles[name] = golden;
      if (keep(GOLDEN_FILES.groups[name as keyof typeof GOLDEN_FILES.groups], goldenText(golden))) changed.push(name);
    }
    const runsGolden: RunsGolden = runGoldens(generatedWith.events, runs, answers.events.sensorRuns);
    if (keep(GOLDEN_FILES.runs, goldenText(runsGolden))) changed.push('sensor runs');

    const differences: Difference[] = differencesOf(
      Object.entries(sets).flatMap(([name, inputs]) => inputs.map((group) => ({ group, answer: groupFiles[name].groups[group.id] }))),
    );
    if (keep(GOLDEN_FILES.differences, goldenText({ differences }))) changed.push('differences');
    console.log(
      `${groups.length} groups, ${objects.length} objects decided by Argo, ${runs.length} Sensor runs; ${differences.length} intended differences`,
    );
    if (changed.length > 0) {
      console.log(`${check ? 'out of date' : 'rewritten'}: ${changed.join(', ')}`);
      if (check) process.exitCode = 1;
    } else console.log('every golden is up to date');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`oracle: ${(error as Error).message}`);
  process.exitCode = 1;
});
