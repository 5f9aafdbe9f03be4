/**
 * Direct execution: the config refuses what it cannot run (one line at the path to change), and a play whose
 * agents run direct has an Argo step per agent stage instead of a CodeRun.
 */
// @ts-nocheck

import { resolvedOutputs } from './support/resolved-outputs';
import { describe, expect, it } from 'vitest';
import { StageMachine } from '../constructs/model/stage-machine';
import { PlayWorkflowTemplate } from '../constructs/workflows/play-workflow-template';
import {
  DEFAULT_DIRECT_RESOURCES,
  GITHUB_API_URL,
  GITHUB_SERVER_URL,
  MAX_DIRECT_SYSTEM_PROMPT_BYTES,
} from '../constructs/model/direct-execution';
import { EXECUTOR_TABLE, EXECUTORS } from '../constructs/model/executors';
import { resolveConfig } from '../constructs/model/resolve-config';
import { synthesizePlatform } from '../src/synth/synthesize';
import { validateManifestTexts } from '../src/validate/validate-texts';
import { parseManifests, type K8sObject } from './support/synth';
import { testChart } from './support/test-chart';
import { problemsOf } from './support/config-problems';

const FACTORY_REFUSAL = EXECUTOR_TABLE.factory.refusal;

describe('direct execution config', () => {
  it('defaults to coderun, with the default resources defined once', () => {
    const config = resolveConfig({ env: {} });
    expect(config.execution).toBe('coderun');
    expect(config.direct.resources).toEqual(DEFAULT_DIRECT_RESOURCES);
    expect(config.direct.github).toEqual({ apiUrl: 'https://api.github.com', serverUrl: 'https://github.com' });
  });

  it('refuses an agent that runs direct on a CLI whose session could not be confirmed, naming the agent and the fix', () => {
    expect(problemsOf({ execution: 'direct', agents: { rex: { cli: 'factory' } } })).toEqual([
      `agents.rex.execution: runs direct, but CLI "factory" (executor factory) cannot run direct: ${FACTORY_REFUSAL}; set agents.rex.execution: coderun`,
    ]);
  });

  it('accepts the same agent when it alone keeps the CodeRun path', () => {
    const config = resolveConfig({ file: { execution: 'direct', agents: { rex: { cli: 'factory', execution: 'coderun' } } }, env: {} });
    expect(config.agents.rex.execution).toBe('coderun');
  });

  it("checks a repository's own CLI binding of a direct agent too", () => {
    const problems = problemsOf({
      repositories: [{ name: 'octo/app', service: 'app', agentClis: { cleo: 'factory' } }],
      agents: { cleo: { execution: 'direct' } },
    });
    expect(problems).toEqual([expect.stringMatching(/^agents\.cleo\.execution: runs direct, but CLI "factory"/)]);
  });

  it('refuses a direct agent on a CLI with no executor, saying which field to set', () => {
    const problems = problemsOf({
      execution: 'direct',
      clis: { aider: { image: 'ghcr.io/acme/aider:v1.0.0' } },
      agents: { rex: { cli: 'aider' } },
    });
    expect(problems).toEqual([
      `agents.rex.execution: runs direct, but CLI "aider" names no executor, so its non-interactive invocation is unknown (set clis.aider.executor to one of: ${EXECUTORS.join(', ')}); set agents.rex.execution: coderun`,
    ]);
  });

  it('runs a CLI of another name with the executor it names', () => {
    const config = resolveConfig({
      file: {
        execution: 'direct',
        clis: { 'claude-next': { image: 'ghcr.io/acme/claude:v2.0.0', executor: 'claude' } },
        agents: { rex: { cli: 'claude-next' } },
      },
      env: {},
    });
    expect(config.clis['claude-next'].executor).toBe('claude');
  });

  it('refuses a direct agent whose system prompt could not be passed as one argument', () => {
    const systemPrompt = 'x'.repeat(MAX_DIRECT_SYSTEM_PROMPT_BYTES + 1);
    expect(problemsOf({ execution: 'direct', agents: { rex: { systemPrompt } } })).toEqual([
      `agents.rex.systemPrompt: is ${MAX_DIRECT_SYSTEM_PROMPT_BYTES + 1} bytes; a direct agent's CLI gets it as one argument, at most ${MAX_DIRECT_SYSTEM_PROMPT_BYTES} bytes: shorten it, or set agents.rex.execution: coderun`,
    ]);
    expect(resolveConfig({ file: { agents: { rex: { systemPrompt } } }, env: {} }).agents.rex.systemPrompt).toBe(systemPrompt);
  });

  it.each([
    [{ execution: 'sometimes' }, 'execution: Invalid option: expected one of "coderun"|"direct"'],
    [{ clis: { claude: { executor: 'aider' } } }, 'clis.claude.executor: Invalid option'],
    [{ direct: { resources: { requests: { cpu: 'lots' } } } }, 'direct.resources.requests.cpu: expected CPU such as 500m or 2'],
    [
      { agents: { rex: { resources: { limits: { memory: '4GB' } } } } },
      'agents.rex.resources.limits.memory: expected memory such as 512Mi or 4Gi',
    ],
    [
      { direct: { github: { apiUrl: 'http://ghe.example.com/api/v3' } } },
      'direct.github.apiUrl: expected an https URL without a trailing slash, such as https://github.example.com/api/v3',
    ],
    [
      { direct: { github: { serverUrl: 'https://ghe.example.com/' } } },
      'direct.github.serverUrl: expected an https URL without a trailing slash, such as https://github.example.com',
    ],
    [
      { direct: { github: { serverUrl: 'https://ghe.example.com/{{workflow.name}}' } } },
      'direct.github.serverUrl: expected an https URL without a trailing slash',
    ],
    [{ direct: { github: { serverUrl: 'https://token@ghe.example.com' } } }, 'direct.github.serverUrl: expected an https URL'],
    [{ direct: { github: { url: 'https://ghe.example.com' } } }, 'direct.github: unknown setting "url"'],
    [
      { direct: { resources: { requests: { memory: '8Gi' } } } },
      'direct.resources: the memory request 8Gi is above the limit 4Gi; lower the request or raise the limit',
    ],
    [
      { execution: 'direct', agents: { rex: { resources: { requests: { cpu: '3' } } } } },
      'agents.rex.resources: the CPU request 3 is above the limit 2; lower the request or raise the limit',
    ],
  ])('%j is refused in one line', (file, problem) => {
    const problems = problemsOf(file);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });
});

const DIRECT = resolveConfig({ file: { execution: 'direct', agents: { rex: { resources: { limits: { memory: '8Gi' } } } } }, env: {} });
const OBJECTS = parseManifests(synthesizePlatform(DIRECT));
const PLAY = OBJECTS.find(
  (object) => object.kind === 'WorkflowTemplate' && object.metadata.labels?.['workflow-type'] === 'play',
) as K8sObject;
const template = (name: string): any => PLAY.spec.templates.find((entry: any) => entry.name === name);

describe('a platform in direct mode', () => {
  it('passes the built-in schemas and every lint rule', () => {
    expect(validateManifestTexts(synthesizePlatform(DIRECT), 'direct').findings).toEqual([]);
  });

  it('needs only Kubernetes and Argo (Workflows, Events) APIs: nothing of the CodeRun controller', () => {
    const groups = new Set(OBJECTS.map((object) => (object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : 'core')));
    expect([...groups].sort()).toEqual(['argoproj.io', 'core', 'rbac.authorization.k8s.io']);
    expect(JSON.stringify(OBJECTS)).not.toContain('agents.platform/v1');
    expect(JSON.stringify(OBJECTS)).not.toContain('"coderuns"');
  });

  it('creates no CodeRun: no CRD, no CodeRun template, no resource step, and an exit handler with nothing to cancel', () => {
    expect(OBJECTS.some((object) => object.kind === 'CustomResourceDefinition')).toBe(false);
    expect(OBJECTS.some((object) => object.metadata.labels?.['workflow-type'] === 'coderun')).toBe(false);
    expect(JSON.stringify(PLAY.spec.templates)).not.toContain('CodeRun');
    expect(
      template('exit-handler')
        .steps.flat()
        .map((step: any) => step.template),
    ).toEqual(['record-exit']);
  });

  it('runs each agent stage as a script step in the CLI image of the agent, its own resources over the platform ones', () => {
    const step = template('run-implementation-agent');
    expect(step.script.image).toBe(DIRECT.clis[DIRECT.agents.rex.cli].image);
    expect(step.script.resources).toEqual({ requests: DEFAULT_DIRECT_RESOURCES.requests, limits: { cpu: '2', memory: '8Gi' } });
    expect(template('run-code-quality-agent').script.image).toBe(DIRECT.clis[DIRECT.agents.cleo.cli].image);
    expect(template('run-code-quality-agent').script.resources).toEqual(DEFAULT_DIRECT_RESOURCES);
  });

  it('keeps the agent pod inside its deadline and retries, and the workspace mutex around every attempt', async () => {
    const step = template('run-implementation-agent');
    expect(step.activeDeadlineSeconds).toBe(4 * 3600 + 300);
    expect(step.retryStrategy.limit).toBe('1');
    // The mutex is the agent's workspace claim in the play's repository, which the first step resolves.
    expect(template('run-implementation').synchronization.mutexes).toEqual([{ name: '{{workflow.outputs.parameters.claim-rex}}' }]);
    expect(template('run-code-quality').synchronization.mutexes).toEqual([{ name: '{{workflow.outputs.parameters.claim-cleo}}' }]);
    const outputs = await resolvedOutputs(OBJECTS as never, DIRECT.repositories[0].name);
    expect(outputs['workflow.outputs.parameters.claim-rex']).toBe('workspace-play-test');
    expect(outputs['workflow.outputs.parameters.claim-cleo']).toBe('workspace-play-test-cleo');
  });

  it('reaches github.com unless the config names a GitHub Enterprise Server, whose URLs every direct step gets as environment', () => {
    const github = (objects: readonly K8sObject[]) => {
      const play = objects.find((object) => object.metadata.labels?.['workflow-type'] === 'play') as K8sObject;
      const steps = play.spec.templates.filter((entry: any) => entry.script?.env?.some((variable: any) => variable.name === 'GIT_SERVER'));
      expect(steps.length).toBeGreaterThan(0);
      return new Set(
        steps.map((step: any) => {
          const env = Object.fromEntries(step.script.env.map((variable: any) => [variable.name, variable.value]));
          return `${env.GITHUB_API} ${env.GIT_SERVER}`;
        }),
      );
    };
    expect(github(OBJECTS)).toEqual(new Set([`${GITHUB_API_URL} ${GITHUB_SERVER_URL}`]));
    const enterprise = { apiUrl: 'https://ghe.example.com:8443/api/v3', serverUrl: 'https://ghe.example.com:8443' };
    const texts = synthesizePlatform(resolveConfig({ file: { execution: 'direct', direct: { github: enterprise } }, env: {} }));
    expect(github(parseManifests(texts))).toEqual(new Set([`${enterprise.apiUrl} ${enterprise.serverUrl}`]));
    expect(validateManifestTexts(texts, 'enterprise').findings).toEqual([]);
  });

  it('keeps a coderun agent on the CodeRun path inside a direct platform', () => {
    const mixed = resolveConfig({ file: { execution: 'direct', agents: { tess: { execution: 'coderun' } } }, env: {} });
    const play = parseManifests(synthesizePlatform(mixed)).find(
      (object) => object.kind === 'WorkflowTemplate' && object.metadata.labels?.['workflow-type'] === 'play',
    ) as K8sObject;
    const names = play.spec.templates.map((entry: any) => entry.name);
    expect(names).toContain('run-testing-create');
    expect(names).not.toContain('run-testing-agent');
    expect(names).toContain('run-implementation-agent');
    expect(names).toContain('cancel-coderuns');
  });
});

/** Every `group/resource:verb` the play's service account is granted, over all its Roles. */
function playPermissions(objects: readonly K8sObject[]): string[] {
  const roles = objects
    .filter((object) => object.kind === 'RoleBinding' && object.subjects.some((subject: any) => subject.name === 'agent-play'))
    .map((binding) => binding.roleRef.name);
  return objects
    .filter((object) => object.kind === 'Role' && roles.includes(object.metadata.name))
    .flatMap((role) => role.rules)
    .flatMap((rule: any) =>
      rule.apiGroups.flatMap((group: string) =>
        rule.resources.flatMap((resource: string) => rule.verbs.map((verb: string) => `${group}/${resource}:${verb}`)),
      ),
    )
    .sort();
}

describe("the play's RBAC follows the execution mode (least privilege)", () => {
  const CODERUN_PERMISSIONS = [
    'agents.platform/coderuns:create',
    'agents.platform/coderuns:delete',
    'agents.platform/coderuns:get',
    'agents.platform/coderuns:list',
    'agents.platform/coderuns:watch',
    'argoproj.io/workflows/finalizers:update',
  ];
  const permissionsOf = (file: object) => playPermissions(parseManifests(synthesizePlatform(resolveConfig({ file, env: {} }))));
  const withoutCodeRuns = (permissions: string[]) => permissions.filter((permission) => !CODERUN_PERMISSIONS.includes(permission));

  it('grants nothing on CodeRuns, nor the finalizers their owner references need, when every agent runs direct', () => {
    const rules = OBJECTS.filter((object) => object.kind === 'Role').flatMap((role) => role.rules);
    expect(rules.filter((rule: any) => rule.resources.includes('coderuns'))).toEqual([]);
    expect(rules.filter((rule: any) => rule.resources.includes('workflows/finalizers'))).toEqual([]);
  });

  it('keeps the CodeRun grants in the default platform and in a mixed one, and every other grant in all three', () => {
    const coderun = playPermissions(parseManifests(synthesizePlatform(resolveConfig({ env: {} }))));
    const mixed = permissionsOf({ execution: 'direct', agents: { tess: { execution: 'coderun' } } });
    const direct = playPermissions(OBJECTS);
    expect(coderun).toEqual(expect.arrayContaining(CODERUN_PERMISSIONS));
    expect(mixed).toEqual(coderun);
    expect(
      parseManifests(
        synthesizePlatform(resolveConfig({ file: { execution: 'direct', agents: { tess: { execution: 'coderun' } } }, env: {} })),
      ).some((o) => o.kind === 'CustomResourceDefinition'),
    ).toBe(true);
    expect(direct).toEqual(withoutCodeRuns(coderun));
    expect(direct).toContain('argoproj.io/workflows:patch');
    expect(direct).toContain('/configmaps:patch');
  });
});

describe('the play construct in direct mode', () => {
  const base = resolveConfig({ env: {} });
  const build = (agents: typeof base.agents, directClis?: Record<string, string>) =>
    new PlayWorkflowTemplate(testChart(), 'play', {
      ...(directClis === undefined ? {} : { directClis }),
      stages: StageMachine.fromConfig(base),
      agents,
      clis: base.clis,
      serviceAccountName: 'agent-play',
      runtimeImage: base.images.runtime,
      execution: 'direct',
    });

  it('refuses an agent whose CLI direct execution cannot run, naming the agent and the fix', () => {
    expect(() => build({ ...base.agents, rex: { ...base.agents.rex, cli: 'factory' } })).toThrow(
      `agent "rex" runs direct, but CLI "factory" (executor factory) cannot run direct: ${FACTORY_REFUSAL}; set agents.rex.execution: coderun`,
    );
  });

  it("runs the template's own CLI binding of an agent (directClis, from its repositories' agentClis), with that CLI's API key", () => {
    const play = build(base.agents, { rex: 'gemini' });
    const step: any = play.template('run-implementation-agent');
    expect(step.script.image).toBe(base.clis.gemini.image);
    const env = Object.fromEntries(step.script.env.map((variable: any) => [variable.name, variable]));
    expect(env.CLI.value).toBe('gemini');
    expect(env.GEMINI_API_KEY.valueFrom.secretKeyRef).toEqual({ name: 'gemini-api-key', key: 'api-key' });
  });
});

describe('the play construct checks its direct-execution props', () => {
  const base = resolveConfig({ env: {} });
  const build = (extra: object) => () =>
    new PlayWorkflowTemplate(testChart(), 'play', {
      stages: StageMachine.fromConfig(base),
      agents: base.agents,
      clis: base.clis,
      serviceAccountName: 'agent-play',
      runtimeImage: base.images.runtime,
      ...extra,
    });

  it.each([
    [{ execution: 'sometimes' }, 'PlayWorkflowTemplate play: execution "sometimes": is not valid: Invalid option'],
    [
      { directResources: { requests: { cpu: 'lots', memory: '1Gi' }, limits: { cpu: '2', memory: '4Gi' } } },
      'directResources: is not valid at requests.cpu: expected CPU such as 500m or 2',
    ],
    [
      { directResources: { requests: { cpu: '3', memory: '1Gi' }, limits: { cpu: '2', memory: '4Gi' } } },
      'directResources: the CPU request 3 is above the limit 2',
    ],
    [{ agentsConfigMap: 'Agents_Map' }, 'agentsConfigMap "Agents_Map": is not a ConfigMap name'],
    [
      { directGithub: { apiUrl: 'ftp://ghe.example.com', serverUrl: 'https://ghe.example.com' } },
      'directGithub: is not valid at apiUrl: expected an https URL without a trailing slash',
    ],
  ])('%j is refused in one line', (extra, message) => {
    expect(build(extra)).toThrow(message);
  });
});
