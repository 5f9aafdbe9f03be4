/**
 * A gate's Sensor writes the resumer's parameters by index (Argo Events sets trigger parameters with sjson,
 * which has no query by name); the index comes from the resumer's declared list, by name, in
 * constructs/model/resumer-contract.ts. These tests check that every value lands in the parameter named for
 * it, in the Workflow the Sensor creates and in the list the resumer WorkflowTemplate declares.
 */
// @ts-nocheck

import { describe, expect, it } from 'vitest';
import { RESUMER_PARAMETERS, RESUMER_TEMPLATE_NAME, resumerArguments, resumerParameterDest } from '../constructs/resumer/resumer-contract';
import { sjsonSet } from '../src/simulate/engine/sjson';
import { githubEventData, runSensor } from '../src/simulate/sensor-runner';
import { pullRequestEvent } from './support/github-payloads';
import { synth } from './support/synth';

describe('resumerParameterDest', () => {
  it.each([...RESUMER_PARAMETERS])('writes %s into the parameter of that name and no other', (name) => {
    const workflow = { spec: { arguments: { parameters: resumerArguments({}) } } };
    const written = sjsonSet(workflow, resumerParameterDest(name), 'marked') as typeof workflow;
    for (const parameter of written.spec.arguments.parameters)
      expect(parameter.value, parameter.name).toBe(parameter.name === name ? 'marked' : '');
  });
});

describe('a gate Sensor and the resumer', () => {
  it.each(['label-selector', 'workflow-name'] as const)('agree on every parameter by name (%s)', (strategy) => {
    const platform = synth({
      file: { repositories: [{ name: 'octo-org/web', service: 'frontend' }], events: { resume: strategy } },
      env: {},
    });
    const resumer = platform.one('WorkflowTemplate', RESUMER_TEMPLATE_NAME);
    const declared = resumer.spec.arguments.parameters.map((parameter: { name: string }) => parameter.name);
    expect(declared).toEqual([...RESUMER_PARAMETERS]);

    const sensor = platform.one('Sensor', 'gate-waiting-pr-created');
    const data = githubEventData(
      'pull_request',
      pullRequestEvent('opened', { repository: 'octo-org/web', number: 41, labels: ['task-12'] }),
      'd',
    );
    const run = runSensor(sensor, data, { name: 'github', eventName: 'play' });
    expect(run.fired).toHaveLength(1);
    const parameters = run.fired[0].resource.spec.arguments.parameters as Array<{ name: string; value: string }>;
    expect(parameters.map((parameter) => parameter.name)).toEqual(declared);
    const args = Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.value]));
    expect(args).toEqual({
      gate: 'waiting-pr-created',
      repository: 'octo-org/web',
      'task-id': '12',
      'pr-url': expect.stringMatching(/\/pull\/41$/),
      'pr-number': '41',
      // The resumer's step checks it against the repository's branch in the registry.
      'base-branch': 'main',
    });
  });
});
