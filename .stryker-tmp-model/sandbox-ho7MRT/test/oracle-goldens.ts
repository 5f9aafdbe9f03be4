/**
 * The committed answers of Argo's own code (test/golden/oracle/, written by `npm run oracle`): their shapes,
 * as the Go programs of oracle/ write them (oracle/shared/protocol.go), and how they are stored: each
 * group's and each Sensor run's answer beside the hash of its input, so that a test can say which answer is
 * stale.
 */
// @ts-nocheck

import { groupHash, type InputGroup, runHash, type SensorRunInput } from './oracle-inputs';

/** What Pod Security admission says of one pod a controller creates, at `restricted`. */
export interface GoPod {
  /** The template's name (Argo Workflows), or `deployment` (a Sensor's or EventSource's). */
  readonly name: string;
  readonly forbidden: readonly string[];
  readonly error?: string;
}

/** Argo's verdict on one object (oracle/shared/protocol.go, ObjectAnswer). */
export interface GoObject {
  readonly group?: string;
  readonly file: string;
  readonly document: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly yaml?: string;
  readonly unknownFields?: readonly string[];
  readonly decode?: string;
  readonly metadata?: readonly string[];
  readonly schema?: readonly string[];
  readonly validate?: string;
  readonly create?: string;
  readonly pods?: readonly GoPod[];
}

export interface GoFiring {
  readonly dependencies: readonly string[];
  readonly resource?: Record<string, unknown>;
  readonly error?: string;
}

/** What one delivery did in a Sensor. */
export interface GoEvent {
  readonly dependencies: readonly { readonly name: string; readonly listens: boolean; readonly passed: boolean; readonly error?: string }[];
  readonly triggers: readonly { readonly name: string; readonly firings: readonly GoFiring[] }[];
}

export interface GoRun {
  readonly id: string;
  readonly error?: string;
  readonly events: readonly GoEvent[];
}

/** One program's answer file. */
export interface GoAnswer {
  readonly generatedWith: string;
  readonly objects: readonly GoObject[];
  readonly sensorRuns: readonly GoRun[];
}

/** A group's answer as kept: the hash of its input and Argo's verdict on each object. */
export interface GroupAnswer {
  readonly sha256: string;
  readonly objects: readonly GoObject[];
}

export interface GroupsGolden {
  readonly generatedWith: { readonly events: string; readonly workflows: string };
  readonly groups: Readonly<Record<string, GroupAnswer>>;
}

export interface RunAnswer {
  readonly sha256: string;
  readonly error?: string;
  readonly events: readonly GoEvent[];
}

export interface RunsGolden {
  readonly generatedWith: string;
  readonly runs: Readonly<Record<string, RunAnswer>>;
}

export { GOLDEN_FILES, readGolden } from './oracle-golden-files';

/** A golden's text: indented as the Go goldens are, with a final line break. */
export const goldenText = (value: unknown): string => `${JSON.stringify(value, null, 1)}\n`;

/** Each group's objects (by file, then document) beside its input's hash. */
export function groupGoldens(
  generatedWith: GroupsGolden['generatedWith'],
  inputs: readonly InputGroup[],
  objects: readonly GoObject[],
): GroupsGolden {
  const byGroup = new Map<string, GoObject[]>();
  for (const { group, ...object } of objects) {
    if (group === undefined) continue;
    byGroup.set(group, [...(byGroup.get(group) ?? []), object]);
  }
  const fileOrder = (input: InputGroup) => new Map(input.files.map((file, index) => [file.name, index]));
  const groups = Object.fromEntries(
    [...inputs]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((input) => {
        const order = fileOrder(input);
        const sorted = [...(byGroup.get(input.id) ?? [])].sort(
          (a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.document - b.document,
        );
        return [input.id, { sha256: groupHash(input), objects: sorted }];
      }),
  );
  return { generatedWith, groups };
}

/** Each Sensor run's answer beside its input's hash. */
export function runGoldens(generatedWith: string, inputs: readonly SensorRunInput[], answers: readonly GoRun[]): RunsGolden {
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  const runs = Object.fromEntries(
    [...inputs]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((input) => {
        const answer = byId.get(input.id);
        if (!answer) throw new Error(`oracle-events gave no answer for the Sensor run ${input.id}`);
        return [input.id, { sha256: runHash(input), ...(answer.error ? { error: answer.error } : {}), events: answer.events }];
      }),
  );
  return { generatedWith, runs };
}
