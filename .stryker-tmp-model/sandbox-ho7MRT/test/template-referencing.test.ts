/**
 * The platform runs under the workflow controller's `workflowRestrictions.templateReferencing: Strict`, which
 * docs/limits.md and docs/events.md recommend in place of `Secure` (issue 22, item 3): every Workflow it
 * creates (a play, a successor, a resumer or remediator from a Sensor, a project chunk) references its
 * WorkflowTemplate and sets only the spec fields Argo allows a user to set then. Argo Workflows v4.1.2 fails
 * any other (`workflow/util/merge.go`, `allowedUserOverrideFields` and `ValidateUserOverrides`, run by
 * `setExecWorkflow` in `workflow/controller/operator.go`).
 */
// @ts-nocheck

import { resolve } from 'node:path';
import type { App } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { playWorkflow } from '../constructs/model/play-workflow';
import type { KubeObject } from '../constructs/runtime/kube-api';
import { successorOf } from '../constructs/remediation/successor';
import { synthesizeApp } from '../src/synth/synthesize';
import { parseManifests, synth, type K8sObject } from './support/synth';

/** `allowedUserOverrideFields` of argo-workflows v4.1.2 `workflow/util/merge.go`, by their JSON names. */
const ALLOWED = new Set([
  'arguments',
  'entrypoint',
  'shutdown',
  'suspend',
  'activeDeadlineSeconds',
  'priority',
  'ttlStrategy',
  'podGC',
  'volumeClaimGC',
  'archiveLogs',
  'workflowMetadata',
  'workflowTemplateRef',
  'metrics',
  'artifactGC',
]);

/** Why Argo would fail a Workflow under Strict, or nothing. */
function strictProblems(spec: Record<string, unknown>): string[] {
  const problems = Object.keys(spec)
    .filter((field) => !ALLOWED.has(field))
    .map((field) => `${field} is not allowed`);
  if (spec.workflowTemplateRef === undefined) problems.push('no workflowTemplateRef');
  return problems;
}

/** The Workflows the Sensors' triggers create, by trigger. */
function triggerWorkflows(objects: readonly K8sObject[]): { where: string; spec: Record<string, unknown> }[] {
  return objects
    .filter((object) => object.kind === 'Sensor')
    .flatMap((sensor) =>
      sensor.spec.triggers.map((trigger: any) => {
        const template = trigger.template.argoWorkflow ?? trigger.template.k8s;
        return { where: `${sensor.metadata.name}/${trigger.template.name}`, spec: template.source.resource.spec };
      }),
    );
}

describe('under templateReferencing: Strict', () => {
  it("the Sensors' Workflows reference their template and set nothing else but arguments", () => {
    const found = triggerWorkflows(synth().objects);
    expect(found.length).toBeGreaterThan(3);
    for (const { where, spec } of found) expect(strictProblems(spec), where).toEqual([]);
  });

  it('a play, as the command line and a project start it, and its successor pass', () => {
    const play = playWorkflow({
      service: 'web',
      template: 'play',
      namespace: 'agents',
      task: '7',
      repository: 'octo/web',
      stage: 'implementation',
      parameters: [{ name: 'task-type', value: 'backend' }],
    }) as unknown as KubeObject;
    expect(strictProblems(play.spec as Record<string, unknown>)).toEqual([]);
    const successor = successorOf(play, { startStage: 'implementation', round: 2, resumedFrom: 'x', reason: 'y', eventId: 'z' });
    expect(strictProblems(successor.spec as Record<string, unknown>)).toEqual([]);
  });

  it("a project's chunk Workflows pass", async () => {
    const app = ((await import(resolve(__dirname, '..', 'examples', 'project.ts'))) as { buildApp: () => App }).buildApp();
    const chunks = parseManifests(synthesizeApp(app))
      .filter((object) => object.kind === 'WorkflowTemplate')
      .flatMap((wt) => wt.spec.templates.filter((template: any) => template.resource?.action === 'create'))
      // The CodeRun manifests hold unquoted expressions; the chunk manifests are plain JSON.
      .filter((template: any) => /"kind": "Workflow"/.test(template.resource.manifest))
      .map((template: any) => JSON.parse(template.resource.manifest));
    expect(chunks.length).toBeGreaterThan(0);
    for (const chunk of chunks) expect(strictProblems(chunk.spec)).toEqual([]);
  });

  it('positive control: a Workflow that names its own service account, or embeds templates, fails', () => {
    expect(strictProblems({ workflowTemplateRef: { name: 'play' }, serviceAccountName: 'admin' })).toEqual([
      'serviceAccountName is not allowed',
    ]);
    expect(strictProblems({ templates: [] })).toEqual(['templates is not allowed', 'no workflowTemplateRef']);
  });
});
