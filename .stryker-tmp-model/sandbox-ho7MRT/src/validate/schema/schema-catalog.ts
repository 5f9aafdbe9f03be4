/**
 * Which schema an object is checked against. Schemas come from `--crds` directories (CRDs as a user exports
 * them from a cluster, a `List` of them, or JSON Schema files with Kubernetes-style definitions such as
 * `argo-events.schema.json`) and from what agent-play carries itself (the Argo Workflows and Argo Events
 * schemas of `schemas/`, the CodeRun CRD, generated from the same zod schema as the CodeRuns the play
 * creates, and the Kubernetes OpenAPI schemas of every stable built-in kind). The first
 * source that knows an object's apiVersion and kind wins: a directory's before the built-in ones, and a CRD
 * that describes fields before a JSON Schema (the Argo Events CRDs describe none).
 */
// @ts-nocheck

import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import {
  CODERUN_GROUP,
  CODERUN_KIND,
  CODERUN_PLURAL,
  CODERUN_VERSION,
  codeRunOpenApiSchema,
} from '../../../constructs/model/coderun-schema';
import { readKubernetesYaml, YamlSyntaxError } from '../kubernetes-yaml';
import { builtInArgoSchemas } from './argo-built-in';
import { COMPACT_DEFINITIONS, compactOpenApi, CrdSchema, CrdShapeError } from './crd-schema';
import { DefinitionsSchema } from './events-json-schema';
import { builtInKubernetesSchemas } from './kubernetes-built-in';
import { isRecord } from './json-schema-passes';
import { cachedFileDocuments } from './parsed-yaml-cache';
import type { SchemaProblem } from './schema-problem';

/** A schema for one apiVersion and kind. */
export interface ObjectSchema {
  /** What the object was checked against, as the report says it. */
  readonly source: string;
  readonly validate: (object: unknown) => SchemaProblem[];
}

/** A schema directory that cannot be used; reported as unusable input. */
export class SchemaSourceError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'SchemaSourceError';
  }
}

/** One of each per process: their schemas compile on first use and are kept. */
const builtInCatalogs = new Map<boolean, SchemaCatalog>();

const keyOf = (apiVersion: unknown, kind: unknown): string => `${String(apiVersion)}|${String(kind)}`;

/** Schemas by apiVersion and kind. */
export class SchemaCatalog {
  /**
   * The schemas agent-play carries: the Argo kinds, the CodeRun CRD and the built-in Kubernetes kinds.
   * @param options.argo whether the Argo schemas are among them (without them, Argo objects are checked by
   * the lint rules alone, as against a cluster whose CRDs lack a kind) @default true
   */
  public static builtIn(options: { readonly argo?: boolean } = {}): SchemaCatalog {
    const argo = options.argo ?? true;
    let catalog = builtInCatalogs.get(argo);
    if (!catalog) {
      catalog = SchemaCatalog.createBuiltIn(argo);
      builtInCatalogs.set(argo, catalog);
    }
    return catalog;
  }

  private static createBuiltIn(withArgo: boolean): SchemaCatalog {
    const catalog = new SchemaCatalog();
    for (const argo of withArgo ? builtInArgoSchemas() : []) {
      for (const apiVersion of argo.apiVersions) catalog.add(apiVersion, argo.kind, { source: argo.source, validate: argo.validate });
    }
    const codeRun = CrdSchema.fromCrd(codeRunCrd());
    catalog.add(`${CODERUN_GROUP}/${CODERUN_VERSION}`, CODERUN_KIND, {
      source: `built-in: CRD ${codeRun.name} (agent-play's CodeRun schema)`,
      validate: (object) => codeRun.validate(object),
    });
    for (const kubernetes of builtInKubernetesSchemas())
      catalog.add(kubernetes.apiVersion, kubernetes.kind, { source: kubernetes.source, validate: kubernetes.validate });
    return catalog;
  }

  /**
   * The schemas found in `directories` (their files `*.yaml`, `*.yml`, `*.json`, not sub-folders), in front of the
   * built-in ones.
   * @throws SchemaSourceError for a directory that cannot be read or a file that is neither a CRD nor a
   * definitions schema
   */
  public static fromDirectories(directories: readonly string[]): SchemaCatalog {
    const catalog = new SchemaCatalog();
    const definitions: { file: string; schema: DefinitionsSchema }[] = [];
    const fieldless: { file: string; crd: CrdSchema }[] = [];
    const addCrd = (file: string, crd: CrdSchema): void => {
      for (const apiVersion of crd.apiVersions)
        catalog.add(apiVersion, crd.kind, { source: `CRD ${crd.name} (${file})`, validate: (object) => crd.validate(object) });
    };
    for (const directory of directories) {
      for (const file of schemaFiles(directory)) {
        for (const source of readSchemaFile(file)) {
          if (!(source instanceof CrdSchema)) definitions.push({ file, schema: source });
          else if (source.describesFields) addCrd(file, source);
          else fieldless.push({ file, crd: source });
        }
      }
    }
    for (const { file, schema } of definitions) {
      for (const kind of schema.kinds)
        catalog.add(kind.apiVersion, kind.kind, {
          source: `JSON Schema ${kind.definition} (${file})`,
          validate: (object) => schema.validate(kind, object),
        });
    }
    // A CRD that lists no field of spec (the Argo Events CRDs, a CRD that keeps unknown fields under CEL
    // rules) still checks its kinds, after any JSON Schema that describes them: its root, its CEL rules.
    for (const { file, crd } of fieldless) addCrd(file, crd);
    return catalog.withFallback(SchemaCatalog.builtIn());
  }

  private readonly schemas = new Map<string, ObjectSchema>();
  private fallback: SchemaCatalog | undefined;

  /**
   * The schema of `object`; for an apiVersion and kind no source knows but one does when case is ignored
   * (`argoproj.io/V1alpha1`, `kind: workflowtemplate`), a schema that says which was meant (the API server
   * knows kinds case-sensitively: such an object is refused); `undefined` when no source knows them at all.
   */
  public schemaFor(object: Record<string, unknown>): ObjectSchema | undefined {
    return this.exactSchemaFor(object) ?? this.nearMiss(object);
  }

  private exactSchemaFor(object: Record<string, unknown>): ObjectSchema | undefined {
    return this.schemas.get(keyOf(object.apiVersion, object.kind)) ?? this.fallback?.exactSchemaFor(object);
  }

  private nearMiss(object: Record<string, unknown>): ObjectSchema | undefined {
    const wanted = keyOf(object.apiVersion, object.kind).toLowerCase();
    const meant = this.kinds.find((known) => known.replace(/\/(?=[^/]*$)/, '|').toLowerCase() === wanted);
    if (meant === undefined) return undefined;
    const slash = meant.lastIndexOf('/');
    const [apiVersion, kind] = [meant.slice(0, slash), meant.slice(slash + 1)];
    const pointer = apiVersion !== object.apiVersion ? '/apiVersion' : '/kind';
    const message = `no kind ${JSON.stringify(object.kind)} in ${JSON.stringify(object.apiVersion)}: did you mean apiVersion ${apiVersion}, kind ${kind}? (the API server matches them case-sensitively)`;
    return { source: `no schema (did you mean ${apiVersion} ${kind}?)`, validate: () => [{ pointer, message, kind: 'schema' }] };
  }

  /** The kinds this catalog knows, `apiVersion/Kind`, sorted. */
  public get kinds(): string[] {
    const own = [...this.schemas.keys()].map((key) => key.replace('|', '/'));
    return [...new Set([...own, ...(this.fallback?.kinds ?? [])])].sort();
  }

  /** Adds a schema unless one is already known for the apiVersion and kind (the first source wins). */
  private add(apiVersion: string, kind: string, schema: ObjectSchema): void {
    const key = keyOf(apiVersion, kind);
    if (!this.schemas.has(key)) this.schemas.set(key, schema);
  }

  private withFallback(fallback: SchemaCatalog): SchemaCatalog {
    this.fallback = fallback;
    return this;
  }
}

function codeRunCrd(): Record<string, unknown> {
  return {
    kind: 'CustomResourceDefinition',
    metadata: { name: `${CODERUN_PLURAL}.${CODERUN_GROUP}` },
    spec: {
      group: CODERUN_GROUP,
      names: { kind: CODERUN_KIND },
      versions: [{ name: CODERUN_VERSION, storage: true, schema: { openAPIV3Schema: codeRunOpenApiSchema() } }],
    },
  };
}

const SCHEMA_FILE = /\.(ya?ml|json)$/;

function schemaFiles(directory: string): string[] {
  let entries: string[];
  try {
    if (!statSync(directory).isDirectory()) throw new SchemaSourceError(`${directory}: --crds expects a directory`);
    // Not recursive: a folder of exported CRDs is flat, and manifests kept below it are not schemas.
    entries = readdirSync(directory, { encoding: 'utf8' });
  } catch (error) {
    if (error instanceof SchemaSourceError) throw error;
    throw new SchemaSourceError(
      `${directory}: cannot read the schema directory (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  return entries
    .filter((entry) => SCHEMA_FILE.test(entry))
    .sort()
    .map((entry) => path.join(directory, entry))
    .filter((file) => statSync(file).isFile());
}

/**
 * The schemas in one file: every CRD (alone, in a multi-document file or in a `List`), or one definitions
 * schema. Anything else (a ConfigMap, an example manifest) is unusable input: `--crds` takes schemas only.
 */
function readSchemaFile(file: string): (CrdSchema | DefinitionsSchema)[] {
  // A Workflows CRD is megabytes of YAML: read each file once per process (until it changes).
  const stat = statSync(file);
  const key = `${path.resolve(file)}|${stat.size}|${stat.mtimeMs}`;
  let schemas = schemaFileCache.get(key);
  if (!schemas) {
    schemas = parseSchemaFile(file);
    schemaFileCache.set(key, schemas);
  }
  return schemas;
}

const schemaFileCache = new Map<string, (CrdSchema | DefinitionsSchema)[]>();

function parseSchemaFile(file: string): (CrdSchema | DefinitionsSchema)[] {
  if (file.endsWith('.json')) {
    const text = readFileSync(file, 'utf8');
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new SchemaSourceError(`${file}: not JSON (${(error as Error).message})`);
    }
    const definitions = DefinitionsSchema.fromDocument(document);
    if (definitions) return [definitions];
    return crdsIn([document], file);
  }
  try {
    return crdsIn(
      cachedFileDocuments(file, (yaml) => readKubernetesYaml(yaml).map((document) => compactCrd(document.value))),
      file,
    );
  } catch (error) {
    if (error instanceof YamlSyntaxError) throw new SchemaSourceError(`${file}: ${error.message}`);
    throw error;
  }
}

function crdsIn(documents: readonly unknown[], file: string): CrdSchema[] {
  const objects = documents
    .filter((document) => document !== null && document !== undefined)
    .flatMap((document) => (isRecord(document) && Array.isArray(document.items) ? document.items : [document]));
  const other = objects.findIndex((object) => !isRecord(object) || object.kind !== 'CustomResourceDefinition');
  if (other >= 0) {
    const object = objects[other];
    const what = isRecord(object) && typeof object.kind === 'string' ? `a ${object.kind}` : 'not a Kubernetes object';
    throw new SchemaSourceError(
      `${file}: object ${other + 1} is ${what}, not a CustomResourceDefinition: --crds takes CRDs (alone, several in a file, or a List) and JSON Schema files`,
    );
  }
  return objects.map((crd) => {
    try {
      return CrdSchema.fromCrd(crd);
    } catch (error) {
      if (error instanceof CrdShapeError) throw new SchemaSourceError(`${file}: ${error.message}`);
      throw error;
    }
  });
}

/**
 * A CRD with each version's schema in compact form (what the schema file cache keeps: a tenth of the size,
 * and no second pass when read back); any other document unchanged.
 */
function compactCrd(document: unknown): unknown {
  if (
    !isRecord(document) ||
    document.kind !== 'CustomResourceDefinition' ||
    !isRecord(document.spec) ||
    !Array.isArray(document.spec.versions)
  )
    return document;
  const versions = document.spec.versions.map((version: unknown) => {
    if (!isRecord(version) || !isRecord(version.schema) || !isRecord(version.schema.openAPIV3Schema)) return version;
    const compact = compactOpenApi(version.schema.openAPIV3Schema);
    return { ...version, schema: { openAPIV3Schema: compact.root, [COMPACT_DEFINITIONS]: compact.definitions } };
  });
  return { ...document, spec: { ...document.spec, versions } };
}
