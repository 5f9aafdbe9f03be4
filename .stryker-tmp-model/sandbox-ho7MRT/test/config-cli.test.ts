/**
 * `agent-play config init|show|validate|schema`: the commented file resolves to exactly the embedded
 * defaults and names every section; show says where every value came from; validate checks like synth; the
 * JSON Schema accepts real configurations and rejects typical mistakes.
 */
// @ts-nocheck

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PlatformConfigSchema } from '../constructs/model/config-schema';
import { resolveConfig } from '../constructs/model/resolve-config';
import { CONFIG_SECTIONS } from '../src/config/config-sections';
import { runCapturing } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';

const scratch = useScratchDirs('agent-play-config-');
const SCHEMA_KEYS = Object.keys(PlatformConfigSchema.shape).sort();

describe('agent-play config init', () => {
  it('writes a commented file that resolves to exactly the embedded default configuration', () => {
    const file = join(scratch(), 'agent-play.yaml');
    const run = runCapturing(['config', 'init', '--out', file]);
    expect(run.code, run.err).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(resolveConfig({ file: parse(text) })).toEqual(resolveConfig({}));
    expect(text.split('\n').filter((line) => line.startsWith('#')).length).toBeGreaterThan(10);
  });

  it('names and explains every top-level section of the schema', () => {
    expect(Object.keys(CONFIG_SECTIONS).sort()).toEqual(SCHEMA_KEYS);
    const text = runCapturing(['config', 'init', '--out', '-']).out;
    for (const key of SCHEMA_KEYS) expect(text, key).toMatch(new RegExp(`^${key}:`, 'm'));
    expect(text).toContain('# yaml-language-server: $schema=');
  });

  it('refuses to overwrite without --force, and overwrites with it', () => {
    const file = join(scratch(), 'agent-play.yaml');
    writeFileSync(file, 'namespace: mine\n');
    const refused = runCapturing(['config', 'init', '--out', file]);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(`${file} exists; pass --force to overwrite it, or --out another file\n`);
    expect(readFileSync(file, 'utf8')).toBe('namespace: mine\n');
    expect(runCapturing(['config', 'init', '--out', file, '--force']).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('namespace: agents');
  });

  it('says in one line when it cannot write the file, and leaves nothing behind', () => {
    const folder = scratch();
    const file = join(folder, 'missing-folder', 'agent-play.yaml');
    const run = runCapturing(['config', 'init', '--out', file]);
    expect(run.code).toBe(2);
    expect(run.err).toBe(`${file}: cannot write it (ENOENT); pass --out a file in a folder you can write\n`);
    expect(readdirSync(folder)).toEqual([]);
    // A rename that fails (the target is a folder) removes the temporary file it wrote.
    mkdirSync(join(folder, 'taken'));
    const onFolder = runCapturing(['config', 'init', '--out', join(folder, 'taken'), '--force']);
    expect(onFolder.code).toBe(2);
    expect(onFolder.err).toMatch(/taken: cannot write it \(E[A-Z]+\)/);
    expect(readdirSync(folder)).toEqual(['taken']);
  });
});

describe('agent-play config show', () => {
  const folder = scratch();
  const file = join(folder, 'agent-play.yaml');
  writeFileSync(
    file,
    'namespace: team-a\nagents:\n  cleo: { temperature: 0.5 }\nstages:\n  - { name: build, type: agent, agent: rex }\n  - { name: done, type: end }\n',
  );
  const env = { AGENT_PLAY_CLI_REX: 'codex' };

  it('gives every value its source in JSON: default, file or environment', () => {
    const run = runCapturing(['config', 'show', '--config', file, '--format', 'json'], { env });
    expect(run.code, run.err).toBe(0);
    const { config, sources } = JSON.parse(run.out);
    expect(config.namespace).toBe('team-a');
    expect(sources).toMatchObject({
      namespace: `file:${file}`,
      'agents.rex.cli': 'environment:AGENT_PLAY_CLI_REX',
      'agents.cleo.temperature': `file:${file}`,
      'agents.cleo.model': 'default',
      'stages[0].name': `file:${file}`,
      'stages[0].timeout': `file:${file}`,
      'events.resume': 'default',
      'repositories[0].name': 'default',
    });
    expect(Object.values(sources).every((source) => /^(default|file:.+|environment:AGENT_PLAY_CLI_[A-Z_]+)$/.test(source as string))).toBe(
      true,
    );
  });

  it('puts the source of every value that is not a default at the end of its line in YAML', () => {
    const run = runCapturing(['config', 'show', '--config', file], { env });
    expect(run.out).toContain(`namespace: team-a # file ${file}`);
    expect(run.out).toMatch(/cli: codex # environment AGENT_PLAY_CLI_REX/);
    expect(run.out).toMatch(/^ {4}temperature: 0\.5 # file /m);
    expect(run.out).toMatch(/^ {2}resume: label-selector$/m);
    expect(runCapturing(['config', 'show', '--config', file], { env }).out).toBe(run.out);
  });
});

describe('agent-play config validate', () => {
  it('says ok with what the configuration holds', () => {
    const run = runCapturing(['config', 'validate']);
    expect(run).toMatchObject({
      code: 0,
      out: 'ok: the embedded default configuration is valid (1 repository, 7 stages, 3 gates, 6 agents, 0 projects)\n',
    });
  });

  it('lists every problem on its own line, exit 2', () => {
    const file = join(scratch(), 'bad.yaml');
    writeFileSync(
      file,
      'agents:\n  cleo: { cli: cursr }\nstages:\n  - { name: build, type: agent, agent: ghost }\n  - { name: done, type: end }\n',
    );
    const run = runCapturing(['config', 'validate', '--config', file]);
    expect(run.code).toBe(2);
    expect(run.err.trim().split('\n')).toEqual([
      'agents.cleo.cli: unknown CLI "cursr"; did you mean cursor? known: claude, codex, cursor, factory, opencode, gemini',
      'stages[0].agent: unknown agent "ghost"; known: rex, blaze, cleo, tess, cipher, morgan',
    ]);
    expect(existsSync(file)).toBe(true);
  });
});

describe('agent-play config schema', () => {
  const schema = JSON.parse(runCapturing(['config', 'schema']).out);
  const ajv = new Ajv2020({ strict: false, allErrors: true }).addFormat('uri', (text: string) => URL.canParse(text));
  const check = ajv.compile(schema);
  const valid = (config: unknown): boolean => check(config) === true;

  it('is a described JSON Schema for editors', () => {
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: expect.stringMatching(/^urn:cdk8s-agent-play:/),
      title: expect.any(String),
    });
    expect(Object.keys(schema.properties).sort()).toEqual(SCHEMA_KEYS);
    for (const key of SCHEMA_KEYS)
      expect(schema.properties[key].description, key).toBe(CONFIG_SECTIONS[key as keyof typeof CONFIG_SECTIONS]);
  });

  it('accepts the default file, an empty one, and a custom one with a registry override of one field', () => {
    expect(valid(parse(runCapturing(['config', 'init', '--out', '-']).out))).toBe(true);
    expect(valid({})).toBe(true);
    expect(
      valid({
        namespace: 'team-a',
        agents: { cleo: { cli: 'codex' } },
        stages: [
          { name: 'build', type: 'agent', agents: ['rex', 'blaze'] },
          { name: 'done', type: 'end' },
        ],
      }),
      JSON.stringify(check.errors),
    ).toBe(true);
  });

  it('rejects typical mistakes: an unknown key, a bad stage type, a wrong type', () => {
    expect(valid({ namspace: 'x' })).toBe(false);
    expect(valid({ stages: [{ name: 'build', type: 'robot' }] })).toBe(false);
    expect(valid({ workspace: { size: 10 } })).toBe(false);
    expect(valid({ repositories: [{ name: 'octo-org/web', service: 'Web App' }] })).toBe(false);
    expect(valid({ play: { deadlin: '7d' } })).toBe(false);
    expect(
      valid({
        stages: [
          { name: 'build', type: 'agent', agent: 'rex', when: { parameter: 'task-type' } },
          { name: 'done', type: 'end' },
        ],
      }),
    ).toBe(false);
  });

  it('wants an agent stage to name its agents one way: agent or agents', () => {
    const stages = (stage: Record<string, unknown>): unknown => ({
      stages: [
        { name: 'build', type: 'agent', ...stage },
        { name: 'done', type: 'end' },
      ],
    });
    expect(valid(stages({ agent: 'rex' }))).toBe(true);
    expect(valid(stages({ agents: ['rex', 'blaze'] }))).toBe(true);
    expect(valid(stages({}))).toBe(false);
    expect(valid(stages({ agent: 'rex', agents: ['blaze'] }))).toBe(false);
  });
});
