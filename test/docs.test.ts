/**
 * The doc test: every code block of the README and docs/ is checked, so that none can rot.
 *
 * - TypeScript: every block is type-checked, strict, in one program where `cdk8s-agent-play` is the sources.
 * - YAML: a config (`agent-play.yaml`) must be one that `agent-play config validate` accepts; a simulator
 *   scenario must load (its payloads are those of examples/scenarios/happy-path/); a list of CI steps has its
 *   `run:` commands checked as shell.
 * - Shell: the block is valid bash (`bash -n`), and each command is one this project knows: an `agent-play`
 *   command must exist and take every option it is given (its own `--help` lists them), an npm script must
 *   be in package.json, a file run with node or tsx must exist, and `argo submit --from
 *   workflowtemplate/NAME -p KEY=VALUE` must name a WorkflowTemplate of dist-manifests/ and its parameters.
 *
 * A block the reader is shown as output (no language) is not run. A writer can skip a block with the line
 * `<!-- doc-test: skip: REASON -->` right before it; it is reported as skipped, with the reason.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../src/config/load-config';
import { runCli } from '../src/cli';
import { loadScenario } from '../src/simulate/scenario';
import { type DocSnippet, documentationFiles, shellCommands, snippetsOf } from './support/doc-snippets';
import { useScratchDirs } from './support/scratch-dir';
import { skipNote } from './support/skip-note';
import { parseManifests } from './support/synth';

const ROOT = path.resolve(__dirname, '..');
const scratch = useScratchDirs('agent-play-docs-');
const SNIPPETS = documentationFiles(ROOT).flatMap((file) => snippetsOf(ROOT, file));
const RUN = SNIPPETS.filter((snippet) => snippet.language !== '');
const title = (snippet: DocSnippet): string => `${snippet.file}:${snippet.line} (${snippet.language})`;

// ---------------------------------------------------------------------------------------------------------
// The shell commands
// ---------------------------------------------------------------------------------------------------------

const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
/** Programs a block may run that this project does not provide; they are not checked further. */
const OUTSIDE_TOOLS = new Set(['kubectl', 'argo', 'git', 'openssl', 'cd', 'cdk8s', 'go', 'cat', 'echo', 'mkdir', 'apt-get']);
const NPM_COMMANDS = new Set(['ci', 'test', 'pack', 'install']);

/** What `agent-play --help` and each command's `--help` print, by the command's words (read in beforeAll). */
const HELP = new Map<string, string>();
let COMMANDS: string[] = [];
const SUBCOMMANDS: Record<string, string[]> = {};

async function help(args: readonly string[]): Promise<string> {
  let out = '';
  const code = await runCli([...args, '--help'], { out: (text) => (out += text), err: (text) => (out += text), env: {} });
  if (code !== 0) throw new Error(`agent-play ${args.join(' ')} --help: exit ${String(code)}: ${out}`);
  return out;
}

async function readHelp(): Promise<void> {
  COMMANDS = commandNames(await help([]));
  for (const command of COMMANDS) {
    const text = await help([command]);
    HELP.set(command, text);
    const subcommands = commandNames(text);
    if (subcommands.length === 0) continue;
    SUBCOMMANDS[command] = subcommands;
    for (const sub of subcommands) HELP.set(`${command} ${sub}`, await help([command, sub]));
  }
}

function commandNames(usage: string): string[] {
  const section = /(?:Commands|Subcommands):\n((?: {2}\S.*\n)+)/.exec(usage);
  return section ? [...section[1].matchAll(/^ {2}(\S+)/gm)].map((match) => match[1]) : [];
}

/** The problems of one `agent-play` invocation (its words after the program's name). */
function agentPlayProblems(words: readonly string[]): string[] {
  const [command, ...rest] = words;
  if (command === undefined || command.startsWith('-')) return [];
  if (!COMMANDS.includes(command)) return [`agent-play ${command}: no such command (known: ${COMMANDS.join(', ')})`];
  const path = [command];
  const sub = SUBCOMMANDS[command];
  if (sub !== undefined) {
    if (rest[0] === undefined || !sub.includes(rest[0])) return [`agent-play ${command} ${rest[0] ?? ''}: no such subcommand (known: ${sub.join(', ')})`];
    path.push(rest.shift() as string);
  }
  const usage = HELP.get(path.join(' ')) ?? '';
  return rest
    .filter((word) => /^--?[a-zA-Z]/.test(word))
    .map((word) => word.split('=')[0])
    .filter((option) => !new RegExp(`(^|[\\s,\\[|])${option.replace(/[-]/g, '\\-')}([\\s,=\\]|]|$)`, 'm').test(usage))
    .map((option) => `agent-play ${path.join(' ')}: no option ${option}`);
}

/** The problems of one simple command of a shell block. */
function commandProblems(input: readonly string[]): string[] {
  // Leading VARIABLE=value words set the environment of the command.
  const start = input.findIndex((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word));
  const [program, ...args] = start < 0 ? [] : input.slice(start);
  if (program === undefined) return [];
  switch (program) {
    case 'agent-play':
      return agentPlayProblems(args);
    case 'npx':
      return npxProblems(args);
    case 'npm':
      return npmProblems(args);
    case 'node':
      return nodeProblems(args);
    case 'argo':
      return argoProblems(args);
    default:
      return OUTSIDE_TOOLS.has(program) ? [] : [`${program}: a program the doc test does not know; add it to OUTSIDE_TOOLS if it is not ours`];
  }
}

function npxProblems(args: readonly string[]): string[] {
  const [tool, ...rest] = args;
  if (tool === 'agent-play') return agentPlayProblems(rest);
  if (tool === 'tsx') return rest[0] !== undefined && !existsSync(path.join(ROOT, rest[0])) ? [`npx tsx ${rest[0]}: no such file`] : [];
  if (tool === 'vitest' || tool === 'biome' || tool === 'cdk8s') return [];
  return [`npx ${tool}: a tool the doc test does not know`];
}

function npmProblems(args: readonly string[]): string[] {
  const words = args.filter((word) => word !== '-s' && word !== '--silent');
  const [command, script, ...rest] = words;
  if (command === undefined || NPM_COMMANDS.has(command)) return [];
  if (command !== 'run') return [`npm ${command}: not a command the docs use`];
  if (script === undefined || PACKAGE.scripts[script] === undefined) return [`npm run ${script}: no such script in package.json`];
  if (script === 'agent-play') return agentPlayProblems(rest[0] === '--' ? rest.slice(1) : rest);
  return [];
}

function nodeProblems(args: readonly string[]): string[] {
  const [file, ...rest] = args;
  if (file === undefined) return [];
  if (file === 'build/cli.cjs') return agentPlayProblems(rest);
  return existsSync(path.join(ROOT, file)) ? [] : [`node ${file}: no such file`];
}

/** The WorkflowTemplates of dist-manifests/ and their parameters. */
function distTemplates(): Map<string, string[]> {
  const templates = new Map<string, string[]>();
  const file = path.join(ROOT, 'dist-manifests', 'play-workflow-templates.yaml');
  for (const object of parseManifests(new Map([['play-workflow-templates.yaml', readFileSync(file, 'utf8')]]))) {
    if (object.kind !== 'WorkflowTemplate') continue;
    const parameters = (object.spec.arguments?.parameters ?? []) as { name: string }[];
    templates.set(object.metadata.name, parameters.map((parameter) => parameter.name));
  }
  return templates;
}

function argoProblems(args: readonly string[]): string[] {
  if (args[0] !== 'submit') return [];
  const from = args[args.indexOf('--from') + 1];
  if (args.indexOf('--from') < 0 || !from?.startsWith('workflowtemplate/')) return [];
  const name = from.slice('workflowtemplate/'.length);
  const parameters = distTemplates().get(name);
  if (parameters === undefined) return [`argo submit --from ${from}: dist-manifests/ has no WorkflowTemplate ${name}`];
  return args
    .flatMap((word, index) => (word === '-p' ? [args[index + 1]?.split('=')[0] ?? ''] : []))
    .filter((parameter) => !parameters.includes(parameter))
    .map((parameter) => `argo submit --from ${from}: the template has no parameter ${parameter} (it has ${parameters.join(', ')})`);
}

function shellProblems(text: string): string[] {
  const syntax = spawnSync('bash', ['-n'], { input: text, encoding: 'utf8' });
  if (syntax.status !== 0) return [`not valid bash: ${syntax.stderr.trim()}`];
  return shellCommands(text).flatMap(commandProblems);
}

// ---------------------------------------------------------------------------------------------------------
// The YAML blocks
// ---------------------------------------------------------------------------------------------------------

type YamlKind = 'config' | 'scenario' | 'ci-steps';

function yamlKind(value: unknown): YamlKind {
  if (Array.isArray(value)) return 'ci-steps';
  if (typeof value === 'object' && value !== null && ('steps' in value || 'plays' in value)) return 'scenario';
  return 'config';
}

function yamlProblems(snippet: DocSnippet): string[] {
  const value: unknown = parse(snippet.text);
  const folder = scratch();
  const file = path.join(folder, 'snippet.yaml');
  writeFileSync(file, snippet.text);
  switch (yamlKind(value)) {
    case 'ci-steps':
      return shellProblems((value as { run?: string }[]).map((step) => step.run ?? '').join('\n'));
    case 'scenario':
      symlinkSync(path.join(ROOT, 'examples/scenarios/happy-path/payloads'), path.join(folder, 'payloads'), 'dir');
      return problemsOf(() => loadScenario(file));
    case 'config':
      return problemsOf(() => loadConfig({ file, env: {} }));
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

function typeScriptProblems(snippets: readonly DocSnippet[]): Map<DocSnippet, string[]> {
  // Inside the checkout, so that the blocks' imports of cdk8s and the other peers resolve to node_modules.
  const folder = path.join(ROOT, 'build', `doc-test-${process.pid}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  try {
    return typeCheck(snippets, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function typeCheck(snippets: readonly DocSnippet[], folder: string): Map<DocSnippet, string[]> {
  const files = snippets.map((snippet, index) => {
    const file = path.join(folder, `snippet-${index}.ts`);
    // Each block is a module of its own: its names do not meet another block's.
    writeFileSync(file, `${snippet.text}\nexport {};\n`);
    return file;
  });
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
    baseUrl: ROOT,
    paths: { 'cdk8s-agent-play': ['constructs/index.ts'], 'cdk8s-agent-play/validate': ['src/validate/index.ts'] },
  });
  const problems = new Map<DocSnippet, string[]>(snippets.map((snippet) => [snippet, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const index = files.indexOf(diagnostic.file?.fileName ?? '');
    if (index < 0) continue;
    const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
    problems.get(snippets[index])?.push(`line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------

describe('the code blocks of the README and docs/', () => {
  beforeAll(readHelp);

  it('are found, in every language the docs use, and each language is one the doc test checks', () => {
    expect(RUN.length).toBeGreaterThan(30);
    expect([...new Set(RUN.map((snippet) => snippet.language))].filter((language) => !['sh', 'yaml', 'ts', 'json'].includes(language))).toEqual([]);
  });

  const typeScript = RUN.filter((snippet) => snippet.language === 'ts' && !snippet.skip);
  let checked: Map<DocSnippet, string[]> | undefined;
  const typeScriptOf = (snippet: DocSnippet): string[] => {
    checked ??= typeScriptProblems(typeScript);
    return checked.get(snippet) ?? ['not type-checked'];
  };

  for (const snippet of RUN) {
    it.skipIf(snippet.skip !== undefined)(`${title(snippet)}${skipNote(snippet.skip === undefined, snippet.skip ?? '')}`, () => {
      switch (snippet.language) {
        case 'sh':
          expect(shellProblems(snippet.text)).toEqual([]);
          break;
        case 'yaml':
          expect(yamlProblems(snippet)).toEqual([]);
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
    expect(shellProblems('npx agent-play validate --formt json dist-manifests/\n')).toEqual(['agent-play validate: no option --formt']);
    expect(shellProblems('npm run synthesize\n')).toEqual(['npm run synthesize: no such script in package.json']);
    expect(shellProblems('npx agent-play deploy\n')[0]).toContain('agent-play deploy: no such command');
    expect(shellProblems('argo submit --from workflowtemplate/play-web -p task-id=5\n')[0]).toContain('has no WorkflowTemplate play-web');
    expect(shellProblems('argo submit --from workflowtemplate/play -p service=web\n')[0]).toContain('the template has no parameter service');
    expect(shellProblems('echo "unclosed\n')[0]).toContain('not valid bash');
    const config = { file: 'x.md', line: 1, language: 'yaml', text: 'agents: { cleo: { cli: cursr } }\n' };
    expect(yamlProblems(config)[0]).toContain('agents.cleo.cli');
    const code = { file: 'x.md', line: 1, language: 'ts', text: "import { AgentPlatform } from 'cdk8s-agent-play';\nnew AgentPlatform();\n" };
    expect(typeScriptProblems([code]).get(code)?.[0]).toContain('Expected 2-3 arguments');
  });
});
