/**
 * Every agent-play command line in the documentation parses: each `agent-play ...` (as `npx agent-play`,
 * `npm run [-s] agent-play --` or bare) in a fenced shell block of README.md and docs/*.md names a command
 * (and a subcommand of config) that exists, and only options of that command's table, with a value from the
 * option's list where it has one. Synopsis lines (`[--config FILE]`, `text|json`) are read the same way,
 * each alternative checked. So a renamed or removed option cannot stay in the docs.
 */
// @ts-nocheck

import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/commands';
import type { Command } from '../src/commands/command';
import { completionCommand } from '../src/commands/completion';
import { type OptionSpec, parseOptions } from '../src/commands/options';

const ROOT = resolve(__dirname, '..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];
const ALL: readonly Command[] = [...COMMANDS, completionCommand(() => ALL)];

/** The shell lines of the fenced sh/bash/console blocks of a Markdown text, continuations joined. */
function shellLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  let block: string[] = [];
  for (const line of markdown.split('\n')) {
    const opener = /^(`{3,})\s*([\w-]*)/.exec(line);
    if (fence === undefined && opener) {
      fence = opener[2];
      block = [];
    } else if (fence !== undefined && /^`{3,}\s*$/.test(line)) {
      if (['sh', 'bash', 'shell', 'console', ''].includes(fence)) {
        const joined = block.join('\n').replace(/\\\n\s*/g, ' ');
        lines.push(
          ...joined
            .split('\n')
            .map((text) => text.replace(/^\$ /, ''))
            .filter((text) => !text.trimStart().startsWith('#')),
        );
      }
      fence = undefined;
    } else if (fence !== undefined) block.push(line);
  }
  return lines;
}

/** The arguments after each agent-play invocation in a shell line (a pipeline or a list may hold several). */
function invocations(line: string): string[][] {
  const words = line.replace(/\s#.*$/, '').match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  const found: string[][] = [];
  let current: string[] | undefined;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index];
    if (['|', '&&', ';', '||'].includes(word) || word.startsWith('>') || word === '<') {
      current = undefined;
      continue;
    }
    if (current) {
      current.push(word.replace(/^(['"])(.*)\1$/, '$2'));
      continue;
    }
    if (word === 'agent-play' && words[index - 1] !== 'run') current = [];
    else if (word === 'agent-play' && words[index - 1] === 'run') {
      current = [];
      if (words[index + 1] === '--') index += 1;
    } else if (word === 'npm' && words[index + 1] === 'run' && words[index + 2] === '-s' && words[index + 3] === 'agent-play') {
      current = [];
      index += words[index + 4] === '--' ? 4 : 3;
    }
    if (current) found.push(current);
  }
  return found;
}

/** Synopsis brackets and ellipses away; `a|b` alternatives expanded into one line each. */
function expand(args: readonly string[]): string[][] {
  const clean = args.map((word) => word.replace(/^\[+|\]+$|\.\.\.$/g, '')).filter((word) => word !== '' && word !== '...');
  const choice = clean.findIndex((word) => /^[\w-]+(\|[\w-]+)+$/.test(word));
  if (choice < 0) return [clean];
  return clean[choice].split('|').flatMap((alternative) => expand([...clean.slice(0, choice), alternative, ...clean.slice(choice + 1)]));
}

/** Why the arguments do not parse, or undefined. */
function problem(args: readonly string[]): string | undefined {
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === '--version' || name === '-V') return undefined;
  if (name === 'help') return ALL.some((command) => command.name === rest[0]) ? undefined : `help of an unknown command ${rest[0]}`;
  const command = ALL.find((candidate) => candidate.name === name);
  if (!command) return `unknown command ${name}`;
  let options: readonly OptionSpec[] = command.options;
  let tail = rest;
  if (command.subcommands !== undefined && rest[0] !== undefined && !rest[0].startsWith('-')) {
    const subcommand = command.subcommands[rest[0]];
    if (!subcommand) return `unknown subcommand ${name} ${rest[0]}`;
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

describe('the command lines of the documentation', () => {
  it('finds the invocations of a shell line, wherever they are in a pipeline', () => {
    expect(invocations('kubectl get cm -o yaml | npm run -s agent-play -- status --format json > out.json')).toEqual([
      ['status', '--format', 'json'],
    ]);
    expect(invocations('npx agent-play graph && agent-play --version # a comment')).toEqual([['graph'], ['--version']]);
    expect(invocations('npm run agent-play -- validate k8s/')).toEqual([['validate', 'k8s/']]);
    expect(expand(['status', '[--format', 'text|json]'])).toEqual([
      ['status', '--format', 'text'],
      ['status', '--format', 'json'],
    ]);
    expect(problem(['status', '--formt', 'json'])).toMatch(/^unknown option --formt/);
    expect(problem(['graph', '--what', 'all'])).toMatch(/^--what: expected one of/);
    expect(problem(['config', 'edit'])).toBe('unknown subcommand config edit');
  });

  it.each(DOCS)('%s: every agent-play command parses', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const problems = shellLines(text).flatMap((line) =>
      invocations(line).flatMap((args) =>
        expand(args).flatMap((alternative) => {
          const found = problem(alternative);
          return found === undefined ? [] : [`${line.trim()}: ${found}`];
        }),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('docs/cli.md shows every command', () => {
    const lines = shellLines(readFileSync(join(ROOT, 'docs/cli.md'), 'utf8')).flatMap(invocations);
    const shown = new Set(lines.map((args) => (args[0] === 'help' ? args[1] : args[0])));
    const table = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    for (const command of ALL) expect(table, command.name).toContain(`| \`${command.name}\` |`);
    for (const example of ['--version', 'help', 'completion', 'status', 'resume'])
      expect([...shown, ...lines.map((args) => args[0])]).toContain(example);
    // The docs hold command lines to check: a reader that found none would pass everything.
    const all = DOCS.flatMap((file) => shellLines(readFileSync(join(ROOT, file), 'utf8')).flatMap(invocations));
    expect(all.length).toBeGreaterThan(30);
    expect(new Set(all.map((args) => args[0]))).toEqual(new Set([...ALL.map((command) => command.name), 'help', '--help', '--version']));
  });
});
