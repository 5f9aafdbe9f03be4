/**
 * Property-based and fuzz tests (fast-check): random valid configurations always synthesize output that
 * `validate` accepts with no error, byte for byte the same on a second run; random mutations of valid
 * configurations, manifests, progress state and scenarios always end in a clean exit (0, 1 for findings, or 2
 * with one line per problem), never an unexpected failure, a hang or a partial write.
 *
 * The seed is fixed so CI is reproducible and the suite stays fast. To search longer locally:
 *   FC_RUNS=500 FC_SEED=$RANDOM npx vitest run test/property.test.ts
 * (FC_RUNS is the number of runs of the cheap properties, those that synthesize run an eighth as often;
 * FC_SEED is any integer.) A failure prints its seed and path; rerun with that FC_SEED to reproduce it.
 */
// @ts-nocheck

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { PlatformConfig } from '../constructs/model/config-schema';
import { ConfigError, resolveConfig } from '../constructs/model/resolve-config';
import { synthesizePlatform } from '../src/synth/synthesize';
import { validateManifestTexts } from '../src/validate/validate-texts';
import { runCapturing, runCapturingAsync, type CliRun } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';

const SEED = Number(process.env.FC_SEED ?? 20261123);
/** Runs of the cheap properties (parsing and checking); the ones that synthesize run an eighth as often. */
const RUNS = Number(process.env.FC_RUNS ?? 40);
const SYNTH_RUNS = Math.max(2, Math.round(RUNS / 8));
const settings = (numRuns: number) => ({ seed: SEED, numRuns, endOnFailure: true });

const ROOT = resolve(__dirname, '..');
const DIST = join(ROOT, 'dist-manifests');
const scratch = useScratchDirs('agent-play-fuzz-');

/** A run ended cleanly: a known exit code, and every line on stderr a message, never a crash. */
function expectClean(run: CliRun, codes: readonly number[]): void {
  expect(codes, `exit ${run.code}: ${run.err}`).toContain(run.code);
  expect(run.err).not.toContain('unexpected failure');
  expect(run.err).not.toMatch(/^\s+at /m);
}

// ---------------------------------------------------------------------------------------------------------
// Random valid configurations

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const owner = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,12}$/);
const repoName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,14}$/).filter((name) => !/^\.+$/.test(name));
const duration = fc.tuple(fc.integer({ min: 1, max: 300 }), fc.constantFrom('s', 'm', 'h', 'd')).map(([count, unit]) => `${count}${unit}`);

const validConfig = fc.record(
  {
    namespace: word,
    repositories: fc.uniqueArray(fc.record({ name: fc.tuple(owner, repoName).map(([o, n]) => `${o}/${n}`), service: word }), {
      minLength: 1,
      maxLength: 3,
      selector: (repository) => repository.service,
    }),
    play: fc.record({ deadline: duration, keepSucceeded: duration, keepFailed: duration }, { requiredKeys: [] }),
    events: fc.record(
      { resume: fc.constantFrom('label-selector', 'workflow-name'), triggerRetries: fc.integer({ min: 0, max: 10 }) },
      { requiredKeys: [] },
    ),
    workspace: fc.record({ size: fc.integer({ min: 1, max: 999 }).map((size) => `${size}Gi`) }, { requiredKeys: [] }),
    agents: fc.record(
      {
        cleo: fc.record(
          {
            cli: fc.constantFrom('claude', 'codex', 'gemini'),
            temperature: fc.double({ min: 0, max: 2, noNaN: true }),
            maxTokens: fc.integer({ min: 1, max: 2 ** 31 }),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['repositories'] },
);

describe('random valid configurations', () => {
  it('synthesize output that validate accepts with no error, the same bytes every time', () => {
    let built = 0;
    fc.assert(
      fc.property(validConfig, (file) => {
        let config: PlatformConfig;
        try {
          config = resolveConfig({ file, env: {} });
        } catch (error) {
          // Two random repositories may derive one name: a refusal is a clean answer, but never a crash.
          expect(error).toBeInstanceOf(ConfigError);
          return;
        }
        const first = synthesizePlatform(config);
        const report = validateManifestTexts(first, 'out');
        expect(report.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
        expect([...synthesizePlatform(resolveConfig({ file, env: {} }))]).toEqual([...first]);
        built += 1;
      }),
      settings(SYNTH_RUNS),
    );
    expect(built).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Mutations

type Json = unknown;
type Path = (string | number)[];

/** Every path into a JSON value, the root included. */
function pathsOf(value: Json, at: Path = []): Path[] {
  const inner = Array.isArray(value)
    ? value.flatMap((item, index) => pathsOf(item, [...at, index]))
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...at, key]))
      : [];
  return [at, ...inner];
}

/** Values that have broken parsers before: specials, extremes, wrong types, reserved names, template syntax. */
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    '-1',
    'latest',
    '{{workflow.name}}',
    '__proto__',
    'constructor',
    'a/b/c',
    'Foo Bar/x',
    '99999999999999999999d',
    '0s',
    'x'.repeat(300),
    '\u0000',
    'ünïcödé',
    '"quoted"',
    'line\nbreak',
  ),
  fc.integer(),
  fc.constantFrom(0, -1, 1e300, -1e300, 2 ** 63, 0.5, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', 'name', 'type'), fc.string(), { maxKeys: 2 }),
);

type Mutation = { kind: 'set' | 'delete' | 'add'; pick: number; value: Json; key: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('set', 'set', 'delete', 'add'),
  pick: fc.nat(),
  value: hostileValue,
  key: fc.constantFrom('__proto__', 'constructor', 'extra', 'name', '{{x}}'),
});

/** The value with one mutation applied at one of its paths (a deep copy; the input is left alone). */
function mutate(value: Json, change: Mutation): Json {
  const copy = structuredClone(value);
  const paths = pathsOf(copy);
  const path = paths[change.pick % paths.length];
  if (path.length === 0) return change.kind === 'set' ? change.value : copy;
  const parent = path.slice(0, -1).reduce<any>((node, step) => node[step], copy);
  const last = path[path.length - 1];
  if (change.kind === 'set') parent[last] = change.value;
  else if (change.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (typeof parent === 'object' && parent !== null && !Array.isArray(parent)) {
    Object.defineProperty(parent, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** Text mutations: bytes replaced, cut or inserted at random places, as a corrupted download would be. */
const textMutation = fc.record({
  at: fc.nat(),
  length: fc.nat({ max: 40 }),
  insert: fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.constantFrom(': ', '- ', '&a ', '*a', '{', '[', '"', '\t', '\n  ', '!!binary ', '---\n', '<<: *a\n'),
  ),
});
const mutateText = (text: string, change: { at: number; length: number; insert: string }): string => {
  const at = change.at % (text.length + 1);
  return text.slice(0, at) + change.insert + text.slice(at + change.length);
};

const EXAMPLE_CONFIG = {
  namespace: 'agents',
  repositories: [{ name: 'octo-org/payments', service: 'payments', docsRepository: 'octo-org/docs' }],
  agents: { cleo: { cli: 'codex' } },
  play: { deadline: '7d', parameters: { tier: 'gold' } },
  projects: [
    {
      name: 'launch',
      repository: 'octo-org/payments',
      tasks: [{ id: 1 }, { id: 2, dependsOn: [1], parameters: { 'task-type': 'backend' } }],
    },
  ],
};

describe('random mutations end in a clean exit, never a crash or a partial write', () => {
  it('of a valid configuration: config validate and synth agree, and synth writes all or nothing', () => {
    const folder = scratch();
    let index = 0;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (changes) => {
        const file = join(folder, `config-${(index += 1)}.yaml`);
        writeFileSync(file, stringify(changes.reduce<Json>((value, change) => mutate(value, change), EXAMPLE_CONFIG)));
        const validate = runCapturing(['config', 'validate', '--config', file]);
        expectClean(validate, [0, 2]);
        if (validate.code !== 0) {
          // What config validate refuses, synth refuses with the same lines, and writes nothing.
          const out = join(folder, `out-${index}`);
          const synth = runCapturing(['synth', '--config', file, '--out', out]);
          expect(synth.code).toBe(2);
          expect(synth.err).toBe(validate.err);
          expect(existsSync(out)).toBe(false);
        }
      }),
      settings(RUNS),
    );
    expect(readdirSync(folder).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('of config text: one clean answer', () => {
    const folder = scratch();
    const text = stringify(EXAMPLE_CONFIG);
    let index = 0;
    fc.assert(
      fc.property(fc.array(textMutation, { minLength: 1, maxLength: 4 }), (changes) => {
        const file = join(folder, `config-${(index += 1)}.yaml`);
        writeFileSync(file, changes.reduce(mutateText, text));
        expectClean(runCapturing(['config', 'validate', '--config', file]), [0, 2]);
      }),
      settings(SYNTH_RUNS * 2),
    );
  });

  it('of manifests: validate reports findings or refuses the file, and never breaks a lint rule', () => {
    const folder = scratch();
    const sources = readdirSync(DIST).map((name) => readFileSync(join(DIST, name), 'utf8'));
    let index = 0;
    fc.assert(
      fc.property(
        fc.nat(),
        fc.oneof(
          fc.array(textMutation, { minLength: 1, maxLength: 4 }).map((changes) => ({ changes })),
          fc.array(mutation, { minLength: 1, maxLength: 3 }).map((objects) => ({ objects })),
        ),
        (which, change) => {
          const source = sources[which % sources.length];
          const text =
            'changes' in change
              ? change.changes.reduce(mutateText, source)
              : source
                  .split(/^---$/m)
                  .map((document, position) =>
                    position === 0
                      ? stringify(change.objects.reduce<Json>((value, step) => mutate(value, step), parse(document)))
                      : document,
                  )
                  .join('---');
          const file = join(folder, `manifest-${(index += 1)}.yaml`);
          writeFileSync(file, text);
          const run = runCapturing(['validate', file, '--format', 'json']);
          expectClean(run, [0, 1, 2]);
          if (run.code !== 2) {
            const findings = JSON.parse(run.out).findings as { rule: string; message: string }[];
            expect(findings.filter((finding) => finding.message.includes('could not check this object'))).toEqual([]);
          }
        },
      ),
      settings(RUNS),
    );
  });

  it('of progress state: status lists or refuses it, resume recreates or refuses', () => {
    const record = {
      repository: '5dlabs/cto-play-test',
      task: '5',
      workflowName: 'play-play-test-task-5',
      startedAt: '2026-11-23T08:00:00Z',
      lastUpdated: '2026-11-23T09:00:00Z',
      stage: 'testing',
      status: 'in-progress',
    };
    const state = {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'play-progress-5dlabs-cto-play-test', labels: { 'play-tracking': 'true' } },
          data: { repository: '5dlabs/cto-play-test', 'task-5.json': JSON.stringify(record) },
        },
      ],
    };
    fc.assert(
      fc.property(
        fc.oneof(
          fc
            .array(mutation, { minLength: 1, maxLength: 3 })
            .map((changes) => stringify(changes.reduce<Json>((value, change) => mutate(value, change), state))),
        ),
        (text) => {
          expectClean(runCapturing(['status', '-'], { stdin: text, now: new Date('2026-11-23T10:00:00Z') }), [0, 2]);
          expectClean(
            runCapturing(['resume', '--repository', '5dlabs/cto-play-test', '--task', '5', '-'], { stdin: text, env: {} }),
            [0, 2],
          );
        },
      ),
      settings(RUNS),
    );
  });

  it('of a scenario: simulate runs it or refuses it in one clean answer', async () => {
    const folder = scratch();
    const example = join(ROOT, 'examples/scenarios/happy-path');
    const scenario = parse(readFileSync(join(example, 'scenario.yaml'), 'utf8'));
    // Payload paths stay relative to the example, so a scenario written elsewhere points back at them.
    for (const step of scenario.steps) if (typeof step.payload === 'string') step.payload = join(example, step.payload);
    let index = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 2 }), async (changes) => {
        const file = join(folder, `scenario-${(index += 1)}.yaml`);
        writeFileSync(file, stringify(changes.reduce<Json>((value, change) => mutate(value, change), scenario)));
        expectClean(await runCapturingAsync(['simulate', file], { env: {} }), [0, 1, 2]);
      }),
      settings(SYNTH_RUNS),
    );
  });
});
