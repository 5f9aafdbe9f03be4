/** What `customCrd` needs to know of a user's own kind. */
// @ts-nocheck

export interface CustomKind {
  /** The kind, e.g. `Widget`; its plural is the lower-case kind with an `s`. */
  readonly kind: string;
  /** The CRD's name, e.g. `widgets.example.com`. */
  readonly name: string;
  /** The schema of the objects' `spec`. */
  readonly spec: Record<string, unknown>;
}

/**
 * A CustomResourceDefinition (apiextensions.k8s.io/v1) of a user's own kind in group `example.com`, one
 * served and stored version `v1`, whose objects hold `apiVersion`, `kind`, `metadata` and a `spec` as given:
 * what the tests give the validator as a user's CRD.
 */
export function customCrd({ kind, name, spec }: CustomKind): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: 'example.com',
      names: { kind, plural: `${kind.toLowerCase()}s` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec },
            },
          },
        },
      ],
    },
  };
}
