/**
 * The front door of the compiled command line (build/cli.cjs, what bin/agent-play.cjs and `npm run synth`
 * run). It loads the bundled command line (build/cli-bundle.cjs: our code with its runtime dependencies,
 * the peers cdk8s, cdk8s-plus-28 and constructs left to node_modules) and keeps V8's compiled form of it in
 * the user's cache folder, as validator-cache.ts does for the validators: compiling two megabytes of
 * JavaScript on every start costs more than building the platform. The cache is keyed by the Node version
 * and a hash of the code, because V8 itself checks only the code's length; a missing, stale or unwritable
 * cache costs time, never an error.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import { Script } from 'node:vm';
import type * as Cli from './cli';
import { userCacheDir, writeCacheFile } from './user-cache-dir';

const BUNDLE = path.join(__dirname, 'cli-bundle.cjs');

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function loadCli(): typeof Cli {
  const code = readFileSync(BUNDLE, 'utf8');
  const key = createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(code).digest('hex').slice(0, 32);
  const cacheFile = path.join(userCacheDir(), 'code', `cli-${key}.v8`);
  const cachedData = readCache(cacheFile);
  const script = new Script(Module.wrap(code), { filename: BUNDLE, cachedData });
  const loaded = new Module(BUNDLE, module);
  loaded.filename = BUNDLE;
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    loaded.exports,
    loaded.exports,
    createRequire(BUNDLE),
    loaded,
    BUNDLE,
    __dirname,
  );
  loaded.loaded = true;
  // Written once the command has run, so that the functions it compiled on the way are kept too.
  if (!cachedData || script.cachedDataRejected) process.once('exit', () => writeCacheFile(cacheFile, script.createCachedData()));
  return loaded.exports as typeof Cli;
}

const cli = loadCli();
export const { runCli, endQuietlyOnClosedPipe, ExitCode } = cli;

if (require.main === module) {
  endQuietlyOnClosedPipe(process.stdout);
  process.exitCode = runCli(process.argv.slice(2));
}
