// `npm run e2e [-- scenario...]`: builds the Go harness (e2e/cmd/e2e) and runs the scenarios of
// e2e/scenarios.yaml on a local control plane with the real Argo controllers (docs/e2e.md).
// Needs Go (GOTOOLCHAIN as the README says), root (network and mount namespaces), node, jq and nsenter.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const repoDir = path.dirname(e2eDir);
const env = { ...process.env };
if (existsSync('/usr/local/go/bin') && !(env.PATH ?? '').split(':').includes('/usr/local/go/bin')) {
  env.PATH = `${env.PATH ?? ''}:/usr/local/go/bin`;
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, env, stdio: 'inherit' });
  if (r.error) {
    console.error(`e2e: ${cmd}: ${r.error.message}`);
    process.exit(1);
  }
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// agent-play itself (simulate, resume, synth) comes from the build folder.
run('node', ['scripts/build.mjs'], repoDir);
run('nice', ['-n', '10', 'go', 'build', '-o', path.join('.bin', 'e2e'), './cmd/e2e'], e2eDir);
// Every container's first process: the harness's code without its dependencies, quick to start.
run('nice', ['-n', '10', 'go', 'build', '-o', path.join('.bin', 'container-init'), './cmd/container-init'], e2eDir);
run(path.join(e2eDir, '.bin', 'e2e'), ['run', '-e2e', e2eDir, ...process.argv.slice(2)], e2eDir);
