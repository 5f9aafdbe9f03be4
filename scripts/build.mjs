// Compiles the command line and the library to CommonJS with esbuild (about 0.1 s), so that `npm run synth`
// runs plain JavaScript: ts-node and tsx would cost more than the synthesis itself.
import { buildSync } from 'esbuild';

buildSync({
  entryPoints: { cli: 'src/cli.ts', main: 'src/main.ts', index: 'constructs/index.ts', validate: 'src/validate/index.ts', 'minimal-app': 'bench/minimal-app.ts', 'project-app': 'bench/project-app.ts' },
  outdir: 'build',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
