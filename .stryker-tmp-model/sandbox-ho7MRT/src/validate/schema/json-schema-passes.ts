/**
 * Rewrites of a Kubernetes schema before ajv compiles it: OpenAPI 3.0 (what CRDs are written in) into JSON
 * Schema draft-07 (what ajv reads), and object schemas closed so that unknown fields are errors, as
 * `kubectl --validate=strict` and `argo lint` make them (the API server would silently drop them).
 */
// @ts-nocheck

import { isUntypedRecord as isRecord } from '../../is-record';
import { goPatternEngine } from './go-pattern';

export type JsonSchema = Record<string, any>;

/** The schema passes read schemas field by field, untyped: `isRecord` narrows to `Record<string, any>`. */
export { isRecord };

/** Keywords whose value is a map of sub-schemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
/** Keywords whose value is a sub-schema (or, for `items`, possibly a list of them). */
const SCHEMA_SINGLES = ['additionalProperties', 'items', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
/** Keywords whose value is a list of sub-schemas. */
export const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

/** Rebuilds a schema bottom-up, applying `change` to every (sub-)schema after its children. */
export function mapSchema(node: unknown, change: (schema: JsonSchema) => JsonSchema): unknown {
  if (Array.isArray(node)) return node.map((item) => mapSchema(item, change));
  if (!isRecord(node)) return node;
  const schema: JsonSchema = { ...node };
  // Plain loops: this runs on every node of the built-in Argo schemas at each start.
  for (const key of SCHEMA_MAPS) {
    const children = schema[key];
    if (!isRecord(children)) continue;
    const mapped: JsonSchema = {};
    for (const name of Object.keys(children)) mapped[name] = mapSchema(children[name], change);
    schema[key] = mapped;
  }
  for (const key of SCHEMA_SINGLES) {
    if (schema[key] !== undefined && typeof schema[key] !== 'boolean') schema[key] = mapSchema(schema[key], change);
  }
  for (const key of SCHEMA_LISTS) {
    if (Array.isArray(schema[key])) schema[key] = schema[key].map((child: unknown) => mapSchema(child, change));
  }
  return change(schema);
}

/**
 * Adds `additionalProperties: false` to a `type: object` schema that lists `properties` and neither
 * preserves unknown fields nor says anything about additional properties already.
 */
export function closeObjectSchema(schema: JsonSchema): JsonSchema {
  if (schema.type !== 'object' || !isRecord(schema.properties)) return schema;
  if (schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties !== undefined) return schema;
  return { ...schema, additionalProperties: false };
}

/**
 * A definition of Argo Events' JSON Schema without its `required` lists. The schema's generator makes every
 * Go field without `omitempty` required (a webhook's `url`, a context filter's seven CloudEvents
 * attributes, a trigger's `payload`, a Service Bus `subscriptionName`...), but nothing in Argo enforces
 * them: the Argo Events CRDs keep unknown fields and check none, the controllers decode a missing field as
 * its zero value, and what they do require is checked by their validation code
 * (pkg/reconciler/sensor/validate.go, pkg/reconciler/eventsource/validate.go), which the lint rules follow
 * and the oracle (oracle/events) holds them to.
 */
export const withoutGoTagRequired = (definition: JsonSchema): JsonSchema =>
  mapSchema(definition, (node) => {
    if (node.required === undefined) return node;
    const { required: _dropped, ...rest } = node;
    return rest;
  }) as JsonSchema;

/**
 * OpenAPI 3.0 to draft-07: a boolean `exclusiveMinimum` / `exclusiveMaximum` qualifies `minimum` /
 * `maximum`; `nullable: true` admits null. (The Argo CRDs use neither; generated CRDs such as ours may.)
 */
export function fromOpenApi(schema: JsonSchema): JsonSchema {
  if (typeof schema.exclusiveMinimum !== 'boolean' && typeof schema.exclusiveMaximum !== 'boolean' && schema.nullable !== true)
    return schema;
  const result = { ...schema };
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof result[exclusive] !== 'boolean') continue;
    if (result[exclusive] && typeof result[bound] === 'number') {
      result[exclusive] = result[bound];
      delete result[bound];
    } else delete result[exclusive];
  }
  if (result.nullable === true) {
    if (typeof result.type === 'string') result.type = [result.type, 'null'];
    if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null];
  }
  return result;
}

/**
 * A resource root with the fields every object has, which a CRD's schema need not list (the Kubernetes
 * docs' CronTab lists only `spec`): the API server reads `apiVersion`, `kind` and `metadata` itself
 * (k8s.io/apiextensions-apiserver pkg/apiserver/schema/objectmeta), so closing the root must not make them
 * unknown. A root that lists no field is left open, as it was.
 */
export function withImplicitRootFields(root: JsonSchema): JsonSchema {
  if (!isRecord(root.properties)) return root;
  const implicit = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } };
  return { ...root, properties: { ...implicit, ...root.properties } };
}

/** A CRD version's `openAPIV3Schema`, ready for ajv: the implicit root fields listed, converted and closed. */
export const prepareOpenApiSchema = (openApi: JsonSchema): JsonSchema =>
  mapSchema(withImplicitRootFields(openApi), (node) => closeObjectSchema(fromOpenApi(node))) as JsonSchema;

/**
 * The version of the passes above: the validator cache knows a document made on demand by its inputs and
 * this, so that validators compiled from an older preparation are not reused. Bump it with any change to
 * what `prepareOpenApiSchema` makes; test/validate-schema-cache.test.ts fails on any change to this file
 * until the hash it records is brought up to date, as a reminder.
 */
export const PREPARATION_VERSION = 2;

/**
 * ajv options for every schema: draft-07, unknown keywords (`x-kubernetes-*`) ignored, all errors, no format
 * checks (`int32`, `int-or-string`, ... are not ajv formats). `code.optimize: false` skips ajv's
 * generated-code optimisation passes, which halves the compile of a Workflows CRD without changing what is
 * accepted. `code.regExp` runs `pattern` as Go does (go-pattern.ts), never as a backtracking JavaScript RegExp.
 */
export const AJV_OPTIONS = {
  strict: false,
  allErrors: true,
  validateFormats: false,
  code: { optimize: false, regExp: goPatternEngine },
} as const;
