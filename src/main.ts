/**
 * The cdk8s app entry (`cdk8s synth` runs it, see cdk8s.yaml): the embedded default platform, or the one
 * `agent-play.yaml` describes, written to dist-manifests/ by `agent-play synth` itself (validated, atomically,
 * nothing written on an error).
 *
 * The cdk8s CLI deletes its output folder before it runs the app (cdk8s-cli's `synth` command calls
 * `fs.rmSync(outdir, { recursive: true, force: true })`, lib/cli/cmds/synth.js), so its `output` must never
 * be dist-manifests/: cdk8s.yaml points it at a scratch folder under build/, and the app copies what it
 * wrote there for the CLI to list (and for any cdk8s validation plugin to read).
 */
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { exitWhenWritten, runCli } from './cli';

const MANIFESTS = 'dist-manifests';

function main(): number {
  const code = runCli(['synth', '--out', MANIFESTS]);
  if (typeof code !== 'number') throw new Error('synth is a synchronous command');
  const cliOut = process.env.CDK8S_OUTDIR;
  if (code !== 0 || !cliOut || path.resolve(cliOut) === path.resolve(MANIFESTS)) return code;
  mkdirSync(cliOut, { recursive: true });
  for (const file of readdirSync(MANIFESTS)) cpSync(path.join(MANIFESTS, file), path.join(cliOut, file));
  return code;
}

exitWhenWritten(main());
