/**
 * The package as a user gets it: `npm pack` (which runs the `prepack` release build) in a scratch copy of
 * the project, the tarball unpacked into a scratch strict-TypeScript cdk8s app beside the peers from our
 * node_modules (no network), a composition and the README's TypeScript example compiled with `strict`, run
 * and synthesized. Also: the README's example runs as written inside the checkout (`import ... from
 * 'cdk8s-agent-play'` resolves to the sources there).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useScratchDirs } from './support/scratch-dir';

const ROOT = path.resolve(__dirname, '..');
/** What the release build reads. */
const PROJECT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'README.md',
  'bin',
  'scripts',
  'constructs',
  'runtime',
  'src',
  'bench',
  'schemas',
  'dist-manifests',
];
/** Dependencies the scratch app takes from our node_modules: the package's own, its peers, the compiler. */
const LINKED = [
  'ajv',
  'fast-deep-equal',
  'fast-uri',
  'json-schema-traverse',
  'require-from-string',
  'yaml',
  'zod',
  're2js',
  '@bufbuild/cel',
  '@bufbuild/cel-spec',
  '@bufbuild/re2',
  '@bufbuild/protobuf',
  'cdk8s',
  'cdk8s-plus-28',
  'constructs',
  'typescript',
  '@types/node',
  'undici-types',
];

/** The composition example of the library guide (it moved there from the README). */
const EXAMPLE_DOC = 'docs/library.md';
const README_EXAMPLE = /## Composing your own platform in TypeScript[\s\S]*?```ts\n([\s\S]*?)```/;

const COMPOSITION = `import { App } from 'cdk8s';
import { AgentPlatform, StageMachine, StageMachineBuilder, type PlatformConfigInput } from 'cdk8s-agent-play';
import { validatePlatform } from 'cdk8s-agent-play/validate';

const config: PlatformConfigInput = {
  repositories: [{ name: 'acme/web', service: 'web' }],
  projects: [{ name: 'launch', repository: 'acme/web', tasks: [{ id: 1 }, { id: 2, dependsOn: [1] }] }],
};
const app = new App({ outdir: 'out-composition' });
const platform = new AgentPlatform(app, 'platform', { config });
const stages: StageMachine = platform.stages;
const reshaped = StageMachineBuilder.from(stages, { agents: ['rex', 'blaze', 'cleo', 'tess', 'cipher', 'morgan'] }).build();
new AgentPlatform(new App(), 'again', { config, stages: reshaped });
validatePlatform(app);
app.synth();
`;

const STRICT_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    types: ['node'],
    skipLibCheck: true,
    outDir: 'js',
  },
  include: ['*.ts'],
};

const scratchDir = useScratchDirs('agent-play-package-');
let scratch: string;
let app: string;

beforeAll(() => {
  scratch = scratchDir();
  const project = path.join(scratch, 'project');
  for (const file of PROJECT_FILES) cpSync(path.join(ROOT, file), path.join(project, file), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
  execFileSync('npm', ['pack', '--silent', '--pack-destination', scratch], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, AGENT_PLAY_CACHE_DIR: path.join(scratch, 'cache') },
  });
  const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');
  app = path.join(scratch, 'app');
  const installed = path.join(app, 'node_modules', 'cdk8s-agent-play');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(scratch, tarball), '-C', installed, '--strip-components=1']);
  for (const name of LINKED) {
    const target = path.join(app, 'node_modules', name);
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', name), target, 'dir');
  }
  writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: 'scratch-app', private: true, dependencies: { 'cdk8s-agent-play': `file:../${tarball}` } }),
  );
  writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(STRICT_TSCONFIG));
  writeFileSync(path.join(app, 'composition.ts'), COMPOSITION);
  const readme = README_EXAMPLE.exec(readFileSync(path.join(ROOT, EXAMPLE_DOC), 'utf8'));
  if (!readme) throw new Error(`${EXAMPLE_DOC}: no TypeScript example under 'Composing your own platform in TypeScript'`);
  writeFileSync(path.join(app, 'readme.ts'), readme[1]);
}, 240_000);

describe('the packed package', () => {
  it('is installed beside every runtime dependency it declares (a new dependency must be linked here too)', () => {
    const declared = Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).dependencies);
    expect(declared.filter((name) => !LINKED.includes(name))).toEqual([]);
  });

  it('ships the compiled library, its declarations, the schemas and their licenses; no sources, source maps or bench bundles', () => {
    const installed = path.join(app, 'node_modules', 'cdk8s-agent-play');
    const files = readdirSync(installed, { recursive: true, encoding: 'utf8' }).sort();
    for (const expected of [
      'build/index.cjs',
      'build/validate.cjs',
      'build/cli.cjs',
      'build/cli-bundle.cjs',
      'build/types/constructs/index.d.ts',
      'build/types/src/validate/index.d.ts',
      'schemas/argo-workflows.json',
      'schemas/PROVENANCE.json',
      'schemas/LICENSE-argo-workflows',
      'schemas/LICENSE-argo-events',
      'schemas/kubernetes.json',
      'schemas/PROVENANCE-kubernetes.json',
      'schemas/LICENSE-kubernetes',
      'bin/agent-play.cjs',
    ]) {
      expect(files).toContain(expected);
    }
    expect(
      files.filter(
        (file) =>
          file.endsWith('.map') ||
          file.includes('minimal-app') ||
          file.includes('project-app') ||
          (file.endsWith('.ts') && !file.endsWith('.d.ts')),
      ),
    ).toEqual([]);
    expect(
      files.some((file) => file.startsWith('build/validators/') && file.endsWith('.cjs')),
      'precompiled validators',
    ).toBe(true);
    // The release build, not a development build made after it (npm pack runs `prepare` after `prepack`):
    // no shipped bundle points at a source map.
    const bundles = files.filter((file) => /^build\/[^/]+\.cjs$/.test(file));
    expect(bundles).toContain('build/cli-bundle.cjs');
    expect(bundles.filter((file) => readFileSync(path.join(installed, file), 'utf8').includes('sourceMappingURL'))).toEqual([]);
    // The command line's bundle carries packages (the peers among them): their notices travel with it.
    const notices = readFileSync(path.join(installed, 'build/THIRD-PARTY-NOTICES.txt'), 'utf8');
    for (const carried of ['cdk8s', 'cdk8s-plus-28', 'constructs', 'zod', 'yaml', '@bufbuild/cel'])
      expect(notices).toMatch(new RegExp(`^=== ${carried.replace('/', '\\/')} \\d+\\.\\d+\\.\\d+ \\(`, 'm'));
    expect(notices).toContain('Copyright Amazon.com, Inc. or its affiliates. All Rights Reserved.');
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['cdk8s', 'cdk8s-plus-28', 'constructs']);
    for (const range of Object.values<string>(manifest.peerDependencies)) expect(range).toMatch(/^\^/);
    expect(manifest.dependencies).not.toHaveProperty('cdk8s');
  });

  it('compiles a composition and the README example with strict TypeScript, and both synthesize', () => {
    execFileSync(process.execPath, [path.join(app, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: app,
      encoding: 'utf8',
    });
    execFileSync(process.execPath, ['js/composition.js'], {
      cwd: app,
      env: { ...process.env, AGENT_PLAY_CACHE_DIR: path.join(scratch, 'cache') },
    });
    const plays = readdirSync(path.join(app, 'out-composition')).find((file) => file.startsWith('platform-play-workflow-templates'));
    expect(plays, 'the plays chart').toBeDefined();
    expect(readFileSync(path.join(app, 'out-composition', plays ?? ''), 'utf8')).toContain('name: play\n');
    const registry = readdirSync(path.join(app, 'out-composition')).find((file) => file.startsWith('platform-repository-registry'));
    expect(readFileSync(path.join(app, 'out-composition', registry ?? ''), 'utf8')).toContain('acme.web:');
    // validatePlatform found the validators the package carries (the library's bundle knows them by the same
    // keys as the command line's): nothing was compiled into the user's cache.
    const compiled = path.join(scratch, 'cache', 'validators');
    expect(existsSync(compiled) ? readdirSync(compiled).filter((file) => file.endsWith('.cjs')) : []).toEqual([]);
    execFileSync(process.execPath, ['js/readme.js'], { cwd: app });
    expect(readdirSync(path.join(app, 'dist')).length).toBeGreaterThan(5);
  });

  it('runs its command: agent-play validate with the built-in schemas and no compiler at hand', () => {
    const out = execFileSync(
      process.execPath,
      [path.join(app, 'node_modules/cdk8s-agent-play/bin/agent-play.cjs'), 'validate', path.join(ROOT, 'dist-manifests'), '--verbose'],
      { encoding: 'utf8', env: { ...process.env, AGENT_PLAY_CACHE_DIR: path.join(scratch, 'empty-cache') } },
    );
    expect(out).toContain('built-in: Argo Workflows v4.1.2 CRD workflowtemplates.argoproj.io');
    expect(out).toMatch(/0 errors, 0 warnings\n$/);
    // --help answers from the usage text the build wrote, the same text the command line prints.
    const installed = path.join(app, 'node_modules/cdk8s-agent-play');
    const help = execFileSync(process.execPath, [path.join(installed, 'bin/agent-play.cjs'), '--help'], { encoding: 'utf8' });
    expect(readFileSync(path.join(installed, 'build/usage.txt'), 'utf8')).toBe(help);
    expect(help).toBe(
      execFileSync(process.execPath, ['-e', "require('./build/cli.cjs').runCli(['--help'])"], { cwd: installed, encoding: 'utf8' }),
    );
    // synth from the installed command, which carries its own cdk8s: the committed manifests, byte for byte.
    const synthOut = path.join(scratch, 'installed-synth');
    execFileSync(process.execPath, [path.join(installed, 'bin/agent-play.cjs'), 'synth', '--out', synthOut], {
      cwd: scratch,
      env: { ...process.env, AGENT_PLAY_CACHE_DIR: path.join(scratch, 'empty-cache') },
    });
    const committed = readdirSync(path.join(ROOT, 'dist-manifests')).sort();
    expect(readdirSync(synthOut).sort()).toEqual(committed);
    for (const file of committed)
      expect(readFileSync(path.join(synthOut, file), 'utf8'), file).toBe(readFileSync(path.join(ROOT, 'dist-manifests', file), 'utf8'));
    // The validators came compiled in the package: nothing was compiled into the user's cache.
    const cached = path.join(scratch, 'empty-cache', 'validators');
    expect(existsSync(cached) ? readdirSync(cached).filter((file) => file.endsWith('.cjs')) : []).toEqual([]);
  });
});

describe("the README's TypeScript example inside the checkout", () => {
  it("runs as written: 'cdk8s-agent-play' is the sources here", () => {
    const folder = path.join(ROOT, 'build', `readme-example-${process.pid}`);
    mkdirSync(folder, { recursive: true });
    try {
      const readme = README_EXAMPLE.exec(readFileSync(path.join(ROOT, EXAMPLE_DOC), 'utf8'));
      writeFileSync(path.join(folder, 'example.ts'), readme?.[1] ?? '');
      execFileSync(
        process.execPath,
        [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '--tsconfig', path.join(ROOT, 'tsconfig.json'), 'example.ts'],
        // tsx keeps its compile cache in the temp folder, where it would outlive the run: here it goes with the
        // example (a cold cache costs this run nothing measurable).
        { cwd: folder, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: folder } },
      );
      expect(existsSync(path.join(folder, 'dist'))).toBe(true);
      expect(readdirSync(path.join(folder, 'dist')).length).toBeGreaterThan(5);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
