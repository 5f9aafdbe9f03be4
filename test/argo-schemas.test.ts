import { describe, expect, it } from 'vitest';
import { CodeRunSpecSchema } from '../constructs/model/coderun-schema';
import { compileCrd, validateEventsObject, validateWorkflowsObject } from './support/schema-validators';
import { synth, type K8sObject } from './support/synth';

const platforms = {
  'the default platform': synth(),
  'the workflow-name strategy': synth({ file: { events: { resume: 'workflow-name' } }, env: {} }),
};

describe.each(Object.entries(platforms))('%s', (_name, platform) => {
  it('has WorkflowTemplates that the upstream CRD accepts with unknown fields rejected', () => {
    const templates = platform.byKind('WorkflowTemplate');
    expect(templates.length).toBeGreaterThan(0);
    for (const template of templates) expect(validateWorkflowsObject(template), template.metadata.name).toEqual([]);
  });

  it('has Sensors and an EventSource that the Argo Events schema accepts', () => {
    const events = [...platform.byKind('Sensor'), ...platform.byKind('EventSource')];
    expect(events.length).toBeGreaterThan(1);
    for (const object of events) expect(validateEventsObject(object), `${object.kind}/${object.metadata.name}`).toEqual([]);
  });
});

describe('the validators', () => {
  const play = platforms['the default platform'].one('WorkflowTemplate', 'play-play-test');

  function withTemplate(change: (template: any) => void): K8sObject {
    const copy = structuredClone(play);
    change(copy.spec.templates[0]);
    return copy;
  }

  it('reject an unknown field, a bad template name, a non-string parameter value and mixed template types', () => {
    expect(validateWorkflowsObject(withTemplate((template) => (template.colour = 'red')))).toContain('/spec/templates/0: must NOT have additional properties (colour)');
    expect(validateWorkflowsObject(withTemplate((template) => (template.name = 'x'.repeat(129)))).join('\n')).toMatch(/templates\/0\/name/);
    const numeric = structuredClone(play);
    numeric.spec.arguments.parameters[1].value = 5;
    expect(validateWorkflowsObject(numeric).join('\n')).toMatch(/arguments\/parameters\/1\/value: must be string/);
    expect(validateWorkflowsObject(withTemplate((template) => (template.suspend = {})))).toContain('/spec/templates/0: template must have at most one template type (has dag, suspend)');
  });

  it('reject depends mixed with dependencies', () => {
    const mixed = withTemplate((template) => (template.dag.tasks[1].dependencies = ['enter-implementation']));
    expect(validateWorkflowsObject(mixed)).toContain("/spec/templates/0/dag/tasks/1: cannot use both 'depends' and 'dependencies'");
  });

  it('reject an unknown field in a Sensor trigger', () => {
    const sensor = structuredClone(platforms['the default platform'].byKind('Sensor')[0]);
    sensor.spec.triggers[0].template.k8s.colour = 'red';
    expect(validateEventsObject(sensor).join('\n')).toMatch(/must NOT have additional properties \(colour\)/);
  });
});

describe('the CodeRun CRD', () => {
  const crd = platforms['the default platform'].one('CustomResourceDefinition', 'coderuns.agents.platform');
  const validate = compileCrd(crd);
  const play = platforms['the default platform'].one('WorkflowTemplate', 'play-play-test');

  it('accepts every CodeRun the play creates, once Argo substitutes its references', () => {
    const manifests = play.spec.templates.filter((template: any) => template.resource?.action === 'create').map((template: any) => template.resource.manifest as string);
    expect(manifests.length).toBeGreaterThan(0);
    for (const manifest of manifests) {
      const coderun = JSON.parse(manifest.replace(/\{\{[^}]+\}\}/g, (reference: string) => (reference.includes('task-id') ? '5' : 'x')));
      expect(validate(coderun), JSON.stringify(validate.errors)).toBe(true);
      expect(CodeRunSpecSchema.safeParse(coderun.spec).success).toBe(true);
    }
  });

  it('rejects an unknown spec field and an empty cliConfig', () => {
    const base = { apiVersion: 'agents.platform/v1', kind: 'CodeRun', metadata: { name: 'x' } };
    const spec = { taskId: 5, service: 's', repositoryUrl: 'o/r', docsRepositoryUrl: 'o/r', model: 'm', githubApp: 'A', cliConfig: { cliType: 'claude', model: 'm' } };
    expect(validate({ ...base, spec })).toBe(true);
    expect(validate({ ...base, spec: { ...spec, colour: 'red' } })).toBe(false);
    expect(validate({ ...base, spec: { ...spec, cliConfig: {} } })).toBe(false);
    expect(validate({ ...base, spec: { ...spec, cliConfig: { cliType: '', model: 'm' } } })).toBe(false);
  });
});
