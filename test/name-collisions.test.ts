/**
 * Name collisions: two objects of a platform with one API group, kind, namespace and name are found on what
 * was built and reported at the config paths they come from, one line per collision, and nothing is written.
 * The names that are no objects of their own (play DAG tasks and templates, the repositories' keys, GitHub
 * Apps) are checked on the config before building.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiObject, App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { DEFAULT_AGENTS } from '../constructs/model/default-config';
import { isDnsLabel, MAX_TASK_ID } from '../constructs/model/naming';
import { playWorkflowName } from '../constructs/model/play-contract';
import type { PlatformConfigInput } from '../constructs/model/config-types.generated';
import { resolveConfig } from '../constructs/model/resolve-config';
import { AgentPlatform } from '../constructs/platform/agent-platform';
import { objectCollisionProblems } from '../constructs/platform/object-collisions';
import { ObjectOrigins } from '../constructs/platform/object-origins';
import { REMEDIATOR_TEMPLATE_NAME } from '../constructs/remediation/remediator-contract';
import { PROJECT_SERVICE_ACCOUNT } from '../constructs/rbac/project-rbac';
import { REMEDIATOR_SERVICE_ACCOUNT } from '../constructs/remediation/remediation-objects';
import { problemsOf, refusedWith } from './support/config-problems';
import { runCapturing } from './support/run-cli';
import { useScratchDirs } from './support/scratch-dir';

const scratch = useScratchDirs('agent-play-collisions-');
const repository = (name: string, service: string) => ({ name, service });

/** The lines a platform built from `config` is refused with. */
const buildProblems = (config: PlatformConfigInput) => refusedWith(() => new AgentPlatform(new App(), 'platform', { config }));

/** Each object of the platform built from `config`, as `Kind/name`. */
function objectsOf(config: PlatformConfigInput): string[] {
  const app = new App();
  new AgentPlatform(app, 'platform', { config });
  return app.node.findAll().flatMap((child) => (child instanceof ApiObject ? [`${child.kind}/${child.name}`] : []));
}

describe('objects of one identity, found on what was built', () => {
  it('a service whose shared workspace is another service agent workspace: both repositories named', () => {
    expect(buildProblems({ repositories: [repository('octo/a', 'a'), repository('octo/b', 'a-cleo')] })).toEqual([
      'repositories[1].service: repository "octo/b" and repositories[0].service (repository "octo/a") both make the PersistentVolumeClaim "workspace-a-cleo" in namespace "agents"; rename one of them',
    ]);
  });

  // An agent may be called "shared": its workspace is named workspace-{service}-shared, as is the shared workspace
  // of a service "{service}-shared"; the builder must reach the check, not stop at a construct id.
  it('an agent named "shared" builds; its workspace named as another service shared one is a collision', () => {
    const { agents, stages }: PlatformConfigInput = {
      agents: { shared: { ...DEFAULT_AGENTS.cleo, role: 'quality', githubApp: 'Example-Shared' } },
      stages: [
        { name: 'build', type: 'agent', agent: 'rex' },
        { name: 'review', type: 'agent', agent: 'shared' },
        { name: 'completed', type: 'end' },
      ],
    };
    expect(objectsOf({ agents, stages, repositories: [repository('octo/a', 'a')] })).toEqual(
      expect.arrayContaining(['PersistentVolumeClaim/workspace-a', 'PersistentVolumeClaim/workspace-a-shared']),
    );
    expect(buildProblems({ agents, stages, repositories: [repository('octo/a', 'a'), repository('octo/b', 'a-shared')] })).toEqual([
      'repositories[1].service: repository "octo/b" and repositories[0].service (repository "octo/a") both make the PersistentVolumeClaim "workspace-a-shared" in namespace "agents"; rename one of them',
    ]);
  });

  it('two service accounts of one name: one line for the ServiceAccount, Role and RoleBinding they share', () => {
    expect(buildProblems({ events: { sensorServiceAccount: 'agent-play' } })).toEqual([
      'events.sensorServiceAccount: the Sensors and play.serviceAccount (the plays) both make the ServiceAccount, Role and RoleBinding "agent-play" in namespace "agents"; rename one of them',
    ]);
  });

  // The resumer runs under both strategies; the claims kept by hand only knew it under label-selector.
  it.each(['workflow-name', 'label-selector'] as const)('the resumer service account named as the plays one, under %s', (resume) => {
    expect(buildProblems({ events: { resume, resumerServiceAccount: 'agent-play' } })).toEqual([
      'events.resumerServiceAccount: the resumer and play.serviceAccount (the plays) both make the ServiceAccount, Role and RoleBinding "agent-play" in namespace "agents"; rename one of them',
    ]);
  });

  it('a service account named as a built-in one (the remediator, the projects): only the config side can change', () => {
    expect(buildProblems({ play: { serviceAccount: REMEDIATOR_SERVICE_ACCOUNT } })).toEqual([
      `play.serviceAccount: the plays and the remediator both make the ServiceAccount, Role and RoleBinding "${REMEDIATOR_SERVICE_ACCOUNT}" in namespace "agents", a name built into the remediator; choose another name`,
    ]);
    const projects = [{ name: 'launch', repository: 'octo/a', tasks: [{ id: 1 }] }];
    expect(
      buildProblems({ repositories: [repository('octo/a', 'a')], projects, events: { sensorServiceAccount: PROJECT_SERVICE_ACCOUNT } }),
    ).toEqual([
      `events.sensorServiceAccount: the Sensors and the projects both make the ServiceAccount, Role and RoleBinding "${PROJECT_SERVICE_ACCOUNT}" in namespace "agents", a name built into the projects; choose another name`,
    ]);
  });

  it('every collision is its own line, in the order the objects are built', () => {
    const problems = buildProblems({
      repositories: [repository('octo/a', 'a'), repository('octo/b', 'a-cleo')],
      events: { sensorServiceAccount: 'agent-play', resumerServiceAccount: 'agent-play' },
    });
    expect(problems.map((line) => line.slice(0, line.indexOf(':')))).toEqual([
      'repositories[1].service',
      'events.sensorServiceAccount',
      'events.resumerServiceAccount',
    ]);
  });

  it('agent-play synth and config validate refuse it with the same lines, exit 2, and write nothing', () => {
    const folder = scratch();
    const file = join(folder, 'agent-play.yaml');
    writeFileSync(file, stringify({ play: { serviceAccount: REMEDIATOR_SERVICE_ACCOUNT } }));
    const out = join(folder, 'out');
    const synth = runCapturing(['synth', '--config', file, '--out', out]);
    const validate = runCapturing(['config', 'validate', '--config', file]);
    expect(synth.code).toBe(2);
    expect(synth.err).toMatch(/^play\.serviceAccount: the plays and the remediator both make .*; choose another name\n$/);
    expect(validate.err).toBe(synth.err);
    expect(existsSync(out)).toBe(false);
  });

  // The collisions issue 24 found when play templates were named by service: they share one template now.
  it.each([
    [{ repositories: [repository('octo/a', 'remediator')] }, `WorkflowTemplate/${REMEDIATOR_TEMPLATE_NAME}`],
    [{ repositories: [repository('octo/a', 'resumer')], events: { resume: 'workflow-name' } }, 'WorkflowTemplate/play-resumer'],
  ])('a service named like a fixed template makes no second one (%j)', (config, object) => {
    expect(objectsOf(config as PlatformConfigInput).filter((entry) => entry === object)).toEqual([object]);
  });

  it('one name of two kinds is no collision: a ServiceAccount named as the EventSource', () => {
    const config = { events: { sensorServiceAccount: 'github', eventSource: { name: 'github' } } } as PlatformConfigInput;
    expect(objectsOf(config)).toEqual(expect.arrayContaining(['ServiceAccount/github', 'EventSource/github']));
  });
});

describe('objectCollisionProblems, on any construct tree', () => {
  /** A tree of objects, each `[group/version, kind, namespace, name]`, in charts of their namespace. */
  function treeOf(objects: readonly (readonly [string, string, string | undefined, string])[]): { app: App; origins: ObjectOrigins } {
    const app = new App();
    const origins = new ObjectOrigins();
    objects.forEach(([apiVersion, kind, namespace, name], index) => {
      const chart = new Chart(app, `c${index}`, namespace === undefined ? {} : { namespace });
      const holder = origins.record(new Construct(chart, 'holder'), { path: ['objects', index], owner: `object ${index}` });
      new ApiObject(holder, 'o', { apiVersion, kind, metadata: { name } });
    });
    return { app, origins };
  }
  /** An app with one chart in namespace `a` and no origin recorded yet. */
  function chartInNamespaceA(): { app: App; origins: ObjectOrigins; chart: Chart } {
    const app = new App();
    return { app, origins: new ObjectOrigins(), chart: new Chart(app, 'c', { namespace: 'a' }) };
  }
  const fallback = { owner: 'the rest' };

  it('the same group, kind, namespace and name is one collision, named by both paths', () => {
    const { app, origins } = treeOf([
      ['v1', 'ConfigMap', 'a', 'x'],
      ['v1', 'ConfigMap', 'a', 'x'],
    ]);
    expect(objectCollisionProblems(app, origins, fallback)).toEqual([
      'objects[1]: object 1 and objects[0] (object 0) both make the ConfigMap "x" in namespace "a"; rename one of them',
    ]);
  });

  it('another namespace, kind or API group, or a version of the same group, decides', () => {
    const distinct = treeOf([
      ['v1', 'ConfigMap', 'a', 'x'],
      ['v1', 'ConfigMap', 'b', 'x'],
      ['v1', 'Secret', 'a', 'x'],
      ['example.com/v1', 'Secret', 'a', 'x'],
      ['rbac.authorization.k8s.io/v1', 'Role', 'a', 'x'],
      ['other.example.com/v1', 'Role', 'a', 'x'],
    ]);
    expect(objectCollisionProblems(distinct.app, distinct.origins, fallback)).toEqual([]);
    // One group at two versions is one object to the API server.
    const versions = treeOf([
      ['example.com/v1', 'Widget', 'a', 'x'],
      ['example.com/v2', 'Widget', 'a', 'x'],
    ]);
    expect(objectCollisionProblems(versions.app, versions.origins, fallback)).toHaveLength(1);
  });

  it('the parts of an identity stay apart: namespace "ab" with name "c" is not namespace "a" with name "bc"', () => {
    const { app, origins } = treeOf([
      ['v1', 'ConfigMap', 'ab', 'c'],
      ['v1', 'ConfigMap', 'a', 'bc'],
      ['v1', 'ConfigMapa', 'b', 'c'],
    ]);
    expect(objectCollisionProblems(app, origins, fallback)).toEqual([]);
  });

  it('one pair of origins meeting in two namespaces, or on two names, is one line each', () => {
    const app = new App();
    const origins = new ObjectOrigins();
    const chart = new Chart(app, 'c');
    const [one, two] = ['one', 'two'].map((id, index) => origins.record(new Construct(chart, id), { path: ['list', index], owner: id }));
    for (const scope of [one, two])
      for (const [namespace, name] of [
        ['a', 'bc'],
        ['ab', 'c'],
        ['b', 'bc'],
      ])
        new ApiObject(scope, `${namespace}-${name}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
    expect(objectCollisionProblems(app, origins, fallback)).toEqual([
      'list[1]: two and list[0] (one) both make the ConfigMap "bc" in namespace "a"; rename one of them',
      'list[1]: two and list[0] (one) both make the ConfigMap "c" in namespace "ab"; rename one of them',
      'list[1]: two and list[0] (one) both make the ConfigMap "bc" in namespace "b"; rename one of them',
    ]);
  });

  it('two origins with one owner and two paths are two sides, not one made twice', () => {
    const { app, origins, chart } = chartInNamespaceA();
    for (const index of [0, 1]) {
      const scope = origins.record(new Construct(chart, `s${index}`), { path: ['list', index], owner: 'an entry' });
      new ApiObject(scope, 'o', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    }
    expect(objectCollisionProblems(app, origins, fallback)).toEqual([
      'list[1]: an entry and list[0] (an entry) both make the ConfigMap "x" in namespace "a"; rename one of them',
    ]);
  });

  it('one origin making a kind twice over another origin lists the kind once', () => {
    const { app, origins, chart } = chartInNamespaceA();
    const [one, two] = ['one', 'two'].map((id, index) => origins.record(new Construct(chart, id), { path: ['list', index], owner: id }));
    for (const [scope, id] of [
      [one, 'x'],
      [two, 'x'],
      [two, 'y'],
    ] as const)
      new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'same' } });
    expect(objectCollisionProblems(app, origins, fallback)).toEqual([
      'list[1]: two and list[0] (one) both make the ConfigMap "same" in namespace "a"; rename one of them',
    ]);
  });

  it('a cluster-scoped object names no namespace', () => {
    const { app, origins } = treeOf([
      ['v1', 'Namespace', undefined, 'n'],
      ['v1', 'Namespace', undefined, 'n'],
    ]);
    expect(objectCollisionProblems(app, origins, fallback)).toEqual([
      'objects[1]: object 1 and objects[0] (object 0) both make the Namespace "n"; rename one of them',
    ]);
  });

  it('an object takes the origin of the nearest recorded construct above it, else the fallback', () => {
    const { app, origins, chart } = chartInNamespaceA();
    const outer = origins.record(new Construct(chart, 'outer'), { path: ['outer'], owner: 'the outer' });
    const inner = origins.record(new Construct(outer, 'inner'), { path: ['inner'], owner: 'the inner' });
    new ApiObject(new Construct(inner, 'deep'), 'o', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    new ApiObject(chart, 'loose', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    new ApiObject(outer, 'o', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'y' } });
    new ApiObject(chart, 'loose2', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'y' } });
    expect(objectCollisionProblems(app, origins, fallback)).toEqual([
      'inner: the inner and the rest both make the ConfigMap "x" in namespace "a", a name built into the rest; choose another name',
      'outer: the outer and the rest both make the Secret "y" in namespace "a", a name built into the rest; choose another name',
    ]);
  });

  it('kinds of one pair of origins are listed together; three of one name are two lines; one origin twice is said', () => {
    const { app, origins, chart } = chartInNamespaceA();
    const make = (scope: Construct, id: string, kind: string, name: string) =>
      new ApiObject(scope, id, { apiVersion: kind === 'Role' ? 'rbac.authorization.k8s.io/v1' : 'v1', kind, metadata: { name } });
    const [one, two, three] = ['one', 'two', 'three'].map((id, index) =>
      origins.record(new Construct(chart, id), { path: ['list', index], owner: `entry ${id}` }),
    );
    for (const scope of [one, two]) for (const kind of ['ServiceAccount', 'Role', 'ConfigMap']) make(scope, kind, kind, 's');
    make(three, 'ServiceAccount', 'ServiceAccount', 's');
    make(one, 'Again', 'Secret', 'twice');
    make(one, 'AgainToo', 'Secret', 'twice');
    expect(objectCollisionProblems(app, origins, fallback)).toEqual([
      'list[0]: the Secret "twice" in namespace "a" is made twice for entry one',
      'list[1]: entry two and list[0] (entry one) both make the ServiceAccount, Role and ConfigMap "s" in namespace "a"; rename one of them',
      'list[2]: entry three and list[0] (entry one) both make the ServiceAccount "s" in namespace "a"; rename one of them',
    ]);
  });

  it('two objects no config path names are a defect of the constructs, said as such', () => {
    const { app } = treeOf([
      ['v1', 'ConfigMap', 'a', 'x'],
      ['v1', 'ConfigMap', 'a', 'x'],
    ]);
    expect(objectCollisionProblems(app, new ObjectOrigins(), { owner: 'the platform' })).toEqual([
      `AgentPlatform: the platform and the platform both make the ConfigMap "x" in namespace "a": a defect of the platform's constructs`,
    ]);
  });
});

describe('names that are no objects, checked on the config before building', () => {
  it('a stage named enter-X beside a stage X would give the play two DAG tasks of one name', () => {
    const stages = [
      { name: 'build', type: 'agent', agent: 'rex' },
      { name: 'enter-build', type: 'agent', agent: 'tess' },
      { name: 'completed', type: 'end' },
    ];
    expect(problemsOf({ stages })).toEqual([
      'stages[1].name: stage "enter-build" derives the play DAG task "enter-build", which stages[0].name (stage "build") derives too; rename one of them',
    ]);
  });

  it('two agents with one GitHub App are refused at the later one', () => {
    expect(problemsOf({ agents: { nova: { ...DEFAULT_AGENTS.rex, githubApp: '5dlabs-REX' } } })).toEqual([
      `agents.nova.githubApp: agent "nova" uses the GitHub App 5dlabs-REX, as agents.rex.githubApp does: each agent needs its own App (it names the agent's system prompt "5dlabs-REX_system-prompt.md" and its Secret "github-app-5dlabs-rex", so one prompt would be lost)`,
    ]);
  });

  it("a stage listed twice is the stage rules' to report, not a collision of its own names", () => {
    const stages = [
      { name: 'build', type: 'agent', agent: 'rex' },
      { name: 'build', type: 'agent', agent: 'rex' },
      { name: 'completed', type: 'end' },
    ];
    expect(problemsOf({ stages }).filter((line) => line.includes('derives'))).toEqual([]);
  });

  it('parallel agents and gates name their own tasks: each collision at the stage, naming the run', () => {
    const stages = [
      { name: 'build', type: 'agent', agents: ['rex', 'blaze'] },
      { name: 'build-rex', type: 'gate', release: [{ event: 'pull_request', actions: ['opened'] }] },
      { name: 'completed', type: 'end' },
    ];
    expect(problemsOf({ stages }).filter((line) => line.includes('derives'))).toEqual([
      'stages[1].name: stage "build-rex" derives the play DAG task "build-rex", which stages[0].name (the run of agent "rex" in stage "build") derives too; rename one of them',
    ]);
  });

  it('a repository named as another in another letter case is one line, from the repositories rule', () => {
    expect(problemsOf({ repositories: [repository('Octo/A', 'x'), repository('octo/a', 'y')] })).toEqual([
      'repositories[1].name: repository "octo/a" is listed twice',
    ]);
  });

  it('the longest play name a project can start is a legal name: the longest service, the largest task id', () => {
    const service = 's'.repeat(40);
    const projects = [{ name: 'launch', repository: 'octo/a', tasks: [{ id: MAX_TASK_ID }] }];
    expect(() => resolveConfig({ file: { repositories: [repository('octo/a', service)], projects }, env: {} })).not.toThrow();
    expect(problemsOf({ repositories: [repository('octo/a', `${service}s`)] })[0]).toMatch(/^repositories\[0\]\.service: /);
    expect(isDnsLabel(playWorkflowName(service, MAX_TASK_ID))).toBe(true);
  });

  it('object names are left to the check on what was built: resolveConfig accepts two services sharing a PVC name', () => {
    expect(() =>
      resolveConfig({ file: { repositories: [repository('octo/a', 'a'), repository('octo/b', 'a-cleo')] }, env: {} }),
    ).not.toThrow();
  });
});
