/**
 * One option set for every command: the table each command declares (src/commands/options.ts) parses its
 * line, writes its help and generates shell completion. --version, `help COMMAND`, --format json on every
 * command that reports, one-line errors for bad options and values (never parseArgs' own message), and
 * completion scripts that the shells accept and that offer every command and option.
 */
// @ts-nocheck

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { COMMANDS } from '../src/commands';
import { completionTable } from '../src/commands/completion-scripts/completion-table';
import { runCapturing, runCapturingAsync } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';
import { skipNote } from './support/skip-note';

const scratch = useScratchDirs('agent-play-options-');

describe('agent-play --version and help', () => {
  it('prints the package version for --version and -V', () => {
    for (const flag of ['--version', '-V']) expect(runCapturing([flag])).toEqual({ code: 0, out: `${packageJson.version}\n`, err: '' });
    expect(runCapturing(['--version', 'x'])).toMatchObject({ code: 2, err: 'agent-play: --version takes no argument\n' });
    expect(runCapturing(['--verbose'])).toMatchObject({
      code: 2,
      err: 'agent-play: unknown option --verbose; options: --help, --version\n',
    });
  });

  it('help COMMAND prints what COMMAND --help prints, subcommands of config included', async () => {
    for (const command of [...COMMANDS.map((one) => one.name), 'completion']) {
      const help = await runCapturingAsync(['help', command]);
      expect(help.code, command).toBe(0);
      expect(help.out).toBe((await runCapturingAsync([command, '--help'])).out);
      expect(help.out).toMatch(new RegExp(`^Usage: agent-play ${command}\\b`));
    }
    expect(runCapturing(['help', 'config', 'init']).out).toBe(runCapturing(['config', 'init', '--help']).out);
    expect(runCapturing(['help', 'deploy'])).toMatchObject({ code: 2 });
    expect(runCapturing(['help', 'deploy']).err).toMatch(/^agent-play: unknown command "deploy"; commands: synth, /);
  });

  it("names in each synopsis (the Usage: lines) only options of the command's table", () => {
    const entries = [
      ...COMMANDS.map((command) => ({ name: command.name, usage: command.usage, options: command.options })),
      ...Object.entries(COMMANDS.find((command) => command.name === 'config')?.subcommands ?? {}).map(([name, subcommand]) => ({
        name: `config ${name}`,
        usage: runCapturing(['config', name, '--help']).out,
        options: subcommand.options,
      })),
    ];
    for (const entry of entries) {
      const synopsis = entry.usage.split('\n\n')[0];
      const named = [...synopsis.matchAll(/(?<![\w-])(--[a-z-]+|-[a-zA-Z])\b/g)].map((match) => match[1]);
      const known = entry.options.flatMap((option) => [`--${option.name}`, ...(option.short ? [`-${option.short}`] : [])]);
      for (const option of named) expect(known, `${entry.name}: ${option}`).toContain(option);
    }
  });

  it("lists each option of a command's table in its help, with its value", () => {
    for (const command of COMMANDS) {
      for (const option of command.options) {
        const head = `--${option.name}${option.value ? ` ${option.value}` : ''}`;
        expect(command.usage, `${command.name} ${head}`).toContain(head);
      }
    }
  });
});

describe('one option set', () => {
  it('takes --format json on every command that reports, and --json still on simulate', async () => {
    const repository = JSON.parse(runCapturing(['config', 'show', '--format', 'json']).out).config.repositories[0].name;
    const scenario = join(scratch(), 'scenario.yaml');
    writeFileSync(
      scenario,
      `plays:\n  - { repository: ${repository}, task: 5, stage: implementation }\nsteps:\n  - agentDone: { repository: ${repository}, task: 5 }\n`,
    );
    const asJson = await runCapturingAsync(['simulate', scenario, '--format', 'json']);
    expect(asJson.code, asJson.err).toBe(0);
    expect(asJson.out).toBe((await runCapturingAsync(['simulate', scenario, '--json'])).out);
    expect(JSON.parse(asJson.out)).toHaveProperty('steps');

    const graph = runCapturing(['graph', '--format', 'json']);
    const parsed = JSON.parse(graph.out);
    expect(parsed.stages.map((stage: { name: string }) => stage.name)).toContain('implementation');
    expect(parsed.dag.tasks.length).toBeGreaterThan(0);
    expect(parsed.mermaid.stages).toBe(runCapturing(['graph', '--what', 'stages']).out);

    const out = join(scratch(), 'manifests');
    const synth = runCapturing(['synth', '--out', out, '--format', 'json']);
    expect(synth.code, synth.err).toBe(0);
    const report = JSON.parse(synth.out);
    expect(report).toMatchObject({ written: true, out, errors: 0 });
    expect(report.files.map((file: { name: string }) => file.name).sort()).toEqual(readdirSorted(out));
    const counted = report.files.reduce((sum: number, file: { objects: number }) => sum + file.objects, 0);
    expect(report.objects).toBe(counted);
    for (const file of report.files)
      expect(file.objects, file.name).toBe((readFileSync(join(out, file.name), 'utf8').match(/^kind: /gm) ?? []).length);

    expect(JSON.parse(runCapturing(['config', 'validate', '--format', 'json']).out)).toMatchObject({
      valid: true,
      counts: { repositories: 1, stages: 7, gates: 3, agents: 6, projects: 0 },
    });
  });

  it('refuses a bad value or option in one line naming it, never with the parser message', async () => {
    const cases: [string[], string][] = [
      [['simulate', 'x.yaml', '--format', 'xml'], 'agent-play simulate: --format: expected one of text, json, got "xml"\n'],
      [['simulate', 'x.yaml', '--format'], 'agent-play simulate: --format needs a value (text or json)\n'],
      [['graph', '--what', 'all'], 'agent-play graph: --what: expected one of stages, dag, both, got "all"\n'],
      [['graph', '--format', 'text'], 'agent-play graph: --format: expected one of mermaid, json, got "text"\n'],
      [['synth', '--verbose'], 'agent-play synth: unknown option --verbose; options: --config, --out, --format, --help\n'],
      [['synth', 'extra'], 'agent-play synth: takes no argument "extra"; options: --config, --out, --format, --help\n'],
      [['validate', '--verbose=yes'], 'agent-play validate: --verbose takes no value\n'],
      [
        ['status', '--watch', '--task', 'x', '--kubeconfig', 'k'],
        'agent-play status: --task: expected the task id, a positive whole number such as 5, got "x"\n',
      ],
      [['completion', 'tcsh'], 'agent-play completion: expected one shell: bash, zsh, fish; got "tcsh"\n'],
    ];
    for (const [argv, err] of cases) {
      const run = await runCapturingAsync(argv);
      expect({ argv, code: run.code, err: run.err }).toEqual({ argv, code: 2, err });
      expect(run.err).not.toMatch(/To specify a positional argument|ERR_PARSE_ARGS/);
    }
  });
});

const SHELLS: { shell: string; check: string[]; available: boolean }[] = [
  { shell: 'bash', check: ['bash', '-n'], available: spawnSync('bash', ['--version']).status === 0 },
  { shell: 'zsh', check: ['zsh', '-n'], available: spawnSync('zsh', ['--version']).status === 0 },
  { shell: 'fish', check: ['fish', '--no-execute'], available: spawnSync('fish', ['--version']).status === 0 },
];

describe('agent-play completion', () => {
  for (const { shell, check, available } of SHELLS) {
    it.skipIf(!available)(
      `${shell}${available ? '' : ` (skipped: ${shell} is not installed)`}: the script parses and offers every command and option`,
      () => {
        const run = runCapturing(['completion', shell]);
        expect(run.code, run.err).toBe(0);
        const file = join(scratch(), `agent-play.${shell}`);
        writeFileSync(file, run.out);
        const parsed = spawnSync(check[0], [...check.slice(1), file], { encoding: 'utf8' });
        expect(parsed.status, parsed.stderr).toBe(0);
        const commands =
          runCapturing(['--help'])
            .out.match(/^ {2}([a-z]+) /gm)
            ?.map((line) => line.trim()) ?? [];
        expect(commands).toContain('completion');
        for (const command of commands) expect(run.out, command).toMatch(new RegExp(`\\b${command}\\b`));
        for (const entry of completionTable(COMMANDS)) {
          for (const name of entry.path) expect(run.out).toContain(name);
          for (const option of entry.options) {
            expect(run.out, `${entry.path.join(' ')} --${option.name}`).toMatch(
              shell === 'fish' ? `-l ${option.name}` : `--${option.name}`,
            );
            for (const choice of option.choices ?? []) expect(run.out).toContain(choice);
          }
        }
      },
    );
  }

  it.skipIf(!SHELLS[0].available)(
    `bash: completes commands, subcommands, options and their values${skipNote(SHELLS[0].available, 'bash is not installed')}`,
    () => {
      const script = runCapturing(['completion', 'bash']).out;
      const complete = (...words: string[]): string[] => {
        const program = `${script}\nCOMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _agent_play; printf '%s\\n' "\${COMPREPLY[@]}"`;
        const run = spawnSync('bash', ['-c', program], { encoding: 'utf8', cwd: scratch() });
        expect(run.status, run.stderr).toBe(0);
        return run.stdout.split('\n').filter(Boolean).sort();
      };
      expect(complete('agent-play', 'sy')).toEqual(['synth']);
      expect(complete('agent-play', 'config', '')).toEqual(['--help', '-h', 'init', 'schema', 'show', 'validate']);
      expect(complete('agent-play', 'config', 'show', '--format', '')).toEqual(['json', 'yaml']);
      expect(complete('agent-play', 'status', '--w')).toEqual(['--watch']);
      expect(complete('agent-play', 'graph', '--what', 'd')).toEqual(['dag']);
      expect(complete('agent-play', 'help', 'val')).toEqual(['validate']);
    },
  );
});

function readdirSorted(folder: string): string[] {
  return readdirSync(folder).sort();
}
