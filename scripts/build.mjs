// Compiles the command line and the library to CommonJS with esbuild (about 0.1 s), so that `npm run synth`
// runs plain JavaScript: ts-node and tsx would cost more than the synthesis itself.
//
//   node scripts/build.mjs              build when a source changed since the last build (build/.stamp)
//   node scripts/build.mjs --force      build anyway
//   node scripts/build.mjs --release    what the package ships (npm pack runs it as `prepack`): no source
//                                       maps, no bench bundles, `.d.ts` of the public API (tsc), and the
//                                       built-in Argo schemas' validators compiled into build/validators/
//   node scripts/build.mjs --if-possible  `prepare`: skip quietly when esbuild is not installed
//                                       (`npm ci --omit=dev`); the published package carries build/.
//                                       Keeps a release build of the current sources: npm pack and
//                                       npm publish run `prepare` after `prepack`, and building again
//                                       would ship the development build instead
//   node scripts/build.mjs --after-pack  `postpack`: puts back the package.json that `prepack` packed
//                                       without its `prepare` (see packedManifest below); builds nothing
import { isAscii } from 'node:buffer';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const args = new Set(process.argv.slice(2));
const release = args.has('--release');
const STAMP = 'build/.stamp';

/**
 * The package a user installs has no `prepare` script. It is the development build after `npm ci` in a clone,
 * and names a file the package does not carry (scripts/build.mjs), yet npm 11 lists the `prepare` of a package
 * installed from a tarball, a folder or git among the install scripts the user has to allow ("npm warn
 * install-scripts 1 package has install scripts not yet covered by allowScripts"). So `prepack` (npm pack and
 * npm publish) writes package.json without it, keeping the file as it was in MANIFEST_BEFORE_PACK, and
 * `postpack` puts it back; a pack that failed on the way is undone by the next build.
 */
const MANIFEST = 'package.json';
const MANIFEST_BEFORE_PACK = 'build/.package-json-before-pack';
const packing = release && process.env.npm_lifecycle_event === 'prepack';

/** Puts back the package.json a pack wrote without its `prepare`. */
function restoreManifest() {
  if (!existsSync(MANIFEST_BEFORE_PACK)) return;
  writeFileSync(MANIFEST, readFileSync(MANIFEST_BEFORE_PACK));
  rmSync(MANIFEST_BEFORE_PACK);
}

/** package.json without `scripts.prepare`, for the tarball npm makes next. */
function packedManifest() {
  const bytes = readFileSync(MANIFEST);
  const manifest = JSON.parse(bytes.toString('utf8'));
  if (manifest.scripts?.prepare === undefined) return;
  writeFileSync(MANIFEST_BEFORE_PACK, bytes);
  delete manifest.scripts.prepare;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}

if (args.has('--after-pack')) {
  restoreManifest();
  process.exit(0);
}
// npm pack runs `prepare` after `prepack`: the release build stays, and so does the packed package.json.
if (args.has('--if-possible') && existsSync(MANIFEST_BEFORE_PACK)) process.exit(0);
restoreManifest();
/** What a build reads: a change to any of these makes the next `npm run synth` rebuild. */
const SOURCES = ['constructs', 'src', 'runtime', 'bench', 'schemas', 'scripts/build.mjs', 'package.json', 'package-lock.json'];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .map((name) => join(path, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}

/** Paths, sizes and modification times of every source: cheap to compute, and changes with any edit. */
function sourceStamp(kind) {
  const hash = createHash('sha256').update(kind);
  for (const file of SOURCES.flatMap(files)) {
    const stat = statSync(file);
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

// The runtime program is part of the library's code (constructs/runtime/runtime-program.generated.ts): bring it
// up to date first, so that a synthesis after an edit of a step ships the edited step. A stale committed file
// still fails test/runtime-program.test.ts.
if (existsSync('node_modules/esbuild')) execFileSync(process.execPath, ['scripts/build-runtime.mjs'], { stdio: 'inherit' });

const stamp = sourceStamp(release ? 'release' : 'dev');
const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : '';
if (!args.has('--force') && !release && built === stamp) process.exit(0);
if (args.has('--if-possible') && built === sourceStamp('release')) process.exit(0);

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  if (args.has('--if-possible')) {
    console.error('agent-play: esbuild is not installed (a production install); using the compiled build/ as it is');
    process.exit(0);
  }
  throw new Error('esbuild is not installed: run `npm ci` (with the dev dependencies) to build');
}

/**
 * The command registry (src/commands/index.ts) imports every command, as the tests need it; in the compiled
 * command line each import becomes a `require` run when its command is used (esbuild initialises a required
 * module on first use), so that one command does not load every other command's modules.
 */
const lazyCommands = {
  name: 'lazy-commands',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]commands[\\/]index\.ts$/ }, ({ path: file }) => {
      const source = readFileSync(file, 'utf8');
      const imports = [...source.matchAll(/^import \{ (\w+)Command \} from '\.\/([\w-]+)';$/gm)];
      const listed = /export const COMMANDS: readonly Command\[\] = \[([^\]]*)\];/.exec(source);
      const names = listed?.[1]
        .split(',')
        .map((entry) => entry.trim().replace(/Command$/, ''))
        .filter((name) => name !== '');
      if (
        !names ||
        imports.length !== names.length ||
        imports.some(([, binding, module]) => binding !== module || !names.includes(module))
      ) {
        throw new Error(`${file}: expected \`import { <name>Command } from './<name>';\` for each command of COMMANDS`);
      }
      const entries = names.map(
        (name) => `  lazyCommand('${name}', () => (require('./${name}') as typeof import('./${name}')).${name}Command),`,
      );
      const contents = `import type { Command } from './command';\nimport { lazyCommand } from './lazy-command';\n\nexport const COMMANDS: readonly Command[] = [\n${entries.join('\n')}\n];\n`;
      return { contents, loader: 'ts', resolveDir: dirname(file) };
    });
  },
};

/**
 * The Kubernetes client (@kubernetes/client-node, an ES module of some hundred files and three megabytes
 * bundled) is a bundle of its own, build/kube-client.cjs, that the command line requires when a command
 * first talks to a cluster (src/cluster/kube-client.ts imports it dynamically; the command line's bundle turns
 * that import into a require of the file beside it): the commands that never reach a cluster do not read it.
 */
const KUBE_CLIENT = '@kubernetes/client-node';
const kubeClientBeside = {
  name: 'kube-client-beside',
  setup(build) {
    build.onResolve({ filter: /^@kubernetes\/client-node$/ }, () => ({ path: './kube-client.cjs', external: true }));
  },
};

/**
 * Builds build/kube-client.cjs, unless the one there was built from the same client and esbuild (its bundle
 * depends on nothing else; bundling it is most of a build's time). Returns the bundle's inputs, for the
 * notices.
 */
async function buildKubeClient() {
  const version = (name) => JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version;
  const stampFile = 'build/.kube-client-stamp';
  const stamp = `${KUBE_CLIENT}@${version(KUBE_CLIENT)} esbuild@${version('esbuild')} ${common.target}\n`;
  const kept = existsSync('build/kube-client.cjs') && existsSync(stampFile) && readFileSync(stampFile, 'utf8').startsWith(stamp);
  const asInputs = (files) => Object.fromEntries(files.map((file) => [file, {}]));
  const keptFiles = kept ? JSON.parse(readFileSync(stampFile, 'utf8').slice(stamp.length)) : undefined;
  if (Array.isArray(keptFiles)) return asInputs(keptFiles);
  const built = await esbuild.build({
    ...common,
    entryPoints: { 'kube-client': KUBE_CLIENT },
    sourcemap: false,
    minify: true,
    keepNames: true,
    metafile: true,
  });
  const files = Object.keys(built.metafile.inputs);
  writeFileSync(stampFile, `${stamp}${JSON.stringify(files)}`);
  return asInputs(files);
}

/**
 * The schema data of `schemas/` (a third of a megabyte of JSON) as one string that `JSON.parse` reads, instead of
 * the object literals esbuild makes of a JSON import: V8 parses JSON several times faster than the same
 * literal as JavaScript, and its compiled-code cache keeps a string rather than the literals' boilerplate.
 */
const schemaDataAsJson = {
  name: 'schema-data-as-json',
  setup(build) {
    build.onLoad({ filter: /[\\/]schemas[\\/][^\\/]+\.json$/ }, ({ path: file }) => {
      const text = JSON.stringify(JSON.parse(readFileSync(file, 'utf8')));
      return { contents: `module.exports = JSON.parse(${JSON.stringify(text)});\n`, loader: 'js' };
    });
  },
};

/**
 * The command line's bundle is ASCII, which src/start-cli.ts reads as Latin-1 without looking: V8 then keeps a
 * one-byte string of it, where one other character made all of its 2.5 MB a two-byte string (UTF-8 decoded:
 * twice the memory to touch, slower to compile: 600 page faults and a twentieth of `agent-play synth`). esbuild
 * escapes every other character (its default charset) but in a tagged template, whose raw text the tag sees:
 * a character outside ASCII in a String.raw template of our sources becomes a substitution of the same
 * character (`${"\u{2026}"}`), which String.raw gives back as it was.
 */
const asciiRawTemplates = {
  name: 'ascii-raw-templates',
  setup(build) {
    build.onLoad({ filter: /[\\/](constructs|src|runtime)[\\/].*\.ts$/ }, ({ path: file }) => {
      const source = readFileSync(file, 'utf8');
      if (isAscii(Buffer.from(source, 'utf8'))) return undefined;
      return { contents: escapeRawTemplates(source), loader: 'ts' };
    });
  },
};

/** `source` with each character outside ASCII in the text of a String.raw template as a substitution of it. */
function escapeRawTemplates(source) {
  let out = '';
  let at = 0;
  for (let start = source.indexOf('String.raw`'); start >= 0; start = source.indexOf('String.raw`', at)) {
    let index = start + 'String.raw`'.length;
    out += source.slice(at, index);
    while (index < source.length && source[index] !== '`') {
      if (source[index] === '\\') {
        out += source.slice(index, index + 2);
        index += 2;
      } else if (source.startsWith('${', index)) {
        // A substitution: copied as it is, to its closing brace.
        let depth = 0;
        const from = index;
        do {
          if (source[index] === '{') depth += 1;
          else if (source[index] === '}') depth -= 1;
          index += 1;
        } while (depth > 0 && index < source.length);
        out += source.slice(from, index);
      } else {
        const code = source.codePointAt(index);
        const character = String.fromCodePoint(code);
        out += code > 0x7f ? `\${"\\u{${code.toString(16)}}"}` : character;
        index += character.length;
      }
    }
    at = index;
  }
  return out + source.slice(at);
}

/** The peers the command line carries: the packages the library leaves to the user's app (package.json). */
const PEERS = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).peerDependencies);

/**
 * Each peer the command line carries records, when its code first runs, that it did, in a global set
 * (`Symbol.for('agent-play.loaded-peers')`): what `require.cache` showed when the peers were loaded from
 * node_modules, so that a test can hold that `agent-play validate` never starts cdk8s.
 */
const markPeerLoads = {
  name: 'mark-peer-loads',
  setup(build) {
    const entry = new RegExp(`[\\\\/]node_modules[\\\\/](${PEERS.join('|')})[\\\\/]lib[\\\\/]index\\.js$`);
    build.onLoad({ filter: entry }, ({ path: file }) => {
      const peer = entry.exec(file)[1];
      const mark = `(globalThis[Symbol.for('agent-play.loaded-peers')] ??= new Set()).add(${JSON.stringify(peer)});`;
      return { contents: `${mark}\n${readFileSync(file, 'utf8')}`, loader: 'js' };
    });
  },
};

/**
 * The notices of the packages the command line's bundle carries (build/THIRD-PARTY-NOTICES.txt, published
 * beside it): each package's name, version and license, and its LICENSE and NOTICE files as they are.
 */
function thirdPartyNotices(metafile) {
  // A package's folder, nested ones included (cdk8s carries its own dependencies in its node_modules).
  const folders = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) folders.add(match[1]);
  }
  const sections = [...folders].sort().map((folder) => {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const texts = readdirSync(folder)
      .filter((file) => /^(licen[cs]e|notice)(\.(md|txt))?$/i.test(file))
      .sort()
      .map((file) => `--- ${file}\n${readFileSync(join(folder, file), 'utf8').trimEnd()}\n`);
    return `=== ${manifest.name} ${manifest.version} (${manifest.license ?? 'see below'})\n${texts.join('')}`;
  });
  return `The agent-play command line (build/cli-bundle.cjs and build/kube-client.cjs) carries these packages:\n\n${sections.join('\n')}`;
}

const entryPoints = {
  'start-cli': 'src/start-cli.ts',
  main: 'src/main.ts',
  index: 'constructs/index.ts',
  validate: 'src/validate/index.ts',
};
if (!release) Object.assign(entryPoints, { 'minimal-app': 'bench/minimal-app.ts', 'project-app': 'bench/project-app.ts' });
if (release) {
  // A release starts from an empty build/, but for the client's bundle, which its stamp vouches for.
  const keep = ['build/kube-client.cjs', 'build/.kube-client-stamp'].filter(existsSync).map((file) => [file, readFileSync(file)]);
  rmSync('build', { recursive: true, force: true });
  mkdirSync('build');
  for (const [file, bytes] of keep) writeFileSync(file, bytes);
}
const common = {
  outdir: 'build',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: release ? false : 'linked',
  logLevel: 'warning',
};
esbuild.buildSync({ ...common, entryPoints, packages: 'external' });
// The command line carries what it runs, cdk8s, cdk8s-plus-28 and constructs included: one file to read and
// compile, V8's compiled form kept by src/start-cli.ts. Loading the peers' hundred-odd files from
// node_modules (resolving, reading and wrapping each) was a sixth of `agent-play synth`. The command shares
// no object with a user's app, so its own copies (the versions of package-lock.json) cannot clash with the
// peers the library is used with; build/index.cjs and build/validate.cjs still leave them to the user.
// ajv stays in node_modules: it only compiles new schemas. Minified (a quarter less to read and for V8 to
// take back from its cache: 4% of `agent-play synth`), with the names of functions and classes kept, which
// messages print (constructs names a construct's class when two children share an id).
const [cli, kubeClientInputs] = await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: { 'cli-bundle': 'src/cli.ts' },
    // ajv's compiler stays in node_modules, loaded when a schema is compiled; the two helpers its compiled
    // validators call (a deep equal and a string length) are carried, so that loading the validators resolves
    // and reads no file of node_modules. Its package.json is read where it is: its version keys the validators.
    external: ['ajv/package.json'],
    plugins: [lazyCommands, markPeerLoads, kubeClientBeside, schemaDataAsJson, asciiRawTemplates],
    // import() as require(): the bundle runs as a vm.Script (start-cli.ts), which has no module loader.
    supported: { 'dynamic-import': false },
    minify: true,
    keepNames: true,
    metafile: true,
  }),
  buildKubeClient(),
]);
// src/start-cli.ts reads the bundle as Latin-1 without looking (asciiRawTemplates above).
const bundleText = readFileSync('build/cli-bundle.cjs', 'utf8');
const notAscii = /^.*[\u0080-\u{10ffff}].*$/mu.exec(bundleText);
if (notAscii)
  throw new Error(
    `build/cli-bundle.cjs is not ASCII (src/start-cli.ts reads it as Latin-1), in a tagged template other than String.raw?\n${notAscii[0].slice(0, 300)}`,
  );
const inputs = { ...cli.metafile.inputs, ...kubeClientInputs };
writeFileSync('build/THIRD-PARTY-NOTICES.txt', thirdPartyNotices({ inputs }));
renameSync('build/start-cli.cjs', 'build/cli.cjs');
if (!release) renameSync('build/start-cli.cjs.map', 'build/cli.cjs.map');

// The usage text `agent-play --help` prints, written by the command line itself (see bin/agent-play.cjs).
writeFileSync('build/usage.txt', execFileSync(process.execPath, ['build/cli.cjs', '--help'], { encoding: 'utf8' }));

if (release) {
  // The declarations only (--noCheck): the program is type-checked by `npm run typecheck` and by npm test, and
  // checking it again here was more than half of `npm pack` (3 s of CPU). The declaration emitter still infers
  // each type it writes.
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--noCheck'], { stdio: 'inherit' });
  // Validating the committed manifests, and one object of each built-in Kubernetes kind, compiles the
  // built-in schemas' validators (every kind of an Argo schema document at once; the Kubernetes kinds one by
  // one, those that hold a pod's spec together: kubernetes-built-in.ts) into a scratch cache; the package ships them so that no user compiles them. The objects of each kind
  // are bare, and their findings do not matter: what is kept is the validators. Absolute: agent-play ignores
  // a relative cache folder, as the XDG specification says of its variables.
  const cache = resolve('build/.validators-cache');
  const kinds = join(cache, 'every-kubernetes-kind.yaml');
  mkdirSync(cache, { recursive: true });
  const kubernetesKinds = JSON.parse(readFileSync('schemas/kubernetes.json', 'utf8')).kinds;
  const bareObjects = Object.entries(kubernetesKinds).flatMap(([apiVersion, byKind]) =>
    Object.keys(byKind).map((kind) => JSON.stringify({ apiVersion, kind, metadata: { name: 'any' } })),
  );
  writeFileSync(kinds, bareObjects.join('\n---\n'));
  // Exit 1 is the bare objects' findings; anything else is a failure to validate.
  const validated = spawnSync(process.execPath, ['build/cli.cjs', 'validate', 'dist-manifests', kinds, '--format', 'json'], {
    encoding: 'utf8',
    env: { ...process.env, AGENT_PLAY_CACHE_DIR: cache },
  });
  if (validated.status !== 0 && validated.status !== 1) throw new Error(`compiling the built-in validators failed:\n${validated.stderr}`);
  mkdirSync('build/validators', { recursive: true });
  for (const name of readdirSync(join(cache, 'validators')).filter((file) => file.endsWith('.cjs')))
    cpSync(join(cache, 'validators', name), join('build/validators', name));
  rmSync(cache, { recursive: true, force: true });
}
writeFileSync(STAMP, stamp);
if (packing) packedManifest();
