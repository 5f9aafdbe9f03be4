import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CodeRunSpecSchema } from '../constructs/model/coderun-schema';
import { ARGOCD_KEEP_ANNOTATIONS, PlayAnnotations, PlayLabels } from '../constructs/model/labels';
import { isDnsLabel, isLabelKey, isLabelValue, systemPromptKey, workspacePvcName } from '../constructs/model/naming';
import { PROGRESS_SHARDS, progressConfigMapOf, progressShardNames } from '../constructs/progress/progress-layout';
import { RUNTIME_FILE, RUNTIME_MOUNT_PATH } from '../constructs/runtime/runtime-layout';
import { runtimeConfigMapName } from '../constructs/runtime/runtime-config-map-name';
import {
  agentAttemptTemplateNames,
  CODERUN_ATTEMPT_INPUT,
  GATE_STAGE_INPUT,
  PlayParameters,
  PlayTemplates,
  enterTaskName,
  gateNodeSelector,
} from '../constructs/model/play-contract';
import { CANCEL_SELECTOR_INPUT } from '../constructs/workflows/cancel-coderuns';
import { IMAGE_PULL_ALLOWANCE_SECONDS } from '../constructs/workflows/retry-policy';
import { referenceExpression } from '../constructs/workflows/coderun-manifest';
import { renderArgoTags } from './support/argo-tags';
import { resolvedOutputs } from './support/resolved-outputs';
import { RESOLVE_TEMPLATE } from '../constructs/registry/resolve-template';
import { resolveConfig } from '../constructs/model/resolve-config';
import { StageMachine } from '../constructs/model/stage-machine';
import { PlatformCharts } from '../constructs/platform/agent-platform';
import { PLAY_GRANTS } from '../constructs/rbac/play-rbac';
import { synth, type K8sObject } from './support/synth';

const config = resolveConfig({ env: {} });
const stages = new StageMachine(config.stages, Object.keys(config.agents));
const platform = synth();
const play = platform.one('WorkflowTemplate', 'play');
const templates: any[] = play.spec.templates;
const templateNamed = (name: string): any => {
  const found = templates.find((template) => template.name === name);
  if (!found) throw new Error(`the play has no template ${name}`);
  return found;
};
const dagTasks: any[] = templateNamed(PlayTemplates.main).dag.tasks;
/** The runtime step a template runs (`node /agent-play/runtime.cjs STEP`), and its environment by name. */
const runtimeStepOf = (template: any): { step: string; env: Record<string, string> } => {
  expect(template.container.command.slice(0, 2)).toEqual(['node', `${RUNTIME_MOUNT_PATH}/${RUNTIME_FILE}`]);
  expect(template.volumes).toEqual([expect.objectContaining({ configMap: { name: runtimeConfigMapName() } })]);
  return {
    step: template.container.command[2],
    env: Object.fromEntries(template.container.env.map((variable: any) => [variable.name, variable.value])),
  };
};
const taskNamed = (name: string): any => dagTasks.find((task) => task.name === name);

/**
 * What Argo knows when it renders a CodeRun manifest of a play of task 42: its parameters, and what its
 * first step resolved from the synthesized registry for the default repository.
 */
const TAG_VALUES: Record<string, string> = {
  "workflow.parameters['task-id']": '42',
  "workflow.parameters['task-requirements']": '',
  'workflow.parameters.round': '2',
  'workflow.name': 'play-payments-task-42',
  'workflow.uid': '6b1f0c1e-2b5a-4c55-9d3e-0f4a3e0c9d11',
};

beforeAll(async () => {
  Object.assign(TAG_VALUES, await resolvedOutputs(platform.objects as never, config.repositories[0].name));
});

describe('the default platform', () => {
  it('writes one file per concern (with the default label-selector resume)', () => {
    // The projects chart is only written when projects are configured (test/project.test.ts).
    const charts = Object.values(PlatformCharts).filter((chart) => chart !== PlatformCharts.projects);
    expect([...platform.files.keys()].sort()).toEqual(charts.map((chart) => `${chart}.yaml`).sort());
  });

  it('uses only legal names, label keys and label values', () => {
    for (const object of platform.objects) {
      const where = `${object.kind}/${object.metadata.name}`;
      expect(isDnsLabel(object.metadata.name) || object.kind === 'CustomResourceDefinition', where).toBe(true);
      for (const [key, value] of Object.entries(object.metadata.labels ?? {})) {
        expect(isLabelKey(key), `${where} label key ${key}`).toBe(true);
        expect(isLabelValue(value), `${where} label ${key}=${value}`).toBe(true);
      }
    }
  });

  it('puts every namespaced object in the configured namespace', () => {
    for (const object of platform.objects.filter((object) => object.kind !== 'CustomResourceDefinition')) {
      expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe(config.namespace);
    }
  });
});

describe('the play WorkflowTemplate', () => {
  it('labels the play from parameters, and leaves the repository to its first step', () => {
    const metadata = play.spec.workflowMetadata;
    expect(metadata.labels[PlayLabels.workflowType]).toBe('play');
    // One template serves every repository: the resolve step labels the play (test/registry.test.ts).
    expect(metadata.labels[PlayLabels.repository]).toBeUndefined();
    expect(metadata.labelsFrom[PlayLabels.taskId].expression).toBe(`workflow.parameters['${PlayParameters.taskId}']`);
    expect(metadata.labelsFrom[PlayLabels.currentStage].expression).toBe(`workflow.parameters['${PlayParameters.startStage}']`);
    expect(metadata.annotations?.[PlayAnnotations.repository]).toBeUndefined();
    const repository = play.spec.arguments.parameters.find((parameter: any) => parameter.name === PlayParameters.repository);
    expect(repository).toBeDefined();
    expect(repository.value).toBeUndefined();
  });

  it('resolves its repository from the registry first, before any stage is entered', () => {
    const [first, ...rest] = dagTasks;
    expect(first).toEqual({ name: 'resolve', template: RESOLVE_TEMPLATE });
    // Every other task waits for it, directly or through the tasks it depends on.
    for (const task of rest) expect(task.depends, task.name).toMatch(/\S/);
    const { step, env } = runtimeStepOf(templateNamed(RESOLVE_TEMPLATE));
    expect(step).toBe('resolve-repository');
    expect(env).toMatchObject({ REPOSITORY: '{{workflow.parameters.repository}}', PLAY_TEMPLATE: 'play', AGENTS: stages.agents.join(' ') });
    const outputs = templateNamed(RESOLVE_TEMPLATE).outputs.parameters;
    expect(outputs.every((output: any) => output.globalName === output.name)).toBe(true);
  });

  it('offers every stage, and only those, as a start stage', () => {
    const startStage = play.spec.arguments.parameters.find((parameter: any) => parameter.name === PlayParameters.startStage);
    expect(startStage.enum).toEqual(stages.names);
    expect(startStage.value).toBe(stages.first.name);
  });

  it('enters every stage in order, each after the work of the one before', () => {
    stages.stages.forEach((stage, index) => {
      const enter = taskNamed(enterTaskName(stage.name));
      expect(enter, stage.name).toBeDefined();
      const argument = (name: string) => enter.arguments.parameters.find((parameter: any) => parameter.name === name).value;
      expect(argument('stage')).toBe(stage.name);
      expect(argument('previous-stage')).toBe(index === 0 ? '' : stages.stages[index - 1].name);
      if (index > 0) expect(enter.depends).toBe(stages.stages[index - 1].name);
    });
  });

  it('skips exactly the stages before the start stage', () => {
    for (const stage of stages.stages) {
      const allowed = [...stages.stagesBefore(stage.name), stage].map((earlier) => `'${earlier.name}'`).join(', ');
      expect(taskNamed(enterTaskName(stage.name)).when).toBe(`{{=workflow.parameters['start-stage'] in [${allowed}]}}`);
    }
  });

  it('has a suspend gate for every gate stage, addressable by its stage input', () => {
    const suspend = templateNamed(PlayTemplates.awaitRelease);
    expect(suspend.suspend).toEqual({});
    expect(suspend.inputs.parameters).toEqual([{ name: GATE_STAGE_INPUT }]);
    const gateTasks = dagTasks.filter((task) => task.template === PlayTemplates.gate);
    expect(gateTasks.map((task) => task.arguments.parameters[0].value)).toEqual(stages.gates.map((stage) => stage.name));
    expect(gateNodeSelector('waiting-pr-created')).toBe('inputs.parameters.stage.value=waiting-pr-created');
    // A suspend with a duration would release itself: only an event may release a gate.
    expect(suspend.suspend.duration).toBeUndefined();
    // Only the suspend node may carry the gate name in a suspend template: nothing else can be resumed.
    expect(templates.filter((template) => template.suspend).map((template) => template.name)).toEqual([PlayTemplates.awaitRelease]);
  });

  it('passes a gate at once when its release was recorded before the play arrived', () => {
    const gate = templateNamed(PlayTemplates.gate);
    // Suspend first, the check beside it: the suspend node exists before the check reads the record.
    expect(gate.steps).toHaveLength(1);
    const [[wait, check]] = gate.steps;
    expect(wait.template).toBe(PlayTemplates.awaitRelease);
    expect(wait.when).toBeUndefined();
    expect(check.template).toBe(PlayTemplates.checkRelease);
    // The check releases the play's own gate itself: a release that finds the gate released already succeeds.
    const checkTemplate = templateNamed(PlayTemplates.checkRelease);
    const { step, env } = runtimeStepOf(checkTemplate);
    expect(step).toBe('gate-check');
    expect(checkTemplate.outputs.parameters).toEqual([{ name: 'released', valueFrom: { path: '/tmp/outputs/released' } }]);
    expect(env).toMatchObject({
      GATE: `{{inputs.parameters.${GATE_STAGE_INPUT}}}`,
      WORKFLOW_NAME: '{{workflow.name}}',
      REPOSITORY: '{{workflow.parameters.repository}}',
      TASK_ID: '{{workflow.parameters.task-id}}',
      // The gate's release ConfigMap of the earlier layout is named from the service the first step resolved.
      SERVICE: '{{workflow.outputs.parameters.service}}',
    });
    // No Argo CLI image: no other version of Argo's node status types rewrites the play.
    expect(templates.some((template) => /argocli/.test(template.container?.image ?? ''))).toBe(false);
  });

  it('enters each stage with one runtime step: its labels and history on the Workflow, then the progress record', () => {
    const { step, env } = runtimeStepOf(templateNamed(PlayTemplates.enterStage));
    expect(step).toBe('enter-stage');
    expect(env).toMatchObject({
      STAGE: '{{inputs.parameters.stage}}',
      PREVIOUS_STAGE: '{{inputs.parameters.previous-stage}}',
      AGENT: '{{inputs.parameters.agent}}',
      STATUS: '{{inputs.parameters.status}}',
      WORKFLOW_NAME: '{{workflow.name}}',
    });
    expect(templateNamed(PlayTemplates.enterStage).retryStrategy.limit).toBe('2');
  });

  it('runs each agent stage as one CodeRun per attempt: cancel the stale one, create, then wait', () => {
    for (const stage of stages.agentStages) {
      const run = templateNamed(taskNamed(stage.name).template);
      const parts = agentAttemptTemplateNames(run.name);
      expect(run.steps.map((group: any[]) => group.map((step) => step.template))).toEqual([
        [PlayTemplates.cancelCodeRuns],
        [parts.create],
        [parts.wait],
      ]);
      // {{retries}} is set in the template that carries the retryStrategy (argo-workflows operator.go, executeTemplate).
      expect(run.retryStrategy.limit).toBe(String(stage.retries));
      expect(run.steps[1][0].arguments.parameters).toEqual([{ name: CODERUN_ATTEMPT_INPUT, value: '{{retries}}' }]);
      expect(templateNamed(parts.create).resource).toMatchObject({ action: 'create', setOwnerReference: true });
      expect(templateNamed(parts.create).resource.successCondition).toBeUndefined();
      expect(templateNamed(parts.wait).resource).toMatchObject({
        action: 'get',
        successCondition: 'status.phase == Succeeded',
        failureCondition: 'status.phase == Failed',
      });
      // An evicted waiting pod is Failed, not Error: Always re-waits on the same CodeRun.
      expect(templateNamed(parts.wait).retryStrategy.retryPolicy).toBe('Always');
      expect(run.steps[0][0].arguments.parameters).toEqual([
        {
          name: CANCEL_SELECTOR_INPUT,
          value: `workflow-uid={{workflow.uid}},workflow-stage=${stage.name},github-app=${config.agents[stage.agents[0]].githubApp}`,
        },
      ]);
    }
  });

  it('gives every attempt its whole deadline: maxDuration covers all attempts, image pulls included', () => {
    for (const stage of stages.agentStages) {
      const run = templateNamed(taskNamed(stage.name).template);
      const wait = templateNamed(agentAttemptTemplateNames(run.name).wait);
      expect(wait.activeDeadlineSeconds).toBe(4 * 3600 + IMAGE_PULL_ALLOWANCE_SECONDS);
      const waitBudget = Number.parseInt(wait.retryStrategy.backoff.maxDuration, 10);
      expect(waitBudget).toBeGreaterThanOrEqual(wait.activeDeadlineSeconds);
      expect(waitBudget).toBeLessThan(wait.activeDeadlineSeconds + 600);
      const budget = Number.parseInt(run.retryStrategy.backoff.maxDuration, 10);
      expect(budget).toBeGreaterThanOrEqual((stage.retries + 1) * waitBudget + 60);
    }
  });

  it('creates CodeRuns that the CodeRun schema accepts, with a full cliConfig for the stage agent and the attempt as contextVersion', () => {
    for (const stage of stages.agentStages) {
      const create = templateNamed(agentAttemptTemplateNames(taskNamed(stage.name).template).create);
      const manifest = JSON.parse(renderArgoTags(create.resource.manifest, { ...TAG_VALUES, "inputs.parameters['attempt']": '2' }));
      const spec = CodeRunSpecSchema.parse(manifest.spec);
      const agent = config.agents[stage.agents[0]];
      expect(spec.taskId).toBe(42);
      expect(spec.contextVersion).toBe(3);
      expect(spec.githubApp).toBe(agent.githubApp);
      expect(spec.cliConfig).toMatchObject({
        cliType: agent.cli,
        model: agent.model,
        maxTokens: agent.maxTokens,
        temperature: agent.temperature,
      });
      expect(manifest.metadata.labels).toMatchObject({
        'workflow-stage': stage.name,
        'workflow-uid': TAG_VALUES['workflow.uid'],
        'task-id': '42',
        // The remediation round, on the CodeRun and in its agent's environment.
        round: '2',
      });
      expect(spec.env).toMatchObject({ ROUND: '2', TASK_ID: '42' });
    }
  });

  it('renders manifest values JSON-safely: a task id that is not a number fails the step, text stays one string', () => {
    const create = templateNamed(agentAttemptTemplateNames(taskNamed(stages.agentStages[0].name).template).create);
    const injected = { ...TAG_VALUES, "workflow.parameters['task-id']": '1, "continueSession": false' };
    expect(() => renderArgoTags(create.resource.manifest, { ...injected, "inputs.parameters['attempt']": '0' })).toThrow(
      /not a whole number/,
    );
    const quoted = { ...TAG_VALUES, "workflow.parameters['task-requirements']": 'a" , "x": "y', "inputs.parameters['attempt']": '0' };
    expect(JSON.parse(renderArgoTags(create.resource.manifest, quoted)).spec.taskRequirements).toBe('a" , "x": "y');
  });

  it('records the final status in an exit handler, then cancels the CodeRuns of a play that did not succeed', () => {
    expect(play.spec.onExit).toBe(PlayTemplates.exit);
    const handler = templateNamed(PlayTemplates.exit);
    expect(handler.steps.map((group: any[]) => group[0].template)).toEqual([PlayTemplates.recordExit, PlayTemplates.cancelCodeRuns]);
    expect(handler.steps[1][0].when).toBe("'{{workflow.status}}' != Succeeded");
    expect(handler.steps[1][0].arguments.parameters).toEqual([{ name: CANCEL_SELECTOR_INPUT, value: 'workflow-uid={{workflow.uid}}' }]);
    expect(runtimeStepOf(templateNamed(PlayTemplates.cancelCodeRuns)).step).toBe('cancel-coderuns');
    const { step, env } = runtimeStepOf(templateNamed(PlayTemplates.recordExit));
    expect(step).toBe('record-exit');
    expect(env.WORKFLOW_STATUS).toBe('{{workflow.status}}');
    // The stage comes from the play's own label, which the step reads: a labelsFrom key is no workflow variable.
    expect(JSON.stringify(play)).not.toContain('{{workflow.labels.');
  });

  it("writes its task's progress record, keeping the parameters stage conditions test", () => {
    for (const name of [PlayTemplates.enterStage, PlayTemplates.recordExit]) {
      const { env } = runtimeStepOf(templateNamed(name));
      expect(env).toMatchObject({
        REPOSITORY: '{{workflow.parameters.repository}}',
        TASK_ID: '{{workflow.parameters.task-id}}',
        ROUND: '{{workflow.parameters.round}}',
        PARAMETER_NAMES: PlayParameters.taskType,
        PARAMETER_1: '{{workflow.parameters.task-type}}',
      });
    }
  });

  it('is bounded: deadline, time to live and pod garbage collection', () => {
    expect(play.spec.activeDeadlineSeconds).toBe(7 * 86400);
    expect(play.spec.ttlStrategy).toEqual({ secondsAfterSuccess: 86400, secondsAfterFailure: 3 * 86400 });
    // Deleted at once: a delayed deletion goes by pod name and would reach the running pod of that name of a
    // play's successor (constructs/workflows/workflow-lifetime.ts).
    expect(play.spec.podGC).toEqual({ strategy: 'OnPodCompletion' });
  });
});

describe('every WorkflowTemplate', () => {
  const workflowTemplates = platform.byKind('WorkflowTemplate');

  it('references only templates it has, and never mixes depends with dependencies', () => {
    for (const template of workflowTemplates) {
      const names = new Set(template.spec.templates.map((entry: any) => entry.name));
      expect(names.has(template.spec.entrypoint)).toBe(true);
      if (template.spec.onExit) expect(names.has(template.spec.onExit)).toBe(true);
      for (const entry of template.spec.templates) {
        for (const task of entry.dag?.tasks ?? []) {
          expect(names.has(task.template), `${entry.name}/${task.name}`).toBe(true);
          expect(task.dependencies).toBeUndefined();
          for (const dependency of (task.depends ?? '').split(/[^a-zA-Z0-9-]+/).filter(Boolean)) {
            expect(
              entry.dag.tasks.some((other: any) => other.name === dependency),
              `${task.name} depends on ${dependency}`,
            ).toBe(true);
          }
        }
        for (const step of (entry.steps ?? []).flat()) expect(names.has(step.template), `${entry.name}/${step.name}`).toBe(true);
      }
    }
  });

  it("hardens Argo's init and wait containers in every script and container pod, and only there", () => {
    for (const workflowTemplate of workflowTemplates) {
      for (const template of workflowTemplate.spec.templates) {
        if (template.resource || template.steps || template.dag || template.suspend) {
          // Resource pods have no wait container: a patch naming one would add a container without an image.
          expect(template.podSpecPatch, template.name).toBeUndefined();
          continue;
        }
        const patch = JSON.parse(template.podSpecPatch);
        for (const container of [patch.initContainers[0], patch.containers[0]]) {
          expect(['init', 'wait']).toContain(container.name);
          expect(container.securityContext).toMatchObject({
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            runAsNonRoot: true,
            seccompProfile: { type: 'RuntimeDefault' },
          });
          // The controller leaves these two writable (workflowpod.go, newExecContainer).
          expect(container.securityContext.readOnlyRootFilesystem).toBeUndefined();
        }
      }
    }
  });

  it('runs hardened runtime steps with pinned images, values only through the environment', () => {
    const steps = workflowTemplates.flatMap((template) =>
      template.spec.templates.filter((entry: any) => entry.container?.command?.[0] === 'node'),
    );
    expect(steps.length).toBeGreaterThan(0);
    // No script is left on the coderun platform: the runtime program does what bash and jq did.
    expect(workflowTemplates.flatMap((template) => template.spec.templates.filter((entry: any) => entry.script))).toEqual([]);
    for (const entry of steps) {
      expect(entry.container.image).toMatch(/:[A-Za-z0-9_][A-Za-z0-9_.-]*$/);
      expect(entry.container.image).not.toMatch(/:latest$/);
      expect(entry.container.command.join(' ')).not.toContain('{{');
      expect(entry.container.securityContext).toMatchObject({
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(entry.activeDeadlineSeconds).toBeGreaterThan(0);
    }
    for (const template of workflowTemplates)
      expect(template.spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
  });

  it('retries failing runtime steps, not only Argo errors (OnError would never retry an exit code)', () => {
    for (const template of workflowTemplates) {
      for (const entry of template.spec.templates.filter((item: any) => item.container && item.retryStrategy)) {
        expect(entry.retryStrategy.retryPolicy, `${template.metadata.name}/${entry.name}`).toBe('Always');
      }
    }
  });

  it('states every retry limit, so none is unlimited by omission', () => {
    for (const template of workflowTemplates) {
      for (const entry of template.spec.templates.filter((item: any) => item.retryStrategy)) {
        expect(entry.retryStrategy.limit, entry.name).toMatch(/^\d+$/);
        expect(entry.retryStrategy.backoff.maxDuration, entry.name).toBeDefined();
      }
    }
  });
});

describe('the coderun WorkflowTemplate', () => {
  const coderun = platform.one('WorkflowTemplate', 'coderun');
  const parameters = Object.fromEntries(coderun.spec.arguments.parameters.map((parameter: any) => [parameter.name, parameter]));

  it('has the original parameters, and no CLI parameter is ever empty', () => {
    for (const name of [
      'task-id',
      'service-id',
      'repository-url',
      'docs-repository-url',
      'docs-project-directory',
      'working-directory',
      'github-app',
      'cli-type',
      'cli-model',
      'cli-max-tokens',
      'cli-temperature',
      'continue-session',
      'overwrite-memory',
      'docs-branch',
      'task-requirements',
    ]) {
      expect(parameters[name], name).toBeDefined();
    }
    for (const name of ['cli-type', 'cli-model', 'cli-max-tokens', 'cli-temperature']) expect(parameters[name].value, name).not.toBe('');
    expect(parameters['cli-type'].enum).toEqual(Object.keys(config.clis));
  });

  it('creates a CodeRun the schema accepts once Argo substitutes the defaults', () => {
    const create = coderun.spec.templates.find((entry: any) => entry.name === agentAttemptTemplateNames(coderun.spec.entrypoint).create);
    const values = Object.fromEntries(
      Object.entries(parameters).map(([name, parameter]: [string, any]) => [
        referenceExpression(`{{workflow.parameters.${name}}}`),
        parameter.value ?? '7',
      ]),
    );
    const text = renderArgoTags(create.resource.manifest, { ...values, ...TAG_VALUES, "inputs.parameters['attempt']": '0' });
    const spec = CodeRunSpecSchema.parse(JSON.parse(text).spec);
    expect(spec.cliConfig.cliType).toBe(config.agents.rex.cli);
    expect(spec.cliConfig.maxTokens).toBe(config.agents.rex.maxTokens);
  });
});

describe('workspaces', () => {
  const pvcs = platform.byKind('PersistentVolumeClaim');

  it('follow the one naming rule: shared for implementation agents, isolated for the others', () => {
    const service = config.repositories[0].service;
    const expected = stages.agents.map((agent) => workspacePvcName(service, agent, config.agents[agent].role === 'implementation'));
    expect(pvcs.map((pvc) => pvc.metadata.name).sort()).toEqual([...new Set(expected)].sort());
  });

  it('are never pruned or deleted by ArgoCD, and carry the original labels', () => {
    for (const pvc of pvcs) {
      expect(pvc.metadata.annotations).toMatchObject(ARGOCD_KEEP_ANNOTATIONS);
      expect(Object.keys(pvc.metadata.labels ?? {})).toEqual(
        expect.arrayContaining(['app', 'component', 'service', 'agent', 'workspace-type']),
      );
      expect(pvc.spec.resources.requests.storage).toBe('10Gi');
      expect(pvc.spec.accessModes).toEqual(['ReadWriteOnce']);
    }
  });
});

describe('the agents ConfigMap', () => {
  const configMap = platform.one('ConfigMap', 'controller-agents');

  it('holds agents.yaml with every agent and its binding, and one prompt per agent', () => {
    const registry = parse(configMap.data['agents.yaml']);
    expect(Object.keys(registry.agents).sort()).toEqual(Object.keys(config.agents).sort());
    expect(registry.agents.cleo).toMatchObject({ githubApp: '5DLabs-Cleo', cli: 'claude' });
    expect(registry.clis.claude.image).toBe(config.clis.claude.image);
    for (const agent of Object.values(config.agents)) {
      const prompt: string = configMap.data[systemPromptKey(agent.githubApp)];
      expect(prompt).toMatch(/^---\nname: [a-z]+\ndescription: .+\n---\n\n/);
      expect(prompt).toContain(agent.systemPrompt.trim());
    }
  });
});

describe('RBAC', () => {
  const role = platform.one('Role', 'agent-play');

  it('grants only what the templates use, with no wildcard', () => {
    for (const rule of role.rules) {
      for (const field of ['apiGroups', 'resources', 'verbs']) expect(rule[field]).not.toContain('*');
    }
    const granted = role.rules.flatMap((rule: any) =>
      rule.resources.flatMap((resource: string) => rule.verbs.map((verb: string) => `${rule.apiGroups[0]}/${resource}:${verb}`)),
    );
    expect(granted.sort()).toEqual(
      PLAY_GRANTS.flatMap((grant) => grant.verbs.map((verb) => `${grant.apiGroup}/${grant.resource}:${verb}`)).sort(),
    );
  });

  it('lets plays patch only the progress ConfigMaps, by name (a fixed set), never the agents ConfigMap', () => {
    const playRoles = platform
      .byKind('RoleBinding')
      .filter((binding) => binding.subjects.some((subject: any) => subject.name === 'agent-play'))
      .map((binding) => binding.roleRef.name);
    const patchable = platform
      .byKind('Role')
      .filter((candidate) => playRoles.includes(candidate.metadata.name))
      .flatMap((candidate) =>
        candidate.rules
          .filter((rule: any) => rule.resources.includes('configmaps') && rule.verbs.includes('patch'))
          .map((rule: any) => ({ role: candidate.metadata.name, rule })),
      );
    expect(patchable).toEqual([{ role: 'agent-play', rule: expect.objectContaining({ verbs: ['patch'] }) }]);
    const names = patchable[0].rule.resourceNames;
    expect(names).toHaveLength(PROGRESS_SHARDS);
    expect(names).toEqual(progressShardNames());
    expect(names).toContain(progressConfigMapOf(config.repositories[0].name, 42));
    expect(names).not.toContain('controller-agents');
  });

  it('binds the role to the account the templates run as', () => {
    const binding = platform.one('RoleBinding', 'agent-play');
    expect(binding.roleRef).toMatchObject({ kind: 'Role', name: role.metadata.name });
    expect(binding.subjects).toEqual([expect.objectContaining({ kind: 'ServiceAccount', name: 'agent-play' })]);
    for (const name of ['play', 'coderun']) expect(platform.one('WorkflowTemplate', name).spec.serviceAccountName).toBe('agent-play');
    expect(platform.one('ServiceAccount', 'agent-play').automountServiceAccountToken).toBe(true);
  });
});

describe('the CodeRun CRD', () => {
  const crd: K8sObject = platform.one('CustomResourceDefinition', 'coderuns.agents.platform');

  it('is never pruned or deleted by ArgoCD: that would delete every CodeRun', () => {
    expect(crd.metadata.annotations).toEqual(ARGOCD_KEEP_ANNOTATIONS);
  });

  it('is generated from the schema that types our CodeRuns', () => {
    const version = crd.spec.versions[0];
    expect(crd.spec.group).toBe('agents.platform');
    expect(version.name).toBe('v1');
    expect(version.subresources).toEqual({ status: {} });
    const specSchema = version.schema.openAPIV3Schema.properties.spec;
    expect(Object.keys(specSchema.properties).sort()).toEqual(Object.keys(CodeRunSpecSchema.shape).sort());
    expect(specSchema.properties.cliConfig.required).toEqual(['cliType', 'model']);
    expect(specSchema.properties.taskId.type).toBe('integer');
  });

  it('is structural: no additionalProperties beside properties', () => {
    const walk = (node: any, path: string): void => {
      if (node === null || typeof node !== 'object') return;
      if (node.properties) expect(node.additionalProperties, path).toBeUndefined();
      for (const [key, value] of Object.entries(node)) walk(value, `${path}.${key}`);
    };
    walk(crd.spec.versions[0].schema.openAPIV3Schema, 'openAPIV3Schema');
  });
});
