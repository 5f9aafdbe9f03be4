/**
 * Table-driven cases for the lint rules: each case is a broken run of objects that must fail one rule, with
 * the message that says why, and the same run fixed, which must pass that rule. The rule is called directly
 * (not through the engine) so a mutant in it is caught in milliseconds.
 */
// @ts-nocheck

import type { LintRule, ManifestObject, Violation } from '../../src/validate/finding';

export type Json = Record<string, any>;

export interface RuleCase {
  /** What the case breaks: one branch of the rule. */
  readonly name: string;
  /** The object checked first, then the rest of the run. */
  readonly broken: readonly ManifestObject[];
  readonly fixed: readonly ManifestObject[];
  /** Text the violation's message contains. */
  readonly message: string;
  /** The field path of the violation, when the case pins it. */
  readonly path?: string;
}

export interface RuleTable {
  readonly rule: LintRule;
  readonly cases: readonly RuleCase[];
}

export function manifest(kind: string, name: string, spec: Json, metadata: Json = {}): ManifestObject {
  const object = { apiVersion: 'argoproj.io/v1alpha1', kind, metadata: { name, ...metadata }, spec };
  return { file: 'case.yaml', index: 0, object, kind, name, namespace: metadata.namespace };
}

export const run = (rule: LintRule, objects: readonly ManifestObject[]): Violation[] => rule.check(objects[0], { objects });

/** A WorkflowTemplate whose spec is `spec` changed by `change` (on a copy). */
export function variant(
  kind: string,
  name: string,
  base: Json,
  change: (spec: any) => void = () => {},
  metadata: Json = {},
): ManifestObject {
  const spec = structuredClone(base);
  change(spec);
  return manifest(kind, name, spec, metadata);
}

/** A DAG template `main` with tasks a -> b calling `work`, a container template. */
export const BASE_WORKFLOW: Json = {
  entrypoint: 'main',
  templates: [
    {
      name: 'main',
      dag: {
        tasks: [
          { name: 'a', template: 'work' },
          { name: 'b', template: 'work', depends: 'a' },
        ],
      },
    },
    { name: 'work', container: { image: 'alpine:3.23' } },
  ],
};

export const workflowTemplate = (change?: (spec: any) => void, metadata: Json = {}): ManifestObject =>
  variant('WorkflowTemplate', 'play', BASE_WORKFLOW, change, metadata);
export const workflow = (change?: (spec: any) => void, metadata: Json = {}): ManifestObject =>
  variant('Workflow', 'run', BASE_WORKFLOW, change, metadata);

/** A Sensor in namespace `argo` on the default bus, one dependency on EventSource `github` event `org`. */
export const BASE_SENSOR: Json = {
  dependencies: [
    {
      name: 'pr',
      eventSourceName: 'github',
      eventName: 'org',
      filters: { data: [{ path: 'body.action', type: 'string', value: ['^opened$'] }] },
    },
  ],
  triggers: [
    {
      template: {
        name: 'resume',
        argoWorkflow: { operation: 'resume', source: { resource: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Workflow' } }, args: [] },
      },
    },
  ],
};

export const sensor = (change?: (spec: any) => void, metadata: Json = { namespace: 'argo' }): ManifestObject =>
  variant('Sensor', 'gate', BASE_SENSOR, change, metadata);
export const eventSource = (change?: (spec: any) => void, metadata: Json = { namespace: 'argo' }): ManifestObject =>
  variant('EventSource', 'github', { github: { org: { webhook: { port: '12000' } } } }, change, metadata);
export const eventBus = (name = 'default', metadata: Json = { namespace: 'argo' }): ManifestObject =>
  manifest('EventBus', name, { jetstream: { version: 'latest' } }, metadata);

/** One case whose broken and fixed runs differ only in what `breakIt` and `fixIt` do to a base object. */
export function pair(
  name: string,
  message: string,
  build: (change: (spec: any) => void) => ManifestObject,
  breakIt: (spec: any) => void,
  fixIt: (spec: any) => void,
  path?: string,
): RuleCase {
  return { name, message, broken: [build(breakIt)], fixed: [build(fixIt)], path };
}
