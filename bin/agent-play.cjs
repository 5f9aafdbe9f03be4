#!/usr/bin/env node
// The installed command: runs the compiled command line (built by `npm run build`, or on install by `prepare`).
const built = require('node:path').join(__dirname, '../build/cli.cjs');
if (!require('node:fs').existsSync(built)) {
  process.stderr.write(`agent-play: not built yet (no ${built}); run npm ci (or npm run build) in the project first\n`);
  process.exit(2);
}
const { runCli, endQuietlyOnClosedPipe } = require(built);
endQuietlyOnClosedPipe(process.stdout);
process.exitCode = runCli(process.argv.slice(2));
