// @ts-nocheck
// npm run bench: builds once, then runs every bench/*-bench.mjs in name order, each as its own process so
// that one benchmark's heap never weighs on another's numbers.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

execFileSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
const benches = readdirSync('bench')
  .filter((name) => name.endsWith('-bench.mjs'))
  .sort();
for (const bench of benches) {
  console.log(`\n== ${bench}`);
  execFileSync('node', [`bench/${bench}`], { stdio: 'inherit' });
}
