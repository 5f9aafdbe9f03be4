/**
 * `npm run schemas`: writes the Argo schemas agent-play carries (`schemas/`) from the upstream files kept
 * outside the project (`../shared/argo/`, see its README.md for where each file comes from):
 *
 * - `argo-workflows.json`: the `openAPIV3Schema` of the four Argo Workflows CRDs (Workflow, WorkflowTemplate,
 *   ClusterWorkflowTemplate, CronWorkflow), pruned to what validation reads, repeated sub-schemas shared;
 * - `argo-events.json`: the Sensor, EventSource and EventBus definitions of Argo Events' JSON Schema and
 *   every definition they reach, pruned the same way (its CRDs carry no field schema);
 * - `PROVENANCE.json`: release tags, commits, and the sha256 of every upstream file read;
 * - the upstream LICENSE files, unchanged.
 *
 * For a new Argo release: copy the new upstream files into `../shared/argo/`, update `UPSTREAM` below, run
 * `npm run schemas`, and review the diff. `test/schema-data.test.ts` fails while the committed data and this
 * script's output differ.
 */
// @ts-nocheck

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { canonicalJson, pruneSchema, reachableDefinitions, shareRepeatedSchemas } from '../src/validate/schema/compact-schema';
import { isRecord, type JsonSchema, withoutGoTagRequired } from '../src/validate/schema/json-schema-passes';

/** The upstream releases the files in `../shared/argo/` are byte-identical to. */
export const UPSTREAM = {
  workflows: {
    repository: 'https://github.com/argoproj/argo-workflows',
    tag: 'v4.1.2',
    tagCommit: '16a52d67daf2f4a8a76fa8bec02a76a46aa46257',
    copiedFromCommit: 'f016ad89eb269d282aec06dc491c29f396a38df4',
    crds: {
      Workflow: 'argoproj.io_workflows.yaml',
      WorkflowTemplate: 'argoproj.io_workflowtemplates.yaml',
      ClusterWorkflowTemplate: 'argoproj.io_clusterworkflowtemplates.yaml',
      CronWorkflow: 'argoproj.io_cronworkflows.yaml',
    } as Record<string, string>,
    upstreamPaths: 'manifests/base/crds/full/<file>',
    license: 'LICENSE-argo-workflows',
  },
  events: {
    repository: 'https://github.com/argoproj/argo-events',
    tag: 'v1.9.11',
    tagCommit: 'd13fde07d944c081c25574305911908c80faa98e',
    copiedFromCommit: '6478ece495f951dde9f183ae58fde134c52f41a5',
    jsonSchema: 'argo-events.schema.json',
    upstreamPath: 'api/jsonschema/schema.json',
    kinds: ['Sensor', 'EventSource', 'EventBus'],
    license: 'LICENSE-argo-events',
  },
} as const;

/** Where `npm run schemas` writes, from the project root. */
export const SCHEMAS_DIR = 'schemas';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Minified JSON with sorted keys and a final newline: the same input always gives the same bytes. */
const jsonFile = (value: unknown): string => `${canonicalJson(value)}\n`;

function workflowsData(argoDir: string, readCrd: (file: string) => unknown): string {
  const roots: Record<string, unknown> = {};
  const kinds: Record<string, JsonSchema> = {};
  for (const [kind, file] of Object.entries(UPSTREAM.workflows.crds)) {
    const crd = readCrd(file) as JsonSchema;
    const versions = crd.spec?.versions;
    if (!Array.isArray(versions) || crd.spec?.names?.kind !== kind) throw new Error(`${path.join(argoDir, file)}: not the ${kind} CRD`);
    kinds[kind] = {
      crd: crd.metadata.name,
      group: crd.spec.group,
      versions: versions.map((version: JsonSchema) => ({
        name: version.name,
        storage: version.storage === true,
        served: version.served === true,
      })),
    };
    for (const version of versions)
      roots[`${kind}/${version.name}`] = pruneSchema(version.schema.openAPIV3Schema, `${file}#${version.name}`);
  }
  const shared = shareRepeatedSchemas(roots);
  return jsonFile({
    project: 'argo-workflows',
    version: UPSTREAM.workflows.tag,
    kinds,
    roots: shared.roots,
    definitions: shared.definitions,
  });
}

/** The prefix of Argo Events' own definitions in its JSON Schema. */
const ARGO_EVENTS_DEFINITION = 'io.argoproj.events.';

function eventsData(read: (file: string) => string): string {
  const document = JSON.parse(read(UPSTREAM.events.jsonSchema)) as JsonSchema;
  if (!isRecord(document.definitions)) throw new Error(`${UPSTREAM.events.jsonSchema}: no definitions`);
  const kinds = Object.fromEntries(
    UPSTREAM.events.kinds.map((kind) => [kind, { apiVersion: 'argoproj.io/v1alpha1', definition: `io.argoproj.events.v1alpha1.${kind}` }]),
  );
  const names = reachableDefinitions(
    document.definitions,
    Object.values(kinds).map((kind) => kind.definition),
    UPSTREAM.events.jsonSchema,
  );
  // Argo Events' own definitions lose the `required` lists of Go fields without omitempty, which nothing
  // in Argo enforces; the Kubernetes definitions keep Kubernetes' own.
  const definitions = Object.fromEntries(
    [...names].sort().map((name) => {
      const definition = pruneSchema(document.definitions[name], `definitions/${name}`);
      return [name, name.startsWith(ARGO_EVENTS_DEFINITION) ? withoutGoTagRequired(definition as JsonSchema) : definition];
    }),
  );
  return jsonFile({ project: 'argo-events', version: UPSTREAM.events.tag, $id: document.$id, kinds, definitions });
}

function provenance(read: (file: string) => string): string {
  const hashes = (files: readonly string[]) => Object.fromEntries(files.map((file) => [file, sha256(read(file))]));
  const { workflows, events } = UPSTREAM;
  return `${JSON.stringify(
    {
      generator: 'scripts/generate-schemas.ts',
      'argo-workflows.json': {
        repository: workflows.repository,
        tag: workflows.tag,
        tagCommit: workflows.tagCommit,
        copiedFromCommit: workflows.copiedFromCommit,
        upstreamPaths: workflows.upstreamPaths,
        license: workflows.license,
        sha256: hashes([...Object.values(workflows.crds), workflows.license]),
      },
      'argo-events.json': {
        repository: events.repository,
        tag: events.tag,
        tagCommit: events.tagCommit,
        copiedFromCommit: events.copiedFromCommit,
        upstreamPath: events.upstreamPath,
        license: events.license,
        sha256: hashes([events.jsonSchema, events.license]),
      },
    },
    null,
    2,
  )}\n`;
}

/**
 * Every file of `schemas/`, by name, generated from the upstream files in `argoDir`. Nothing is written.
 * @param readCrd reads a CRD file of `argoDir` (it is not changed) @default parses it, as YAML, each time
 */
export function generateSchemaFiles(
  argoDir: string,
  readCrd: (file: string) => unknown = (file) => parse(readFileSync(path.join(argoDir, file), 'utf8')),
): Map<string, string> {
  const read = (file: string): string => readFileSync(path.join(argoDir, file), 'utf8');
  return new Map([
    ['argo-workflows.json', workflowsData(argoDir, readCrd)],
    ['argo-events.json', eventsData(read)],
    ['PROVENANCE.json', provenance(read)],
    [UPSTREAM.workflows.license, read(UPSTREAM.workflows.license)],
    [UPSTREAM.events.license, read(UPSTREAM.events.license)],
  ]);
}

function main(): void {
  const argoDir = process.argv[2] ?? path.join('..', 'shared', 'argo');
  const files = generateSchemaFiles(argoDir);
  mkdirSync(SCHEMAS_DIR, { recursive: true });
  for (const [name, text] of files) {
    const target = path.join(SCHEMAS_DIR, name);
    writeFileSync(`${target}.tmp`, text);
    renameSync(`${target}.tmp`, target);
  }
  process.stdout.write(
    `wrote ${[...files.keys()].map((name) => `${SCHEMAS_DIR}/${name} (${files.get(name)?.length} bytes)`).join(', ')}\n`,
  );
}

if (require.main === module) main();
