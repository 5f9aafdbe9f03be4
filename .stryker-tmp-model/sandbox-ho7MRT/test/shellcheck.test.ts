/**
 * The only bash the platform runs is the direct agent step (it runs inside each CLI's own image, which may
 * have no Node). Every script a platform synthesizes, for every CLI and GitHub endpoint, passes shellcheck at
 * every severity, run as Argo runs it (`command: [bash]`). Skipped, saying so, where shellcheck is not
 * installed (`.ci/run` installs it from Debian).
 */
// @ts-nocheck

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIS } from '../constructs/model/default-config';
import { resolveConfig } from '../constructs/model/resolve-config';
import { synthesizePlatform } from '../src/synth/synthesize';
import { skipNote } from './support/skip-note';
import { parseManifests } from './support/synth';

const HAS_SHELLCHECK = spawnSync('shellcheck', ['--version'], { encoding: 'utf8' }).status === 0;
const SKIP_REASON = 'shellcheck is not installed (apt-get install shellcheck)';

/** Every `script` template of a platform, by WorkflowTemplate and template name. */
function scriptsOf(file: Record<string, unknown>): Array<{ name: string; command: unknown; source: string }> {
  const config = resolveConfig({ env: {}, file });
  return parseManifests(synthesizePlatform(config))
    .filter((object) => object.kind === 'WorkflowTemplate')
    .flatMap((object) =>
      (object.spec.templates as any[])
        .filter((template) => template.script !== undefined)
        .map((template) => ({
          name: `${object.metadata.name}/${template.name}`,
          command: template.script.command,
          source: template.script.source,
        })),
    );
}

/** shellcheck's answer by script text: the platforms share one script (each CLI's part comes by env). */
const answers = new Map<string, { status: number | null; output: string }>();

function shellcheckOnce(source: string): { status: number | null; output: string } {
  const known = answers.get(source);
  if (known) return known;
  const answer = shellcheck(source);
  answers.set(source, answer);
  return answer;
}

function shellcheck(source: string): { status: number | null; output: string } {
  const result = spawnSync('shellcheck', ['--shell=bash', '--severity=style', '--format=gcc', '-'], { input: source, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

// Direct execution with each CLI of the registry (each gives its own invocation and filters), on github.com
// and on a GitHub Enterprise Server.
const CLIS = Object.keys(DEFAULT_CLIS).filter((cli) => cli !== 'factory');
const PLATFORMS: Array<[string, Record<string, unknown>]> = [
  ...CLIS.map((cli): [string, Record<string, unknown>] => [
    `direct, every agent on ${cli}`,
    { execution: 'direct', agents: { rex: { cli }, cleo: { cli }, tess: { cli } } },
  ]),
  [
    'direct, GitHub Enterprise Server',
    { execution: 'direct', direct: { github: { apiUrl: 'https://ghe.example.com/api/v3', serverUrl: 'https://ghe.example.com' } } },
  ],
];

describe.skipIf(!HAS_SHELLCHECK)(`the synthesized bash${skipNote(HAS_SHELLCHECK, SKIP_REASON)}`, () => {
  it.each(PLATFORMS)('passes shellcheck: %s', (_name, file) => {
    const scripts = scriptsOf(file);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(script.command, script.name).toEqual(['bash']);
      const result = shellcheckOnce(script.source);
      expect(result.output, script.name).toBe('');
      expect(result.status, script.name).toBe(0);
    }
  });

  it('fails on a script with the mistakes shellcheck exists for (a positive control)', () => {
    const result = shellcheck('echo "$GITHUB_APP[bot]"\nrm -rf $HOME/$TARGET\n');
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('SC1087');
    expect(result.output).toContain('SC2086');
  });
});
