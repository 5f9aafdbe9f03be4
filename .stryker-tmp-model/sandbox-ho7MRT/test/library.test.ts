/**
 * The package as a library: its exported surface is the committed list (an export added or removed is a
 * decision, made by updating test/public-api.txt), `AgentPlatform` takes what a user writes, and a user's
 * own app gets agent-play's checks at `app.synth()` through `validatePlatform`.
 */
// @ts-nocheck

import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ApiObject, App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import * as library from '../constructs';
import { AgentPlatform, resolveConfig } from '../constructs';
import * as validate from '../src/validate';
import { synthesizeApp, synthesizePlatform } from '../src/synth/synthesize';
import { useScratchDirs } from './support/scratch-dir';

const listed = readFileSync(path.join(__dirname, 'public-api.txt'), 'utf8')
  .split('\n')
  .filter((line) => line !== '' && !line.startsWith('#'));

describe('the exported surface', () => {
  it('of cdk8s-agent-play is the committed list', () => {
    expect(Object.keys(library).sort()).toEqual(listed.filter((name) => !name.startsWith('validate:')));
  });

  it('of cdk8s-agent-play/validate is the committed list', () => {
    expect(
      Object.keys(validate)
        .sort()
        .map((name) => `validate:${name}`),
    ).toEqual(listed.filter((name) => name.startsWith('validate:')));
  });

  it('keeps the helpers the constructs share among themselves inside', () => {
    for (const internal of ['shortHash', 'formatPath', 'hardenedScript', 'assertSameNamespace', 'dnsName', 'chunkTasks'])
      expect(library, internal).not.toHaveProperty(internal);
  });
});

describe('AgentPlatform props are what a user writes', () => {
  it('needs no config: the embedded default platform, the same bytes as `agent-play synth`', () => {
    const app = new App();
    new AgentPlatform(app, 'platform');
    expect(new Map(synthesizeApp(app))).toEqual(new Map(synthesizePlatform(resolveConfig())));
  });

  it('takes { name, service } as a whole repository and { id } as a whole project task', () => {
    const app = new App();
    new AgentPlatform(app, 'platform', {
      config: {
        repositories: [{ name: 'acme/web', service: 'web' }],
        projects: [{ name: 'launch', repository: 'acme/web', tasks: [{ id: 1 }, { id: 2, dependsOn: [1] }] }],
      },
    });
    const files = synthesizeApp(app);
    expect(files.get('play-workflow-templates.yaml')).toContain('name: play\n');
    expect(files.get('repository-registry.yaml')).toContain('acme.web:');
    expect(files.get('project-workflow-templates.yaml')).toContain('project-launch');
  });

  it('reports a wrong config as one line per problem naming its path', () => {
    expect(
      () => new AgentPlatform(new App(), 'platform', { config: { repositories: [{ name: 'not a repository', service: 'web' }] } }),
    ).toThrow(library.ConfigError);
    expect(
      () => new AgentPlatform(new App(), 'platform', { config: { repositories: [{ name: 'not a repository', service: 'web' }] } }),
    ).toThrow(/^repositories\[0\]\.name: /);
  });
});

describe('validatePlatform(app): the checks of agent-play validate at app.synth()', () => {
  const scratch = useScratchDirs('agent-play-library-');

  it('passes the default platform', () => {
    const app = new App({ outdir: scratch() });
    new AgentPlatform(app, 'platform');
    validate.validatePlatform(app);
    expect(() => app.synth()).not.toThrow();
  });

  it('fails the synthesis on a schema error and on a lint error, naming object, path and rule', () => {
    const app = new App({ outdir: scratch() });
    const chart = new Chart(app, 'custom');
    new ApiObject(chart, 'bad', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'WorkflowTemplate',
      metadata: { name: 'bad' },
      spec: { entrypoint: 'main', templates: [{ name: 'main', dag: { tasks: [{ name: 'a', template: 'missing', colour: 'red' }] } }] },
    });
    validate.validatePlatform(app, { onWarning: () => undefined });
    expect(() => app.synth()).toThrow(
      /\n {2}\[agent-play validate\] custom\.k8s\.yaml: WorkflowTemplate\/bad: spec\.templates\[0\]\.dag\.tasks\[0\]\.colour: unknown field.*\[schema\]/,
    );
    expect(() => app.synth()).toThrow(/template "missing"/);
  });
});

describe('where a platform lives (docs/library.md)', () => {
  const scratch = useScratchDirs('agent-play-placement-');
  const filesOf = (folder: string) => new Map(readdirSync(folder).map((file) => [file, readFileSync(path.join(folder, file), 'utf8')]));

  it("inside a user's chart: every object in that chart's one file, in its namespace; the CRD without one", () => {
    const app = new App({ outdir: scratch() });
    const chart = new Chart(app, 'mine', { namespace: 'team-c' });
    new AgentPlatform(chart, 'platform');
    validate.validatePlatform(app);
    app.synth();
    const files = filesOf(app.outdir);
    expect([...files.keys()]).toEqual(['mine.k8s.yaml']);
    const documents = parseAllDocuments(files.get('mine.k8s.yaml') ?? '').map((document) => document.toJSON());
    expect(documents.length).toBeGreaterThan(20);
    for (const document of documents) {
      if (document.kind === 'CustomResourceDefinition') expect(document.metadata.namespace).toBeUndefined();
      else expect(document.metadata.namespace, `${document.kind}/${document.metadata.name}`).toBe('team-c');
    }
    expect(documents.filter((document) => document.kind === 'CustomResourceDefinition')).toHaveLength(1);
  });

  it('two platforms in one app: each in its namespace, the CRD once, no false events-namespace finding', () => {
    const app = new App({ outdir: scratch() });
    new AgentPlatform(app, 'a', { config: { namespace: 'team-a' } });
    new AgentPlatform(app, 'b', { config: { namespace: 'team-b' } });
    expect(validate.validateCharts(app).findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    validate.validatePlatform(app);
    app.synth();
    const texts = [...filesOf(app.outdir).values()].join('\n');
    expect(texts.match(/kind: CustomResourceDefinition/g)).toHaveLength(1);
    expect(texts).toMatch(/namespace: team-a/);
    expect(texts).toMatch(/namespace: team-b/);
    expect(texts).not.toMatch(/namespace: agents/);
  });

  it("starts each error line with the check's name and the file the app writes, not a stray []", () => {
    const app = new App({ outdir: scratch() });
    new AgentPlatform(app, 'a', { config: { namespace: 'team-a' } });
    const stray = new Chart(app, 'stray', { namespace: 'team-z' });
    new ApiObject(stray, 'sensor', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Sensor',
      metadata: { name: 'stray' },
      spec: { dependencies: [{ name: 'push', eventSourceName: 'github', eventName: 'github' }], triggers: [] },
    });
    validate.validatePlatform(app, { onWarning: () => undefined });
    let message = '';
    try {
      app.synth();
    } catch (error) {
      message = (error as Error).message;
    }
    const lines = message.split('\n').slice(1);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^ {2}\[agent-play validate\] stray\.k8s\.yaml: Sensor\/stray: /);
  });
});
