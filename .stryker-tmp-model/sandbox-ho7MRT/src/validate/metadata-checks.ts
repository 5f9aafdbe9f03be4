/**
 * What the API server checks of every object's metadata, whatever its kind: the name's rule for that kind,
 * label keys and values, annotation keys. Written against the naming rules of `constructs/model/naming.ts`,
 * the ones every name agent-play emits goes through.
 */
// @ts-nocheck

import { isDnsLabel, isDnsSubdomain, isLabelKey, isLabelValue, MAX_LABEL_VALUE_LENGTH } from '../../constructs/model/naming';
import { fieldPath, type ManifestObject, type Violation } from './finding';
import { isRecord } from '../is-record';
import { GENERATE_NAME_PREFIX_LIMIT } from '../../constructs/model/naming';

export const METADATA_RULES = {
  name: 'metadata-name',
  labels: 'metadata-labels',
  annotations: 'metadata-annotations',
} as const;

type NameRule = { readonly describe: string; readonly holds: (name: string) => boolean };

const dnsLabel = (maxLength: number): NameRule => ({
  describe: `a DNS-1123 label of at most ${maxLength} characters (lower-case alphanumerics and '-', starting and ending alphanumeric)`,
  holds: (name) => isDnsLabel(name, maxLength),
});
const DNS_SUBDOMAIN: NameRule = {
  describe: "a DNS-1123 subdomain of at most 253 characters (lower-case alphanumerics, '-' and '.', starting and ending alphanumeric)",
  holds: isDnsSubdomain,
};
/** RBAC objects only need a name that can be a URL path segment. */
const PATH_SEGMENT: NameRule = {
  describe: "a path segment (not '.' or '..', without '/' or '%')",
  holds: (name) => name !== '.' && name !== '..' && !/[/%]/.test(name),
};

/**
 * The name rule of each kind that has its own. Argo uses a Workflow's name as a label value, so the Argo
 * Workflows kinds take DNS labels; a CronWorkflow's name gets an 11-character suffix for each run.
 */
const NAME_RULES: Readonly<Record<string, NameRule>> = {
  Namespace: dnsLabel(63),
  Service: dnsLabel(63),
  Workflow: dnsLabel(63),
  WorkflowTemplate: dnsLabel(63),
  ClusterWorkflowTemplate: dnsLabel(63),
  CronWorkflow: dnsLabel(52),
  Role: PATH_SEGMENT,
  RoleBinding: PATH_SEGMENT,
  ClusterRole: PATH_SEGMENT,
  ClusterRoleBinding: PATH_SEGMENT,
};

/** A name the API server could generate from `prefix` (GENERATE_NAME_PREFIX_LIMIT characters of it, and 5 random ones). */
const generatedName = (prefix: string): string => `${prefix.slice(0, GENERATE_NAME_PREFIX_LIMIT)}x1y2z`;

/** Problems of `metadata.name` / `metadata.generateName`, each with its rule id. */
function nameViolations(target: ManifestObject): Violation[] {
  const metadata = isRecord(target.object.metadata) ? target.object.metadata : {};
  // An own entry only: a kind such as `constructor` must not find what every object inherits.
  const rule = Object.hasOwn(NAME_RULES, target.kind) ? NAME_RULES[target.kind] : DNS_SUBDOMAIN;
  const violations: Violation[] = [];
  if (metadata.name === undefined && metadata.generateName === undefined) {
    violations.push({
      path: 'metadata.name',
      message: 'the object has no name: set metadata.name (or metadata.generateName for objects created by `kubectl create`)',
    });
  }
  if (metadata.name !== undefined && (typeof metadata.name !== 'string' || !rule.holds(metadata.name))) {
    violations.push({ path: 'metadata.name', message: `${JSON.stringify(metadata.name)} is not ${rule.describe}` });
  }
  if (
    metadata.generateName !== undefined &&
    (typeof metadata.generateName !== 'string' || !rule.holds(generatedName(metadata.generateName)))
  ) {
    violations.push({
      path: 'metadata.generateName',
      message: `${JSON.stringify(metadata.generateName)} plus 5 random characters is not ${rule.describe}`,
    });
  }
  return violations;
}

/** Problems of a labels map: keys, values (strings, legal, at most 63 characters). */
export function labelViolations(labels: unknown, at: readonly (string | number)[]): Violation[] {
  if (labels === undefined || labels === null) return [];
  if (!isRecord(labels)) return [{ path: fieldPath(...at), message: 'labels must be a map of strings' }];
  return Object.entries(labels).flatMap(([key, value]): Violation[] => {
    const path = fieldPath(...at, key);
    if (!isLabelKey(key))
      return [
        {
          path,
          message: `label key "${key}" is not legal: an optional DNS subdomain prefix and '/', then at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric`,
        },
      ];
    if (typeof value !== 'string') return [{ path, message: `label value ${JSON.stringify(value)} must be a string: quote it` }];
    if (!isLabelValue(value))
      return [
        {
          path,
          message: `label value "${value}" is not legal: at most ${MAX_LABEL_VALUE_LENGTH} alphanumerics, '-', '_' or '.', starting and ending alphanumeric (or empty)`,
        },
      ];
    return [];
  });
}

function annotationViolations(annotations: unknown): Violation[] {
  if (annotations === undefined || annotations === null) return [];
  if (!isRecord(annotations)) return [{ path: 'metadata.annotations', message: 'annotations must be a map of strings' }];
  return Object.entries(annotations).flatMap(([key, value]): Violation[] => {
    const path = fieldPath('metadata', 'annotations', key);
    if (!isLabelKey(key))
      return [
        {
          path,
          message: `annotation key "${key}" is not legal: an optional DNS subdomain prefix and '/', then at most 63 alphanumerics, '-', '_' or '.'`,
        },
      ];
    if (typeof value !== 'string') return [{ path, message: `annotation value ${JSON.stringify(value)} must be a string: quote it` }];
    return [];
  });
}

/** A metadata problem with the id of the rule that found it. */
export interface MetadataViolation extends Violation {
  readonly rule: string;
}

/** Every metadata problem of one object. */
export function metadataViolations(target: ManifestObject): MetadataViolation[] {
  const metadata = isRecord(target.object.metadata) ? target.object.metadata : {};
  return [
    ...nameViolations(target).map((violation) => ({ ...violation, rule: METADATA_RULES.name })),
    ...labelViolations(metadata.labels, ['metadata', 'labels']).map((violation) => ({ ...violation, rule: METADATA_RULES.labels })),
    ...annotationViolations(metadata.annotations).map((violation) => ({ ...violation, rule: METADATA_RULES.annotations })),
  ];
}
