// Regenerates test/golden/*.json from test/golden/vectors/*.json with tools/go-oracle, which evaluates the
// vectors with the real Go libraries Argo Events uses. Needs Go and Debian's packaged libraries:
//   apt-get install golang-go golang-github-tidwall-gjson-dev golang-github-masterminds-sprig-dev \
//     golang-github-knetic-govaluate-dev
// The build runs in GOPATH mode against /usr/share/gocode, where those packages install their sources.
// CI does not run this: it checks the committed goldens (test/golden-oracle.test.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const work = mkdtempSync(join(tmpdir(), 'go-oracle-'));
const env = {
  ...process.env,
  GO111MODULE: 'off',
  GOPATH: `${work}/gopath:/usr/share/gocode`,
  GOCACHE: process.env.GOCACHE ?? join(work, 'cache'),
  GOFLAGS: '',
};
try {
  const binary = join(work, 'go-oracle');
  execFileSync('go', ['build', '-o', binary, './tools/go-oracle'], { env, stdio: 'inherit' });
  execFileSync(binary, ['test/golden/vectors', 'test/golden'], { stdio: 'inherit' });
  console.log('goldens written to test/golden/');
} catch (error) {
  console.error(`goldens: ${error.message.split('\n')[0]}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
