// @ts-nocheck
// Counts the tests of the suite by kind, so a reader sees how many tests check behaviour and how many only
// guard against drift or false positives:
//   snapshot   a test whose body compares with a stored snapshot (toMatchSnapshot, toMatchFileSnapshot, ...)
//   corpus     a test generated (it.each) over the upstream example corpus (its describe names the corpus
//              or the upstream examples): it only proves the absence of false positives
//   golden     a test against the answers of real Go (test/golden, written by oracle/)
//   behaviour  every other test: it states what the code must do
// Usage: node tools/test-kinds.mjs [vitest-json-report]   (without a report it runs the suite: 1-3 minutes)
//        node tools/test-kinds.mjs --by-file [report]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const SNAPSHOT = /\.toMatch(File|Inline)?Snapshot\(|\.toThrowErrorMatching(Inline)?Snapshot\(/;
const CORPUS = /corpus|upstream example/i;
const GOLDEN_FILES = new Set(['test/simulate-engine/golden-oracle.test.ts']);
const TEST_START = /^\s*(it|test)(\.each\([\s\S]*?\))?\s*\(|^\s*(it|test)\.each\b/;

function report(path) {
  if (path) return JSON.parse(readFileSync(path, 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'test-kinds-'));
  const out = join(dir, 'report.json');
  try {
    execFileSync('npx', ['vitest', 'run', '--reporter=json', `--outputFile=${out}`, '--includeTaskLocation'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch {
    // A failing test still leaves its report: the counts are what they are.
  }
  try {
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The source lines of each test, from its first line to the line before the next test starts. */
function testBlocks(source) {
  const lines = source.split('\n');
  const starts = lines.flatMap((line, index) => (TEST_START.test(line) ? [index + 1] : []));
  return starts.map((start, index) => ({ start, text: lines.slice(start - 1, (starts[index + 1] ?? lines.length + 1) - 1).join('\n') }));
}

function kindOf(file, test, blocks) {
  if (GOLDEN_FILES.has(file)) return 'golden';
  const line = test.location?.line;
  const block = line === undefined ? undefined : [...blocks].reverse().find((candidate) => candidate.start <= line);
  if (block && /^\s*(it|test)\.each/.test(block.text) && test.ancestorTitles.some((title) => CORPUS.test(title))) return 'corpus';
  if (block && SNAPSHOT.test(block.text)) return 'snapshot';
  return 'behaviour';
}

const args = process.argv.slice(2);
const byFile = args.includes('--by-file');
const data = report(args.find((arg) => !arg.startsWith('--')));
const totals = { behaviour: 0, snapshot: 0, corpus: 0, golden: 0 };
const files = [];
for (const result of data.testResults) {
  const file = relative(process.cwd(), result.name);
  const blocks = testBlocks(readFileSync(result.name, 'utf8'));
  const counts = { behaviour: 0, snapshot: 0, corpus: 0, golden: 0 };
  for (const test of result.assertionResults) {
    if (test.status === 'skipped' || test.status === 'pending' || test.status === 'todo') continue;
    counts[kindOf(file, test, blocks)] += 1;
  }
  for (const kind of Object.keys(totals)) totals[kind] += counts[kind];
  files.push({ file, ...counts });
}
if (byFile)
  for (const row of files.sort((a, b) => a.file.localeCompare(b.file)))
    console.log(`${row.file}\t${row.behaviour}\t${row.snapshot}\t${row.corpus}\t${row.golden}`);
const total = Object.values(totals).reduce((sum, count) => sum + count, 0);
for (const [kind, count] of Object.entries(totals))
  console.log(`${kind.padEnd(10)} ${String(count).padStart(5)}  ${((100 * count) / total).toFixed(1)}%`);
console.log(`${'total'.padEnd(10)} ${String(total).padStart(5)}`);
