/**
 * The cdk8s app entry (`cdk8s synth` runs it, see cdk8s.yaml): the embedded default platform, or the one
 * `agent-play.yaml` describes, written where the cdk8s CLI asks (CDK8S_OUTDIR) or to dist-manifests/.
 */
import { runCli } from './cli';

process.exitCode = runCli(['synth', '--out', process.env.CDK8S_OUTDIR ?? 'dist-manifests']);
