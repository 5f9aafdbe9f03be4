/**
 * agent-play's own schemas of the core Kubernetes objects it emits (ConfigMap, PersistentVolumeClaim,
 * ServiceAccount, Role, RoleBinding, ...), used when no CRD directory says more. They are not the Kubernetes
 * OpenAPI: they cover the fields these kinds have at the levels we write, reject unknown fields there, and
 * leave deeper structures (a CRD's version schemas, label selectors) open. Each report names them as such.
 */
import { z } from 'zod';
import type { SchemaProblem } from './schema-problem';
import { escapePointer } from './schema-problem';

const stringMap = z.record(z.string(), z.string());

/** ObjectMeta as a client writes it, plus what `kubectl get -o yaml` adds. */
const ObjectMeta = z.strictObject({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  labels: stringMap.optional(),
  annotations: stringMap.optional(),
  finalizers: z.array(z.string()).optional(),
  ownerReferences: z.array(z.record(z.string(), z.unknown())).optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().int().optional(),
  creationTimestamp: z.string().nullable().optional(),
  deletionTimestamp: z.string().optional(),
  deletionGracePeriodSeconds: z.number().int().optional(),
  managedFields: z.array(z.record(z.string(), z.unknown())).optional(),
  selfLink: z.string().optional(),
});

const typeMeta = (apiVersion: string, kind: string) => ({ apiVersion: z.literal(apiVersion), kind: z.literal(kind), metadata: ObjectMeta });

const QUANTITY = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+|[KMGTPE]i?|[numkMGTPE])?$/;
const quantity = z.union([z.string().regex(QUANTITY, 'must be a quantity such as 10Gi'), z.number()]);

const ConfigMap = z.strictObject({
  ...typeMeta('v1', 'ConfigMap'),
  data: stringMap.optional(),
  binaryData: stringMap.optional(),
  immutable: z.boolean().optional(),
});
const Secret = z.strictObject({
  ...typeMeta('v1', 'Secret'),
  type: z.string().optional(),
  data: stringMap.optional(),
  stringData: stringMap.optional(),
  immutable: z.boolean().optional(),
});

const PersistentVolumeClaim = z.strictObject({
  ...typeMeta('v1', 'PersistentVolumeClaim'),
  spec: z.strictObject({
    accessModes: z.array(z.enum(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'])).optional(),
    resources: z
      .strictObject({ requests: z.record(z.string(), quantity).optional(), limits: z.record(z.string(), quantity).optional() })
      .optional(),
    storageClassName: z.string().optional(),
    volumeMode: z.enum(['Filesystem', 'Block']).optional(),
    volumeName: z.string().optional(),
    selector: z.record(z.string(), z.unknown()).optional(),
    dataSource: z.record(z.string(), z.unknown()).optional(),
    dataSourceRef: z.record(z.string(), z.unknown()).optional(),
    volumeAttributesClassName: z.string().optional(),
  }),
  status: z.record(z.string(), z.unknown()).optional(),
});

const ServiceAccount = z.strictObject({
  ...typeMeta('v1', 'ServiceAccount'),
  automountServiceAccountToken: z.boolean().optional(),
  secrets: z.array(z.record(z.string(), z.unknown())).optional(),
  imagePullSecrets: z.array(z.strictObject({ name: z.string() })).optional(),
});

const PolicyRule = z.strictObject({
  apiGroups: z.array(z.string()).optional(),
  resources: z.array(z.string()).optional(),
  resourceNames: z.array(z.string()).optional(),
  nonResourceURLs: z.array(z.string()).optional(),
  verbs: z.array(z.string()).min(1),
});
const RBAC = 'rbac.authorization.k8s.io/v1';
const Role = z.strictObject({ ...typeMeta(RBAC, 'Role'), rules: z.array(PolicyRule).optional() });
const ClusterRole = z.strictObject({
  ...typeMeta(RBAC, 'ClusterRole'),
  rules: z.array(PolicyRule).optional(),
  aggregationRule: z.record(z.string(), z.unknown()).optional(),
});
const RoleRef = z.strictObject({ apiGroup: z.string(), kind: z.enum(['Role', 'ClusterRole']), name: z.string().min(1) });
const Subject = z.strictObject({
  kind: z.enum(['ServiceAccount', 'User', 'Group']),
  name: z.string().min(1),
  namespace: z.string().optional(),
  apiGroup: z.string().optional(),
});
const RoleBinding = z.strictObject({ ...typeMeta(RBAC, 'RoleBinding'), roleRef: RoleRef, subjects: z.array(Subject).optional() });
const ClusterRoleBinding = z.strictObject({
  ...typeMeta(RBAC, 'ClusterRoleBinding'),
  roleRef: RoleRef,
  subjects: z.array(Subject).optional(),
});

const CustomResourceDefinition = z.strictObject({
  ...typeMeta('apiextensions.k8s.io/v1', 'CustomResourceDefinition'),
  spec: z.strictObject({
    group: z.string().min(1),
    names: z.strictObject({
      kind: z.string().min(1),
      plural: z.string().min(1),
      singular: z.string().optional(),
      listKind: z.string().optional(),
      shortNames: z.array(z.string()).optional(),
      categories: z.array(z.string()).optional(),
    }),
    scope: z.enum(['Namespaced', 'Cluster']),
    versions: z
      .array(
        z.strictObject({
          name: z.string().min(1),
          served: z.boolean(),
          storage: z.boolean(),
          schema: z.strictObject({ openAPIV3Schema: z.record(z.string(), z.unknown()) }).optional(),
          subresources: z.record(z.string(), z.unknown()).optional(),
          additionalPrinterColumns: z.array(z.record(z.string(), z.unknown())).optional(),
          deprecated: z.boolean().optional(),
          deprecationWarning: z.string().optional(),
          selectableFields: z.array(z.record(z.string(), z.unknown())).optional(),
        }),
      )
      .min(1),
    conversion: z.record(z.string(), z.unknown()).optional(),
    preserveUnknownFields: z.boolean().optional(),
  }),
  status: z.record(z.string(), z.unknown()).optional(),
});

const Namespace = z.strictObject({
  ...typeMeta('v1', 'Namespace'),
  spec: z.record(z.string(), z.unknown()).optional(),
  status: z.record(z.string(), z.unknown()).optional(),
});

/** The core kinds agent-play carries a schema for, by `apiVersion` and `kind`. */
export const CORE_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ['v1/ConfigMap', ConfigMap],
  ['v1/Secret', Secret],
  ['v1/PersistentVolumeClaim', PersistentVolumeClaim],
  ['v1/ServiceAccount', ServiceAccount],
  ['v1/Namespace', Namespace],
  [`${RBAC}/Role`, Role],
  [`${RBAC}/ClusterRole`, ClusterRole],
  [`${RBAC}/RoleBinding`, RoleBinding],
  [`${RBAC}/ClusterRoleBinding`, ClusterRoleBinding],
  ['apiextensions.k8s.io/v1/CustomResourceDefinition', CustomResourceDefinition],
]);

const pointerOf = (path: readonly PropertyKey[]): string => path.map((step) => `/${escapePointer(String(step))}`).join('');

/** zod's issues as schema problems (unknown keys one by one, like ajv's). */
export function zodProblems(schema: z.ZodType, object: unknown): SchemaProblem[] {
  const result = schema.safeParse(object);
  if (result.success) return [];
  return result.error.issues.flatMap((issue): SchemaProblem[] => {
    const pointer = pointerOf(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        pointer,
        message: `must NOT have additional properties (${key})`,
        kind: 'schema',
        unknownField: key,
      }));
    }
    return [{ pointer, message: issue.message, kind: 'schema' }];
  });
}
