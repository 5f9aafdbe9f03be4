/**
 * The package as a library: its exported surface is the committed list (an export added or removed is a
 * decision, made by updating test/public-api.txt), `AgentPlatform` takes what a user writes, and a user's
 * own app gets agent-play's checks at `app.synth()` through `validatePlatform`.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ApiObject, App, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
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
      /custom\.yaml: WorkflowTemplate\/bad: spec\.templates\[0\]\.dag\.tasks\[0\]\.colour: unknown field.*\[schema\]/,
    );
    expect(() => app.synth()).toThrow(/template "missing"/);
  });
});
