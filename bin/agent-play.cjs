#!/usr/bin/env node
// The installed command: runs the compiled command line (built by `npm run build`, or on install by `prepare`).
const { runCli } = require('../build/cli.cjs');
process.exitCode = runCli(process.argv.slice(2));
