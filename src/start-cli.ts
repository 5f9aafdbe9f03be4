/**
 * The front door of the compiled command line (build/cli.cjs, what bin/agent-play.cjs and `npm run synth`
 * run). It loads the bundled command line (build/cli-bundle.cjs: our code with what it runs, cdk8s,
 * cdk8s-plus-28 and constructs included; only ajv is left to node_modules) and keeps V8's compiled form of
 * it, and of the modules it loads from node_modules, in the user's cache folder (compile-cache.ts), as
 * validator-cache.ts does for the validators: compiling three megabytes of JavaScript on every start costs
 * more than building the platform. The cache file is keyed by the Node version, the bundle's
 * file identity (size, modification time and inode: a build rewrites it) and the command.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import type * as Cli from './cli';
import { CompileCache, fileIdentity } from './compile-cache';
import { userCacheDir } from './user-cache-dir';
import { keepYoungGenerationSmall } from './young-generation';

const BUNDLE = path.join(__dirname, 'cli-bundle.cjs');

/**
 * The built-in modules the bundle requires, and the lazily loaded parts of them it uses, loaded before the
 * flag below is set. Node compiles its own modules from a code cache built into the binary, which V8
 * accepts only under the flags it was made with: a built-in first loaded after `setFlagsFromString` is
 * compiled from source (child_process with net and dgram, 3 ms of every synthesis). Loading one the command
 * would not have loaded costs a fraction of that. test/start-cli-flags.test.ts checks that a synthesis
 * loads no other built-in after the flag.
 */
const BUILT_INS_BEFORE_FLAGS = ['node:child_process', 'node:process', 'node:util'] as const;

function loadBuiltInsBeforeFlags(): void {
  const load = createRequire(__filename);
  for (const name of BUILT_INS_BEFORE_FLAGS) load(name);
  // A getter that loads its module (util/parse_args) on first use.
  void (load('node:util') as typeof import('node:util')).parseArgs;
}

/**
 * V8 optimises a function once it has run about 66 KB of bytecode (its interrupt budget); a command runs for
 * a fraction of a second, and optimising what merely starts up cost a sixth of `agent-play synth`'s CPU, on
 * the other core or on this one. Four times the budget leaves that to the code that stays hot: a synthesis
 * of 10,000 project tasks takes as long as before, validating the 220 upstream examples a fifth less.
 * Set before the bundle is compiled, so that its compiled-code cache is made and read under the same flags.
 */
loadBuiltInsBeforeFlags();
v8.setFlagsFromString('--interrupt-budget=270336');
keepYoungGenerationSmall();

function loadCli(): typeof Cli {
  // ASCII, which scripts/build.mjs checks: read as Latin-1, it is the one-byte string V8 compiles fastest,
  // without scriptSource's scan of the whole bundle for other bytes (10 ms of CPU for its 2.5 MB).
  const code = readFileSync(BUNDLE, 'latin1');
  const key = createHash('sha256')
    .update(`${process.version}\0${process.arch}\0${fileIdentity(BUNDLE) ?? ''}\0${code.length}`)
    .digest('hex')
    .slice(0, 32);
  // One cache per command: each keeps the functions its own command compiled.
  const command = /^[a-z][a-z-]{0,30}$/.test(process.argv[2] ?? '') ? process.argv[2] : 'other';
  // Replaces the cache of this command of an older build, and those of builds before there was one per command.
  const cache = CompileCache.open(path.join(userCacheDir(), 'code', `cli-${key}-${command}.v8`), {
    replaces: new RegExp(`^cli-[0-9a-f]{32}(-${command})?\\.v8$`),
    freshAfterOneOffWork: true,
  });
  cache.coverNodeModules();
  const script = cache.compile(BUNDLE, Module.wrap(code), key);
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
  return loaded.exports as typeof Cli;
}

const cli = loadCli();
export const { runCli, endQuietlyOnClosedPipe, exitWhenWritten, ExitCode } = cli;

if (require.main === module) {
  endQuietlyOnClosedPipe(process.stdout);
  const code = runCli(process.argv.slice(2));
  if (typeof code === 'number') exitWhenWritten(code);
  else void code.then((exitCode) => exitWhenWritten(exitCode));
}
