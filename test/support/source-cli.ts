import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { cachedProduct, hashOf, hashTree, installedPackagesHash } from './build-cache';

const ROOT = path.resolve(__dirname, '../..');
/** What the bundle is made from: the sources it imports (and what they import as data), and its recipe. */
const SOURCES = ['src', 'constructs', 'runtime', 'schemas', 'package.json', 'tsconfig.json'];
const ENTRY = `import { runCli } from './src/cli';
const code = runCli(process.argv.slice(2));
if (typeof code === 'number') process.exitCode = code;
`;

/**
 * The command line compiled from the sources as they are, one file for Node to run: for the tests that need
 * it in a process of its own (a read that blocks, a folder that never ends). tsx compiled each source file
 * again in every such process (TSX_DISABLE_CACHE, so that no cache outlives the run in the temp folder): seconds of CPU
 * a run; the bundle is kept under the hash of the sources (test/support/build-cache.ts). Its packages stay in
 * node_modules, as with tsx.
 */
export function sourceCli(): string {
  const key = hashOf(ENTRY, hashTree(ROOT, SOURCES), installedPackagesHash(ROOT));
  return cachedProduct('source-cli', key, '.cjs', (file) => {
    buildSync({
      stdin: { contents: ENTRY, resolveDir: ROOT, sourcefile: 'source-cli.ts', loader: 'ts' },
      outfile: file,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
    });
  });
}

/** Runs `agent-play ARGS...` from the sources in a process of its own, in `cwd`, stopped after `timeout` ms. */
export function runSourceCli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; timeout: number },
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [sourceCli(), ...args], {
    cwd: options.cwd,
    encoding: 'utf8',
    timeout: options.timeout,
    env: { ...process.env, ...options.env },
  });
}
