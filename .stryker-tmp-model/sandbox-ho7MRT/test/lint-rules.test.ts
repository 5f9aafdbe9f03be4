/**
 * The lint rules of `agent-play validate`: each fails its own negative fixture (`test/fixtures/lint/<id>.yaml`)
 * with its id and nothing else, so a rule without a fixture, or a fixture that trips other rules, fails
 * here; our own output passes every rule; and the rules that hold two objects together follow the names
 * of `constructs/model/`, so a rename cannot make them go quiet.
 */
// @ts-nocheck

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATE_STAGE_INPUT, gateNodeSelector } from '../constructs/model/play-contract';
import { EXECUTOR_POD_SPEC_PATCH } from '../constructs/workflows/hardened-pod';
import { ENGINE_CHECKS, validateObjects } from '../src/validate/engine';
import type { Finding } from '../src/validate/finding';
import { readManifestText } from '../src/validate/manifest-reader';
import { LINT_RULES } from '../src/validate/rules';
import { NODE_SELECTOR } from '../src/validate/rules/sensor-gates';
import { SchemaCatalog } from '../src/validate/schema/schema-catalog';
import { validateManifestTexts } from '../src/validate/validate-texts';
import { synth } from './support/synth';

const FIXTURES = resolve(__dirname, 'fixtures/lint');
// Without the built-in Argo schemas: several rules also say what a schema says (a name pattern, an enum, a
// required field), with a message that says what to change; each must find its fixture on its own, as it
// does against a cluster's CRDs that lack the kind. The schemas are tested in argo-schemas.test.ts.
const catalog = SchemaCatalog.builtIn({ argo: false });
const ids = new Set(LINT_RULES.map((rule) => rule.id));

function lint(text: string, file = 'case.yaml'): Finding[] {
  const reading = readManifestText(text, file);
  return [...validateObjects({ objects: reading.objects, readingFindings: reading.findings, catalog, rules: LINT_RULES }).findings];
}

const lintFixture = (id: string): Finding[] => lint(readFileSync(join(FIXTURES, `${id}.yaml`), 'utf8'), `${id}.yaml`);

describe('every lint rule', () => {
  it('has a stable, unique kebab-case id and a one-line description', () => {
    expect(ids.size).toBe(LINT_RULES.length);
    for (const rule of LINT_RULES) {
      expect(rule.id).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
      expect(rule.description).not.toContain('\n');
      expect(rule.kinds.length).toBeGreaterThan(0);
    }
  });

  it('is documented: a row in docs/lint-rules.md (and each engine check in docs/validate.md)', () => {
    const lintDoc = readFileSync(resolve(__dirname, '../docs/lint-rules.md'), 'utf8');
    for (const rule of LINT_RULES) expect(lintDoc, rule.id).toContain(`| \`${rule.id}\` | ${rule.severity} |`);
    const validateDoc = readFileSync(resolve(__dirname, '../docs/validate.md'), 'utf8');
    for (const [id, check] of Object.entries(ENGINE_CHECKS)) expect(validateDoc, id).toContain(`| \`${id}\` | ${check.severity} |`);
  });

  it('has a fixture, and every fixture belongs to a rule', () => {
    for (const rule of LINT_RULES) expect(existsSync(join(FIXTURES, `${rule.id}.yaml`)), `test/fixtures/lint/${rule.id}.yaml`).toBe(true);
    for (const file of readdirSync(FIXTURES)) expect(ids.has(file.replace(/\.yaml$/, '')), file).toBe(true);
  });

  it.each(LINT_RULES.map((rule) => [rule.id, rule.severity]))('%s fails its fixture, alone, as %s', (id, severity) => {
    const findings = lintFixture(id);
    expect(
      findings.map((finding) => finding.rule),
      JSON.stringify(findings, null, 1),
    ).toContain(id);
    expect([...new Set(findings.map((finding) => finding.rule))]).toEqual([id]);
    expect(findings.every((finding) => finding.severity === severity)).toBe(true);
  });
});

describe('what the rules say', () => {
  const only = (id: string) => lintFixture(id)[0];

  it('shows a cycle as a path', () => {
    expect(only('dag-cycle')).toMatchObject({
      path: 'spec.templates[0].dag.tasks',
      message: expect.stringContaining('dependency cycle: a -> b -> a'),
    });
  });

  it('says where a depends expression breaks, down to its line in the file', () => {
    expect(only('dag-depends-syntax').line).toBe(13);
    expect(only('dag-depends-syntax').message).toBe(
      'depends "first &&" does not parse: the expression ends where an operand was expected (character 9)',
    );
  });

  it('names the undeclared label and where to declare it', () => {
    expect(only('variable-reference')).toMatchObject({
      path: 'spec.templates[0].container.command[1]',
      message: expect.stringContaining('label task-id is not declared in metadata.labels, spec.workflowMetadata.labels or labelsFrom'),
    });
  });

  it('names the missing gate and the gates that exist', () => {
    expect(only('sensor-gate-exists')).toMatchObject({
      kind: 'Sensor',
      path: 'spec.triggers[0].template.argoWorkflow.args[1]',
      message: expect.stringContaining(
        'gate "waiting-qa-approved" is not a gate of any WorkflowTemplate in this run (gates: waiting-pr-created)',
      ),
    });
  });

  it('accepts the same cases once fixed', () => {
    const fixed = (id: string, from: string, to: string) => lint(readFileSync(join(FIXTURES, `${id}.yaml`), 'utf8').replace(from, to));
    expect(fixed('dag-cycle', 'depends: b }', 'depends: "" }').filter((finding) => finding.rule === 'dag-cycle')).toEqual([]);
    expect(fixed('dag-depends-syntax', '"first &&"', '"first && !(first.Failed)"')).toEqual([]);
    expect(fixed('sensor-gate-exists', 'value=waiting-qa-approved', 'value=waiting-pr-created')).toEqual([]);
    expect(fixed('sensor-data-filter-regex', '["main"]', '["^main$"]')).toEqual([]);
    expect(fixed('variable-reference', 'spec:\n', 'spec:\n  workflowMetadata: { labels: { task-id: "5" } }\n')).toEqual([]);
    expect(
      fixed('arguments-supplied', 'template: echo }', 'template: echo, arguments: { parameters: [{ name: message, value: hi }] } }'),
    ).toEqual([]);
    expect(fixed('template-timeout', 'timeout: "30"', 'timeout: "30s"')).toEqual([]);
    expect(fixed('retry-max-duration', 'maxDuration: "30m"', 'maxDuration: "8h2m"')).toEqual([]);
    expect(
      fixed('pod-security-restricted', '  templates:\n', `  podSpecPatch: '${EXECUTOR_POD_SPEC_PATCH.trim()}'\n  templates:\n`),
    ).toEqual([]);
  });

  it('says why a short maxDuration never retries, and how long it should be', () => {
    expect(only('retry-max-duration')).toMatchObject({
      path: 'spec.templates[0].retryStrategy.backoff.maxDuration',
      message: expect.stringContaining('an attempt that runs longer than 30m is never retried, and a retry is killed at 30m'),
    });
    expect(only('retry-max-duration').message).toContain('at least 28860s for 1 retries');
  });

  it("names Argo's executor containers when only the user's container is hardened", () => {
    const message = only('pod-security-restricted').message;
    expect(message).toContain("Argo's init container needs allowPrivilegeEscalation: false, capabilities.drop: [ALL]");
    expect(message).toContain("Argo's wait container needs");
    expect(message).not.toContain('the script container');
  });

  it('reads the resume selector in the form gateNodeSelector writes it', () => {
    expect(NODE_SELECTOR.exec(gateNodeSelector('waiting-pr-merged'))?.groups).toEqual({
      input: GATE_STAGE_INPUT,
      gate: 'waiting-pr-merged',
    });
  });
});

describe('our own output', () => {
  it.each([
    ['the default platform', synth()],
    ['the workflow-name strategy', synth({ file: { events: { resume: 'workflow-name' } }, env: {} })],
  ])('%s passes every rule and check with no finding', (_name, platform) => {
    const report = validateManifestTexts(platform.files, 'dist-manifests');
    expect(report.findings).toEqual([]);
  });

  it('a Sensor whose gate was removed from the play is caught (the drift that broke the original)', () => {
    const platform = synth();
    const files = new Map(platform.files);
    const plays = files.get('play-workflow-templates.yaml') ?? '';
    // Rename the merge gate in the plays only, as a stage rename without regenerating the Sensors would.
    files.set('play-workflow-templates.yaml', plays.replaceAll('waiting-pr-merged', 'waiting-merge'));
    const report = validateManifestTexts(files, 'dist-manifests');
    expect(report.findings.filter((finding) => finding.rule === 'sensor-gate-exists').map((finding) => finding.name)).toEqual([
      'gate-waiting-pr-merged',
    ]);
  });
});

describe('the Argo Events runtime rules', () => {
  const fixture = (id: string): string => readFileSync(join(FIXTURES, `${id}.yaml`), 'utf8');
  const bus = (spec: string) => `\n---\napiVersion: argoproj.io/v1alpha1\nkind: EventBus\nmetadata: { name: default }\nspec: ${spec}\n`;
  const severities = (findings: Finding[], rule: string) =>
    findings.filter((finding) => finding.rule === rule).map((finding) => finding.severity);

  it('sensor-duplicate-dependency-source is an error beside a NATS streaming bus, and silent beside JetStream', () => {
    const id = 'sensor-duplicate-dependency-source';
    expect(severities(lint(fixture(id) + bus('{ nats: { native: {} } }')), id)).toEqual(['error']);
    expect(severities(lint(fixture(id) + bus('{ jetstream: { version: latest } }')), id)).toEqual([]);
    expect(severities(lint(fixture(id)), id)).toEqual(['warning']);
  });

  it('finds nothing in our Sensors beside a NATS streaming bus, at several repositories', () => {
    const repositories = Array.from({ length: 30 }, (_, index) => ({ name: `octo-org/service-${index}`, service: `service-${index}` }));
    const platform = synth({ file: { repositories }, env: {} });
    const files = new Map(platform.files);
    files.set(
      'eventbus.yaml',
      bus('{ nats: { native: {} } }')
        .replace(/^\n---\n/, '')
        .replace('name: default }', 'name: default, namespace: agents }'),
    );
    const findings = validateManifestTexts(files, 'dist-manifests').findings;
    expect(findings).toEqual([]);
  });

  it('accepts the fixed cases', () => {
    const one = fixture('sensor-duplicate-dependency-source')
      .replace(/ {4}- name: merged\n( {6}.*\n)+?(?= {2}triggers:)/, '')
      .replace('conditions: "opened || merged"', 'conditions: "opened"');
    expect(lint(one)).toEqual([]);
    expect(
      lint(fixture('sensor-trigger-at-least-once').replace('      retryStrategy:', '      atLeastOnce: true\n      retryStrategy:')),
    ).toEqual([]);
    const secured = fixture('events-pod-security').replace(
      '    serviceAccountName: sensor\n',
      '    serviceAccountName: sensor\n    securityContext: { runAsNonRoot: true, seccompProfile: { type: RuntimeDefault } }\n    container: { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } } }\n',
    );
    expect(lint(secured)).toEqual([]);
  });
});
