/**
 * What a gate's Sensor and the resumer WorkflowTemplate agree on: the template's name, its parameters, and
 * where in the Workflow a Sensor writes each one. The Sensor, the resumer, the validator and the simulator
 * take them from here.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


/** The resumer WorkflowTemplate. */
export const RESUMER_TEMPLATE_NAME = 'play-resumer';

/** The resumer parameter that names the gate to release. */
export const RESUMER_GATE_PARAMETER = 'gate';

/**
 * The resumer's parameters, in the order the resumer declares them and a Sensor's Workflow lists them. The
 * runtime step finds everything else (the repository's registry entry, its label value, where the task's
 * record is, the play's name under the `workflow-name` strategy) from `repository` and `task-id`;
 * `base-branch` is the branch the pull request merges into, which must be the repository's.
 */
export const RESUMER_PARAMETERS = [RESUMER_GATE_PARAMETER, 'repository', 'task-id', 'pr-url', 'pr-number', 'base-branch'] as const;
/** One of `RESUMER_PARAMETERS`: the name a Sensor writes a value to. */
export type ResumerParameter = (typeof RESUMER_PARAMETERS)[number];

/** The Workflow label value that marks resumer runs (they are not plays). */
export const RESUMER_WORKFLOW_TYPE = 'resumer';

/** The templates inside the resumer WorkflowTemplate. */
export const ResumerTemplates = {
  main: 'resume',
  /** The runtime step `resume-gate`: record the release, release the gate of the play that waits there. */
  resumeGate: 'resume-gate',
} as const;

/**
 * Where a Sensor trigger writes resumer parameter `name` in the Workflow it creates. Argo Events sets a
 * trigger parameter with sjson (argo-events `pkg/sensors/triggers/params.go`, `sjson.SetBytes` at
 * `parameter.Dest`), and sjson paths have no query by name, only indexes: the index is derived here, from the
 * declared list, by name, so the Sensor and the resumer cannot disagree on it.
 */
export function resumerParameterDest(name: ResumerParameter): string {
  return `spec.arguments.parameters.${RESUMER_PARAMETERS.indexOf(name)}.value`;
}

/** The arguments of a resumer Workflow, in declared order: the given values, empty where none is given. */
export function resumerArguments(values: Partial<Record<ResumerParameter, string>>): Array<{ name: ResumerParameter; value: string }> {
  return RESUMER_PARAMETERS.map((name) => ({ name, value: values[name] ?? '' }));
}
