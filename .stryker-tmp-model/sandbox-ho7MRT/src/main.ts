/**
 * The cdk8s app entry (`cdk8s synth` runs it, see cdk8s.yaml): the embedded default platform, or the one
 * `agent-play.yaml` describes, written to dist-manifests/ by `agent-play synth` itself (validated, atomically,
 * nothing written on an error).
 *
 * The cdk8s CLI deletes its output folder before it runs the app (cdk8s-cli's `synth` command calls
 * `fs.rmSync(outdir, { recursive: true, force: true })`, lib/cli/cmds/synth.js), so its `output` must never
 * be dist-manifests/: a broken configuration would leave no manifests at all. cdk8s.yaml points it at a
 * folder under build/, and the CLI lists what it finds there as the output (lib/util.js, synthApp). So that
 * this list is true, the folder holds links to the files of dist-manifests/, not copies of them: each
 * listed path is the written file (and a cdk8s validation plugin reads the real output through it).
 */
// @ts-nocheck

import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { exitWhenWritten, runCli } from './cli';

const MANIFESTS = 'dist-manifests';

function main(): number {
  const cliOut = process.env.CDK8S_OUTDIR;
  // The cdk8s CLI keeps the app's standard output to itself and shows its standard error: what synth says
  // (where it wrote) goes there when the CLI runs the app.
  const say = (text: string): boolean => (cliOut ? process.stderr : process.stdout).write(text);
  const code = runCli(['synth', '--out', MANIFESTS], { out: say, err: (text) => process.stderr.write(text), env: process.env });
  if (typeof code !== 'number') throw new Error('synth is a synchronous command');
  if (code !== 0 || !cliOut || path.resolve(cliOut) === path.resolve(MANIFESTS)) return code;
  mkdirSync(cliOut, { recursive: true });
  for (const file of readdirSync(MANIFESTS)) {
    const target = path.join(MANIFESTS, file);
    try {
      symlinkSync(path.relative(cliOut, target), path.join(cliOut, file));
    } catch {
      cpSync(target, path.join(cliOut, file)); // a file system without links
    }
  }
  say(`the cdk8s CLI lists them below through ${cliOut}/, whose files link to ${MANIFESTS}/\n`);
  return code;
}

exitWhenWritten(main());
