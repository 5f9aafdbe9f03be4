/**
 * Configurations that used to pass into manifests the cluster rejects or that lose data: each is now one
 * line at the config path to change, and `config validate` refuses exactly what synth refuses.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { progressKeyOf } from '../constructs/progress/progress-layout';
import { stringify } from 'yaml';
import { durationSeconds, MAX_DURATION_SECONDS } from '../constructs/model/duration';
import { resolveConfig } from '../constructs/model/resolve-config';
import { synthesizePlatform } from '../src/synth/synthesize';
import { validateManifestTexts } from '../src/validate/validate-texts';
import { runCapturing } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';
import { problemsOf } from './support/config-problems';

const scratch = useScratchDirs('agent-play-config-bad-');

const repository = (name: string, service: string) => ({ name, service });

describe('derived names never collide', () => {
  it.each([
    ['octo/my.repo', 'octo/my-repo'],
    ['a-b/c', 'a/b-c'],
  ])('%s and %s, whose names differ only in punctuation, keep their tasks apart', (first, second) => {
    expect(() => resolveConfig({ file: { repositories: [repository(first, 'one'), repository(second, 'two')] }, env: {} })).not.toThrow();
    // The progress ConfigMaps are shared; each task's record key holds its repository's label value.
    expect(progressKeyOf(first, 5)).not.toBe(progressKeyOf(second, 5));
  });

  it('a service may be named like a fixed template: plays share one template, named by no service', () => {
    const config = resolveConfig({ env: {}, file: { repositories: [repository('octo/a', 'resumer')] } });
    expect(config.repositories[0].service).toBe('resumer');
  });
});

describe('durations and integers', () => {
  it('a duration that would overflow is refused at its field, not emitted as 8.64e+24', () => {
    expect(problemsOf({ play: { deadline: '99999999999999999999d' } })).toEqual([
      'play.deadline: "99999999999999999999d" is longer than the longest duration accepted, 365d',
    ]);
    expect(
      problemsOf({
        stages: [
          { name: 'build', type: 'agent', agent: 'rex', timeout: '366d' },
          { name: 'done', type: 'end' },
        ],
      }),
    ).toEqual(['stages[0].timeout: "366d" is longer than the longest duration accepted, 365d']);
  });

  it('durationSeconds never returns more than a year, and a year is an int64 and a Go duration', () => {
    expect(durationSeconds('365d')).toBe(MAX_DURATION_SECONDS);
    expect(() => durationSeconds('8761h')).toThrow('longer than the longest duration accepted');
    expect(BigInt(MAX_DURATION_SECONDS) * 1_000_000_000n < 2n ** 63n).toBe(true);
  });

  it('integers outside the safe range are refused', () => {
    expect(problemsOf({ agents: { rex: { maxTokens: 1e300 } } }).join('\n')).toMatch(/^agents\.rex\.maxTokens: /);
  });
});

describe('sizes', () => {
  it('a 2 MB system prompt is refused at the prompt, not built into a 2.1 MB ConfigMap', () => {
    const problems = problemsOf({ agents: { cleo: { systemPrompt: 'x'.repeat(2 * 1024 * 1024) } } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^agents\.cleo\.systemPrompt: the system prompts add up to \d+ KiB .* within Kubernetes' 1 MiB: shorten the prompts$/,
    );
  });

  it('prompts that fit build a ConfigMap the object-size rule accepts', () => {
    const config = resolveConfig({ file: { agents: { cleo: { systemPrompt: 'x'.repeat(900 * 1024) } } }, env: {} });
    const report = validateManifestTexts(synthesizePlatform(config), 'out');
    expect(report.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    // Over 256 KiB, the object still needs server-side apply in ArgoCD: a warning that says so.
    expect(report.findings.map((finding) => `${finding.rule} ${finding.name}`)).toEqual(['object-size controller-agents']);
    expect(report.findings[0].message).toContain('ServerSideApply=true');
  });
});

describe('reserved keys, references and template expressions', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('%s as a map key is refused, never dropped', (key) => {
    const text = `agents:\n  ${key}: { githubApp: Acme-X, role: review, cli: codex, model: m, maxTokens: 1, temperature: 0, systemPrompt: x }\n`;
    const folder = scratch();
    writeFileSync(join(folder, 'c.yaml'), text);
    const run = runCapturing(['config', 'validate', '--config', join(folder, 'c.yaml')]);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      `agents.${key}: "${key}" cannot be used as a key (JavaScript reserves it, and the entry would be lost); choose another name\n`,
    );
  });

  it('refuses a reserved key anywhere, e.g. in play parameters or CLI settings', () => {
    const file = JSON.parse('{"play": {"parameters": {"__proto__": "x"}}, "clis": {"codex": {"settings": {"constructor": 1}}}}');
    expect(problemsOf(file)).toEqual([
      'clis.codex.settings.constructor: "constructor" cannot be used as a key (JavaScript reserves it, and the entry would be lost); choose another name',
      'play.parameters.__proto__: "__proto__" cannot be used as a key (JavaScript reserves it, and the entry would be lost); choose another name',
    ]);
  });

  it('docsRepository must be owner/name, the webhook Secret key a legal Secret key', () => {
    expect(
      problemsOf({
        repositories: [{ ...repository('octo/a', 'a'), docsRepository: 'docs' }],
        events: { eventSource: { webhookSecret: { key: 'my secret' } } },
      }),
    ).toEqual([
      'events.eventSource.webhookSecret.key: expected a Secret key: letters, digits, "-", "_" and "."',
      'repositories[0].docsRepository: "docs" is not a GitHub repository: expected owner/name, e.g. octo-org/payments',
    ]);
  });

  it('{{...}} in a field that reaches a template is refused at that field', () => {
    expect(
      problemsOf({
        clis: { codex: { settings: { flags: ['--name', '{{workflow.name}}'] } } },
        repositories: [{ ...repository('octo/a', 'a'), docsBranch: '{{x}}' }],
      }),
    ).toEqual([
      'clis.codex.settings.flags[1]: holds "{{", which Argo would read as a template expression; remove it',
      'repositories[0].docsBranch: expected a git branch name',
    ]);
  });
});

describe('config validate accepts exactly what synth accepts', () => {
  const write = (config: unknown): string => {
    const file = join(scratch(), 'agent-play.yaml');
    writeFileSync(file, stringify(config));
    return file;
  };
  const project = (tasks: unknown) => ({ projects: [{ name: 'p', repository: '5dlabs/cto-play-test', tasks }] });
  const longService = `s${'x'.repeat(39)}`;

  it.each([
    [
      'a dependency cycle',
      project([
        { id: 1, dependsOn: [7] },
        { id: 3, dependsOn: [1] },
        { id: 7, dependsOn: [3] },
      ]),
      ['projects[0].tasks: dependency cycle 1 -> 7 -> 3 -> 1: no task of it can ever start; remove one of these dependencies'],
    ],
    [
      'a duplicate task id',
      project([{ id: 1 }, { id: 1 }]),
      ['projects[0].tasks[1].id: task 1 is listed twice; give each task its own id'],
    ],
    [
      'an unknown task id',
      project([{ id: 1, dependsOn: [9] }]),
      ['projects[0].tasks[0].dependsOn[0]: task 1 depends on task 9, which is not in the project; add it or remove the dependency'],
    ],
    [
      'a task id past the largest',
      { repositories: [{ name: 'octo/a', service: 'a' }], projects: [{ name: 'p', repository: 'octo/a', tasks: [{ id: 10 ** 15 }] }] },
      ["projects[0].tasks[0].id: expected a task id of at most 2147483647 (a CodeRun's taskId is a 32-bit integer)"],
    ],
  ])('%s: both refuse it with the same lines, naming the project', (_case, config, expected) => {
    const file = write(config);
    const validate = runCapturing(['config', 'validate', '--config', file]);
    const synth = runCapturing(['synth', '--config', file, '--out', join(scratch(), 'out')]);
    expect(validate.code).toBe(2);
    expect(synth.code).toBe(2);
    expect(validate.err).toBe(expected.map((line) => `${line}\n`).join(''));
    expect(synth.err).toBe(validate.err);
  });

  it('the longest service and the largest task id still give a legal play name', () => {
    // Which is why no config reaches the play-name length check of project tasks any more.
    const file = write({
      repositories: [{ name: 'octo/a', service: longService }],
      projects: [{ name: 'p', repository: 'octo/a', tasks: [{ id: 2147483647 }] }],
    });
    const validate = runCapturing(['config', 'validate', '--config', file]);
    expect(validate.err).toBe('');
    expect(validate.code).toBe(0);
  });

  it('reports every problem of a file at once', () => {
    const file = write({
      namespace: 'Bad_NS',
      play: { deadline: '999d' },
      ...project([{ id: 1, dependsOn: [1] }]),
      events: { eventSource: { webhookSecret: { key: 'a b' } } },
    });
    const lines = runCapturing(['config', 'validate', '--config', file]).err.trim().split('\n');
    expect(lines.map((line) => line.slice(0, line.indexOf(':')))).toEqual([
      'events.eventSource.webhookSecret.key',
      'namespace',
      'play.deadline',
      'projects[0].tasks[0].dependsOn[0]',
    ]);
  });
});

describe('text and numbers no manifest can hold as themselves', () => {
  it('a lone surrogate anywhere (a prompt, a setting, a key) or a NaN or infinite setting is refused at its path', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('\ud800', '\udfff', 'x\udc00', '\ud83d!'),
        fc.constantFrom(Number.NaN, Infinity, -Infinity),
        (lone, number) => {
          expect(problemsOf({ agents: { rex: { systemPrompt: `be${lone}` } } })).toEqual([
            expect.stringMatching(/^agents\.rex\.systemPrompt: holds a lone UTF-16 surrogate \(U\+D[89A-F][0-9A-F]{2} at character \d+\)/),
          ]);
          expect(problemsOf({ clis: { codex: { settings: { [`k${lone}`]: 1 } } } })[0]).toMatch(
            /^clis\.codex\.settings\.k.*: the key holds a lone UTF-16 surrogate/,
          );
          expect(problemsOf({ clis: { codex: { settings: { limits: [1, number] } } } })).toEqual([
            `clis.codex.settings.limits[1]: ${number} is not a number a manifest can hold; write a number`,
          ]);
        },
      ),
      { seed: 20261123, numRuns: 20 },
    );
  });

  it('a pair of surrogates (an emoji) is text like any other', () => {
    expect(() => resolveConfig({ file: { agents: { rex: { systemPrompt: 'be kind 😀' } } }, env: {} })).not.toThrow();
  });
});
