/**
 * The baseline of the benchmark: a minimal cdk8s app (one cdk8s-plus-28 Deployment and one ConfigMap),
 * synthesized and written the way `npm run synth` writes the platform.
 */
// @ts-nocheck

import { App, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { synthesizeApp } from '../src/synth/synthesize-app';
import { writeManifests } from '../src/synth/write-manifests';

const app = new App();
const chart = new Chart(app, 'minimal');
new kplus.Deployment(chart, 'web', { containers: [{ image: 'nginx:1.27.3', portNumber: 8080 }] });
new kplus.ConfigMap(chart, 'settings', { data: { greeting: 'hello' } });
const outIndex = process.argv.indexOf('--out');
writeManifests(outIndex > 0 ? process.argv[outIndex + 1] : 'dist-minimal', synthesizeApp(app));
