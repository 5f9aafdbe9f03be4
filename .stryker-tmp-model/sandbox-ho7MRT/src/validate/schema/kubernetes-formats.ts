/**
 * The value formats that Go's decoder enforces on built-in Kubernetes objects, as the patterns the generator
 * (scripts/generate-kubernetes-schemas.ts) writes into `schemas/kubernetes.json` in place of the OpenAPI's
 * `format`, and the words a report uses for each instead of the pattern itself.
 */
// @ts-nocheck


/** One base64 character, then any line breaks (encoding/json's StdEncoding skips them anywhere). */
const B64 = '[A-Za-z0-9+/][\\r\\n]*';

/** The formats, by the pattern that checks them. */
export const KUBERNETES_FORMATS = {
  /** `format: byte` (a `[]byte` field, e.g. a Secret's `data` values): padded base64. */
  byte: {
    pattern: `^[\\r\\n]*(?:(?:${B64}){4})*(?:(?:${B64}){2}=[\\r\\n]*=|(?:${B64}){3}=)?[\\r\\n]*$`,
    description: 'must be base64 (a []byte field: encode the value, or use stringData in a Secret)',
  },
  /** `format: date-time` (metav1.Time, MicroTime): RFC 3339, as time.Parse with time.RFC3339 takes it (a fraction too). */
  dateTime: {
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})$',
    description: 'must be an RFC 3339 time such as 2024-05-01T12:00:00Z',
  },
  /**
   * A resource.Quantity string, as its UnmarshalJSON takes it (k8s.io/apimachinery pkg/api/resource/quantity.go:
   * the text trimmed of white space, then ParseQuantity): a signed decimal number, then nothing, a binary suffix
   * (Ki..Ei), a decimal suffix (n, u, m, k, M, G, T, P, E) or an exponent (e3, E-2).
   */
  quantity: {
    pattern: '^\\s*[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?\\s*$',
    description: 'must be a quantity: a number, or a string such as 500m, 1.5Gi or 2e3',
  },
} as const;

/** The definition of resource.Quantity in the Kubernetes OpenAPI: a string (of the form above) or a number. */
export const QUANTITY_DEFINITION = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

const DESCRIPTIONS = new Map<string, string>(Object.values(KUBERNETES_FORMATS).map((format) => [format.pattern, format.description]));

/** What a report says for a value that fails `pattern`, when it is one of the formats; `undefined` otherwise. */
export const formatDescription = (pattern: unknown): string | undefined =>
  typeof pattern === 'string' ? DESCRIPTIONS.get(pattern) : undefined;
