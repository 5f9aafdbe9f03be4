#!/usr/bin/env node
// @ts-nocheck
// The installed command: runs the compiled command line (built by `npm run build`, or by `prepack` for the
// package). `agent-play --help` prints the usage text the build wrote from that same command line
// (build/usage.txt), so that asking for help does not load every command's modules.
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);
const HELP = ['--help', '-h', 'help'];
const built = join(__dirname, '..', 'build', 'cli.cjs');

function cachedUsage() {
  try {
    return readFileSync(join(__dirname, '..', 'build', 'usage.txt'), 'utf8');
  } catch {
    return undefined;
  }
}

if (!existsSync(built)) {
  process.stderr.write(`agent-play: not built yet (no ${built}); run npm ci (or npm run build) in the project first\n`);
  process.exit(2);
}
const usage = args.length === 1 && HELP.includes(args[0]) ? cachedUsage() : undefined;
if (usage !== undefined) {
  process.stdout.write(usage);
} else {
  const { runCli, endQuietlyOnClosedPipe, exitWhenWritten } = require(built);
  endQuietlyOnClosedPipe(process.stdout);
  exitWhenWritten(runCli(args));
}
