/**
 * The package as a user gets it: `npm pack` (which runs the `prepack` release build) in a scratch copy of
 * the project, once; the tarball unpacked beside the peers from our node_modules (no network), shared by three
 * consumer projects: a stock `cdk8s init typescript-app` one (its template's tsconfig as generated: CommonJS,
 * the classic `node` resolution, no `esModuleInterop`, no `skipLibCheck`), a strict `nodenext` one and an ESM
 * one. Each compiles a composition and the README's TypeScript example with the compiler's API in this process
 * (one parse of each declaration file for the three), and runs one of them. Also: the README's example runs as
 * written inside the checkout (`import ... from 'cdk8s-agent-play'` resolves to the sources there).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cachedProduct, hashOf, hashTree, installedPackagesHash } from './support/build-cache';
import { checkedCompile } from './support/checked-compile';
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
/** How the tarball is made: change it with the making, so that no tarball made otherwise is taken. */
const PACK_RECIPE = 'npm pack --silent, the project files copied, node_modules linked';
const README_EXAMPLE = /## Composing your own platform in TypeScript[\s\S]*?```ts\n([\s\S]*?)```/;

/**
 * A composition as a user writes it: a config override typed as written (an agent entry gives only what it
 * changes), a typed resolveConfig file, a reshaped stage machine, a platform in the user's own chart, and
 * validatePlatform at synthesis.
 */
const COMPOSITION = `import { App, Chart } from 'cdk8s';
import { AgentPlatform, resolveConfig, StageMachine, StageMachineBuilder, type PlatformConfigInput } from 'cdk8s-agent-play';
import { validatePlatform } from 'cdk8s-agent-play/validate';

const config: PlatformConfigInput = {
  agents: { cleo: { cli: 'codex' } },
  repositories: [{ name: 'acme/web', service: 'web' }],
  projects: [{ name: 'launch', repository: 'acme/web', tasks: [{ id: 1 }, { id: 2, dependsOn: [1] }] }],
};
const resolved = resolveConfig({ file: { clis: { codex: { settings: { approvalPolicy: 'never' } } } } });
const app = new App({ outdir: 'out-composition' });
const platform = new AgentPlatform(app, 'platform', { config });
const stages: StageMachine = platform.stages;
const reshaped = StageMachineBuilder.from(stages, { agents: Object.keys(resolved.agents) }).build();
new AgentPlatform(new Chart(app, 'team', { namespace: 'team-b' }), 'again', { config: resolved, stages: reshaped });
validatePlatform(app);
app.synth();
`;

/**
 * The consumer projects: their compiler options, their package type, and the program each runs. The stock
 * project checks every declaration file (no `skipLibCheck`, as generated); the other two skip what the stock
 * one has checked, as their usual templates do.
 */
const CONSUMERS = {
  /** `cdk8s init typescript-app` as generated (cdk8s-cli's template tsconfig.json, read below). */
  stock: { type: 'commonjs', run: 'composition.js' },
  nodenext: {
    type: 'commonjs',
    run: 'readme.js',
    options: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], skipLibCheck: true },
  },
  esm: {
    type: 'module',
    run: 'composition.js',
    options: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], skipLibCheck: true },
  },
} as const;
type Consumer = keyof typeof CONSUMERS;

const scratchDir = useScratchDirs('agent-play-package-');
let scratch: string;
let consumers: string;

/** Every SourceFile parsed once for the three programs: the declarations of cdk8s, the package and Node. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/**
 * Compiles a consumer project with the compiler's API (its tsconfig.json when it has one, else `options`),
 * writing its JavaScript beside it; returns every diagnostic, formatted.
 */
function compile(name: Consumer): string {
  const folder = path.join(consumers, name);
  const consumer = CONSUMERS[name];
  const config =
    'options' in consumer
      ? { options: { ...ts.convertCompilerOptionsFromJson(consumer.options, folder).options }, fileNames: ['composition.ts', 'readme.ts'] }
      : ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(folder, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, folder);
  const options = { ...config.options, noEmitOnError: true };
  const rootNames = config.fileNames.map((file) => path.resolve(folder, file));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!fileName.includes('node_modules')) return getSourceFile(fileName, languageVersion, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile(fileName, languageVersion, onError, shouldCreate));
    return parsed.get(key);
  };
  // A run whose package, projects and dependencies did not change takes the last compilation's verdict and
  // output (test/support/checked-compile.ts): the stock project's check of every declaration was a third of this file.
  return checkedCompile(consumers, options, rootNames, host, (checking) => {
    const program = ts.createProgram({ rootNames, options, host: checking });
    const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
    return ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (file) => file,
      getCurrentDirectory: () => folder,
      getNewLine: () => '\n',
    });
  });
}

/**
 * `npm pack` of the project as it is (the tarball's path): a release build and a pack were most of this file's
 * time, so the tarball is kept under the hash of everything they read (the project's files, the installed
 * packages, Node's version; test/support/build-cache.ts) and made again when any of it changes.
 */
function packedTarball(): string {
  const key = hashOf(PACK_RECIPE, process.version, hashTree(ROOT, PROJECT_FILES), installedPackagesHash(ROOT));
  return cachedProduct('npm-pack', key, '.tgz', (tarball) => {
    const project = path.join(scratch, 'project');
    for (const file of PROJECT_FILES) cpSync(path.join(ROOT, file), path.join(project, file), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir');
    const packed = path.join(scratch, 'packed');
    mkdirSync(packed);
    execFileSync('npm', ['pack', '--silent', '--pack-destination', packed], {
      cwd: project,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, AGENT_PLAY_CACHE_DIR: path.join(scratch, 'cache') },
    });
    const [made] = readdirSync(packed).filter((name) => name.endsWith('.tgz'));
    if (!made) throw new Error('npm pack wrote no tarball');
    cpSync(path.join(packed, made), tarball);
  });
}

beforeAll(() => {
  scratch = scratchDir();
  const tarball = 'cdk8s-agent-play.tgz';
  cpSync(packedTarball(), path.join(scratch, tarball));
  // One node_modules for the three projects (each finds it in the folder above): the package and its peers.
  consumers = path.join(scratch, 'consumers');
  const installed = path.join(consumers, 'node_modules', 'cdk8s-agent-play');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(scratch, tarball), '-C', installed, '--strip-components=1']);
  for (const name of LINKED) {
    const target = path.join(consumers, 'node_modules', name);
    mkdirSync(path.dirname(target), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', name), target, 'dir');
  }
  const readme = README_EXAMPLE.exec(readFileSync(path.join(ROOT, EXAMPLE_DOC), 'utf8'));
  if (!readme) throw new Error(`${EXAMPLE_DOC}: no TypeScript example under 'Composing your own platform in TypeScript'`);
  for (const [name, consumer] of Object.entries(CONSUMERS)) {
    const folder = path.join(consumers, name);
    mkdirSync(folder);
    writeFileSync(
      path.join(folder, 'package.json'),
      JSON.stringify({
        name: `consumer-${name}`,
        private: true,
        type: consumer.type,
        dependencies: { 'cdk8s-agent-play': `file:../../${tarball}` },
      }),
    );
    writeFileSync(path.join(folder, 'composition.ts'), COMPOSITION);
    writeFileSync(path.join(folder, 'readme.ts'), readme[1]);
  }
  // The stock project's tsconfig.json is cdk8s-cli's template, as `cdk8s init typescript-app` writes it.
  cpSync(path.join(ROOT, 'node_modules/cdk8s-cli/templates/typescript-app/tsconfig.json'), path.join(consumers, 'stock', 'tsconfig.json'));
}, 240_000);

describe('the packed package', () => {
  it('is installed beside every runtime dependency it declares (a new dependency must be linked here too)', () => {
    const declared = Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).dependencies);
    expect(declared.filter((name) => !LINKED.includes(name))).toEqual([]);
  });

  it('ships the compiled library, its declarations, the schemas and their licenses; no sources, source maps or bench bundles', () => {
    const installed = path.join(consumers, 'node_modules', 'cdk8s-agent-play');
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
    // No install script for npm 11 to ask the user to allow: `prepare` builds a clone, never an installed package.
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
  });

  it('compiles a composition and the README example in a stock cdk8s project, a strict nodenext one and an ESM one, and each runs', async () => {
    // No declaration of the package may need a flag the project does not set: every diagnostic is a failure.
    expect(Object.fromEntries(Object.keys(CONSUMERS).map((name) => [name, compile(name as Consumer)]))).toEqual({
      stock: '',
      nodenext: '',
      esm: '',
    });
    const run = promisify(execFile);
    await Promise.all(
      Object.entries(CONSUMERS).map(([name, consumer]) =>
        run(process.execPath, [consumer.run], {
          cwd: path.join(consumers, name),
          env: { ...process.env, AGENT_PLAY_CACHE_DIR: path.join(scratch, 'cache') },
        }),
      ),
    );
    for (const name of ['stock', 'esm']) {
      const out = path.join(consumers, name, 'out-composition');
      const files = readdirSync(out);
      const plays = files.find((file) => file.startsWith('platform-play-workflow-templates'));
      expect(plays, 'the plays chart').toBeDefined();
      expect(readFileSync(path.join(out, plays ?? ''), 'utf8')).toContain('name: play\n');
      const registry = files.find((file) => file.startsWith('platform-repository-registry'));
      expect(readFileSync(path.join(out, registry ?? ''), 'utf8')).toContain('acme.web:');
      // The platform in the user's chart: in that chart's one file, in its namespace.
      expect(readFileSync(path.join(out, 'team.k8s.yaml'), 'utf8')).toMatch(/namespace: team-b\n/);
      // The agent override typed as written reached the agents ConfigMap.
      const agents = files.find((file) => file.startsWith('platform-agents-configmap'));
      expect(readFileSync(path.join(out, agents ?? ''), 'utf8')).toMatch(/cleo[\s\S]*codex/);
    }
    // validatePlatform found the validators the package carries (the library's bundle knows them by the same
    // keys as the command line's): nothing was compiled into the user's cache.
    const compiled = path.join(scratch, 'cache', 'validators');
    expect(existsSync(compiled) ? readdirSync(compiled).filter((file) => file.endsWith('.cjs')) : []).toEqual([]);
    expect(readdirSync(path.join(consumers, 'nodenext', 'dist')).length).toBeGreaterThan(5);
  }, 180_000);

  it('runs its command: agent-play validate with the built-in schemas and no compiler at hand', () => {
    const out = execFileSync(
      process.execPath,
      [
        path.join(consumers, 'node_modules/cdk8s-agent-play/bin/agent-play.cjs'),
        'validate',
        path.join(ROOT, 'dist-manifests'),
        '--verbose',
      ],
      { encoding: 'utf8', env: { ...process.env, AGENT_PLAY_CACHE_DIR: path.join(scratch, 'empty-cache') } },
    );
    expect(out).toContain('built-in: Argo Workflows v4.1.2 CRD workflowtemplates.argoproj.io');
    expect(out).toMatch(/0 errors, 0 warnings\n$/);
    // --help answers from the usage text the build wrote, the same text the command line prints.
    const installed = path.join(consumers, 'node_modules/cdk8s-agent-play');
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
