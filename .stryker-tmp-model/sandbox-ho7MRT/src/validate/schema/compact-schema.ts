/**
 * The compact form of the Argo schemas agent-play carries (`schemas/*.json`, written by
 * `scripts/generate-schemas.ts`): only the keywords validation needs, and every sub-schema that occurs more
 * than once stored once under `definitions` and referenced by `$ref`. The four Workflows CRDs repeat the
 * template schema dozens of times inline (structural schemas allow no `$ref`), so this shrinks them about
 * tenfold and lets ajv compile each shared type once.
 */
// @ts-nocheck

import { createHash } from 'node:crypto';
import { isRecord, type JsonSchema } from './json-schema-passes';

/** A document of compact schemas: named roots over shared definitions. */
export interface CompactSchemas {
  readonly roots: Record<string, JsonSchema>;
  readonly definitions: Record<string, JsonSchema>;
}

/** Keywords whose value is a map of sub-schemas. */
const MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'definitions']);
/** Keywords whose value is one sub-schema (or `true`/`false`). */
const SINGLE_KEYWORDS = new Set(['items', 'additionalProperties', 'not']);
/** Keywords whose value is a list of sub-schemas. */
const LIST_KEYWORDS = new Set(['anyOf', 'allOf', 'oneOf']);
/** Keywords kept as they are: what the API server (or the JSON Schema) checks. */
const VALUE_KEYWORDS = new Set([
  '$ref',
  'type',
  'format',
  'required',
  'enum',
  'const',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'nullable',
  'x-kubernetes-validations',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
]);
/**
 * Keywords dropped because no check reads them: documentation, defaults the API server fills in, and merge
 * hints for server-side apply and strategic merge patch.
 */
const DROPPED_KEYWORDS = new Set([
  'description',
  'title',
  'default',
  'example',
  'examples',
  'x-kubernetes-map-type',
  'x-kubernetes-group-version-kind',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-patch-strategy',
  'x-kubernetes-unions',
]);

/** A keyword this code does not know: a new upstream release may need it, so the generator stops. */
export class UnknownKeywordError extends Error {
  public constructor(keyword: string, at: string) {
    super(`unknown schema keyword "${keyword}" at ${at || '/'}: decide whether validation needs it (compact-schema.ts)`);
    this.name = 'UnknownKeywordError';
  }
}

/**
 * `schema` with only the keywords validation needs, recursively.
 * @param lenient keep keywords this code does not know instead of throwing (a user's CRD may use any)
 * @throws UnknownKeywordError for a keyword this code does not know, unless `lenient`
 */
export function pruneSchema(schema: unknown, at = '', lenient = false): unknown {
  if (!isRecord(schema)) return schema;
  const pruned: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (DROPPED_KEYWORDS.has(keyword)) continue;
    if (MAP_KEYWORDS.has(keyword) && isRecord(value)) {
      pruned[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, pruneSchema(child, `${at}/${keyword}/${name}`, lenient)]),
      );
    } else if (SINGLE_KEYWORDS.has(keyword)) pruned[keyword] = pruneSchema(value, `${at}/${keyword}`, lenient);
    else if (LIST_KEYWORDS.has(keyword) && Array.isArray(value))
      pruned[keyword] = value.map((child, index) => pruneSchema(child, `${at}/${keyword}/${index}`, lenient));
    else if (keyword === 'x-kubernetes-validations' && Array.isArray(value)) pruned[keyword] = value.map(pruneCelRule);
    else if (VALUE_KEYWORDS.has(keyword) || lenient) pruned[keyword] = value;
    else throw new UnknownKeywordError(keyword, at);
  }
  return pruned;
}

/** A CEL rule keeps what the API server evaluates and reports. */
function pruneCelRule(rule: unknown): unknown {
  if (!isRecord(rule)) return rule;
  const kept: JsonSchema = {};
  for (const key of ['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'])
    if (rule[key] !== undefined) kept[key] = rule[key];
  return kept;
}

/** JSON with keys sorted at every level: equal schemas give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (!isRecord(value)) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
}

/** Sub-schemas shorter than this (as JSON) stay inline: a `$ref` would cost more than it saves. */
const MIN_SHARED_LENGTH = 120;

/** The sub-schemas of a schema node, with a function that puts a replacement back. */
function childSlots(schema: JsonSchema): { child: unknown; set: (value: unknown) => void }[] {
  const slots: { child: unknown; set: (value: unknown) => void }[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (MAP_KEYWORDS.has(keyword) && isRecord(value)) {
      for (const name of Object.keys(value)) slots.push({ child: value[name], set: (replacement) => (value[name] = replacement) });
    } else if (SINGLE_KEYWORDS.has(keyword) && isRecord(value))
      slots.push({ child: value, set: (replacement) => (schema[keyword] = replacement) });
    else if (LIST_KEYWORDS.has(keyword) && Array.isArray(value)) {
      value.forEach((child, index) => {
        slots.push({ child, set: (replacement) => (value[index] = replacement) });
      });
    }
  }
  return slots;
}

/**
 * Stores every sub-schema that occurs at least twice across `roots` once, under a name made of its hash,
 * and replaces each occurrence by `{ $ref: '#/definitions/<name>' }`. The input is not changed.
 */
export function shareRepeatedSchemas(roots: Record<string, unknown>): CompactSchemas {
  const copies = JSON.parse(JSON.stringify(roots)) as Record<string, JsonSchema>;
  const counts = new Map<string, number>();
  const texts = new Map<JsonSchema, string>();
  const count = (schema: JsonSchema): string => {
    for (const { child } of childSlots(schema)) if (isRecord(child)) count(child);
    const text = canonicalJson(schema);
    texts.set(schema, text);
    counts.set(text, (counts.get(text) ?? 0) + 1);
    return text;
  };
  for (const root of Object.values(copies)) count(root);
  const definitions: Record<string, JsonSchema> = {};
  const names = new Map<string, string>();
  const share = (schema: JsonSchema): JsonSchema => {
    for (const slot of childSlots(schema)) if (isRecord(slot.child)) slot.set(share(slot.child));
    const text = texts.get(schema) as string;
    if ((counts.get(text) ?? 0) < 2 || text.length < MIN_SHARED_LENGTH) return schema;
    let name = names.get(text);
    if (!name) {
      name = `s${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
      if (definitions[name]) throw new Error(`two schemas hash to ${name}`);
      names.set(text, name);
      definitions[name] = schema;
    }
    return { $ref: `#/definitions/${name}` };
  };
  const shared = Object.fromEntries(Object.entries(copies).map(([name, root]) => [name, share(root)]));
  return { roots: shared, definitions: Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/** A copy of `schema` with `change` applied to each direct sub-schema (maps and lists copied too). */
function mapChildren(schema: JsonSchema, change: (child: unknown) => unknown): JsonSchema {
  const copy: JsonSchema = { ...schema };
  for (const [keyword, value] of Object.entries(schema)) {
    if (MAP_KEYWORDS.has(keyword) && isRecord(value))
      copy[keyword] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, change(child)]));
    else if (SINGLE_KEYWORDS.has(keyword) && isRecord(value)) copy[keyword] = change(value);
    else if (LIST_KEYWORDS.has(keyword) && Array.isArray(value)) copy[keyword] = value.map(change);
  }
  return copy;
}

const LOCAL_REF = /^#\/definitions\/(.+)$/;

/**
 * The name of the shared definition a `{ $ref: '#/definitions/<name>' }` node of a compact schema stands
 * for (see `shareRepeatedSchemas`); `undefined` for any other node.
 */
export function sharedDefinitionName(node: unknown): string | undefined {
  return isRecord(node) && typeof node.$ref === 'string' ? LOCAL_REF.exec(node.$ref)?.[1] : undefined;
}

/**
 * The schema a compact schema's node stands for: the shared definition it refers to, followed through
 * references to references; the node itself when it is no reference.
 * @throws when a definition is missing or refers to itself
 */
export function dereferenced(schema: JsonSchema, definitions: Readonly<Record<string, JsonSchema>>): JsonSchema {
  let node = schema;
  for (const seen = new Set<string>(); ; ) {
    const name = sharedDefinitionName(node);
    if (name === undefined) return node;
    if (seen.has(name)) throw new Error(`schema definition ${name} refers to itself`);
    if (!isRecord(definitions[name])) throw new Error(`schema reference to a missing definition ${name}`);
    seen.add(name);
    node = definitions[name];
  }
}

/**
 * `schema` with every local `$ref` replaced by the definition itself (shared, not copied): the tree the
 * upstream CRD has, which test/schema-data.test.ts compares with the upstream file. (The CEL checks follow
 * `$ref`s as they go instead.) Recursive definitions are not supported (Kubernetes structural schemas have
 * none).
 */
export function inlineReferences(schema: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema {
  const resolved = new Map<string, JsonSchema>();
  const visit = (node: unknown, trail: readonly string[]): unknown => {
    if (!isRecord(node)) return node;
    const name = sharedDefinitionName(node);
    if (name !== undefined) {
      if (trail.includes(name)) throw new Error(`recursive schema definition ${name}`);
      let target = resolved.get(name);
      if (!target) {
        if (!definitions[name]) throw new Error(`schema reference to a missing definition ${name}`);
        target = visit(definitions[name], [...trail, name]) as JsonSchema;
        resolved.set(name, target);
      }
      return target;
    }
    return mapChildren(node, (child) => visit(child, trail));
  };
  return visit(schema, []) as JsonSchema;
}

/**
 * The names of the definitions that `start` reaches through `#/definitions/` references, themselves included:
 * what a schema document of many kinds must keep for some of them.
 * @param source the document's name, for the error
 * @throws when a name reached has no definition
 */
export function reachableDefinitions(
  definitions: Readonly<Record<string, unknown>>,
  start: readonly string[],
  source: string,
): Set<string> {
  const found = new Set<string>();
  const pending = [...start];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (found.has(name)) continue;
    if (!definitions[name]) throw new Error(`${source}: missing definition ${name}`);
    found.add(name);
    for (const match of JSON.stringify(definitions[name]).matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) pending.push(match[1]);
  }
  return found;
}
