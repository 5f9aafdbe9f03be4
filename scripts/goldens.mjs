// Regenerates test/golden/*.json from test/golden/vectors/*.json with tools/go-oracle, which evaluates the
// vectors with the real Go libraries Argo Events uses. Needs Go and Debian's packaged libraries:
//   apt-get install golang-go golang-github-tidwall-gjson-dev golang-github-masterminds-sprig-dev \
//     golang-github-knetic-govaluate-dev
// and tidwall/sjson v1.2.5, which Debian does not package: set SJSON_SRC to a checkout of it (the directory
// holding sjson.go), or let this script clone it (needs git and network). Its code is copied into the scratch
// GOPATH of the build, never into the repository.
// The build runs in GOPATH mode against /usr/share/gocode, where those packages install their sources.
// CI does not run this: it checks the committed goldens (test/simulate-engine/golden-oracle.test.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SJSON_VERSION = 'v1.2.5';
const work = mkdtempSync(join(tmpdir(), 'go-oracle-'));
const env = {
  ...process.env,
  GO111MODULE: 'off',
  GOPATH: `${work}/gopath:/usr/share/gocode`,
  GOCACHE: process.env.GOCACHE ?? join(work, 'cache'),
  GOFLAGS: '',
};

/** Puts tidwall/sjson on the scratch GOPATH, unless a Debian package already provides it. */
function provideSjson() {
  if (existsSync('/usr/share/gocode/src/github.com/tidwall/sjson/sjson.go')) return;
  const target = join(work, 'gopath', 'src', 'github.com', 'tidwall', 'sjson');
  mkdirSync(join(target, '..'), { recursive: true });
  if (process.env.SJSON_SRC) {
    cpSync(process.env.SJSON_SRC, target, { recursive: true, filter: (path) => !path.includes('.git') });
    return;
  }
  execFileSync('git', ['clone', '--quiet', '--depth', '1', '--branch', SJSON_VERSION, 'https://github.com/tidwall/sjson', target], {
    stdio: 'inherit',
  });
}

try {
  provideSjson();
  const binary = join(work, 'go-oracle');
  execFileSync('go', ['build', '-o', binary, './tools/go-oracle'], { env, stdio: 'inherit' });
  execFileSync(binary, ['test/golden/vectors', 'test/golden'], { stdio: 'inherit' });
  console.log('goldens written to test/golden/');
} catch (error) {
  console.error(`goldens: ${error.message.split('\n')[0]} (sjson: set SJSON_SRC to a checkout of tidwall/sjson ${SJSON_VERSION})`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
