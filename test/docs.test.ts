/**
 * The doc test: every code block of the README and docs/ is checked, so that none can rot.
 *
 * - TypeScript: every block is type-checked, strict, all in one in-process program where `cdk8s-agent-play`
 *   is the sources (one program: a program per block, or tsc, would cost seconds each).
 * - YAML: a config (`agent-play.yaml`) must be one that `agent-play config validate` accepts; a Kubernetes
 *   object must pass `agent-play validate`; a simulator scenario must load (its payloads are those of
 *   examples/scenarios/happy-path/); a list of CI steps has its `run:` commands checked as shell.
 * - Shell: the block is valid bash (`bash -n`), and each command is one this project knows: an `agent-play`
 *   command line must parse by the command's option table (src/commands/options.ts: its options, the values
 *   of those that take a list; synopsis brackets and `a|b` alternatives read as each alternative), an npm
 *   script must be in package.json, a file run with node or tsx must exist, `argo submit --from
 *   workflowtemplate/NAME -p KEY=VALUE` must name a WorkflowTemplate of dist-manifests/ and its parameters,
 *   and a file a here-document writes (`cat > team.yaml <<'EOF'`) is checked as the YAML it is.
 *
 * A block shown as output (no language, or `text`) is not run. A writer can skip a block with the line
 * `<!-- doc-test: skip: REASON -->` right before it; it is reported as skipped, with the reason.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS } from '../src/commands';
import type { Command } from '../src/commands/command';
import { completionCommand } from '../src/commands/completion';
import { type OptionSpec, parseOptions } from '../src/commands/options';
import { loadConfig } from '../src/config/load-config';
import { loadScenario } from '../src/simulate/scenario';
import { formatFinding } from '../src/validate/finding';
import { validateManifestTexts } from '../src/validate/validate-texts';
import { type DocSnippet, documentationFiles, OUTPUT_LANGUAGES, readShell, snippetsOf } from './support/doc-snippets';
import { useScratchDirs } from './support/scratch-dir';
import { skipNote } from './support/skip-note';
import { parseManifests } from './support/synth';

const ROOT = path.resolve(__dirname, '..');
const scratch = useScratchDirs('agent-play-docs-');
const SNIPPETS = documentationFiles(ROOT).flatMap((file) => snippetsOf(ROOT, file));
const RUN = SNIPPETS.filter((snippet) => !OUTPUT_LANGUAGES.includes(snippet.language));
const title = (snippet: DocSnippet): string => `${snippet.file}:${snippet.line} (${snippet.language})`;

// ---------------------------------------------------------------------------------------------------------
// agent-play command lines, by the commands' option tables
// ---------------------------------------------------------------------------------------------------------

const ALL_COMMANDS: readonly Command[] = [...COMMANDS, completionCommand(() => ALL_COMMANDS)];
/** What may follow `agent-play` without a command. */
const TOP_LEVEL = new Set([undefined, '--help', '-h', '--version', '-V']);

/** Synopsis brackets and ellipses away; `a|b` alternatives expanded into one command line each. */
function synopsisAlternatives(args: readonly string[]): string[][] {
  const clean = args.map((word) => word.replace(/^\[+|\]+$|\.\.\.$/g, '')).filter((word) => word !== '');
  const choice = clean.findIndex((word) => /^[\w-]+(\|[\w-]+)+$/.test(word));
  if (choice < 0) return [clean];
  return clean[choice]
    .split('|')
    .flatMap((alternative) => synopsisAlternatives([...clean.slice(0, choice), alternative, ...clean.slice(choice + 1)]));
}

/** Why one `agent-play` command line (the words after the program's name) does not parse, or nothing. */
function commandLineProblem(args: readonly string[]): string | undefined {
  const [name, ...rest] = args;
  if (TOP_LEVEL.has(name)) return undefined;
  if (name === 'help') {
    const command = ALL_COMMANDS.find((candidate) => candidate.name === rest[0]);
    if (!command) return `help of an unknown command ${rest[0] ?? ''}`;
    return rest[1] === undefined || command.subcommands?.[rest[1]] ? undefined : `help of an unknown subcommand ${rest[0]} ${rest[1]}`;
  }
  const command = ALL_COMMANDS.find((candidate) => candidate.name === name);
  if (!command) return `no such command ${name} (known: ${ALL_COMMANDS.map((known) => known.name).join(', ')})`;
  let options: readonly OptionSpec[] = command.options;
  let tail = rest;
  if (command.subcommands !== undefined && rest[0] !== undefined && !rest[0].startsWith('-')) {
    const subcommand = command.subcommands[rest[0]];
    if (!subcommand) return `no such subcommand ${name} ${rest[0]} (known: ${Object.keys(command.subcommands).join(', ')})`;
    options = subcommand.options;
    tail = rest.slice(1);
  }
  try {
    parseOptions(options, tail);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function agentPlayProblems(words: readonly string[]): string[] {
  const args = words.map((word) => word.replace(/^(['"])(.*)\1$/, '$2'));
  return synopsisAlternatives(args).flatMap((line) => {
    const problem = commandLineProblem(line);
    return problem === undefined ? [] : [`agent-play ${line.join(' ')}: ${problem}`];
  });
}

// ---------------------------------------------------------------------------------------------------------
// The other commands of a shell block
// ---------------------------------------------------------------------------------------------------------

const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
/** Programs a block may run that this project does not provide; they are not checked further. */
const OUTSIDE_TOOLS = new Set(['kubectl', 'argo', 'git', 'openssl', 'cd', 'cdk8s', 'go', 'cat', 'echo', 'mkdir', 'apt-get', 'source']);
const NPM_COMMANDS = new Set(['ci', 'test', 'pack', 'install']);

/** A simple command without the leading VARIABLE=value words that set its environment. */
function withoutEnvironment(input: readonly string[]): string[] {
  const start = input.findIndex((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word));
  return start < 0 ? [] : input.slice(start);
}

/** The words after `agent-play` when a command runs it (bare, `npx`, `npm run [-s] agent-play [--]`, `node build/cli.cjs`). */
function agentPlayArgs(command: readonly string[]): string[] | undefined {
  const [program, ...args] = withoutEnvironment(command);
  if (program === 'agent-play') return args;
  if (program === 'npx' && args[0] === 'agent-play') return args.slice(1);
  if (program === 'node' && args[0] === 'build/cli.cjs') return args.slice(1);
  const words = args.filter((word) => word !== '-s' && word !== '--silent');
  if (program === 'npm' && words[0] === 'run' && words[1] === 'agent-play') return words.slice(words[2] === '--' ? 3 : 2);
  return undefined;
}

/** The problems of one simple command of a shell block. */
function commandProblems(input: readonly string[]): string[] {
  const agentPlay = agentPlayArgs(input);
  if (agentPlay !== undefined) return agentPlayProblems(agentPlay);
  const [program, ...args] = withoutEnvironment(input);
  if (program === undefined) return [];
  switch (program) {
    case 'npx':
      return npxProblems(args);
    case 'npm':
      return npmProblems(args);
    case 'node':
      return nodeProblems(args);
    case 'argo':
      return argoProblems(args);
    default:
      return OUTSIDE_TOOLS.has(program)
        ? []
        : [`${program}: a program the doc test does not know; add it to OUTSIDE_TOOLS if it is not ours`];
  }
}

function npxProblems(args: readonly string[]): string[] {
  const [tool, ...rest] = args;
  if (tool === 'tsx') return rest[0] !== undefined && !existsSync(path.join(ROOT, rest[0])) ? [`npx tsx ${rest[0]}: no such file`] : [];
  if (tool === 'vitest' || tool === 'biome' || tool === 'cdk8s') return [];
  return [`npx ${tool}: a tool the doc test does not know`];
}

function npmProblems(args: readonly string[]): string[] {
  const words = args.filter((word) => word !== '-s' && word !== '--silent');
  const [command, script] = words;
  if (command === undefined || NPM_COMMANDS.has(command)) return [];
  if (command !== 'run') return [`npm ${command}: not a command the docs use`];
  if (script === undefined || PACKAGE.scripts[script] === undefined) return [`npm run ${script}: no such script in package.json`];
  return [];
}

function nodeProblems(args: readonly string[]): string[] {
  const [file] = args;
  if (file === undefined) return [];
  return existsSync(path.join(ROOT, file)) ? [] : [`node ${file}: no such file`];
}

/** The WorkflowTemplates of dist-manifests/ and their parameters. */
let distTemplates: Map<string, string[]> | undefined;
function templateParameters(name: string): string[] | undefined {
  if (distTemplates === undefined) {
    distTemplates = new Map();
    const file = path.join(ROOT, 'dist-manifests', 'play-workflow-templates.yaml');
    for (const object of parseManifests(new Map([['play-workflow-templates.yaml', readFileSync(file, 'utf8')]]))) {
      if (object.kind !== 'WorkflowTemplate') continue;
      const parameters = (object.spec.arguments?.parameters ?? []) as { name: string }[];
      distTemplates.set(
        object.metadata.name,
        parameters.map((parameter) => parameter.name),
      );
    }
  }
  return distTemplates.get(name);
}

function argoProblems(args: readonly string[]): string[] {
  if (args[0] !== 'submit') return [];
  const from = args[args.indexOf('--from') + 1];
  if (args.indexOf('--from') < 0 || !from?.startsWith('workflowtemplate/')) return [];
  const name = from.slice('workflowtemplate/'.length);
  const parameters = templateParameters(name);
  if (parameters === undefined) return [`argo submit --from ${from}: dist-manifests/ has no WorkflowTemplate ${name}`];
  return args
    .flatMap((word, index) => (word === '-p' ? [args[index + 1]?.split('=')[0] ?? ''] : []))
    .filter((parameter) => !parameters.includes(parameter))
    .map((parameter) => `argo submit --from ${from}: the template has no parameter ${parameter} (it has ${parameters.join(', ')})`);
}

/** The shell blocks of the docs found valid bash by one `bash -n` of them all, each a function of its own. */
let validShell: Set<string> | undefined;

/** Why a script is not valid bash, or nothing; the docs' blocks are read by one bash, not one each. */
function bashSyntaxProblem(text: string): string | undefined {
  if (validShell === undefined) {
    const blocks = RUN.filter((snippet) => snippet.language === 'sh').map((snippet) => snippet.text);
    const all = blocks.map((block, index) => `doc_block_${index}() {\n${block}\n}\n`).join('');
    validShell = spawnSync('bash', ['-n'], { input: all }).status === 0 ? new Set(blocks) : new Set();
  }
  if (validShell.has(text)) return undefined;
  const syntax = spawnSync('bash', ['-n'], { input: text, encoding: 'utf8' });
  return syntax.status === 0 ? undefined : `not valid bash: ${syntax.stderr.trim()}`;
}

function shellProblems(text: string): string[] {
  const syntax = bashSyntaxProblem(text);
  if (syntax !== undefined) return [syntax];
  const block = readShell(text);
  const written = [...block.writtenFiles].flatMap(([file, content]) =>
    /\.ya?ml$/.test(file) ? yamlProblems(content).map((problem) => `${file} (the here-document): ${problem}`) : [],
  );
  return [...written, ...block.commands.flatMap(commandProblems)];
}

// ---------------------------------------------------------------------------------------------------------
// The YAML blocks
// ---------------------------------------------------------------------------------------------------------

type YamlKind = 'config' | 'scenario' | 'ci-steps' | 'kubernetes';

function yamlKind(value: unknown): YamlKind {
  if (Array.isArray(value)) return 'ci-steps';
  if (typeof value === 'object' && value !== null && 'apiVersion' in value && 'kind' in value) return 'kubernetes';
  if (typeof value === 'object' && value !== null && ('steps' in value || 'plays' in value)) return 'scenario';
  return 'config';
}

let yamlFolder: string | undefined;
let yamlFiles = 0;
/** A new file of the scratch folder, whose `payloads/` are the happy-path scenario's. */
function scratchFile(text: string): string {
  if (yamlFolder === undefined) {
    yamlFolder = scratch();
    symlinkSync(path.join(ROOT, 'examples/scenarios/happy-path/payloads'), path.join(yamlFolder, 'payloads'), 'dir');
  }
  yamlFiles += 1;
  const file = path.join(yamlFolder, `snippet-${yamlFiles}.yaml`);
  writeFileSync(file, text);
  return file;
}

function yamlProblems(text: string): string[] {
  const documents = text.split(/^---\s*$/m).map((document) => parse(document) as unknown);
  switch (yamlKind(documents[0])) {
    case 'ci-steps':
      return shellProblems((documents[0] as { run?: string }[]).map((step) => step.run ?? '').join('\n'));
    case 'kubernetes': {
      const report = validateManifestTexts(new Map([['snippet.yaml', text]]), '.');
      return report.findings.filter((finding) => finding.severity === 'error').map(formatFinding);
    }
    case 'scenario':
      return problemsOf(() => loadScenario(scratchFile(text)));
    case 'config':
      return problemsOf(() => loadConfig({ file: scratchFile(text), env: {} }));
  }
}

function problemsOf(run: () => unknown): string[] {
  try {
    run();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

// ---------------------------------------------------------------------------------------------------------
// The TypeScript blocks: one strict program
// ---------------------------------------------------------------------------------------------------------

/** A block that must not type-check, checked in the same program: a type check that reports nothing fails it. */
const TYPE_CONTROL: DocSnippet = {
  file: 'control.md',
  line: 1,
  language: 'ts',
  text: "import { AgentPlatform } from 'cdk8s-agent-play';\nimport { App } from 'cdk8s';\nnew AgentPlatform(new App(), 'p', { config: { agents: { cleo: { cli: 42 } } } });\n",
};

/** The packages a block's types come from besides the library; every other import of the library's reads as `any`. */
const TYPED_PACKAGES = new Set(['cdk8s', 'constructs', 'cdk8s-agent-play', 'cdk8s-agent-play/validate']);

/**
 * The type errors of each block. The blocks are files of one program, held in memory under the checkout
 * (so that their imports of cdk8s resolve to node_modules), each a module of its own. Only the blocks are
 * checked: the library's sources are read for their types (npm test's tsc checks them), and of the packages
 * only cdk8s and constructs, whose classes the blocks use, are read. The library's own imports of zod, yaml,
 * cdk8s-plus-28 and the others read as `any`: its public types are its own (the config types are
 * generated TypeScript), and reading those packages was half of the program's cost.
 */
function typeScriptProblems(snippets: readonly DocSnippet[]): Map<DocSnippet, string[]> {
  const files = new Map(snippets.map((snippet) => [path.join(ROOT, 'doc-snippets', `${snippet.file}-${snippet.line}.ts`), snippet]));
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    types: [],
    baseUrl: ROOT,
    paths: { 'cdk8s-agent-play': ['constructs/index.ts'], 'cdk8s-agent-play/validate': ['src/validate/index.ts'] },
  };
  const key = createHash('sha256')
    .update(JSON.stringify([ts.version, options, [...TYPED_PACKAGES], [...files].map(([file, snippet]) => [file, snippet.text])]))
    .digest('hex');
  const kept = keptVerdicts(key);
  if (kept !== undefined) return new Map([...files].map(([file, snippet]) => [snippet, kept[file] ?? ['not type-checked']]));
  const host = ts.createCompilerHost(options);
  // What tsc does: JSDoc in .ts files never changes a type, and parsing it was a fifth of the program's cost.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) =>
      literal.text.startsWith('.') || TYPED_PACKAGES.has(literal.text)
        ? ts.resolveModuleName(literal.text, containingFile, options, host)
        : { resolvedModule: undefined },
    );
  const { fileExists, readFile, getSourceFile } = host;
  const text = (file: string): string | undefined => {
    const snippet = files.get(file);
    return snippet && `${snippet.text}\nexport {};\n`;
  };
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
  host.readFile = (file) => text(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const own = text(file);
    return own === undefined ? getSourceFile.call(host, file, language, ...rest) : ts.createSourceFile(file, own, language, true);
  };
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const problems = new Map<DocSnippet, string[]>();
  for (const [file, snippet] of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`${file}: not in the program`);
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    problems.set(
      snippet,
      diagnostics.map((diagnostic) => {
        const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
        return `line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
      }),
    );
  }
  keepVerdicts(key, program, new Map([...files].map(([file, snippet]) => [file, problems.get(snippet) ?? []])));
  return problems;
}

/**
 * The verdicts of the last type check, kept as tsc keeps its build info (npm test's tsc: `--incremental`):
 * in node_modules/.cache (a clean clone checks from scratch), with the content hash of every file that
 * program read (the library's sources, cdk8s's and constructs' declarations, TypeScript's lib). They stand
 * while the blocks, TypeScript and the options are the same (`key`) and every file it read is unchanged; a
 * warm run then reads and hashes those files instead of building the program (2 to 3 s of CPU).
 */
const VERDICTS = path.join(ROOT, 'node_modules', '.cache', 'agent-play', 'doc-test-types.json');

interface KeptVerdicts {
  readonly key: string;
  readonly read: Record<string, string>;
  readonly problems: Record<string, string[]>;
}

const contentHash = (text: string): string => createHash('sha256').update(text).digest('hex');

function keptVerdicts(key: string, cache = VERDICTS): Record<string, string[]> | undefined {
  try {
    const kept = JSON.parse(readFileSync(cache, 'utf8')) as KeptVerdicts;
    if (kept.key !== key) return undefined;
    const unchanged = Object.entries(kept.read).every(([file, hash]) => contentHash(readFileSync(file, 'utf8')) === hash);
    return unchanged ? kept.problems : undefined;
  } catch {
    return undefined;
  }
}

function keepVerdicts(key: string, program: ts.Program, problems: ReadonlyMap<string, string[]>): void {
  const read = Object.fromEntries(
    program
      .getSourceFiles()
      .filter((source) => !problems.has(source.fileName))
      .map((source) => [source.fileName, contentHash(source.text)]),
  );
  const kept: KeptVerdicts = { key, read, problems: Object.fromEntries(problems) };
  try {
    mkdirSync(path.dirname(VERDICTS), { recursive: true });
    // Whole or not at all: another run may read it meanwhile.
    const partial = `${VERDICTS}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(kept));
    renameSync(partial, VERDICTS);
  } catch {
    // A cache that cannot be written costs the next run its time, nothing else.
  }
}

// ---------------------------------------------------------------------------------------------------------

describe('the code blocks of the README and docs/', () => {
  it('are found, in every language the docs use, and each language is one the doc test checks', () => {
    expect(RUN.length).toBeGreaterThan(30);
    const languages = new Set(RUN.map((snippet) => snippet.language));
    expect([...languages].filter((language) => !['sh', 'yaml', 'ts', 'json'].includes(language))).toEqual([]);
    expect(languages).toEqual(new Set(['sh', 'yaml', 'ts', 'json']));
  });

  const typeScript = RUN.filter((snippet) => snippet.language === 'ts' && !snippet.skip);
  let checked: Map<DocSnippet, string[]> | undefined;
  const typeScriptOf = (snippet: DocSnippet): string[] => {
    checked ??= typeScriptProblems([...typeScript, TYPE_CONTROL]);
    return checked.get(snippet) ?? ['not type-checked'];
  };

  for (const snippet of RUN) {
    it.skipIf(snippet.skip !== undefined)(`${title(snippet)}${skipNote(snippet.skip === undefined, snippet.skip ?? '')}`, () => {
      switch (snippet.language) {
        case 'sh':
          expect(shellProblems(snippet.text)).toEqual([]);
          break;
        case 'yaml':
          expect(yamlProblems(snippet.text)).toEqual([]);
          break;
        case 'ts':
          expect(typeScriptOf(snippet)).toEqual([]);
          break;
        case 'json':
          expect(() => JSON.parse(snippet.text)).not.toThrow();
          break;
      }
    });
  }

  it('catch what rots (positive controls)', () => {
    expect(shellProblems('npx agent-play validate --formt json dist-manifests/\n')[0]).toMatch(
      /^agent-play validate --formt json dist-manifests\/: unknown option --formt/,
    );
    expect(shellProblems('npm run -s agent-play -- graph --what all\n')[0]).toMatch(/--what: expected one of/);
    expect(shellProblems('npm run agent-play -- config edit\n')[0]).toMatch(/no such subcommand config edit/);
    expect(shellProblems('npx agent-play help deploy\n')[0]).toMatch(/help of an unknown command deploy/);
    expect(shellProblems('npm run agent-play -- simulate s.yaml [--format text|xml]\n')).toEqual([
      'agent-play simulate s.yaml --format xml: --format: expected one of text, json, got "xml"',
    ]);
    expect(shellProblems('source <(npx agent-play completion --shell bash)\n')[0]).toMatch(/unknown option --shell/);
    expect(shellProblems('npm run synthesize\n')).toEqual(['npm run synthesize: no such script in package.json']);
    expect(shellProblems('npx agent-play deploy\n')[0]).toContain('no such command deploy');
    expect(shellProblems('argo submit --from workflowtemplate/play-web -p task-id=5\n')[0]).toContain('has no WorkflowTemplate play-web');
    expect(shellProblems('argo submit --from workflowtemplate/play -p service=web\n')[0]).toContain(
      'the template has no parameter service',
    );
    expect(shellProblems('echo "unclosed\n')[0]).toContain('not valid bash');
    expect(shellProblems("cat > team.yaml <<'EOF'\nagents: { cleo: { cli: cursr } }\nEOF\n")[0]).toMatch(
      /^team\.yaml \(the here-document\): .*agents\.cleo\.cli/,
    );
    expect(yamlProblems('agents: { cleo: { cli: cursr } }\n')[0]).toContain('agents.cleo.cli');
    expect(yamlProblems('apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\ndata: { a: 1 }\n').join('\n')).toContain('data');
    expect(typeScriptOf(TYPE_CONTROL).join('\n')).toContain("Type 'number' is not assignable to type 'string'");
  });

  it('reuse the kept type-check verdicts only while the key and every file the program read are unchanged', () => {
    const folder = scratch();
    const read = path.join(folder, 'library.ts');
    const cache = path.join(folder, 'verdicts.json');
    writeFileSync(read, 'export const a = 1;\n');
    const kept: KeptVerdicts = {
      key: 'k',
      read: { [read]: contentHash('export const a = 1;\n') },
      problems: { 'block.ts': ['line 1: x'] },
    };
    writeFileSync(cache, JSON.stringify(kept));
    expect(keptVerdicts('k', cache)).toEqual({ 'block.ts': ['line 1: x'] });
    expect(keptVerdicts('other blocks', cache)).toBeUndefined();
    writeFileSync(read, 'export const a = 2;\n');
    expect(keptVerdicts('k', cache)).toBeUndefined();
    expect(keptVerdicts('k', path.join(folder, 'none.json'))).toBeUndefined();
  });

  it('meet every agent-play command, and docs/cli.md shows every one', () => {
    // The reader finds the command lines: one that found none would pass everything.
    const lines = RUN.filter((snippet) => snippet.language === 'sh').flatMap((snippet) =>
      readShell(snippet.text).commands.flatMap((command) => {
        const args = agentPlayArgs(command);
        return args === undefined ? [] : [args];
      }),
    );
    expect(lines.length).toBeGreaterThan(30);
    expect(new Set(lines.map((args) => args[0]))).toEqual(
      new Set([...ALL_COMMANDS.map((command) => command.name), 'help', '--help', '--version']),
    );
    const cli = readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
    for (const command of ALL_COMMANDS) expect(cli, command.name).toContain(`| \`${command.name}\` |`);
  });
});
