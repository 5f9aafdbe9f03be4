/**
 * `npm run schemas:kubernetes`: writes the schemas of the built-in Kubernetes kinds agent-play carries
 * (`schemas/kubernetes.json`) from the OpenAPI v3 documents Kubernetes publishes in its repository
 * (`api/openapi-spec/v3/*.json` of the Go module k8s.io/kubernetes, in the module cache after
 * `go mod download k8s.io/kubernetes@<version>`):
 *
 * - every kind of every stable group version (`v1`, `v2`: no alpha, no beta), lists excepted, by apiVersion;
 * - every definition they reach, pruned to what validation reads (no descriptions, defaults or merge hints),
 *   `allOf: [{$ref}]` wrappers unwrapped, `oneOf` of disjoint types as `anyOf`;
 * - the `format`s that Go's decoder enforces, as patterns (src/validate/schema/kubernetes-formats.ts):
 *   `byte` (base64, encoding/json) and `date-time` (RFC 3339, metav1.Time); and the syntax of a
 *   resource.Quantity string (ParseQuantity). The other formats (`int32`, `int64`, `double`) are dropped;
 * - `PROVENANCE-kubernetes.json`: the module, version, files read and their sha256, and the license;
 * - `LICENSE-kubernetes`: the module's LICENSE (Apache-2.0), unchanged.
 *
 * For a new Kubernetes release: `go mod download k8s.io/kubernetes@vX.Y.Z`, update `KUBERNETES_UPSTREAM`,
 * run `npm run schemas:kubernetes`, and review the diff. test/kubernetes-schema-data.test.ts fails while the
 * committed data and this script's output differ (when the module is in the cache; skipped otherwise).
 */
// @ts-nocheck

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalJson, pruneSchema, reachableDefinitions } from '../src/validate/schema/compact-schema';
import { isRecord, type JsonSchema, mapSchema } from '../src/validate/schema/json-schema-passes';
import { KUBERNETES_FORMATS, QUANTITY_DEFINITION } from '../src/validate/schema/kubernetes-formats';

/** The upstream module the OpenAPI documents come from. */
export const KUBERNETES_UPSTREAM = {
  module: 'k8s.io/kubernetes',
  version: 'v1.37.2',
  repository: 'https://github.com/kubernetes/kubernetes',
  /** Inside the module. */
  openApiPath: 'api/openapi-spec/v3',
  license: 'LICENSE',
  licenseName: 'Apache-2.0',
} as const;

/** The files `npm run schemas:kubernetes` writes into `schemas/`. */
export const KUBERNETES_SCHEMA_FILES = ['kubernetes.json', 'PROVENANCE-kubernetes.json', 'LICENSE-kubernetes'] as const;

/**
 * Where the module's files are: `$GOMODCACHE`, else `$GOPATH/pkg/mod`, else `~/go/pkg/mod` (Go's own
 * defaults), then `k8s.io/kubernetes@<version>`. `undefined` when the module is not there.
 */
export function kubernetesModuleDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const cache = env.GOMODCACHE || path.join(env.GOPATH?.split(path.delimiter)[0] || path.join(os.homedir(), 'go'), 'pkg', 'mod');
  // The module cache escapes upper-case letters of a module path as `!` and the lower-case letter.
  const escaped = KUBERNETES_UPSTREAM.module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
  const dir = path.join(cache, `${escaped}@${KUBERNETES_UPSTREAM.version}`);
  return existsSync(path.join(dir, KUBERNETES_UPSTREAM.openApiPath)) ? dir : undefined;
}

/** An OpenAPI document of one stable group version: `api__v1_openapi.json`, `apis__apps__v1_openapi.json`. */
const STABLE_DOCUMENT = /^(api|apis__[a-z0-9.-]+)__v[0-9]+_openapi\.json$/;

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/** Keywords of the Kubernetes OpenAPI that validation of a built-in kind does not read. */
const NOT_CHECKED = ['x-kubernetes-list-type', 'x-kubernetes-list-map-keys'];

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** One node of a definition, in compact form (its children already are). */
function compactNode(node: JsonSchema): JsonSchema {
  let schema: JsonSchema = { ...node };
  for (const keyword of NOT_CHECKED) delete schema[keyword];
  // `allOf: [{$ref}]` is how OpenAPI v3 puts a description or default beside a reference; both are gone.
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && Object.keys(schema).length === 1) schema = schema.allOf[0];
  if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#/definitions/')) {
    const match = COMPONENT_REF.exec(schema.$ref);
    if (!match) throw new Error(`unexpected $ref ${schema.$ref}`);
    schema.$ref = `#/definitions/${match[1]}`;
  }
  // IntOrString (integer | string) and Quantity (string | number): the branches never both match, and with
  // null admitted in every branch (as Go's decoder does) oneOf would refuse null.
  if (Array.isArray(schema.oneOf)) {
    schema.anyOf = schema.oneOf;
    delete schema.oneOf;
  }
  const format = schema.format;
  delete schema.format;
  if (format === 'byte') schema.pattern = KUBERNETES_FORMATS.byte.pattern;
  else if (format === 'date-time') schema.pattern = KUBERNETES_FORMATS.dateTime.pattern;
  return schema;
}

/** A definition in compact form. */
function compactDefinition(name: string, definition: unknown): JsonSchema {
  const compact = mapSchema(pruneSchema(definition, `components/schemas/${name}`), compactNode) as JsonSchema;
  if (name === QUANTITY_DEFINITION) {
    if (!Array.isArray(compact.anyOf)) throw new Error(`${name}: expected a string or a number`);
    compact.anyOf = compact.anyOf.map((branch: JsonSchema) =>
      branch.type === 'string' ? { ...branch, pattern: KUBERNETES_FORMATS.quantity.pattern } : branch,
    );
  }
  return compact;
}

interface OpenApiDocument {
  readonly components: { readonly schemas: Record<string, JsonSchema> };
}

/** `apps/v1`, `v1` (the core group), from a GroupVersionKind. */
const apiVersionOf = (gvk: { group: string; version: string }): string => (gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`);

/** The stable kinds a document describes: apiVersion, kind, definition name. */
function documentKinds(document: OpenApiDocument): { apiVersion: string; kind: string; definition: string }[] {
  const kinds: { apiVersion: string; kind: string; definition: string }[] = [];
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    // apimachinery's own types (DeleteOptions, Status, WatchEvent) are listed under every group: not kinds one applies.
    if (name.startsWith('io.k8s.apimachinery.')) continue;
    for (const gvk of (schema['x-kubernetes-group-version-kind'] ?? []) as { group: string; version: string; kind: string }[]) {
      if (gvk.kind.endsWith('List') || !/^v[0-9]+$/.test(gvk.version)) continue;
      kinds.push({ apiVersion: apiVersionOf(gvk), kind: gvk.kind, definition: name });
    }
  }
  return kinds;
}

function kubernetesData(documents: ReadonlyMap<string, OpenApiDocument>): string {
  const definitions: Record<string, JsonSchema> = {};
  const kinds: Record<string, Record<string, string>> = {};
  for (const [file, document] of documents) {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      const compact = compactDefinition(name, schema);
      if (definitions[name] && canonicalJson(definitions[name]) !== canonicalJson(compact))
        throw new Error(`${file}: ${name} differs from its definition in another document`);
      definitions[name] = compact;
    }
    for (const { apiVersion, kind, definition } of documentKinds(document)) {
      kinds[apiVersion] ??= {};
      const known = kinds[apiVersion][kind];
      if (known !== undefined && known !== definition) throw new Error(`${file}: ${apiVersion} ${kind} is both ${known} and ${definition}`);
      kinds[apiVersion][kind] = definition;
    }
  }
  const sortedKinds = Object.fromEntries(
    Object.keys(kinds)
      .sort()
      .map((apiVersion) => [apiVersion, Object.fromEntries(Object.entries(kinds[apiVersion]).sort(([a], [b]) => (a < b ? -1 : 1)))]),
  );
  const names = reachableDefinitions(
    definitions,
    Object.values(kinds).flatMap((byKind) => Object.values(byKind)),
    'the Kubernetes OpenAPI',
  );
  const used = Object.fromEntries([...names].sort().map((name) => [name, definitions[name]]));
  return `${canonicalJson({ project: 'kubernetes', version: KUBERNETES_UPSTREAM.version, kinds: sortedKinds, definitions: used })}\n`;
}

/** The stable documents of the module's OpenAPI folder, by file name, sorted. */
function stableDocumentFiles(openApiDir: string): string[] {
  return readdirSync(openApiDir)
    .filter((file) => STABLE_DOCUMENT.test(file))
    .sort();
}

function provenance(files: readonly string[], read: (file: string) => string): string {
  const { module, version, repository, openApiPath, licenseName } = KUBERNETES_UPSTREAM;
  const sha = Object.fromEntries(files.map((file) => [file, sha256(read(file))]));
  return `${JSON.stringify(
    {
      generator: 'scripts/generate-kubernetes-schemas.ts',
      'kubernetes.json': {
        module,
        version,
        repository,
        upstreamPath: `${openApiPath}/<file>`,
        stability: 'stable group versions only (v1, v2): no alpha, no beta',
        license: 'LICENSE-kubernetes',
        licenseName,
        sha256: sha,
      },
    },
    null,
    2,
  )}\n`;
}

/** Every file `npm run schemas:kubernetes` writes, by name, from the module folder `moduleDir`. Nothing is written. */
export function generateKubernetesSchemaFiles(moduleDir: string): Map<string, string> {
  const openApiDir = path.join(moduleDir, KUBERNETES_UPSTREAM.openApiPath);
  const files = stableDocumentFiles(openApiDir);
  if (files.length === 0) throw new Error(`${openApiDir}: no OpenAPI v3 document of a stable group version`);
  const texts = new Map(files.map((file) => [file, readFileSync(path.join(openApiDir, file), 'utf8')]));
  const documents = new Map([...texts].map(([file, text]) => [file, JSON.parse(text) as OpenApiDocument]));
  for (const [file, document] of documents)
    if (!isRecord(document.components?.schemas)) throw new Error(`${path.join(openApiDir, file)}: no components.schemas`);
  const license = readFileSync(path.join(moduleDir, KUBERNETES_UPSTREAM.license), 'utf8');
  return new Map([
    ['kubernetes.json', kubernetesData(documents)],
    ['PROVENANCE-kubernetes.json', provenance(files, (file) => texts.get(file) as string)],
    ['LICENSE-kubernetes', license],
  ]);
}

function main(): void {
  const moduleDir = process.argv[2] ?? kubernetesModuleDir();
  if (moduleDir === undefined)
    throw new Error(
      `${KUBERNETES_UPSTREAM.module}@${KUBERNETES_UPSTREAM.version} is not in the Go module cache: run \`go mod download ${KUBERNETES_UPSTREAM.module}@${KUBERNETES_UPSTREAM.version}\` or pass its folder`,
    );
  const files = generateKubernetesSchemaFiles(moduleDir);
  mkdirSync('schemas', { recursive: true });
  for (const [name, text] of files) {
    const target = path.join('schemas', name);
    writeFileSync(`${target}.tmp`, text);
    renameSync(`${target}.tmp`, target);
  }
  process.stdout.write(`wrote ${[...files.keys()].map((name) => `schemas/${name} (${files.get(name)?.length} bytes)`).join(', ')}\n`);
}

if (require.main === module) main();
