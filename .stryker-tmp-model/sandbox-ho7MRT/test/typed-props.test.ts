/**
 * Props take what a cdk8s user has at hand: a `Duration` where a duration goes, a `Size` for a workspace, an
 * `IServiceAccount` where a service account goes. Each gives the same object as the text the config path
 * writes, converted once.
 */
// @ts-nocheck

import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import {
  CodeRunWorkflowTemplate,
  PlayRbac,
  PlayWorkflowTemplate,
  resolveConfig,
  StageMachine,
  StageMachineBuilder,
  WorkspacePvc,
} from '../constructs';

const config = resolveConfig({ env: {}, file: {} });

function synth(build: (chart: Chart) => void): unknown[] {
  const chart = new Chart(new App(), 'typed', { namespace: 'agents' });
  build(chart);
  return Testing.synth(chart);
}

function play(chart: Chart, extra: Record<string, unknown>): void {
  new PlayWorkflowTemplate(chart, 'play', {
    stages: StageMachine.fromConfig(config),
    agents: config.agents,
    clis: config.clis,
    serviceAccountName: 'agent-play',
    runtimeImage: config.images.runtime,
    ...extra,
  });
}

describe('durations', () => {
  it('a Duration gives the same play as the text the config writes', () => {
    const text = synth((chart) => play(chart, { deadline: '2d', keepSucceeded: '12h', keepFailed: '90m' }));
    const typed = synth((chart) =>
      play(chart, { deadline: Duration.days(2), keepSucceeded: Duration.hours(12), keepFailed: Duration.minutes(90) }),
    );
    expect(typed).toEqual(text);
    const spec = (typed[0] as any).spec;
    expect(spec.activeDeadlineSeconds).toBe(2 * 86400);
    expect(spec.ttlStrategy).toEqual({ secondsAfterSuccess: 12 * 3600, secondsAfterFailure: 90 * 60 });
  });

  it('a CodeRun timeout as a Duration bounds the attempt in seconds', () => {
    const build = (timeout: Duration | string) =>
      synth((chart) => {
        new CodeRunWorkflowTemplate(chart, 'coderun', {
          defaultAgent: config.agents.rex,
          defaultAgentName: 'rex',
          defaultRepository: config.repositories[0],
          cliNames: Object.keys(config.clis),
          githubApps: Object.values(config.agents).map((agent) => agent.githubApp),
          serviceAccountName: 'agent-play',
          runtimeImage: config.images.runtime,
          timeout,
        });
      });
    expect(build(Duration.hours(2))).toEqual(build('2h'));
    expect(build(Duration.hours(2))).not.toEqual(build('4h'));
  });
});

describe('sizes', () => {
  it('a Size requests the same storage as its text', () => {
    const claim = (size: Size | string) =>
      synth((chart) => new WorkspacePvc(chart, 'pvc', { service: 'web', agent: 'cleo', shared: false, size }))[0] as any;
    expect(claim(Size.gibibytes(20))).toEqual(claim('20Gi'));
    expect(claim(Size.gibibytes(20)).spec.resources.requests.storage).toBe('20Gi');
  });
});

describe('service accounts', () => {
  it('an IServiceAccount names the account the pods run as', () => {
    const objects = synth((chart) => {
      const rbac = new PlayRbac(chart, 'rbac', { serviceAccountName: 'plays' });
      play(chart, { serviceAccountName: rbac.serviceAccount });
    });
    const template = objects.find((object: any) => object.kind === 'WorkflowTemplate') as any;
    expect(template.spec.serviceAccountName).toBe('plays');
  });
});

describe('stage timeouts', () => {
  it('a Duration in StageMachineBuilder is the stage timeout its text would be', () => {
    const agents = Object.keys(config.agents);
    const build = (timeout: Duration | string) =>
      new StageMachineBuilder({ agents }).agent('build', 'rex', { timeout }).end().build().stages;
    expect(build(Duration.minutes(150))).toEqual(build('150m'));
    expect(build(Duration.hours(2))[0]).toMatchObject({ timeout: '2h' });
  });
});
