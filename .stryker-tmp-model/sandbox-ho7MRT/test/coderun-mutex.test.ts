/**
 * The standalone `coderun` WorkflowTemplate and the play's agent stages take the same workspace mutex (issue
 * 22, the CodeRun question): Argo mutexes are named per namespace (`{namespace}/Mutex/{name}`), and both name
 * theirs after the workspace claim, so a standalone run and a play's stage on one claim take turns instead of
 * writing the ReadWriteOnce workspace at once.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { synth } from './support/synth';

const platform = synth();
const coderun = platform.one('WorkflowTemplate', 'coderun');
const play = platform.one('WorkflowTemplate', 'play');
const registry = platform.byKind('ConfigMap').find((object) => object.metadata.name.startsWith('play-repositories'));

const templateOf = (holder: typeof play, name: string) => holder.spec.templates.find((template: any) => template.name === name);
const parameterOf = (name: string) => coderun.spec.arguments.parameters.find((parameter: any) => parameter.name === name);

describe('the workspace mutex', () => {
  it('is held by the standalone run for its whole run, named after its workspace claim', () => {
    const entry = templateOf(coderun, coderun.spec.entrypoint);
    expect(entry.synchronization.mutexes).toEqual([{ name: '{{workflow.parameters.workspace-claim}}' }]);
  });

  it("is by default the claim the play's implementation agent locks, as the registry names it for the play", () => {
    const entry = JSON.parse(Object.values(registry?.data ?? {})[0] as string);
    const mutex = templateOf(play, 'run-implementation').synchronization.mutexes[0].name;
    // The play resolves its claims from the registry in its first step: claim-rex is the registry's claim of rex.
    expect(mutex).toBe('{{workflow.outputs.parameters.claim-rex}}');
    expect(parameterOf('workspace-claim').value).toBe(entry.agents.rex.claim);
    expect(parameterOf('github-app').value).toBe('5DLabs-Rex');
  });
});
