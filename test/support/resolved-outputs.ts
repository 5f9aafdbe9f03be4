/**
 * What a play's first step (`resolve-repository`) gives the later steps for one repository, computed by
 * running the step itself against the synthesized registry ConfigMaps in the in-memory API server: the
 * values Argo fills into `{{workflow.outputs.parameters.X}}`.
 */
import { RESOLVE_TEMPLATE } from '../../constructs/registry/resolve-template';
import { resolveRepositoryStep } from '../../constructs/registry/resolve-repository-step';
import { ApiResources, type KubeObject } from '../../constructs/runtime/kube-api';
import { MemoryApiServer } from '../../src/simulate/memory-api';
import { renderArgoTags } from './argo-tags';

/**
 * The global outputs of a play of `repository` run from `playTemplate` (its resolve step's environment names
 * the agents), keyed `workflow.outputs.parameters.NAME`.
 */
export async function resolvedOutputs(
  objects: readonly KubeObject[],
  repository: string,
  options: { playTemplate?: string; namespace?: string } = {},
): Promise<Record<string, string>> {
  const playTemplate = options.playTemplate ?? 'play';
  const template = objects.find((object) => object.kind === 'WorkflowTemplate' && object.metadata.name === playTemplate) as any;
  const namespace = options.namespace ?? template?.metadata.namespace ?? 'agents';
  const resolve = template?.spec.templates.find((entry: any) => entry.name === RESOLVE_TEMPLATE);
  const agents = resolve?.container.env.find((variable: any) => variable.name === 'AGENTS')?.value;
  if (typeof agents !== 'string') throw new Error(`WorkflowTemplate ${playTemplate} has no ${RESOLVE_TEMPLATE} step naming its agents`);
  const server = new MemoryApiServer(() => new Date('2026-01-01T00:00:00Z'));
  for (const object of objects) if (object.kind === 'ConfigMap') server.put(ApiResources.configMaps, object);
  server.put(ApiResources.workflows, { apiVersion: 'argoproj.io/v1alpha1', kind: 'Workflow', metadata: { name: 'play-x', namespace } });
  const outputs = await resolveRepositoryStep.run(
    { api: server.client(), now: () => new Date(), sleep: async () => {}, log: () => {} },
    {
      namespace,
      workflowName: 'play-x',
      repository,
      task: 42,
      startStage: 'implementation',
      round: 2,
      playTemplate,
      agents: agents.split(' '),
    },
  );
  return Object.fromEntries(Object.entries(outputs).map(([name, value]) => [`workflow.outputs.parameters.${name}`, value]));
}

/** A play's values besides its resolved outputs: task 42, round 2, its attempt 0. */
export const PLAY_TAG_VALUES: Readonly<Record<string, string>> = {
  'workflow.parameters.task-id': '42',
  'workflow.parameters.task-requirements': '',
  'workflow.parameters.round': '2',
  'workflow.name': 'play-payments-task-42',
  'workflow.uid': '6b1f0c1e-2b5a-4c55-9d3e-0f4a3e0c9d11',
  'inputs.parameters.attempt': '0',
};

/**
 * The CodeRun a play of `repository` creates from one of its resource templates' manifest, as Argo renders
 * it: the resolve step run against the synthesized registry, then the tags filled in.
 */
export async function renderedCodeRun(
  objects: readonly KubeObject[],
  manifest: string,
  repository: string,
  playTemplate = 'play',
): Promise<Record<string, any>> {
  const outputs = await resolvedOutputs(objects, repository, { playTemplate });
  return JSON.parse(renderArgoTags(manifest, { ...PLAY_TAG_VALUES, ...outputs }));
}
