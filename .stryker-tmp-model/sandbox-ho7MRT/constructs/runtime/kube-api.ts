/**
 * The one interface through which the platform's runtime steps talk to the Kubernetes API server: get, list,
 * create, patch (merge, with the resourceVersion read for an optimistic lock, or JSON patch), and delete
 * with a propagation policy. A step sees answers as status codes (`ApiError.status`), never as text to grep.
 *
 * In a pod it is served over HTTPS with the pod's service-account token (runtime/in-cluster-api.ts); the
 * simulator and the tests serve it from memory (src/simulate/memory-api.ts), so the same step code runs in
 * both.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import { ARGO_API_VERSION } from '../model/argo-api';
import { CODERUN_API_VERSION, CODERUN_KIND, CODERUN_PLURAL } from '../model/coderun-api';

/** A kind of object the runtime reads or writes: where its API lives and what it is called. */
export interface ApiResource {
  /** `v1` for the core group, else `group/version`. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The plural name in the API path and in RBAC rules. */
  readonly plural: string;
}

/** The API group of a resource: empty for the core group (`v1`). */
export function apiGroupOf(resource: ApiResource): string {
  const slash = resource.apiVersion.indexOf('/');
  return slash < 0 ? '' : resource.apiVersion.slice(0, slash);
}

/** The resources the runtime steps touch, defined once (RBAC checks read the same list). */
export const ApiResources = {
  configMaps: { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps' },
  workflows: { apiVersion: ARGO_API_VERSION, kind: 'Workflow', plural: 'workflows' },
  codeRuns: { apiVersion: CODERUN_API_VERSION, kind: CODERUN_KIND, plural: CODERUN_PLURAL },
  pods: { apiVersion: 'v1', kind: 'Pod', plural: 'pods' },
} as const satisfies Record<string, ApiResource>;

/** The metadata the runtime reads and writes. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: Array<Record<string, unknown>>;
}

/** Any Kubernetes object, as JSON. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** One object, by its resource, namespace and name. */
export interface ObjectRef {
  readonly resource: ApiResource;
  readonly namespace: string;
  readonly name: string;
}

/** One operation of a JSON patch (RFC 6902). */
export type JsonPatchOperation =
  | { readonly op: 'add' | 'replace' | 'test'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string };

/** How a delete reaches an object's dependents (owner references). */
export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/** The Kubernetes API as the runtime steps use it. Every method rejects with `ApiError` on an API error. */
export interface KubeApi {
  get(ref: ObjectRef): Promise<KubeObject>;
  /** The objects of a namespace, optionally only those a label selector (`k=v,k2=v2`) matches. */
  list(resource: ApiResource, namespace: string, labelSelector?: string): Promise<KubeObject[]>;
  create(resource: ApiResource, namespace: string, object: KubeObject): Promise<KubeObject>;
  /**
   * A JSON merge patch (RFC 7386). When the patch carries `metadata.resourceVersion`, the server applies it
   * only to that version of the object and answers 409 otherwise: the optimistic lock of a read-modify-write.
   */
  mergePatch(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject>;
  /** A JSON patch (RFC 6902); a failed `test` operation answers 422, as the API server does. */
  jsonPatch(ref: ObjectRef, operations: readonly JsonPatchOperation[]): Promise<KubeObject>;
  delete(ref: ObjectRef, propagationPolicy?: PropagationPolicy): Promise<void>;
}

/** The HTTP status codes the runtime tells apart. */
export const HttpStatus = {
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  unprocessable: 422,
  tooManyRequests: 429,
} as const;

/**
 * An error answer of the API server: its HTTP status, its `reason` (`NotFound`, `Conflict`, `AlreadyExists`,
 * `Forbidden`, `Invalid`, ...) and its message.
 */
export class ApiError extends Error {
  /** The HTTP status code, e.g. 404; 0 when the server could not be reached. */
  public readonly status: number;
  /** The server's reason, e.g. `NotFound`, `Conflict`, `AlreadyExists`, `Forbidden`. */
  public readonly reason: string;

  public constructor(status: number, reason: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.reason = reason;
  }
}

/** True for the API's 404. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === HttpStatus.notFound;
}

/** True for a 409 about a stale resourceVersion (not for AlreadyExists, which is 409 too). */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === HttpStatus.conflict && error.reason !== 'AlreadyExists';
}

/** True for the 409 a create gets when the name is taken. */
export function isAlreadyExists(error: unknown): boolean {
  return error instanceof ApiError && error.status === HttpStatus.conflict && error.reason === 'AlreadyExists';
}

/** The reference of a ConfigMap. */
export function configMapRef(namespace: string, name: string): ObjectRef {
  return { resource: ApiResources.configMaps, namespace, name };
}

/** The reference of a Workflow. */
export function workflowRef(namespace: string, name: string): ObjectRef {
  return { resource: ApiResources.workflows, namespace, name };
}

/** The reference of a CodeRun. */
export function codeRunRef(namespace: string, name: string): ObjectRef {
  return { resource: ApiResources.codeRuns, namespace, name };
}

/** A label selector `key=value,...` from a map, keys in code-unit order so that it reads the same every time. */
export function selectorOf(labels: Readonly<Record<string, string>>): string {
  return Object.keys(labels)
    .sort()
    .map((key) => `${key}=${labels[key]}`)
    .join(',');
}
