import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ApiObject, App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { runCli, type Io } from '../src/cli';
import { COMMANDS } from '../src/commands';
import { resolveConfig } from '../constructs/model/resolve-config';
import { GENERATED_HEADER, synthesizePlatform } from '../src/synth/synthesize';
import { chartObjects, synthesizeApp } from '../src/synth/synthesize-app';
import { synth } from './support/synth';
import { useScratchDirs } from './support/scratch-dir';

const PROJECT = resolve(__dirname, '..');

interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

function run(argv: string[], env: Record<string, string> = {}): Run {
  let out = '';
  let err = '';
  const io: Io = { out: (text) => (out += text), err: (text) => (err += text), env };
  const code = runCli(argv, io);
  if (typeof code !== 'number') throw new Error('synth answers at once');
  return { code, out, err };
}

const scratch = useScratchDirs('agent-play-');

function readFolder(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder)
      .sort()
      .map((name) => [name, readFileSync(join(folder, name), 'utf8')]),
  );
}

describe('synthesis output', () => {
  it('is deterministic: two synths give byte-identical files', () => {
    // Two syntheses of their own: `synth` gives copies of one synthesis per config.
    const first = synthesizePlatform(resolveConfig({ env: {} }));
    const second = synthesizePlatform(resolveConfig({ env: {} }));
    expect([...second.entries()]).toEqual([...first.entries()]);
    for (const text of first.values()) expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });

  it('matches the committed dist-manifests/ (run `npm run synth` and commit when this fails)', () => {
    const committed = readFolder(join(PROJECT, 'dist-manifests'));
    const fresh = Object.fromEntries(synth().files);
    expect(Object.keys(committed)).toEqual(Object.keys(fresh));
    for (const [name, text] of Object.entries(fresh)) expect(committed[name], `dist-manifests/${name} is stale`).toBe(text);
  });

  it('starts every file with the generated header and holds no machine path', () => {
    for (const text of synth().files.values()) {
      expect(text.startsWith(GENERATED_HEADER)).toBe(true);
      expect(text).not.toContain(PROJECT);
    }
  });
});

/**
 * An app whose charts depend on each other in every way cdk8s orders: objects within a chart, a chart nested
 * in another, and an object depending on another chart's object (which makes its chart depend on that chart).
 */
function entangledApp(): App {
  const app = new App();
  const config = (scope: Chart, id: string) => new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id } });
  const first = new Chart(app, 'first');
  const [a, b, c] = ['a', 'b', 'c'].map((id) => config(first, id));
  a.addDependency(b, c);
  const nested = new Chart(first, 'nested');
  config(nested, 'n1').addDependency(config(nested, 'n2'));
  const last = new Chart(app, 'last');
  const z = config(last, 'z');
  config(last, 'y').addDependency(z);
  b.addDependency(z);
  return app;
}

describe('chartObjects', () => {
  it("renders each chart of an app as the chart's own toJson does, in its dependency order", () => {
    const expected = entangledApp()
      .node.findAll()
      .filter((construct): construct is Chart => construct instanceof Chart)
      .map((chart) => chart.toJson());
    const app = entangledApp();
    const charts = app.node.findAll().filter((construct): construct is Chart => construct instanceof Chart);
    expect(charts[0].toJson()).toEqual(expected[0]);
    expect(charts.slice(1).map(chartObjects)).toEqual(expected.slice(1));
    // The order is not the order of construction: dependencies come first.
    expect(expected[0].map((object: { metadata: { name: string } }) => object.metadata.name)).toEqual(['b', 'c', 'a']);
    expect(expected[2].map((object: { metadata: { name: string } }) => object.metadata.name)).toEqual(['z', 'y']);
  });

  it('is what synthesizeApp writes', () => {
    const files = synthesizeApp(entangledApp());
    expect([...files.keys()]).toEqual(['first.yaml', 'last.yaml', 'nested.yaml']);
    expect(files.get('nested.yaml')).toMatch(/name: n2\n[\s\S]*name: n1\n/);
  });
});

describe('agent-play synth', () => {
  it('writes the default platform to --out', () => {
    const out = join(scratch(), 'manifests');
    const result = run(['synth', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    expect(readFolder(out)).toEqual(Object.fromEntries(synth().files));
  });

  it('reads --config and the environment', () => {
    const folder = scratch();
    const file = join(folder, 'agent-play.yaml');
    writeFileSync(file, 'namespace: team-a\nagents:\n  cleo:\n    cli: codex\n');
    const result = run(['synth', '--config', file, '--out', join(folder, 'out')], { AGENT_PLAY_CLI_TESS: 'gemini' });
    expect(result.code).toBe(0);
    const agents = readFileSync(join(folder, 'out', 'agents-configmap.yaml'), 'utf8');
    expect(agents).toContain('namespace: team-a');
    expect(agents).toMatch(/cleo:\n(?:\s{8}.*\n)*?\s{8}cli: codex/);
    // The CLI of each agent is in the repository registry the plays read.
    expect(readFileSync(join(folder, 'out', 'repository-registry.yaml'), 'utf8')).toContain('"tess":{"cli":"gemini"');
  });

  it('rejects bad config with one line per problem, exit 2, and writes nothing', () => {
    const folder = scratch();
    const file = join(folder, 'agent-play.yaml');
    writeFileSync(file, 'agents:\n  cleo:\n    cli: cursr\nworkspace:\n  size: lots\n');
    const out = join(folder, 'out');
    const result = run(['synth', '--config', file, '--out', out]);
    expect(result.code).toBe(2);
    expect(result.err.trimEnd().split('\n')).toEqual([
      'agents.cleo.cli: unknown CLI "cursr"; did you mean cursor? known: claude, codex, cursor, factory, opencode, gemini',
      'workspace.size: expected a size such as 10Gi',
    ]);
    expect(existsSync(out)).toBe(false);
  });

  it('rejects YAML with duplicate keys and says where', () => {
    const folder = scratch();
    const file = join(folder, 'agent-play.yaml');
    writeFileSync(file, 'namespace: a\nnamespace: b\n');
    const result = run(['synth', '--config', file, '--out', join(folder, 'out')]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^.*agent-play\.yaml:2:1: not valid YAML: Map keys must be unique\n$/);
  });

  it('refuses a missing config file in one line', () => {
    const result = run(['synth', '--config', 'no-such-file.yaml', '--out', join(scratch(), 'out')]);
    expect(result).toMatchObject({ code: 2, err: 'no-such-file.yaml: cannot read the config file (ENOENT)\n' });
  });

  it('replaces its own earlier output whole, removing files it no longer writes', () => {
    const out = join(scratch(), 'out');
    expect(run(['synth', '--out', out]).code).toBe(0);
    writeFileSync(join(out, 'old-concern.yaml'), `${GENERATED_HEADER}kind: Stale\n`);
    expect(run(['synth', '--out', out]).code).toBe(0);
    expect(existsSync(join(out, 'old-concern.yaml'))).toBe(false);
  });

  it('refuses to replace a folder that holds files it did not write', () => {
    const out = join(scratch(), 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    const result = run(['synth', '--out', out]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/holds files agent-play did not write \(notes\.txt\)/);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('answers --help, and refuses unknown commands and options in one line', () => {
    expect(run(['synth', '--help'])).toMatchObject({ code: 0 });
    expect(run(['synth', '--help']).out).toContain('--config FILE');
    expect(run(['deploy'])).toMatchObject({
      code: 2,
      err: `agent-play: unknown command "deploy"; commands: ${[...COMMANDS.map((command) => command.name), 'completion'].join(', ')}\n`,
    });
    const unknownOption = run(['synth', '--ouput', 'x']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.err.trimEnd().split('\n')).toHaveLength(1);
  });
});
