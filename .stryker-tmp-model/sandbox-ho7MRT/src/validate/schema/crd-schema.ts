/**
 * The schema of a CustomResourceDefinition (apiextensions.k8s.io/v1), as a user exports it from a cluster
 * (`kubectl get crd workflowtemplates.argoproj.io -o yaml`) or as agent-play carries it (`schemas/`): each
 * version's `openAPIV3Schema`, converted, closed (unknown fields rejected, as `kubectl --validate=strict`
 * does) and compiled once (see validator-cache.ts), plus the CRD's CEL rules.
 */
// @ts-nocheck

import type { ValidateFunction } from 'ajv';
import { celProblems, type CelRuleLocation, holdsUnevaluatedCelRule, unevaluatedCelRules } from './cel-rules';
import { dereferenced, pruneSchema, shareRepeatedSchemas, sharedDefinitionName } from './compact-schema';
import { isRecord, PREPARATION_VERSION, prepareOpenApiSchema, type JsonSchema } from './json-schema-passes';
import { ajvProblems, type SchemaProblem } from './schema-problem';
import { cachedCelProblems, cachedUnevaluatedRules } from './cel-verdict-cache';
import { cachedValidators, validatorKey } from './validator-cache';
import { goRegexpProblem } from '../rules/go-regexp';
import { isPlainPattern } from './go-pattern';
import { costlyRules } from './cel-cost';
import { cachedParse } from './cel-parse-cache';

/** A CRD that cannot be used as a schema: not a v1 CRD, or a version without a schema. */
export class CrdShapeError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'CrdShapeError';
  }
}

/** A version's schema ready to check objects. */
export interface CompiledVersion {
  /** The compact schema, for the CEL rules: its `$ref`s lead into `definitions`. */
  readonly schema: JsonSchema;
  readonly definitions: Readonly<Record<string, JsonSchema>>;
  readonly validate: ValidateFunction;
  readonly unevaluated: SchemaProblem[];
  /** Names the schema by its content, for the CEL verdicts kept in the user cache (cel-verdict-cache.ts). */
  readonly celKey: string;
}

/**
 * A version's `openAPIV3Schema` in compact form: `root` may `$ref` sub-schemas stored once in `definitions`
 * (see compact-schema.ts).
 */
export interface CompactOpenApi {
  readonly root: JsonSchema;
  readonly definitions: Readonly<Record<string, JsonSchema>>;
}

/**
 * A CRD's `openAPIV3Schema` in compact form: pruned to what validation reads, repeated sub-schemas shared.
 * A user's CRD may carry keywords agent-play does not know; they are kept.
 */
export const compactOpenApi = (openApi: JsonSchema): CompactOpenApi => {
  const shared = shareRepeatedSchemas({ root: pruneSchema(openApi, '', true) });
  return { root: shared.roots.root, definitions: shared.definitions };
};

const ROOT = 'root';

/**
 * The CEL rules of a compact schema that cel-rules.ts does not evaluate, with where they are: each shared
 * definition is looked at once, not at every place it is used.
 */
function unevaluatedRules(root: JsonSchema, definitions: Readonly<Record<string, JsonSchema>>): CelRuleLocation[] {
  if (!holdsUnevaluatedCelRule([root, definitions])) return [];
  const byDefinition = new Map<string, CelRuleLocation[]>();
  const under = (at: string, found: CelRuleLocation): CelRuleLocation => {
    if (found.at === '/') return { ...found, at: at || '/' };
    if (found.at.startsWith('/ (')) return { ...found, at: `${at || '/'}${found.at.slice(1)}` };
    return { ...found, at: `${at}${found.at}` };
  };
  const walk = (node: unknown, at: string): CelRuleLocation[] => {
    if (!isRecord(node)) return [];
    const shared = sharedDefinitionName(node);
    if (shared !== undefined) {
      let relative = byDefinition.get(shared);
      if (!relative) {
        relative = walk(definitions[shared], '');
        byDefinition.set(shared, relative);
      }
      return relative.map((found) => under(at, found));
    }
    const { properties, items, additionalProperties, ...own } = node;
    const found = unevaluatedCelRules(own, at);
    for (const [name, child] of Object.entries(isRecord(properties) ? properties : {})) found.push(...walk(child, `${at}/${name}`));
    found.push(...walk(items, `${at}/*`), ...walk(additionalProperties, `${at}/{}`));
    return found;
  };
  return walk(root, '');
}

/**
 * Where a CRD version kept in compact form holds its shared definitions, beside `openAPIV3Schema` (a key
 * no Kubernetes CRD has).
 */
export const COMPACT_DEFINITIONS = 'x-agent-play-definitions';

/**
 * Compiles each schema of `versions` (by name) from one document, through the validator cache. The document
 * ajv compiles (converted and closed, see json-schema-passes.ts) is made only when the cache lacks its
 * validators: the cache knows it by the compact schemas it is made from and the preparation's version, so that a
 * start that finds its validators does not convert every node of the Argo schemas first. The CEL rules are
 * read from the compact schemas as they are: converting and closing leave `x-kubernetes-validations`,
 * `properties`, `items` and `additionalProperties` schemas as they were.
 */
export function compileVersions(id: string, versions: Readonly<Record<string, CompactOpenApi>>): Record<string, () => CompiledVersion> {
  // Versions (and the built-in kinds) share definitions, named by their content (compact-schema.ts).
  const definitions: Record<string, JsonSchema> = {};
  for (const version of new Set(Object.values(versions).map((each) => each.definitions))) Object.assign(definitions, version);
  const rootName = (name: string): string => `${ROOT}.${name.replace(/[^A-Za-z0-9]/g, '_')}`;
  const refs = Object.fromEntries(
    Object.keys(versions).map((name) => [rootName(name).replace('.', '_'), `${id}#/definitions/${rootName(name)}`]),
  );
  const document = (): JsonSchema => {
    const prepared = Object.entries(versions).map(([name, version]) => [rootName(name), prepareOpenApiSchema(version.root)]);
    return { $id: id, definitions: { ...prepareOpenApiSchema({ definitions }).definitions, ...Object.fromEntries(prepared) } };
  };
  // The roots and the merged definitions, not `versions` itself: the built-in kinds each hold the same
  // definitions, which the key would otherwise serialise once per kind.
  const roots = Object.fromEntries(Object.entries(versions).map(([name, version]) => [name, version.root]));
  const request = { document, madeFrom: { id, roots, definitions, preparation: PREPARATION_VERSION }, refs };
  const compiled = new Map<string, CompiledVersion>();
  return Object.fromEntries(
    Object.keys(versions).map((name) => [
      name,
      (): CompiledVersion => {
        let version = compiled.get(name);
        if (!version) {
          const validate = cachedValidators(request)[rootName(name).replace('.', '_')];
          const schema = versions[name].root;
          const celKey = `${validatorKey(request)}:${name}`;
          const unevaluated = cachedUnevaluatedRules(celKey, () =>
            unevaluatedRules(schema, definitions).map(
              (found): SchemaProblem => ({
                pointer: '',
                message: `CEL rule at ${found.at} not evaluated (a transition rule on oldSelf, or a Kubernetes-only CEL function agent-play's CEL library does not have): ${found.rule}`,
                kind: 'cel-not-evaluated',
              }),
            ),
          );
          version = { schema, definitions, validate, unevaluated, celKey };
          compiled.set(name, version);
        }
        return version;
      },
    ]),
  );
}

interface CrdVersion {
  readonly name: string;
  readonly storage: boolean;
  /** Whether the version's schema lists any field of `spec`. */
  readonly describesFields: boolean;
  readonly compiled: () => CompiledVersion;
}

/** A version as `CrdSchema.fromCompact` takes it. */
export interface CompactCrdVersion {
  readonly name: string;
  readonly storage: boolean;
  readonly openApi: CompactOpenApi;
}

const describesFields = (openApi: CompactOpenApi): boolean => {
  let spec = openApi.root.properties?.spec;
  const shared = sharedDefinitionName(spec);
  if (shared !== undefined) spec = openApi.definitions[shared];
  return isRecord(spec) && isRecord(spec.properties) && Object.keys(spec.properties).length > 0;
};

/**
 * The first `pattern` of a schema that Go's regexp refuses (lookahead, backreferences...): the API server
 * compiles every pattern of a CRD with it and refuses the CRD for one it cannot
 * (k8s.io/apiextensions-apiserver validation.go, ValidateCustomResourceDefinitionOpenAPISchema).
 */
function refusedPattern(schemas: readonly unknown[]): { pattern: string; problem: string } | undefined {
  const pending = [...schemas];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    if (!isRecord(node)) continue;
    if (typeof node.pattern === 'string' && !isPlainPattern(node.pattern)) {
      const problem = goRegexpProblem(node.pattern);
      if (problem !== undefined) return { pattern: node.pattern, problem };
    }
    for (const key in node) if (node[key] !== null && typeof node[key] === 'object') pending.push(node[key]);
  }
  return undefined;
}

/** One CRD's schemas, by version. */
export class CrdSchema {
  /**
   * @throws CrdShapeError when `crd` is not an apiextensions.k8s.io/v1 CustomResourceDefinition with a schema
   */
  public static fromCrd(crd: unknown): CrdSchema {
    if (!isRecord(crd) || crd.kind !== 'CustomResourceDefinition' || !isRecord(crd.spec) || !Array.isArray(crd.spec.versions)) {
      throw new CrdShapeError('not an apiextensions.k8s.io/v1 CustomResourceDefinition (spec.versions missing)');
    }
    const name = String(crd.metadata?.name ?? '');
    const group = crd.spec.group;
    const kind = crd.spec.names?.kind;
    if (typeof group !== 'string' || typeof kind !== 'string')
      throw new CrdShapeError(`CRD ${name}: spec.group and spec.names.kind must be set`);
    const versions = (crd.spec.versions as unknown[]).map((version, index): CompactCrdVersion => {
      const schema = isRecord(version) ? version.schema : undefined;
      const openApi = isRecord(schema) ? schema.openAPIV3Schema : undefined;
      if (!isRecord(version) || typeof version.name !== 'string' || !isRecord(openApi))
        throw new CrdShapeError(`CRD ${name}: spec.versions[${index}] has no name or no schema.openAPIV3Schema`);
      // A CRD read through the schema file cache is already compact (see parsed-yaml-cache.ts).
      const compact = isRecord(schema?.[COMPACT_DEFINITIONS])
        ? { root: openApi, definitions: schema[COMPACT_DEFINITIONS] }
        : compactOpenApi(openApi);
      const refused = refusedPattern([compact.root, compact.definitions]);
      if (refused)
        throw new CrdShapeError(
          `CRD ${name}: spec.versions[${index}]: pattern ${JSON.stringify(refused.pattern)} is not a Go regular expression (${refused.problem}): the API server refuses this CRD`,
        );
      const costly = JSON.stringify(compact).includes('"x-kubernetes-validations"')
        ? costlyRules(
            compact.root,
            (node) => dereferenced(node, compact.definitions),
            (rule) => cachedParse(rule).expr as never,
          )
        : [];
      if (costly.length > 0)
        throw new CrdShapeError(
          `CRD ${name}: spec.versions[${index}]: the rule ${JSON.stringify(costly[0].rule)} at ${costly[0].at}: ${costly[0].message}: the API server refuses this CRD`,
        );
      return { name: version.name, storage: version.storage === true, openApi: compact };
    });
    return CrdSchema.fromCompact(name, group, kind, versions);
  }

  /**
   * A CRD from schemas already in compact form (the built-in Argo Workflows CRDs).
   * @param compilers each version's compiler, by version name, when several CRDs share one compiled document
   * @default compiled on their own
   */
  public static fromCompact(
    name: string,
    group: string,
    kind: string,
    versions: readonly CompactCrdVersion[],
    compilers = compileVersions(`agent-play:crd:${name}`, Object.fromEntries(versions.map((version) => [version.name, version.openApi]))),
  ): CrdSchema {
    return new CrdSchema(
      name,
      group,
      kind,
      versions.map((version) => ({
        name: version.name,
        storage: version.storage,
        describesFields: describesFields(version.openApi),
        compiled: compilers[version.name],
      })),
    );
  }

  private constructor(
    /** The CRD's name, e.g. `workflowtemplates.argoproj.io`. */
    public readonly name: string,
    public readonly group: string,
    public readonly kind: string,
    private readonly versions: readonly CrdVersion[],
  ) {}

  /** The apiVersions it serves, e.g. `argoproj.io/v1alpha1`. */
  public get apiVersions(): string[] {
    return this.versions.map((version) => `${this.group}/${version.name}`);
  }

  /**
   * Whether the schema says anything about the object's fields: the Argo Events CRDs only preserve unknown
   * fields, and another source (their JSON Schema) should then be preferred.
   */
  public get describesFields(): boolean {
    return this.versions.some((version) => version.describesFields);
  }

  /** Problems of `object` against the version its apiVersion names (or the storage version). */
  public validate(object: unknown): SchemaProblem[] {
    if (!isRecord(object)) return [{ pointer: '', message: 'must be object', kind: 'schema' }];
    const problems: SchemaProblem[] = [];
    const [group, versionName] =
      typeof object.apiVersion === 'string' && object.apiVersion.includes('/') ? object.apiVersion.split('/', 2) : [undefined, undefined];
    const named = group === this.group ? this.versions.find((version) => version.name === versionName) : undefined;
    if (!named)
      problems.push({
        pointer: '/apiVersion',
        message: `${JSON.stringify(object.apiVersion)} is not served by ${this.name} (${this.apiVersions.join(', ')})`,
        kind: 'schema',
      });
    if (object.kind !== this.kind)
      problems.push({ pointer: '/kind', message: `${JSON.stringify(object.kind)} is not ${JSON.stringify(this.kind)}`, kind: 'schema' });
    const chosen = named ?? this.versions.find((version) => version.storage) ?? this.versions[0];
    const version = chosen.compiled();
    if (!version.validate(object)) problems.push(...ajvProblems(version.validate.errors));
    const cel = cachedCelProblems(version.celKey, object, () => celProblems(version.schema, object, '', version.definitions));
    problems.push(...cel, ...version.unevaluated);
    return problems;
  }
}
