/**
 * What each pod of the platform may do, read from the synthesized Roles (issue 22, items 2 and 4):
 *
 * - every API call every runtime step makes, in every example scenario and in the project steps, is allowed by
 *   the Role of the service account its pod runs under: no step meets a 403 (the simulator answers 403 as the
 *   API server would, from the same Roles: src/simulate/role-authorizer.ts);
 * - every resource template (CodeRun create, wait, chunk Workflows) is allowed its kubectl verb by its Role;
 * - a direct agent's own container holds no service-account token at all, so a prompt-injected CLI cannot
 *   touch a play (argo-workflows `workflow/controller/workflowpod.go`, `setupServiceAccount`: the pod's token
 *   is mounted in every container unless `automountServiceAccountToken: false`, and then only Argo's `init`
 *   and `wait` containers get the `executor.serviceAccountName` token).
 *
 * Each check has a positive control: the same check on a Role with one rule removed, or a template that
 * mounts the token, fails.
 */
// @ts-nocheck

import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { App } from 'cdk8s';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { resolveConfig } from '../constructs/model/resolve-config';
import { readConfigFile } from '../src/config/load-config';
import { ApiError, ApiResources, type KubeObject } from '../constructs/runtime/kube-api';
import { ARGO_COMPLETED_LABEL } from '../constructs/model/argo-api';
import { updateRecord } from '../constructs/progress/progress-store';
import type { StepContext } from '../constructs/runtime/runtime-step';
import { type ApiCall, MemoryApiServer } from '../src/simulate/memory-api';
import { rulesOf } from '../src/simulate/role-authorizer';
import { loadScenario } from '../src/simulate/scenario';
import { simulate, type SimulationReport } from '../src/simulate/simulate';
import { type StepRun, StepRunner } from '../src/simulate/step-runner';
import { synthesizeApp } from '../src/synth/synthesize';
import { parseManifests, synth, type K8sObject } from './support/synth';

const EXAMPLES = resolve(__dirname, '..', 'examples');
const SCENARIOS = resolve(EXAMPLES, 'scenarios');
const SCENARIO_NAMES = readdirSync(SCENARIOS).sort();
/** The remediation scenario's second platform, where every agent runs direct. */
const DIRECT_CONFIG = 'direct.agent-play.yaml';
const DIRECT_FILE = readConfigFile(resolve(SCENARIOS, 'remediation', DIRECT_CONFIG)) as Record<string, unknown>;

type Rule = ReturnType<typeof rulesOf>[number];

async function example(name: string): Promise<K8sObject[]> {
  const app = ((await import(resolve(EXAMPLES, `${name}.ts`))) as { buildApp: () => App }).buildApp();
  return parseManifests(synthesizeApp(app));
}

/** The runtime step a template runs (`node /agent-play/runtime.cjs STEP`), or undefined. */
function runtimeStepOf(template: Record<string, any>): string | undefined {
  const command = template.container?.command;
  return Array.isArray(command) && command[0] === 'node' && String(command[1]).endsWith('runtime.cjs') ? command[2] : undefined;
}

const workflowTemplates = (objects: readonly K8sObject[]) => objects.filter((object) => object.kind === 'WorkflowTemplate');

/** Every runtime step the WorkflowTemplates of a platform run. */
const stepsNamed = (objects: readonly K8sObject[]): Set<string> =>
  new Set(workflowTemplates(objects).flatMap((wt) => wt.spec.templates.map(runtimeStepOf).filter((step: unknown) => step !== undefined)));

/** The platform objects without one rule of a Role: the positive control. */
function withoutRule(objects: readonly K8sObject[], role: string, drop: (rule: Rule) => boolean): K8sObject[] {
  return objects.map((object) =>
    object.kind === 'Role' && object.metadata.name === role
      ? { ...object, rules: object.rules.filter((rule: Rule) => !drop(rule)) }
      : object,
  );
}

/**
 * Runs `action` and returns every call the API refused with a 403 (whatever the step did with the error), and
 * every runtime step that ran.
 */
async function refusedDuring(action: () => Promise<unknown>): Promise<{ refused: string[]; steps: Set<string> }> {
  const refused: string[] = [];
  const steps = new Set<string>();
  const record = MemoryApiServer.prototype.record;
  vi.spyOn(MemoryApiServer.prototype, 'record').mockImplementation(function (this: MemoryApiServer, call, authorize) {
    try {
      record.call(this, call, authorize);
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) refused.push(describeCall(call));
      throw error;
    }
  });
  const run = StepRunner.prototype.run;
  vi.spyOn(StepRunner.prototype, 'run').mockImplementation(async function (this: StepRunner, ...args) {
    const result = await run.apply(this, args);
    steps.add(result.step);
    return result;
  });
  await action();
  return { refused, steps };
}

const describeCall = (call: ApiCall): string => `${call.verb} ${call.resource.plural}${call.name === undefined ? '' : `/${call.name}`}`;

async function runScenario(name: string, objects: readonly K8sObject[], file: Record<string, unknown> = {}): Promise<SimulationReport> {
  const scenario = loadScenario(resolve(SCENARIOS, name, 'scenario.yaml'));
  return simulate({ config: resolveConfig({ file, env: {} }), objects }, scenario);
}

/** The config a scenario's folder gives it (`NAME.agent-play.yaml`; the remediation folder's direct platform is run on its own below). */
function ownConfig(name: string): Record<string, unknown> | undefined {
  const files = readdirSync(resolve(SCENARIOS, name)).filter((file) => file.endsWith('.agent-play.yaml') && file !== DIRECT_CONFIG);
  if (files.length === 0) return undefined;
  return readConfigFile(resolve(SCENARIOS, name, files[0])) as Record<string, unknown>;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('every runtime step, in every example scenario', () => {
  const platform = synth();
  const direct = synth({ file: DIRECT_FILE, env: {} });

  it('makes only calls its Role allows, and the scenarios run every step the platform names but the project ones', async () => {
    const { refused, steps } = await refusedDuring(async () => {
      for (const name of SCENARIO_NAMES) {
        // A scenario that runs on a platform of its own (e2e/scenarios.yaml's `config`) runs on that one here too.
        const own = ownConfig(name);
        if (own === undefined) await runScenario(name, platform.objects);
        else await runScenario(name, synth({ file: own, env: {} }).objects, own);
      }
      await runScenario('remediation', direct.objects, DIRECT_FILE);
    });
    expect(refused).toEqual([]);
    const named = new Set([...stepsNamed(platform.objects), ...stepsNamed(direct.objects)]);
    expect([...named].filter((step) => !steps.has(step)).sort()).toEqual([]);
  });

  it("positive control: without the play's patch on the progress shards, the steps meet 403s and say so", async () => {
    const broken = withoutRule(platform.objects, 'agent-play', (rule) => (rule.resourceNames ?? []).length > 0);
    let report: SimulationReport | undefined;
    const { refused } = await refusedDuring(async () => {
      report = await runScenario('happy-path', broken);
    });
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((call) => /^patch configmaps\/play-progress-shard-\d+$/.test(call))).toBe(true);
    // An authorization error is reported as one, never as "the record changed meanwhile" (item 4).
    const notes = (report?.steps ?? []).flatMap((step) => step.notes).join('\n');
    expect(notes).toContain('forbidden (403)');
    expect(notes).not.toContain('changed meanwhile');
  });

  it("positive control: without the resumer's read of plays, the resumer meets a 403", async () => {
    const broken = withoutRule(platform.objects, 'agent-play-resumer', (rule) => (rule.resources ?? []).includes('workflows'));
    const { refused } = await refusedDuring(() => runScenario('happy-path', broken));
    expect(refused).toContain('list workflows');
  });
});

describe('the project steps', () => {
  /** Runs find-start, start-play and wait-play of the project example as its pods would, under its Role. */
  async function runProjectSteps(objects: readonly K8sObject[]): Promise<StepRun[]> {
    const server = new MemoryApiServer(() => new Date(Date.UTC(2026, 0, 1)));
    for (const object of objects) if (object.kind === 'ConfigMap') server.put(ApiResources.configMaps, object as KubeObject);
    let sleeps = 0;
    const sleep = async () => {
      sleeps += 1;
      if (sleeps > 20) throw new Error('a project step waited 20 times: it would wait forever');
    };
    const runner = new StepRunner(objects, server, { now: () => new Date(Date.UTC(2026, 0, 1)), sleep });
    const project = workflowTemplates(objects).find((wt) => wt.metadata.labels?.['workflow-type'] === 'project');
    if (project === undefined) throw new Error('the project example has no project WorkflowTemplate');
    const scope = { name: 'project-checkout-v2-x', namespace: project.metadata.namespace ?? 'agents', uid: 'uid-project', parameters: {} };
    const inputs = { 'task-id': '1', 'start-stage': 'implementation', 'task-type': 'backend' };
    const byStep = (step: string) => project.spec.templates.find((template: any) => runtimeStepOf(template) === step).name;
    const run = (step: string) => runner.run(project.metadata.name, byStep(step), scope, inputs);
    const ran = [await run('project-find-start'), await run('project-start-play')];
    // The task's play has run and failed for good: wait-play reads the record, then the play.
    const play = server.peek({ resource: ApiResources.workflows, namespace: scope.namespace, name: 'play-play-test-task-1' });
    if (play !== undefined)
      server.put(ApiResources.workflows, {
        ...play,
        metadata: { ...play.metadata, labels: { ...play.metadata.labels, [ARGO_COMPLETED_LABEL]: 'true' } },
      });
    const admin = server.client();
    const context: StepContext = { api: admin, now: () => new Date(Date.UTC(2026, 0, 1)), sleep: async () => {}, log: () => {} };
    await updateRecord(context, scope.namespace, { repository: '5dlabs/cto-play-test', task: 1 }, (record) => ({
      ...record,
      stage: 'implementation',
      status: 'failed',
      reason: 'remediation rounds exhausted',
    }));
    ran.push(await run('project-wait-play'));
    return ran;
  }

  it('make only calls the project Role allows', async () => {
    const objects = await example('project');
    let ran: StepRun[] = [];
    const { refused, steps } = await refusedDuring(async () => {
      ran = await runProjectSteps(objects);
    });
    expect(refused).toEqual([]);
    // Each step did its work: a start, a play created, and the wait ended on the play that failed for good.
    expect(ran.map((step) => [step.outputs.action, step.failure])).toEqual([
      ['start', undefined],
      [undefined, undefined],
      [undefined, 'task 1 failed at implementation in round 1: remediation rounds exhausted'],
    ]);
    expect([...steps].sort()).toEqual(['project-find-start', 'project-start-play', 'project-wait-play']);
  });

  it('positive control: without the create of Workflows, start-play meets a 403', async () => {
    const objects = await example('project');
    const role = objects.find((object) => object.kind === 'RoleBinding' && object.subjects?.[0]?.name === 'agent-play-project')?.roleRef
      .name;
    const broken = withoutRule(
      objects,
      role,
      (rule) => (rule.resources ?? []).includes('workflows') && (rule.verbs ?? []).includes('create'),
    );
    const { refused } = await refusedDuring(() => runProjectSteps(broken));
    expect(refused).toContain('create workflows/play-play-test-task-1');
  });
});

/** The verbs kubectl (argoexec) uses for a resource template's action; a wait is a get. */
const ACTION_VERBS: Readonly<Record<string, readonly string[]>> = {
  get: ['get'],
  create: ['create'],
  apply: ['get', 'create', 'patch'],
  patch: ['get', 'patch'],
  delete: ['delete'],
  replace: ['update'],
};

/** Each verb a resource template needs, on which group and resource, for a platform's templates. */
function resourceNeeds(objects: readonly K8sObject[]): { where: string; account: string; group: string; resource: string; verb: string }[] {
  return workflowTemplates(objects).flatMap((wt) =>
    wt.spec.templates
      .filter((template: any) => template.resource !== undefined)
      .flatMap((template: any) => {
        const manifest = parse(template.resource.manifest.replace(/\{\{[^}]*\}\}/g, 'x')) as Record<string, any>;
        const [group, version] = String(manifest.apiVersion).includes('/')
          ? String(manifest.apiVersion).split('/')
          : ['', manifest.apiVersion];
        expect(version, `${wt.metadata.name}/${template.name}`).toBeTruthy();
        const resource = `${String(manifest.kind).toLowerCase()}s`;
        const verbs = [...ACTION_VERBS[template.resource.action]];
        if (template.resource.successCondition || template.resource.failureCondition) verbs.push('get');
        const account = template.serviceAccountName ?? wt.spec.serviceAccountName;
        const where = `${wt.metadata.name}/${template.name}`;
        const needs = verbs.map((verb) => ({ where, account, group, resource, verb }));
        // An owner reference with blockOwnerDeletion needs update on the owner's finalizers (OwnerReferencesPermissionEnforcement).
        if (template.resource.setOwnerReference)
          needs.push({ where, account, group: 'argoproj.io', resource: 'workflows/finalizers', verb: 'update' });
        return needs;
      }),
  );
}

function refusedNeeds(objects: readonly K8sObject[]): string[] {
  return resourceNeeds(objects)
    .filter(({ account, group, resource, verb }) => {
      const rules = rulesOf(objects, account, objects.find((object) => object.kind === 'WorkflowTemplate')?.metadata.namespace ?? '');
      return !rules.some(
        (rule) =>
          (rule.apiGroups ?? []).includes(group) &&
          (rule.resources ?? []).includes(resource) &&
          (rule.verbs ?? []).includes(verb) &&
          (rule.resourceNames ?? []).length === 0,
      );
    })
    .map(({ where, verb, resource }) => `${where}: ${verb} ${resource}`);
}

describe('every resource template', () => {
  // direct-execution has none: its agents run in the play's pods (below).
  it.each(['default-platform', 'project', 'parallel-testers', 'security-stage', 'two-repositories'])(
    '%s: is allowed its verbs by the Role of its account',
    async (name) => {
      const objects = await example(name);
      // Each of these has resource templates: the CodeRun create and wait steps at least.
      expect(resourceNeeds(objects).length).toBeGreaterThan(0);
      expect(refusedNeeds(objects)).toEqual([]);
    },
  );

  it('positive control: without the create of CodeRuns, every create step is refused', async () => {
    const objects = await example('default-platform');
    const broken = withoutRule(objects, 'agent-play', (rule) => (rule.resources ?? []).includes('coderuns'));
    const refused = refusedNeeds(broken);
    expect(refused).toContain('play/run-implementation-create: create coderuns');
    expect(refused).toContain('play/run-implementation-wait: get coderuns');
  });
});

/**
 * The service-account tokens the agent's own container (`main`) holds in a template's pod, and the rules of
 * each: the pod's token unless the template (else templateDefaults, else the workflow) turns it off, and any
 * token Secret or projected token it mounts.
 */
function agentContainerTokens(
  objects: readonly K8sObject[],
  wt: K8sObject,
  template: Record<string, any>,
): { account: string; rules: Rule[] }[] {
  const spec = wt.spec;
  const namespace = wt.metadata.namespace ?? '';
  const automount =
    template.automountServiceAccountToken ?? spec.templateDefaults?.automountServiceAccountToken ?? spec.automountServiceAccountToken;
  const podAccount: string = template.serviceAccountName ?? spec.serviceAccountName ?? 'default';
  const accounts: string[] = automount === false ? [] : [podAccount];
  const volumes: Record<string, any>[] = [...(template.volumes ?? []), ...(spec.volumes ?? [])];
  const mounted = new Set(
    [template.container, template.script].flatMap((container) => (container?.volumeMounts ?? []).map((mount: any) => mount.name)),
  );
  for (const volume of volumes.filter((candidate) => mounted.has(candidate.name))) {
    const secret = objects.find((object) => object.kind === 'Secret' && object.metadata.name === volume.secret?.secretName);
    if (secret?.type === 'kubernetes.io/service-account-token')
      accounts.push(secret.metadata.annotations?.['kubernetes.io/service-account.name'] ?? '');
    if ((volume.projected?.sources ?? []).some((source: any) => source.serviceAccountToken !== undefined)) accounts.push(podAccount);
  }
  return accounts.map((account) => ({ account, rules: rulesOf(objects, account, namespace) }));
}

/** The agent templates (label github-app) of a platform, with what their own container can do in the cluster. */
function agentReach(objects: readonly K8sObject[]): { template: string; reach: string[] }[] {
  return workflowTemplates(objects).flatMap((wt) =>
    wt.spec.templates
      .filter((template: any) => template.metadata?.labels?.['github-app'] !== undefined && (template.container || template.script))
      .map((template: any) => ({
        template: `${wt.metadata.name}/${template.name}`,
        reach: agentContainerTokens(objects, wt, template).flatMap(({ account, rules }) =>
          rules.flatMap((rule) => (rule.resources ?? []).map((resource) => `${account}: ${(rule.verbs ?? []).join(',')} ${resource}`)),
        ),
      })),
  );
}

/** Which of `script` and `container` a template's own container is. */
const podType = (template: Record<string, any>): 'script' | 'container' => (template.script ? 'script' : 'container');

describe("a direct agent's container (item 2)", () => {
  it('holds no service-account token: it can reach nothing in the cluster, plays least of all', async () => {
    const objects = await example('direct-execution');
    const agents = agentReach(objects);
    expect(agents.map((agent) => agent.template)).toEqual(
      expect.arrayContaining(['play/run-implementation-agent', 'play/run-code-quality-agent', 'play/run-testing-agent']),
    );
    for (const agent of agents) expect(agent.reach, agent.template).toEqual([]);
    // Argo's own containers in that pod use the executor account, whose token Secret the platform makes.
    for (const wt of workflowTemplates(objects))
      for (const template of wt.spec.templates.filter((candidate: any) => candidate.metadata?.labels?.['github-app'] !== undefined)) {
        expect(template.automountServiceAccountToken).toBe(false);
        const account = template.executor?.serviceAccountName;
        expect(
          objects.some(
            (object) => object.kind === 'Secret' && object.metadata.annotations?.['kubernetes.io/service-account.name'] === account,
          ),
        ).toBe(true);
      }
  });

  /** The direct platform with `change` applied to the implementation agent's template, and what that agent then reaches. */
  async function implementationReach(change: (template: any, objects: readonly K8sObject[]) => any): Promise<string[]> {
    const objects = await example('direct-execution');
    const changed = objects.map((object) =>
      object.kind === 'WorkflowTemplate' && object.metadata.name === 'play'
        ? {
            ...object,
            spec: {
              ...object.spec,
              templates: object.spec.templates.map((template: any) =>
                template.name === 'run-implementation-agent' ? change(template, objects) : template,
              ),
            },
          }
        : object,
    );
    return agentReach(changed).find((agent) => agent.template === 'play/run-implementation-agent')?.reach ?? [];
  }

  it('positive control: with the pod token mounted, the container could patch plays', async () => {
    const reach = await implementationReach((template) => ({ ...template, automountServiceAccountToken: true }));
    expect(reach).toContain('agent-play: get,patch workflows');
    expect(reach).toContain('agent-play: create,patch workflowtaskresults');
  });

  it("positive control: mounting the executor's token Secret in the container reaches the play's rights too", async () => {
    const reach = await implementationReach((template, objects) => {
      const secret = objects.find((object) => object.kind === 'Secret' && object.type === 'kubernetes.io/service-account-token');
      const container = template[podType(template)];
      return {
        ...template,
        volumes: [...(template.volumes ?? []), { name: 'stolen', secret: { secretName: secret?.metadata.name } }],
        [podType(template)]: { ...container, volumeMounts: [...(container.volumeMounts ?? []), { name: 'stolen', mountPath: '/t' }] },
      };
    });
    expect(reach).toContain('agent-play: get,patch workflows');
  });
});
