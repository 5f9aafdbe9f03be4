/**
 * The schema of a CustomResourceDefinition (apiextensions.k8s.io/v1), as a user exports it from a cluster
 * (`kubectl get crd workflowtemplates.argoproj.io -o yaml`): each version's `openAPIV3Schema`, converted,
 * closed (unknown fields rejected, as `kubectl --validate=strict` does) and compiled once per process, plus the
 * CRD's CEL rules.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { celProblems, unevaluatedCelRules } from './cel-rules';
import { AJV_OPTIONS, isRecord, prepareOpenApiSchema, type JsonSchema } from './json-schema-passes';
import { ajvProblems, type SchemaProblem } from './schema-problem';

/** A CRD that cannot be used as a schema: not a v1 CRD, or a version without a schema. */
export class CrdShapeError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'CrdShapeError';
  }
}

interface CompiledVersion {
  readonly schema: JsonSchema;
  readonly validate: ValidateFunction;
  readonly unevaluated: SchemaProblem[];
}

/** Compiled schemas by their text: the same CRD read twice (or by two callers) compiles once. */
const compiled = new Map<string, CompiledVersion>();

function compileVersion(openApi: JsonSchema): CompiledVersion {
  const key = JSON.stringify(openApi);
  let version = compiled.get(key);
  if (!version) {
    const schema = prepareOpenApiSchema(openApi);
    const unevaluated = unevaluatedCelRules(openApi).map((found): SchemaProblem => ({ pointer: '', message: `CEL rule at ${found.at} not evaluated (agent-play only evaluates the Argo Workflows CRDs' rules): ${found.rule}`, kind: 'cel-not-evaluated' }));
    version = { schema, validate: new Ajv(AJV_OPTIONS).compile(schema), unevaluated };
    compiled.set(key, version);
  }
  return version;
}

interface CrdVersion {
  readonly name: string;
  readonly storage: boolean;
  readonly openApi: JsonSchema;
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
    if (typeof group !== 'string' || typeof kind !== 'string') throw new CrdShapeError(`CRD ${name}: spec.group and spec.names.kind must be set`);
    const versions = (crd.spec.versions as unknown[]).map((version, index): CrdVersion => {
      const openApi = isRecord(version) ? version.schema?.openAPIV3Schema : undefined;
      if (!isRecord(version) || typeof version.name !== 'string' || !isRecord(openApi)) throw new CrdShapeError(`CRD ${name}: spec.versions[${index}] has no name or no schema.openAPIV3Schema`);
      return { name: version.name, storage: version.storage === true, openApi };
    });
    return new CrdSchema(name, group, kind, versions);
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
    return this.versions.some((version) => {
      const spec = version.openApi.properties?.spec;
      return isRecord(spec) && isRecord(spec.properties) && Object.keys(spec.properties).length > 0;
    });
  }

  /** Problems of `object` against the version its apiVersion names (or the storage version). */
  public validate(object: unknown): SchemaProblem[] {
    if (!isRecord(object)) return [{ pointer: '', message: 'must be object', kind: 'schema' }];
    const problems: SchemaProblem[] = [];
    const [group, versionName] = typeof object.apiVersion === 'string' && object.apiVersion.includes('/') ? object.apiVersion.split('/', 2) : [undefined, undefined];
    const named = group === this.group ? this.versions.find((version) => version.name === versionName) : undefined;
    if (!named) problems.push({ pointer: '/apiVersion', message: `${JSON.stringify(object.apiVersion)} is not served by ${this.name} (${this.apiVersions.join(', ')})`, kind: 'schema' });
    if (object.kind !== this.kind) problems.push({ pointer: '/kind', message: `${JSON.stringify(object.kind)} is not ${JSON.stringify(this.kind)}`, kind: 'schema' });
    const chosen = named ?? this.versions.find((version) => version.storage) ?? this.versions[0];
    const version = compileVersion(chosen.openApi);
    if (!version.validate(object)) problems.push(...ajvProblems(version.validate.errors));
    problems.push(...celProblems(version.schema, object), ...version.unevaluated);
    return problems;
  }
}
