/**
 * The Kubernetes API in memory, for the simulator and the tests: the runtime steps run against it exactly as
 * they run against the API server. It keeps what the steps rely on: resourceVersions (a merge patch that
 * carries a stale one is a 409), AlreadyExists on create, `generateName`, label selectors, JSON merge patch
 * (RFC 7386) and JSON patch (RFC 6902, a failed `test` is a 422), garbage collection by owner references on
 * delete, and, when given the grants of a service account, a 403 for every call they do not allow.
 */
import {
  ApiError,
  apiGroupOf,
  type ApiResource,
  HttpStatus,
  type JsonPatchOperation,
  type KubeApi,
  type KubeObject,
  type ObjectRef,
  type PropagationPolicy,
} from '../../constructs/runtime/kube-api';

/** An API verb, as RBAC names it. */
export type ApiVerb = 'get' | 'list' | 'create' | 'patch' | 'delete';

/** One call a client made, for the tests (and the RBAC check) to read. */
export interface ApiCall {
  readonly verb: ApiVerb;
  readonly resource: ApiResource;
  readonly namespace: string;
  /** The object's name; absent for list and for a create by generateName. */
  readonly name?: string;
}

/** Decides whether a call is allowed (a service account's grants); `undefined` allows everything. */
export type Authorizer = (call: ApiCall) => boolean;

/** An in-memory API server shared by every client (`client()`) that reads and writes it. */
export class MemoryApiServer {
  private readonly objects = new Map<string, KubeObject>();
  private version = 0;
  private uids = 0;
  private generated = 0;
  /** Every call of every client, in order. */
  public readonly calls: ApiCall[] = [];
  /** Called after every change (create, patch, delete), e.g. for the simulator's controllers to react. */
  public onChange: (() => void) | undefined;

  /** @param clock the time a created object gets as its creationTimestamp */
  public constructor(private readonly clock: () => Date = () => new Date(0)) {}

  /** A client whose calls the authorizer checks (a service account); without one, every call is allowed. */
  public client(authorize?: Authorizer): KubeApi {
    return new MemoryApiClient(this, authorize);
  }

  /** Every object of a resource in a namespace (a copy), in name order. */
  public all(resource: ApiResource, namespace?: string): KubeObject[] {
    return this.storedObjects(resource, namespace).map((object) => structuredClone(object));
  }

  /**
   * Every object of a resource in a namespace as stored, in name order, not copied: for a controller that
   * only reads them, each pass (copying every Workflow at every pass was most of a simulation's time). A
   * stored object is never changed (a write stores a new one), so what this returns stays as it was read;
   * the caller must not change it either, and copies what it hands on.
   */
  public storedObjects(resource: ApiResource, namespace?: string): readonly Readonly<KubeObject>[] {
    const prefix = `${resource.plural}/${namespace === undefined ? '' : `${namespace}/`}`;
    return [...this.objects.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, object]) => object);
  }

  /** The object, or `undefined` (a copy). */
  public peek(ref: ObjectRef): KubeObject | undefined {
    const object = this.objects.get(keyOf(ref));
    return object === undefined ? undefined : structuredClone(object);
  }

  /** The uid of the object, or `undefined` when there is none: `peek` without copying the whole object. */
  public uidOf(ref: ObjectRef): string | undefined {
    return this.objects.get(keyOf(ref))?.metadata.uid;
  }

  /** Puts an object as it is (a controller's write, bypassing authorization), giving it a new resourceVersion. */
  public put(resource: ApiResource, object: KubeObject): KubeObject {
    const stored = structuredClone(object);
    stored.metadata.resourceVersion = this.nextVersion();
    this.objects.set(keyOf({ resource, namespace: stored.metadata.namespace ?? '', name: stored.metadata.name ?? '' }), stored);
    this.onChange?.();
    return structuredClone(stored);
  }

  /** Removes an object and, unless orphaned, its dependents (by owner uid), as the garbage collector does. */
  public remove(ref: ObjectRef, propagation: PropagationPolicy = 'Background'): void {
    const object = this.objects.get(keyOf(ref));
    if (object === undefined) return;
    this.objects.delete(keyOf(ref));
    if (propagation !== 'Orphan') this.collectDependents(object.metadata.uid);
    this.onChange?.();
  }

  private collectDependents(uid: string | undefined): void {
    if (uid === undefined) return;
    for (const [key, object] of [...this.objects.entries()]) {
      const owned = (object.metadata.ownerReferences ?? []).some((owner) => owner.uid === uid);
      if (!owned) continue;
      this.objects.delete(key);
      this.collectDependents(object.metadata.uid);
    }
  }

  /** @internal */
  public record(call: ApiCall, authorize: Authorizer | undefined): void {
    this.calls.push(call);
    if (authorize && !authorize(call)) {
      const target = call.name === undefined ? call.resource.plural : `${call.resource.plural} "${call.name}"`;
      throw new ApiError(
        HttpStatus.forbidden,
        'Forbidden',
        `cannot ${call.verb} resource ${target} in API group "${apiGroupOf(call.resource)}" in namespace "${call.namespace}"`,
      );
    }
  }

  /** @internal */
  public stored(ref: ObjectRef): KubeObject {
    const object = this.objects.get(keyOf(ref));
    if (object === undefined)
      throw new ApiError(HttpStatus.notFound, 'NotFound', `${ref.resource.plural} "${ref.name}" not found in namespace "${ref.namespace}"`);
    return object;
  }

  /** @internal */
  public insert(resource: ApiResource, namespace: string, object: KubeObject): KubeObject {
    const stored = structuredClone(object);
    stored.metadata.namespace = namespace;
    if (stored.metadata.name === undefined || stored.metadata.name === '') {
      if (!stored.metadata.generateName) throw new ApiError(422, 'Invalid', 'metadata.name or metadata.generateName is required');
      this.generated += 1;
      stored.metadata.name = `${stored.metadata.generateName}${this.generated.toString(36).padStart(5, '0')}`;
    }
    const key = keyOf({ resource, namespace, name: stored.metadata.name });
    if (this.objects.has(key))
      throw new ApiError(HttpStatus.conflict, 'AlreadyExists', `${resource.plural} "${stored.metadata.name}" already exists`);
    this.uids += 1;
    stored.metadata.uid = `uid-${this.uids}`;
    stored.metadata.creationTimestamp = this.clock()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    stored.metadata.resourceVersion = this.nextVersion();
    stored.apiVersion ??= resource.apiVersion;
    stored.kind ??= resource.kind;
    this.objects.set(key, stored);
    this.onChange?.();
    return structuredClone(stored);
  }

  /** @internal */
  public replaceStored(ref: ObjectRef, object: KubeObject): KubeObject {
    object.metadata.resourceVersion = this.nextVersion();
    this.objects.set(keyOf(ref), object);
    this.onChange?.();
    return structuredClone(object);
  }

  private nextVersion(): string {
    this.version += 1;
    return String(this.version);
  }
}

function keyOf(ref: ObjectRef): string {
  return `${ref.resource.plural}/${ref.namespace}/${ref.name}`;
}

/** One client of the in-memory server. */
class MemoryApiClient implements KubeApi {
  public constructor(
    private readonly server: MemoryApiServer,
    private readonly authorize: Authorizer | undefined,
  ) {}

  public async get(ref: ObjectRef): Promise<KubeObject> {
    this.server.record({ verb: 'get', resource: ref.resource, namespace: ref.namespace, name: ref.name }, this.authorize);
    return structuredClone(this.server.stored(ref));
  }

  public async list(resource: ApiResource, namespace: string, labelSelector?: string): Promise<KubeObject[]> {
    this.server.record({ verb: 'list', resource, namespace }, this.authorize);
    const matches = parseSelector(labelSelector ?? '');
    // Copies only what the selector keeps.
    return this.server
      .storedObjects(resource, namespace)
      .filter((object) => matches(object.metadata.labels ?? {}))
      .map((object) => structuredClone(object));
  }

  public async create(resource: ApiResource, namespace: string, object: KubeObject): Promise<KubeObject> {
    this.server.record({ verb: 'create', resource, namespace, name: object.metadata.name }, this.authorize);
    return this.server.insert(resource, namespace, object);
  }

  public async mergePatch(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject> {
    this.server.record({ verb: 'patch', resource: ref.resource, namespace: ref.namespace, name: ref.name }, this.authorize);
    const current = this.server.stored(ref);
    const expected = (patch.metadata as { resourceVersion?: unknown } | undefined)?.resourceVersion;
    if (expected !== undefined && expected !== current.metadata.resourceVersion)
      throw new ApiError(
        HttpStatus.conflict,
        'Conflict',
        `Operation cannot be fulfilled on ${ref.resource.plural} "${ref.name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    return this.server.replaceStored(ref, mergePatch(structuredClone(current), patch) as KubeObject);
  }

  public async jsonPatch(ref: ObjectRef, operations: readonly JsonPatchOperation[]): Promise<KubeObject> {
    this.server.record({ verb: 'patch', resource: ref.resource, namespace: ref.namespace, name: ref.name }, this.authorize);
    const patched = structuredClone(this.server.stored(ref));
    for (const operation of operations) applyOperation(patched, operation);
    return this.server.replaceStored(ref, patched);
  }

  public async delete(ref: ObjectRef, propagationPolicy?: PropagationPolicy): Promise<void> {
    this.server.record({ verb: 'delete', resource: ref.resource, namespace: ref.namespace, name: ref.name }, this.authorize);
    this.server.stored(ref);
    this.server.remove(ref, propagationPolicy);
  }
}

/** RFC 7386: objects merge key by key, `null` removes a key, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return structuredClone(patch);
  const result: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** A label selector of `key=value`, `key==value` and `key!=value` terms, as a predicate on labels. */
export function parseSelector(selector: string): (labels: Readonly<Record<string, string>>) => boolean {
  const terms = selector
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '')
    .map((term) => {
      const negated = term.includes('!=');
      const [key, value] = term.split(/!=|==|=/);
      if (value === undefined) throw new ApiError(400, 'BadRequest', `unable to parse requirement: ${term}`);
      return { key: key.trim(), value: value.trim(), negated };
    });
  return (labels) => terms.every(({ key, value, negated }) => (labels[key] === value) !== negated);
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new ApiError(HttpStatus.unprocessable, 'Invalid', `bad JSON pointer ${path}`);
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function applyOperation(document: KubeObject, operation: JsonPatchOperation): void {
  const parts = pointer(operation.path);
  const last = parts.pop();
  if (last === undefined) throw new ApiError(HttpStatus.unprocessable, 'Invalid', 'cannot patch the whole object');
  let parent: unknown = document;
  for (const part of parts) {
    parent = (parent as Record<string, unknown> | undefined)?.[part];
    if (typeof parent !== 'object' || parent === null)
      throw new ApiError(HttpStatus.unprocessable, 'Invalid', `${operation.path}: no such parent`);
  }
  const container = parent as Record<string, unknown>;
  if (operation.op === 'test') {
    if (JSON.stringify(container[last]) !== JSON.stringify(operation.value))
      throw new ApiError(HttpStatus.unprocessable, 'Invalid', `the test of ${operation.path} failed`);
    return;
  }
  if (operation.op === 'remove') {
    if (!(last in container)) throw new ApiError(HttpStatus.unprocessable, 'Invalid', `${operation.path}: nothing to remove`);
    delete container[last];
    return;
  }
  if (operation.op === 'replace' && !(last in container))
    throw new ApiError(HttpStatus.unprocessable, 'Invalid', `${operation.path}: nothing to replace`);
  container[last] = structuredClone(operation.value);
}
