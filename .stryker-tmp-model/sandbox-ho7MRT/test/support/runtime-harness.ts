/**
 * What the runtime steps' unit tests run them with: the in-memory API server, a fake clock whose `sleep`
 * advances time at once (and is recorded), the step's log lines, and a KubeApi wrapper that answers chosen
 * calls with chosen API errors a chosen number of times, or lets something happen just before a call (a
 * concurrent writer, a controller), so that a race can be staged at the exact call it hits.
 */
// @ts-nocheck

import { playWorkflow } from '../../constructs/model/play-workflow';
import { GATE_STAGE_INPUT, PLAY_TEMPLATE_NAME } from '../../constructs/model/play-contract';
import { ARGO_COMPLETED_LABEL } from '../../constructs/model/argo-api';
import { progressConfigMapOf, progressKeyOf } from '../../constructs/progress/progress-layout';
import type { ProgressRecord } from '../../constructs/progress/progress-record';
import { type RegistryEntry, registryConfigMapOf, registryKeyOf } from '../../constructs/registry/registry-layout';
import {
  ApiError,
  type ApiResource,
  ApiResources,
  type JsonPatchOperation,
  type KubeApi,
  type KubeObject,
  type ObjectRef,
  type PropagationPolicy,
  configMapRef,
  workflowRef,
} from '../../constructs/runtime/kube-api';
import type { AnyRuntimeStep, StepContext } from '../../constructs/runtime/runtime-step';
import { type ApiVerb, type Authorizer, MemoryApiServer } from '../../src/simulate/memory-api';

/** The time every harness starts at. */
export const START = new Date('2026-11-20T10:00:00Z');

export const NAMESPACE = 'agents';
export const REPOSITORY = 'Octo-Org/Payments';

/** One call that reached the wrapper, faulted or not. */
export interface SeenCall {
  readonly verb: ApiVerb;
  readonly resource: string;
  readonly name?: string;
  /** The error the wrapper answered instead of passing the call on. */
  readonly faulted?: ApiError;
  /** What the call carried: the patch, the created object, the JSON patch or the propagation policy. */
  readonly body?: unknown;
}

/** Which calls a fault applies to: a verb, and optionally a resource and a name. */
export interface CallMatch {
  readonly verb: ApiVerb;
  readonly resource?: ApiResource;
  readonly name?: string;
}

interface Rule extends CallMatch {
  remaining: number;
  /** Matching calls to let through untouched before the rule applies. */
  skip: number;
  readonly error?: () => ApiError;
  readonly before?: () => void | Promise<void>;
  readonly answer?: () => unknown;
}

/** An API error as the server words it. */
export function apiError(status: number, reason: string, message = `${reason} (${status})`): ApiError {
  return new ApiError(status, reason, message);
}

export const conflict = () => apiError(409, 'Conflict', 'the object has been modified; please apply your changes to the latest version');
export const forbidden = () => apiError(403, 'Forbidden', 'cannot patch resource "configmaps" in API group "" in the namespace "agents"');
export const notFound = () => apiError(404, 'NotFound', 'not found');
export const alreadyExists = () => apiError(409, 'AlreadyExists', 'already exists');

/** A KubeApi in front of another: faults first, then the real answer. */
export class FaultyApi implements KubeApi {
  private readonly rules: Rule[] = [];
  public readonly seen: SeenCall[] = [];

  public constructor(private readonly inner: KubeApi) {}

  /** Answers the next `times` matching calls with `error` (a fresh error each time) instead of passing them on. */
  public fail(match: CallMatch, error: () => ApiError, times = 1): this {
    this.rules.push({ ...match, remaining: times, skip: 0, error });
    return this;
  }

  /** Runs `action` before the next `times` matching calls reach the server (a concurrent writer, a controller). */
  public before(match: CallMatch, action: () => void | Promise<void>, times = 1): this {
    this.rules.push({ ...match, remaining: times, skip: 0, before: action });
    return this;
  }

  /** Runs `action` just before the `nth` matching call (1 for the first) reaches the server. */
  public beforeNth(match: CallMatch, nth: number, action: () => void | Promise<void>): this {
    this.rules.push({ ...match, remaining: 1, skip: nth - 1, before: action });
    return this;
  }

  /** Answers the next `times` matching calls with `value` without passing them on (e.g. a delete a finalizer holds). */
  public answer(match: CallMatch, value: () => unknown, times = 1): this {
    this.rules.push({ ...match, remaining: times, skip: 0, answer: value });
    return this;
  }

  /** The calls of a verb (and resource), in order. */
  public calls(verb: ApiVerb, resource?: ApiResource): SeenCall[] {
    return this.seen.filter((call) => call.verb === verb && (resource === undefined || call.resource === resource.plural));
  }

  private async through<T>(
    verb: ApiVerb,
    resource: ApiResource,
    name: string | undefined,
    body: unknown,
    call: () => Promise<T>,
  ): Promise<T> {
    const rule = this.rules.find(
      (candidate) =>
        candidate.remaining > 0 &&
        candidate.verb === verb &&
        (candidate.resource === undefined || candidate.resource.plural === resource.plural) &&
        (candidate.name === undefined || candidate.name === name),
    );
    if (rule !== undefined && rule.skip > 0) {
      rule.skip -= 1;
      this.seen.push({ verb, resource: resource.plural, name, body });
      return call();
    }
    if (rule !== undefined) rule.remaining -= 1;
    if (rule?.error !== undefined) {
      const faulted = rule.error();
      this.seen.push({ verb, resource: resource.plural, name, faulted, body });
      throw faulted;
    }
    this.seen.push({ verb, resource: resource.plural, name, body });
    if (rule?.answer !== undefined) return rule.answer() as T;
    if (rule?.before !== undefined) await rule.before();
    return call();
  }

  public get(ref: ObjectRef): Promise<KubeObject> {
    return this.through('get', ref.resource, ref.name, undefined, () => this.inner.get(ref));
  }

  public list(resource: ApiResource, namespace: string, labelSelector?: string): Promise<KubeObject[]> {
    return this.through('list', resource, undefined, labelSelector, () => this.inner.list(resource, namespace, labelSelector));
  }

  public create(resource: ApiResource, namespace: string, object: KubeObject): Promise<KubeObject> {
    return this.through('create', resource, object.metadata.name, object, () => this.inner.create(resource, namespace, object));
  }

  public mergePatch(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject> {
    return this.through('patch', ref.resource, ref.name, patch, () => this.inner.mergePatch(ref, patch));
  }

  public jsonPatch(ref: ObjectRef, operations: readonly JsonPatchOperation[]): Promise<KubeObject> {
    return this.through('patch', ref.resource, ref.name, operations, () => this.inner.jsonPatch(ref, operations));
  }

  public delete(ref: ObjectRef, propagationPolicy?: PropagationPolicy): Promise<void> {
    return this.through('delete', ref.resource, ref.name, propagationPolicy, () => this.inner.delete(ref, propagationPolicy));
  }
}

/** Everything a step test needs. */
export interface Harness {
  readonly server: MemoryApiServer;
  readonly api: FaultyApi;
  readonly context: StepContext;
  /** Every line the step logged. */
  readonly logs: string[];
  /** Every wait the step asked for, in milliseconds. */
  readonly sleeps: number[];
  /** The fake time now. */
  now(): Date;
  /** Moves the fake time on (time passing between two steps; not a sleep of the step). */
  advance(milliseconds: number): void;
  /** Runs `action` after each sleep (the world moving while the step waits), with the number of sleeps so far. */
  onSleep(action: (sleeps: number) => void | Promise<void>): void;
  /** Runs a step with the environment (read as the program reads it). */
  run(step: AnyRuntimeStep, environment: Readonly<Record<string, string | undefined>>): Promise<Record<string, string>>;
}

/** A fresh harness; `authorize` gives the step's client a service account's grants. */
export function harness(authorize?: Authorizer): Harness {
  let time = START.getTime();
  const now = () => new Date(time);
  const server = new MemoryApiServer(now);
  const api = new FaultyApi(server.client(authorize));
  const logs: string[] = [];
  const sleeps: number[] = [];
  const sleepers: Array<(sleeps: number) => void | Promise<void>> = [];
  const context: StepContext = {
    api,
    now,
    sleep: async (milliseconds) => {
      sleeps.push(milliseconds);
      time += milliseconds;
      for (const action of sleepers) await action(sleeps.length);
    },
    log: (line) => logs.push(line),
  };
  return {
    server,
    api,
    context,
    logs,
    sleeps,
    now,
    advance: (milliseconds) => {
      time += milliseconds;
    },
    onSleep: (action) => sleepers.push(action),
    run: async (step, environment) => step.run(context, step.env.read(environment)),
  };
}

/** What makes a play in the server. */
export interface PlayProps {
  readonly service?: string;
  readonly task?: number;
  readonly repository?: string;
  readonly stage?: string;
  readonly round?: string;
  readonly name?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

/** Creates a play Workflow as `playWorkflow()` builds it (its creationTimestamp is the harness time now). */
export async function createPlay(h: Harness, props: PlayProps = {}): Promise<KubeObject> {
  const play = playWorkflow({
    service: props.service ?? 'payments',
    template: PLAY_TEMPLATE_NAME,
    namespace: NAMESPACE,
    task: String(props.task ?? 7),
    repository: props.repository ?? REPOSITORY,
    stage: props.stage ?? 'implementation',
    round: props.round,
    parameters: [{ name: 'task-type', value: 'backend' }],
    extraLabels: props.labels,
    extraAnnotations: props.annotations,
  }) as unknown as KubeObject;
  if (props.name !== undefined) play.metadata.name = props.name;
  return h.server.client().create(ApiResources.workflows, NAMESPACE, play);
}

/** The registry entry of `REPOSITORY` as the platform writes it (service payments, branch main), with `fields`. */
export function registryEntryOf(fields: Partial<RegistryEntry> = {}): RegistryEntry {
  const agent = (claim: string) => ({ cli: 'claude', claim, settings: '{}' });
  return {
    name: REPOSITORY,
    service: 'payments',
    branch: 'main',
    workingDirectory: 'payments',
    docsRepository: REPOSITORY,
    docsProjectDirectory: 'docs',
    docsBranch: 'main',
    playTemplate: PLAY_TEMPLATE_NAME,
    agents: { rex: agent('workspace-payments'), cleo: agent('workspace-payments-cleo') },
    ...fields,
  };
}

/** Puts a repository's entry in its registry ConfigMap, beside what the shard holds (the platform's sync). */
export function register(h: Harness, entry: RegistryEntry = registryEntryOf()): void {
  const name = registryConfigMapOf(entry.name);
  putConfigMap(h, name, { ...(storedData(h, name) ?? {}), [registryKeyOf(entry.name)]: JSON.stringify(entry) });
}

/** A fresh harness whose registry holds `REPOSITORY` (what the resumer and the remediator read first). */
export function registeredHarness(authorize?: Authorizer): Harness {
  const h = harness(authorize);
  register(h);
  return h;
}

/** Changes a stored object as a controller would (no authorization, a new resourceVersion). */
export function change(h: Harness, ref: ObjectRef, edit: (object: KubeObject) => void): KubeObject {
  const object = h.server.peek(ref);
  if (object === undefined) throw new Error(`no ${ref.resource.plural} ${ref.name} to change`);
  edit(object);
  return h.server.put(ref.resource, object);
}

/** A suspend node of a gate, as the controller stores it in `status.nodes`. */
export function suspendNode(gate: string, phase: string): Record<string, unknown> {
  return { type: 'Suspend', phase, inputs: { parameters: [{ name: GATE_STAGE_INPUT, value: gate }] } };
}

/** Puts the play at the gate: its `current-stage` label, and its suspend node in the given phase. */
export function atGate(h: Harness, name: string, gate: string, phase = 'Running', nodeId = `${name}-1234`): KubeObject {
  return change(h, workflowRef(NAMESPACE, name), (play) => {
    play.metadata.labels = { ...play.metadata.labels, 'current-stage': gate };
    const status = (play.status ?? {}) as { nodes?: Record<string, unknown> };
    play.status = { ...status, nodes: { ...(status.nodes ?? {}), [nodeId]: suspendNode(gate, phase) } };
  });
}

/** Marks the play completed, as the controller does once its exit handler ran. */
export function complete(h: Harness, name: string): KubeObject {
  return change(h, workflowRef(NAMESPACE, name), (play) => {
    play.metadata.labels = { ...play.metadata.labels, [ARGO_COMPLETED_LABEL]: 'true' };
  });
}

/** Puts a ConfigMap with `data` (a controller's or a person's write). */
export function putConfigMap(h: Harness, name: string, data: Record<string, unknown>): KubeObject {
  return h.server.put(ApiResources.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NAMESPACE }, data });
}

/** The data of a stored ConfigMap. */
export function storedData(h: Harness, name: string): Record<string, string> | undefined {
  return h.server.peek(configMapRef(NAMESPACE, name))?.data as Record<string, string> | undefined;
}

/** A record of task 7 of `REPOSITORY` with the given fields. */
export function taskRecord(fields: Partial<ProgressRecord> = {}): ProgressRecord {
  return { repository: REPOSITORY, task: '7', ...fields };
}

/** Stores a task's record where the runtime keeps it now (its shard, its key), beside what the shard holds. */
export function storeRecord(h: Harness, stored: ProgressRecord | string, task = 7, repository = REPOSITORY): void {
  const name = progressConfigMapOf(repository, task);
  const text = typeof stored === 'string' ? stored : JSON.stringify(stored);
  putConfigMap(h, name, { ...(storedData(h, name) ?? {}), [progressKeyOf(repository, task)]: text });
}

/** The record of a task as stored in its shard, or `undefined`. */
export function storedRecord(h: Harness, task = 7, repository = REPOSITORY): ProgressRecord | undefined {
  const text = storedData(h, progressConfigMapOf(repository, task))?.[progressKeyOf(repository, task)];
  return text === undefined ? undefined : (JSON.parse(text) as ProgressRecord);
}

/** Runs `promise` expecting a rejection and returns the error. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure, but it resolved');
}
