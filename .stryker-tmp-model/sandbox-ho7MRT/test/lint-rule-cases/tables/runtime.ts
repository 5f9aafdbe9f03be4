/**
 * Cases for the rules on what the cluster refuses at run time although every schema passes: object sizes and
 * int64 numbers, retries that maxDuration makes impossible, pods the `restricted` Pod Security level refuses
 * (Workflows and Argo Events), a Sensor a NATS streaming EventBus refuses, triggers whose retries never run.
 */
// @ts-nocheck

import { EXECUTOR_POD_SPEC_PATCH } from '../../../constructs/workflows/hardened-pod';
import { ARGOCD_SYNC_OPTIONS_ANNOTATION } from '../../../constructs/model/labels';
import { MAX_CLIENT_SIDE_APPLY_BYTES, MAX_DATA_BYTES } from '../../../constructs/model/object-limits';
import type { ManifestObject } from '../../../src/validate/finding';
import { eventsPodSecurityRule } from '../../../src/validate/rules/events-pod-security';
import { integerRangeRule } from '../../../src/validate/rules/integer-range';
import { objectSizeRule } from '../../../src/validate/rules/object-size';
import { claimPodDeadlineRule } from '../../../src/validate/rules/claim-pod-deadline';
import { podSecurityRestrictedRule } from '../../../src/validate/rules/pod-security';
import { retryMaxDurationRule } from '../../../src/validate/rules/retry-max-duration';
import { duplicateObjectRule } from '../../../src/validate/rules/duplicate-objects';
import { sensorTriggerAtLeastOnceRule } from '../../../src/validate/rules/sensor-at-least-once';
import { sensorDuplicateDependencySourceRule } from '../../../src/validate/rules/sensor-event-bus';
import { BASE_WORKFLOW, eventSource, manifest, pair, sensor, workflowTemplate, type Json, type RuleTable } from '../cases';

const wt = workflowTemplate;
const work = (spec: any) => spec.templates[1];

// object-size ------------------------------------------------------------------------------------------------

export const SERVER_SIDE = { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'Prune=false, ServerSideApply=true' };

/** A core object (data at the top level, not under spec). */
export function coreObject(kind: string, body: Json, annotations?: Record<string, string>): ManifestObject {
  const object = { apiVersion: 'v1', kind, metadata: { name: 'big', ...(annotations ? { annotations } : {}) }, ...body };
  return { file: 'case.yaml', index: 0, object, kind, name: 'big' };
}

const text = (bytes: number): string => 'x'.repeat(bytes);
const base64 = (bytes: number): string => Buffer.alloc(bytes, 7).toString('base64');

/** A ConfigMap whose JSON is exactly `bytes` long. */
export function configMapOfJsonSize(bytes: number, annotations?: Record<string, string>): ManifestObject {
  const empty = JSON.stringify(coreObject('ConfigMap', { data: { pad: '' } }, annotations).object).length;
  return coreObject('ConfigMap', { data: { pad: text(bytes - empty) } }, annotations);
}

const OVER_DATA = 'more than the 1024 KiB the API server accepts';
const OVER_APPLY = "over the 256 KiB that ArgoCD's client-side apply can store in the last-applied-configuration annotation";

// pod-security-restricted -------------------------------------------------------------------------------------

const HARDENED = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
const RESTRICTED_POD = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };
const executorPatch = (names: readonly ('init' | 'wait')[]): string =>
  JSON.stringify({
    ...(names.includes('init') ? { initContainers: [{ name: 'init', securityContext: HARDENED }] } : {}),
    ...(names.includes('wait') ? { containers: [{ name: 'wait', securityContext: HARDENED }] } : {}),
  });

/** `work` as a hardened container template in a restricted pod, executors patched; `change` then breaks or fixes it. */
const hardenedWork = (change: (template: any, spec: any) => void) =>
  wt((s) => {
    Object.assign(work(s), { securityContext: structuredClone(RESTRICTED_POD), podSpecPatch: EXECUTOR_POD_SPEC_PATCH });
    work(s).container.securityContext = structuredClone(HARDENED);
    change(work(s), s);
  });
const podCase = (
  name: string,
  message: string,
  breakIt: (template: any, spec: any) => void,
  fixIt: (template: any, spec: any) => void = () => {},
) => ({ name, message, broken: [hardenedWork(breakIt)], fixed: [hardenedWork(fixIt)] });

// retry-max-duration ------------------------------------------------------------------------------------------

/** `work` with a 600 s deadline, two retries, a 30 s backoff and a maxDuration that just fits one retry. */
const retrying = (change: (template: any) => void) =>
  wt((s) => {
    Object.assign(work(s), {
      activeDeadlineSeconds: 600,
      retryStrategy: { limit: 2, backoff: { duration: '30s', maxDuration: '10m30s' } },
    });
    change(work(s));
  });
const maxDuration = (value: unknown) => (template: any) => (template.retryStrategy.backoff.maxDuration = value);
const SHORTER_THAN_DEADLINE = 'is never retried, and a retry is killed at';
const NO_ROOM_FOR_BACKOFF = 'no retry can start';

// claim-pod-deadline ------------------------------------------------------------------------------------------

const CLAIM = { name: 'workspace', persistentVolumeClaim: { claimName: 'workspace-shop-api' } };
const MOUNT = { name: 'workspace', mountPath: '/workspace' };
/** `work` as a script on the workspace claim (its own volume), with `change` applied. */
const onClaim = (change: (template: any) => void) =>
  wt((s) => {
    Object.assign(work(s), { volumes: [CLAIM], activeDeadlineSeconds: 14700 });
    delete work(s).container;
    work(s).script = { image: 'alpine:3.23', command: ['bash'], source: 'true', volumeMounts: [MOUNT] };
    change(work(s));
  });
/** `work` as a container that mounts the workflow's claim; with or without its own deadline. */
const onWorkflowClaim = (deadline: boolean) =>
  wt((s) => {
    s.volumes = [CLAIM];
    Object.assign(work(s), { container: { image: 'alpine:3.23', volumeMounts: [MOUNT] } }, deadline ? { activeDeadlineSeconds: 600 } : {});
  });
const CLAIM_MESSAGE =
  'template "work": its pod mounts the claim "workspace-shop-api" but has no activeDeadlineSeconds: a stuck pod holds the ReadWriteOnce claim';

// sensors ---------------------------------------------------------------------------------------------------

const bus = (name: string, spec: Json, namespace = 'argo'): ManifestObject => manifest('EventBus', name, spec, { namespace });
const NATS = { nats: { native: {} } };
const JETSTREAM = { jetstream: { version: 'latest' } };
/** A second dependency on the first one's eventSourceName and eventName. */
const twice = (spec: any) => spec.dependencies.push({ ...structuredClone(spec.dependencies[0]), name: 'pr2' });
const ON_NATS = 'the NATS streaming EventBus refuses this Sensor';
const MAYBE_NATS = "a NATS streaming EventBus (the quick start's) refuses this Sensor";

const retried = (spec: any) => (spec.triggers[0].retryStrategy = { steps: 3, duration: '1s' });

/** The restricted security contexts for a Sensor's or EventSource's pod, `spec.template`. */
const restrictedTemplate = (): Json => ({
  securityContext: structuredClone(RESTRICTED_POD),
  container: { securityContext: structuredClone(HARDENED) },
});
const podTemplate = (change: (template: any) => void) => (spec: any) => {
  spec.template = restrictedTemplate();
  change(spec.template);
};

/** A ConfigMap `name` of `namespace` (in a file of its own) holding `data`. */
const settings = (file: string, data: Json, metadata: Json = {}, apiVersion = 'v1'): ManifestObject => {
  const object = { apiVersion, kind: 'ConfigMap', metadata: { name: 'settings', ...metadata }, data };
  return { file, index: 0, line: 1, object, kind: 'ConfigMap', name: 'settings', namespace: metadata.namespace as string | undefined };
};

export const RUNTIME_TABLES: RuleTable[] = [
  {
    rule: duplicateObjectRule,
    cases: [
      {
        name: 'one object in two files with other content',
        message: 'ConfigMap settings is also at b.yaml:1, with other content: applied together, one overwrites the other',
        path: '',
        broken: [settings('a.yaml', { a: '1' }), settings('b.yaml', { a: '2' })],
        fixed: [settings('a.yaml', { a: '1' }), settings('b.yaml', { a: '2' }, { namespace: 'other' })],
      },
      {
        name: 'the same content twice',
        message: 'ConfigMap settings is also at b.yaml:1, with the same content: keep one',
        broken: [settings('a.yaml', { a: '1' }), settings('b.yaml', { a: '1' })],
        fixed: [
          settings('a.yaml', { a: '1' }),
          {
            ...settings('b.yaml', { a: '1' }),
            name: 'other',
            object: { ...settings('b.yaml', { a: '1' }).object, metadata: { name: 'other' } },
          },
        ],
      },
      {
        name: 'one object is named by its API group, not its version',
        message: 'is also at b.yaml:1',
        broken: [settings('a.yaml', { a: '1' }, {}, 'example.com/v1'), settings('b.yaml', { a: '2' }, {}, 'example.com/v2')],
        fixed: [settings('a.yaml', { a: '1' }, {}, 'example.com/v1'), settings('b.yaml', { a: '2' }, {}, 'other.com/v1')],
      },
    ],
  },
  {
    rule: objectSizeRule,
    cases: [
      {
        name: 'a ConfigMap whose data is over 1 MiB',
        message: `ConfigMap data and binaryData hold 1024.0 KiB, ${OVER_DATA}`,
        path: '',
        broken: [coreObject('ConfigMap', { data: { a: text(MAX_DATA_BYTES + 1) } }, SERVER_SIDE)],
        fixed: [coreObject('ConfigMap', { data: { a: text(MAX_DATA_BYTES) } }, SERVER_SIDE)],
      },
      {
        name: 'keys do not count towards the 1 MiB (the API server sums values only)',
        message: OVER_DATA,
        broken: [coreObject('ConfigMap', { data: { a: text(MAX_DATA_BYTES / 2), b: text(MAX_DATA_BYTES / 2 + 1) } }, SERVER_SIDE)],
        fixed: [
          coreObject(
            'ConfigMap',
            { data: { [`k${'e'.repeat(200)}`]: text(MAX_DATA_BYTES / 2), [`l${'e'.repeat(200)}`]: text(MAX_DATA_BYTES / 2) } },
            SERVER_SIDE,
          ),
        ],
      },
      {
        name: 'data counts UTF-8 bytes, not characters',
        message: OVER_DATA,
        broken: [coreObject('ConfigMap', { data: { a: 'é'.repeat(MAX_DATA_BYTES / 2 + 1) } }, SERVER_SIDE)],
        fixed: [coreObject('ConfigMap', { data: { a: 'é'.repeat(MAX_DATA_BYTES / 2) } }, SERVER_SIDE)],
      },
      {
        name: "a ConfigMap's binaryData counts decoded",
        message: OVER_DATA,
        broken: [coreObject('ConfigMap', { binaryData: { b: base64(MAX_DATA_BYTES + 1) } }, SERVER_SIDE)],
        fixed: [coreObject('ConfigMap', { binaryData: { b: base64(MAX_DATA_BYTES) } }, SERVER_SIDE)],
      },
      {
        name: 'data and binaryData are summed',
        message: OVER_DATA,
        broken: [
          coreObject(
            'ConfigMap',
            { data: { a: text(MAX_DATA_BYTES / 2) }, binaryData: { b: base64(MAX_DATA_BYTES / 2 + 1) } },
            SERVER_SIDE,
          ),
        ],
        fixed: [
          coreObject('ConfigMap', { data: { a: text(MAX_DATA_BYTES / 2) }, binaryData: { b: base64(MAX_DATA_BYTES / 2) } }, SERVER_SIDE),
        ],
      },
      {
        name: "a Secret's data counts decoded",
        message: `Secret data and stringData hold 1024.0 KiB, ${OVER_DATA}: split it into several Secrets`,
        broken: [coreObject('Secret', { data: { b: base64(MAX_DATA_BYTES + 1) } }, SERVER_SIDE)],
        fixed: [coreObject('Secret', { data: { b: base64(MAX_DATA_BYTES) } }, SERVER_SIDE)],
      },
      {
        name: "a Secret's stringData counts as UTF-8",
        message: 'Secret data and stringData hold',
        broken: [coreObject('Secret', { stringData: { s: 'é'.repeat(MAX_DATA_BYTES / 2 + 1) } }, SERVER_SIDE)],
        fixed: [coreObject('Secret', { stringData: { s: 'é'.repeat(MAX_DATA_BYTES / 2) } }, SERVER_SIDE)],
      },
      {
        name: "a Secret's data and stringData are summed",
        message: 'Secret data and stringData hold',
        broken: [
          coreObject('Secret', { data: { b: base64(MAX_DATA_BYTES / 2) }, stringData: { s: text(MAX_DATA_BYTES / 2 + 1) } }, SERVER_SIDE),
        ],
        fixed: [
          coreObject('Secret', { data: { b: base64(MAX_DATA_BYTES / 2) }, stringData: { s: text(MAX_DATA_BYTES / 2) } }, SERVER_SIDE),
        ],
      },
      {
        name: 'server-side apply does not lift the 1 MiB',
        message: OVER_DATA,
        broken: [coreObject('ConfigMap', { data: { a: text(MAX_DATA_BYTES + 1) } }, SERVER_SIDE)],
        fixed: [coreObject('ConfigMap', { data: { a: text(MAX_DATA_BYTES - 1) } }, SERVER_SIDE)],
      },
      {
        name: 'any object over 256 KiB without server-side apply',
        message: `the object is 256.0 KiB, ${OVER_APPLY}: sync it with ${ARGOCD_SYNC_OPTIONS_ANNOTATION}: ServerSideApply=true, or split it`,
        path: '',
        broken: [configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1)],
        fixed: [configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES)],
      },
      {
        name: 'a WorkflowTemplate over 256 KiB',
        message: OVER_APPLY,
        broken: [wt((s) => (work(s).container.args = [text(MAX_CLIENT_SIDE_APPLY_BYTES)]))],
        fixed: [
          wt((s) => (work(s).container.args = [text(MAX_CLIENT_SIDE_APPLY_BYTES)]), {
            annotations: { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'ServerSideApply=true' },
          }),
        ],
      },
      {
        name: 'JSON size counts UTF-8 bytes',
        message: OVER_APPLY,
        broken: [coreObject('ConfigMap', { data: { a: 'é'.repeat(MAX_CLIENT_SIDE_APPLY_BYTES / 2) } })],
        fixed: [coreObject('ConfigMap', { data: { a: 'é'.repeat(MAX_CLIENT_SIDE_APPLY_BYTES / 2 - 100) } })],
      },
      {
        name: 'ServerSideApply=false is client-side apply',
        message: OVER_APPLY,
        broken: [configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1, { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'ServerSideApply=false' })],
        fixed: [configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1, { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'ServerSideApply=true' })],
      },
      {
        name: 'only a whole ServerSideApply=true option counts',
        message: OVER_APPLY,
        broken: [configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1, { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'NoServerSideApply=true' })],
        fixed: [
          configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1, {
            [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'Prune=false , ServerSideApply=true ,Validate=false',
          }),
        ],
      },
      {
        name: 'an option that only starts with ServerSideApply=true does not count',
        message: OVER_APPLY,
        broken: [configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1, { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'ServerSideApply=trueish' })],
        fixed: [configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1, { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: 'ServerSideApply=true' })],
      },
      {
        name: 'the sync options must be a string',
        message: OVER_APPLY,
        broken: [
          configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1, { [ARGOCD_SYNC_OPTIONS_ANNOTATION]: ['ServerSideApply=true'] as any }),
        ],
        fixed: [configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1, SERVER_SIDE)],
      },
      {
        name: 'a value that is not a string counts nothing',
        message: OVER_DATA,
        broken: [coreObject('ConfigMap', { data: { a: text(MAX_DATA_BYTES + 1), n: 7 } }, SERVER_SIDE)],
        fixed: [coreObject('ConfigMap', { data: { a: text(MAX_DATA_BYTES), n: 7 } }, SERVER_SIDE)],
      },
      {
        name: 'only ConfigMaps and Secrets have the 1 MiB data limit',
        message: OVER_APPLY,
        broken: [coreObject('Opaque', { data: { a: text(MAX_DATA_BYTES + 1) } })],
        fixed: [coreObject('Opaque', { data: { a: text(MAX_DATA_BYTES + 1) } }, SERVER_SIDE)],
      },
      {
        name: 'an object without metadata is applied client side',
        message: OVER_APPLY,
        broken: [
          {
            file: 'case.yaml',
            index: 0,
            kind: 'ConfigMap',
            name: '',
            object: { apiVersion: 'v1', kind: 'ConfigMap', data: { a: text(MAX_CLIENT_SIDE_APPLY_BYTES) } },
          },
        ],
        fixed: [configMapOfJsonSize(MAX_CLIENT_SIDE_APPLY_BYTES + 1, SERVER_SIDE)],
      },
    ],
  },
  {
    rule: integerRangeRule,
    cases: [
      pair(
        'a number of 2^63',
        'is outside the range of a 64-bit integer',
        wt,
        (s) => (s.activeDeadlineSeconds = 2 ** 63),
        (s) => (s.activeDeadlineSeconds = 2 ** 63 - 1024),
        'spec.activeDeadlineSeconds',
      ),
      pair(
        'a duration in seconds that overflowed to 8.64e+24',
        '8.64e+24 is outside the range',
        wt,
        (s) => (s.activeDeadlineSeconds = 8.64e24),
        (s) => (s.activeDeadlineSeconds = 8.64e12),
      ),
      pair(
        'a number below -2^63 (-2^63 itself is the smallest int64)',
        'is outside the range of a 64-bit integer',
        wt,
        (s) => (s.priority = -(2 ** 63) - 2048),
        (s) => (s.priority = -(2 ** 63)),
        'spec.priority',
      ),
      pair(
        '.inf',
        'Infinity is outside the range',
        wt,
        (s) => (s.parallelism = Infinity),
        (s) => (s.parallelism = 1e18),
      ),
      pair(
        '-.inf',
        '-Infinity is outside the range',
        wt,
        (s) => (s.parallelism = -Infinity),
        (s) => (s.parallelism = -1),
      ),
      pair(
        '.nan',
        'NaN is outside the range',
        wt,
        (s) => (s.parallelism = NaN),
        (s) => (s.parallelism = 0),
      ),
      pair(
        'a null beside the number is no number',
        'is outside the range',
        wt,
        (s) => (s.podGC = { deleteDelayDuration: null, strategy: 1e19 }),
        (s) => (s.podGC = { deleteDelayDuration: null, strategy: 'OnPodSuccess' }),
      ),
      pair(
        'a number inside a list',
        'is outside the range',
        wt,
        (s) => (work(s).container.ports = [{ containerPort: 80 }, { containerPort: 1e20 }]),
        (s) => (work(s).container.ports = [{ containerPort: 80 }, { containerPort: 8080 }]),
        'spec.templates[1].container.ports[1].containerPort',
      ),
      pair(
        'a number under a key that needs quoting in the path',
        'is outside the range',
        wt,
        (s) => (s.workflowMetadata = { annotations: { 'a.b': 1e19 } }),
        (s) => (s.workflowMetadata = { annotations: { 'a.b': '1e19' } }),
        'spec.workflowMetadata.annotations["a.b"]',
      ),
      {
        name: 'any kind, metadata included',
        message: 'is outside the range',
        path: 'metadata.generation',
        broken: [coreObject('Deployment', { metadata: { name: 'big', generation: 1e30 }, spec: { replicas: 1 } })],
        fixed: [coreObject('Deployment', { metadata: { name: 'big', generation: 3 }, spec: { replicas: 1 } })],
      },
    ],
  },
  {
    rule: claimPodDeadlineRule,
    cases: [
      pair(
        'a script pod on its own claim with no deadline',
        CLAIM_MESSAGE,
        onClaim,
        (t) => delete t.activeDeadlineSeconds,
        () => {},
        'spec.templates[1]',
      ),
      {
        name: "a container pod that mounts the workflow's claim",
        message: 'mounts the claim "workspace-shop-api"',
        broken: [onWorkflowClaim(false)],
        fixed: [onWorkflowClaim(true)],
      },
      pair(
        'a containerSet container on the claim',
        'mounts the claim',
        onClaim,
        (t) => {
          delete t.activeDeadlineSeconds;
          delete t.script;
          t.containerSet = { containers: [{ name: 'agent', image: 'alpine:3.23', volumeMounts: [MOUNT] }] };
        },
        (t) => {
          delete t.script;
          t.containerSet = { containers: [{ name: 'agent', image: 'alpine:3.23', volumeMounts: [MOUNT] }] };
        },
      ),
      pair(
        'a claim declared but not mounted does not count; mounted, it does',
        CLAIM_MESSAGE,
        onClaim,
        (t) => delete t.activeDeadlineSeconds,
        (t) => {
          delete t.activeDeadlineSeconds;
          t.script.volumeMounts = [{ name: 'scratch', mountPath: '/tmp' }];
        },
      ),
    ],
  },
  {
    rule: retryMaxDurationRule,
    cases: [
      pair(
        'maxDuration shorter than the deadline',
        `template "work": maxDuration 5m is shorter than activeDeadlineSeconds 600s plus the backoff: an attempt that runs longer than 5m ${SHORTER_THAN_DEADLINE} 5m`,
        retrying,
        maxDuration('5m'),
        () => {},
        'spec.templates[1].retryStrategy.backoff.maxDuration',
      ),
      pair(
        'maxDuration equal to the deadline leaves no room for the backoff',
        'after an attempt that runs to its 600s deadline and a 30s backoff, no retry can start',
        retrying,
        maxDuration('10m'),
        maxDuration('630'),
      ),
      pair(
        'maxDuration one second short of deadline plus backoff',
        NO_ROOM_FOR_BACKOFF,
        retrying,
        maxDuration('10m29s'),
        maxDuration('10m30s'),
      ),
      pair(
        'the fix sizes maxDuration for every retry at its full deadline',
        'raise it to at least 1830s for 2 retries at their full deadline',
        retrying,
        maxDuration('5m'),
        maxDuration('1h'),
      ),
      pair(
        'a limit written as a string',
        'at least 1230s for 1 retries',
        retrying,
        (t) => ((t.retryStrategy.limit = '1'), maxDuration('5m')(t)),
        (t) => ((t.retryStrategy.limit = '0'), maxDuration('5m')(t)),
      ),
      pair(
        'limit 0 retries nothing, so maxDuration is moot',
        SHORTER_THAN_DEADLINE,
        retrying,
        (t) => ((t.retryStrategy.limit = 1), maxDuration('5m')(t)),
        (t) => ((t.retryStrategy.limit = 0), maxDuration('5m')(t)),
      ),
      pair(
        'a placeholder limit is known only at run time',
        SHORTER_THAN_DEADLINE,
        retrying,
        maxDuration('5m'),
        (t) => ((t.retryStrategy.limit = '{{inputs.parameters.retries}}'), maxDuration('5m')(t)),
      ),
      pair(
        'a null limit is no limit',
        'for one retry at its full deadline',
        retrying,
        (t) => ((t.retryStrategy.limit = null), maxDuration('5m')(t)),
        (t) => (t.retryStrategy.limit = null),
      ),
      pair(
        'a fractional deadline is not a whole number of seconds, so nothing is known',
        SHORTER_THAN_DEADLINE,
        retrying,
        (t) => ((t.activeDeadlineSeconds = 600), maxDuration('5m')(t)),
        (t) => ((t.activeDeadlineSeconds = 600.5), maxDuration('5m')(t)),
      ),
      pair(
        'a deadline string that is not digits',
        SHORTER_THAN_DEADLINE,
        retrying,
        (t) => ((t.activeDeadlineSeconds = '600'), maxDuration('5m')(t)),
        (t) => ((t.activeDeadlineSeconds = '600s'), maxDuration('5m')(t)),
      ),
      pair(
        'no limit retries without end, each cut by maxDuration',
        'at least 1230s for one retry at its full deadline (without a limit Argo retries until maxDuration runs out)',
        retrying,
        (t) => (delete t.retryStrategy.limit, maxDuration('5m')(t)),
        (t) => delete t.retryStrategy.limit,
      ),
      pair(
        'a deadline written as a numeric string',
        SHORTER_THAN_DEADLINE,
        retrying,
        (t) => ((t.activeDeadlineSeconds = '600'), maxDuration('5m')(t)),
        (t) => ((t.activeDeadlineSeconds = '{{inputs.parameters.deadline}}'), maxDuration('5m')(t)),
      ),
      pair(
        'no deadline bounds the attempt, so nothing is known',
        SHORTER_THAN_DEADLINE,
        retrying,
        maxDuration('5m'),
        (t) => (delete t.activeDeadlineSeconds, maxDuration('5m')(t)),
      ),
      pair(
        "a maxDuration Argo cannot parse is another rule's finding",
        SHORTER_THAN_DEADLINE,
        retrying,
        maxDuration('5m'),
        maxDuration('5 minutes'),
      ),
      pair(
        'without a backoff there is no maxDuration',
        SHORTER_THAN_DEADLINE,
        retrying,
        maxDuration('5m'),
        (t) => delete t.retryStrategy.backoff,
      ),
      pair('a bare integer maxDuration is seconds', 'maxDuration 629 is shorter', retrying, maxDuration('629'), maxDuration(630)),
      pair(
        'a numeric backoff duration is seconds',
        NO_ROOM_FOR_BACKOFF,
        retrying,
        (t) => ((t.retryStrategy.backoff.duration = 30), maxDuration('629s')(t)),
        (t) => ((t.retryStrategy.backoff.duration = 29), maxDuration('629s')(t)),
      ),
      pair(
        'no backoff duration counts as none',
        NO_ROOM_FOR_BACKOFF,
        retrying,
        maxDuration('10m'),
        (t) => (delete t.retryStrategy.backoff.duration, maxDuration('10m')(t)),
      ),
      pair('fractional hours', SHORTER_THAN_DEADLINE, retrying, maxDuration('0.1h'), maxDuration('0.175h')),
      pair('milliseconds', NO_ROOM_FOR_BACKOFF, retrying, maxDuration('629999ms'), maxDuration('630000ms')),
      pair('microseconds', NO_ROOM_FOR_BACKOFF, retrying, maxDuration('629999999us'), maxDuration('630000000µs')),
      pair('microseconds with the Greek mu', NO_ROOM_FOR_BACKOFF, retrying, maxDuration('629999999μs'), maxDuration('630000000μs')),
      pair('a fraction without a leading digit', SHORTER_THAN_DEADLINE, retrying, maxDuration('.1h'), maxDuration('.175h')),
      pair('a fraction with a trailing point', NO_ROOM_FOR_BACKOFF, retrying, maxDuration('629.s'), maxDuration('630.s')),
      pair('nanoseconds', NO_ROOM_FOR_BACKOFF, retrying, maxDuration('629999999999ns'), maxDuration('630000000000ns')),
      pair('compound durations add up', NO_ROOM_FOR_BACKOFF, retrying, maxDuration('9m89s'), maxDuration('9m90s')),
      pair('a negative maxDuration', 'maxDuration -1h is shorter', retrying, maxDuration('-1h'), maxDuration('+1h')),
      pair(
        'the whole message: why, how Argo counts, and the fix',
        "no retry can start (Argo counts maxDuration from the first attempt's start, image pull included); raise it to at least 1830s",
        retrying,
        maxDuration('10m'),
        maxDuration('630s'),
      ),
      pair('a fraction after whole units', NO_ROOM_FOR_BACKOFF, retrying, maxDuration('10.4m'), maxDuration('10.5m')),
      pair(
        'a fraction of several digits without a leading digit',
        NO_ROOM_FOR_BACKOFF,
        retrying,
        maxDuration('.17h'),
        maxDuration('.175h'),
      ),
      pair(
        'a numeric-string deadline is added as a number',
        NO_ROOM_FOR_BACKOFF,
        retrying,
        (t) => ((t.activeDeadlineSeconds = '600'), maxDuration('629')(t)),
        (t) => ((t.activeDeadlineSeconds = '600'), maxDuration('630')(t)),
      ),
      pair(
        'a deadline string with digits at its end only is not a number',
        SHORTER_THAN_DEADLINE,
        retrying,
        (t) => ((t.activeDeadlineSeconds = '600'), maxDuration('5m')(t)),
        (t) => ((t.activeDeadlineSeconds = 'a600'), maxDuration('5m')(t)),
      ),
      {
        name: "a CronWorkflow's templates under spec.workflowSpec",
        message: SHORTER_THAN_DEADLINE,
        path: 'spec.workflowSpec.templates[0].retryStrategy.backoff.maxDuration',
        broken: [
          manifest('CronWorkflow', 'nightly', {
            schedules: ['@daily'],
            workflowSpec: {
              entrypoint: 'work',
              templates: [
                {
                  name: 'work',
                  container: { image: 'a' },
                  activeDeadlineSeconds: 60,
                  retryStrategy: { limit: 1, backoff: { duration: '1s', maxDuration: '30s' } },
                },
              ],
            },
          }),
        ],
        fixed: [
          manifest('CronWorkflow', 'nightly', {
            schedules: ['@daily'],
            workflowSpec: {
              entrypoint: 'work',
              templates: [
                {
                  name: 'work',
                  container: { image: 'a' },
                  activeDeadlineSeconds: 60,
                  retryStrategy: { limit: 1, backoff: { duration: '1s', maxDuration: '61s' } },
                },
              ],
            },
          }),
        ],
      },
    ],
  },
  {
    rule: podSecurityRestrictedRule,
    cases: [
      podCase(
        'a container that may escalate privileges',
        'template "work": a namespace enforcing the restricted Pod Security level refuses its pod: the container container needs allowPrivilegeEscalation: false',
        (t) => delete t.container.securityContext.allowPrivilegeEscalation,
      ),
      podCase(
        'a container that keeps its capabilities',
        'the container container needs capabilities.drop: [ALL]',
        (t) => (t.container.securityContext.capabilities = { drop: ['NET_RAW'] }),
      ),
      podCase(
        'a privileged container',
        'needs privileged unset',
        (t) => (t.container.securityContext.privileged = true),
        (t) => (t.container.securityContext.privileged = false),
      ),
      podCase(
        'no runAsNonRoot on the pod or the container',
        'the container container needs runAsNonRoot: true',
        (t) => delete t.securityContext.runAsNonRoot,
        (t) => {
          delete t.securityContext.runAsNonRoot;
          t.container.securityContext.runAsNonRoot = true;
          t.podSpecPatch = JSON.stringify({
            initContainers: [{ name: 'init', securityContext: { ...HARDENED, runAsNonRoot: true } }],
            containers: [{ name: 'wait', securityContext: { ...HARDENED, runAsNonRoot: true } }],
          });
        },
      ),
      podCase(
        "a container's runAsNonRoot: false overrides the pod's",
        'the container container needs runAsNonRoot: true',
        (t) => (t.container.securityContext.runAsNonRoot = false),
      ),
      podCase(
        'an Unconfined seccomp profile on the pod',
        'needs seccompProfile.type: RuntimeDefault',
        (t) => (t.securityContext.seccompProfile.type = 'Unconfined'),
        (t) => (t.securityContext.seccompProfile.type = 'Localhost'),
      ),
      podCase(
        "a container's seccomp profile overrides the pod's",
        'the container container needs seccompProfile.type: RuntimeDefault',
        (t) => (t.container.securityContext.seccompProfile = { type: 'Unconfined' }),
        (t) => (t.container.securityContext.seccompProfile = { type: 'RuntimeDefault' }),
      ),
      podCase(
        "the template's security context replaces the workflow's",
        'needs seccompProfile.type: RuntimeDefault',
        (t, s) => ((s.securityContext = structuredClone(RESTRICTED_POD)), (t.securityContext = { runAsNonRoot: true })),
        (t, s) => ((s.securityContext = { runAsNonRoot: true }), (t.securityContext = structuredClone(RESTRICTED_POD))),
      ),
      podCase(
        "the workflow's security context is the pod's when the template has none",
        'needs runAsNonRoot: true',
        (t, s) => (delete t.securityContext, (s.securityContext = { seccompProfile: { type: 'RuntimeDefault' } })),
        (t, s) => (delete t.securityContext, (s.securityContext = structuredClone(RESTRICTED_POD))),
      ),
      podCase(
        "no podSpecPatch leaves Argo's executor containers bare",
        "Argo's init container needs allowPrivilegeEscalation: false, capabilities.drop: [ALL] (a podSpecPatch naming it in initContainers",
        (t) => delete t.podSpecPatch,
      ),
      podCase(
        'a podSpecPatch hardening init only',
        "Argo's wait container needs allowPrivilegeEscalation: false, capabilities.drop: [ALL] (a podSpecPatch naming it in containers",
        (t) => (t.podSpecPatch = executorPatch(['init'])),
      ),
      podCase(
        'a patch hardening wait under initContainers does not reach it',
        "Argo's wait container needs",
        (t) =>
          (t.podSpecPatch = JSON.stringify({
            initContainers: [
              { name: 'init', securityContext: HARDENED },
              { name: 'wait', securityContext: HARDENED },
            ],
          })),
      ),
      podCase(
        "the workflow's and the template's podSpecPatch both apply",
        "Argo's wait container",
        (t, s) => ((s.podSpecPatch = executorPatch(['init'])), delete t.podSpecPatch),
        (t, s) => ((s.podSpecPatch = executorPatch(['init'])), (t.podSpecPatch = executorPatch(['wait']))),
      ),
      podCase(
        'patches merge the security context of one container',
        "Argo's init container needs capabilities.drop: [ALL]",
        (t, s) => (
          (s.podSpecPatch = JSON.stringify({
            initContainers: [{ name: 'init', securityContext: { allowPrivilegeEscalation: false } }],
            containers: [{ name: 'wait', securityContext: HARDENED }],
          })),
          delete t.podSpecPatch
        ),
        (t, s) => (
          (s.podSpecPatch = JSON.stringify({
            initContainers: [{ name: 'init', securityContext: { allowPrivilegeEscalation: false } }],
            containers: [{ name: 'wait', securityContext: HARDENED }],
          })),
          (t.podSpecPatch = JSON.stringify({ initContainers: [{ name: 'init', securityContext: { capabilities: { drop: ['ALL'] } } }] }))
        ),
      ),
      podCase(
        'a pod without runAsNonRoot leaves the executor containers running as root',
        "Argo's init container needs runAsNonRoot: true",
        (t) => (
          (t.securityContext = { seccompProfile: { type: 'RuntimeDefault' } }),
          (t.container.securityContext.runAsNonRoot = true),
          (t.podSpecPatch = executorPatch(['init', 'wait']))
        ),
        (t) => (t.podSpecPatch = executorPatch(['init', 'wait'])),
      ),
      podCase(
        'a podSpecPatch in YAML',
        "Argo's wait container",
        (t) =>
          (t.podSpecPatch =
            'initContainers:\n  - name: init\n    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }\n'),
        (t) =>
          (t.podSpecPatch =
            'initContainers:\n  - name: init\n    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }\ncontainers:\n  - name: wait\n    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: [ALL] } }\n'),
      ),
      podCase(
        'a podSpecPatch with a placeholder is known only at run time',
        "Argo's init container",
        (t) => delete t.podSpecPatch,
        (t) => (t.podSpecPatch = '{{inputs.parameters.patch}}'),
      ),
      podCase(
        'a podSpecPatch that does not parse is left to Argo',
        "Argo's init container",
        (t) => delete t.podSpecPatch,
        (t) => (t.podSpecPatch = 'initContainers: ['),
      ),
      podCase(
        'a script template',
        'the script container needs allowPrivilegeEscalation: false',
        (t) => ((t.script = { image: 'alpine', source: 'true', securityContext: {} }), delete t.container),
        (t) => ((t.script = { image: 'alpine', source: 'true', securityContext: structuredClone(HARDENED) }), delete t.container),
      ),
      podCase(
        'a containerSet names the container that falls short',
        'container b needs capabilities.drop: [ALL]',
        (t) => (
          (t.containerSet = {
            containers: [
              { name: 'a', image: 'alpine', securityContext: structuredClone(HARDENED) },
              { name: 'b', image: 'alpine', securityContext: { allowPrivilegeEscalation: false } },
            ],
          }),
          delete t.container
        ),
        (t) => (
          (t.containerSet = {
            containers: [
              { name: 'a', image: 'alpine', securityContext: structuredClone(HARDENED) },
              { name: 'b', image: 'alpine', securityContext: structuredClone(HARDENED) },
            ],
          }),
          delete t.container
        ),
      ),
      podCase(
        'a containerSet container without a name is named by its place',
        'container 1 needs',
        (t) => (
          (t.containerSet = {
            containers: [{ name: 'a', image: 'alpine', securityContext: structuredClone(HARDENED) }, { image: 'alpine' }],
          }),
          delete t.container
        ),
        (t) => (
          (t.containerSet = {
            containers: [{ name: 'a', image: 'alpine', securityContext: structuredClone(HARDENED) }, 'not a container'],
          }),
          delete t.container
        ),
      ),
      podCase(
        'a container-level security context alone asks for a hardened pod',
        "Argo's wait container needs",
        (t) => ((t.container.securityContext = { ...HARDENED, ...RESTRICTED_POD }), delete t.securityContext, delete t.podSpecPatch),
        (t) => (
          (t.container.securityContext = { ...HARDENED, ...RESTRICTED_POD }),
          delete t.securityContext,
          (t.podSpecPatch = JSON.stringify({
            initContainers: [{ name: 'init', securityContext: { ...HARDENED, ...RESTRICTED_POD } }],
            containers: [{ name: 'wait', securityContext: { ...HARDENED, ...RESTRICTED_POD } }],
          }))
        ),
      ),
      podCase(
        'an empty container security context still counts as asking',
        'the container container needs allowPrivilegeEscalation: false',
        (t) => ((t.container.securityContext = {}), delete t.securityContext, delete t.podSpecPatch),
        (t) => (delete t.container.securityContext, delete t.securityContext, delete t.podSpecPatch),
      ),
      podCase(
        'a resource template runs no user container and gets hardened executors',
        'refuses its pod',
        (t) => delete t.podSpecPatch,
        (t) => ((t.resource = { action: 'get', manifest: 'kind: ConfigMap' }), delete t.container, delete t.podSpecPatch),
      ),
      podCase(
        'a suspend template has no pod',
        'refuses its pod',
        (t) => delete t.podSpecPatch,
        (t) => ((t.suspend = {}), delete t.container, delete t.podSpecPatch),
      ),
      podCase(
        "a podSpecPatch may harden the pod's security context",
        'the container container needs runAsNonRoot: true, seccompProfile.type: RuntimeDefault',
        (t) => ((t.securityContext = {}), (t.podSpecPatch = executorPatch(['init', 'wait']))),
        (t) => (
          (t.securityContext = {}),
          (t.podSpecPatch = JSON.stringify({ ...JSON.parse(executorPatch(['init', 'wait'])), securityContext: RESTRICTED_POD }))
        ),
      ),
      podCase(
        'a podSpecPatch may harden the main container',
        'the container container needs allowPrivilegeEscalation: false',
        (t) => delete t.container.securityContext,
        (t) => (
          delete t.container.securityContext,
          (t.podSpecPatch = JSON.stringify({
            initContainers: [{ name: 'init', securityContext: HARDENED }],
            containers: [
              { name: 'wait', securityContext: HARDENED },
              { name: 'main', securityContext: HARDENED },
            ],
          }))
        ),
      ),
      {
        name: "a CronWorkflow's templates under spec.workflowSpec",
        message: "Argo's init container",
        path: 'spec.workflowSpec.templates[1]',
        broken: [
          manifest('CronWorkflow', 'nightly', {
            schedules: ['@daily'],
            workflowSpec: {
              ...structuredClone(BASE_WORKFLOW),
              securityContext: RESTRICTED_POD,
              templates: [BASE_WORKFLOW.templates[0], { name: 'work', container: { image: 'a', securityContext: HARDENED } }],
            },
          }),
        ],
        fixed: [
          manifest('CronWorkflow', 'nightly', {
            schedules: ['@daily'],
            workflowSpec: {
              ...structuredClone(BASE_WORKFLOW),
              securityContext: RESTRICTED_POD,
              podSpecPatch: EXECUTOR_POD_SPEC_PATCH,
              templates: [BASE_WORKFLOW.templates[0], { name: 'work', container: { image: 'a', securityContext: HARDENED } }],
            },
          }),
        ],
      },
    ],
  },
  {
    rule: sensorDuplicateDependencySourceRule,
    cases: [
      {
        name: 'two dependencies on one event beside a NATS streaming EventBus',
        message: `dependency "pr2" listens to github/org like "pr": ${ON_NATS}; merge them into one dependency`,
        path: 'spec.dependencies[1]',
        broken: [sensor(twice), bus('default', NATS)],
        fixed: [sensor((s) => (twice(s), (s.dependencies[1].eventName = 'repo'))), bus('default', NATS)],
      },
      {
        name: 'two dependencies on one event with no EventBus in the run',
        message: `dependency "pr2" listens to github/org like "pr": ${MAYBE_NATS}; merge them into one dependency, or use JetStream`,
        path: 'spec.dependencies[1]',
        broken: [sensor(twice)],
        fixed: [sensor((s) => (twice(s), (s.dependencies[1].eventSourceName = 'gitlab')))],
      },
      {
        name: 'JetStream allows it',
        message: ON_NATS,
        broken: [sensor(twice), bus('default', NATS)],
        fixed: [sensor(twice), bus('default', JETSTREAM)],
      },
      {
        name: 'exotic JetStream allows it',
        message: MAYBE_NATS,
        broken: [sensor(twice), bus('default', {})],
        fixed: [sensor(twice), bus('default', { jetstreamExotic: { url: 'nats://js' } })],
      },
      {
        name: 'Kafka allows it',
        message: MAYBE_NATS,
        broken: [sensor(twice), bus('other', JETSTREAM)],
        fixed: [sensor(twice), bus('default', { kafka: { url: 'kafka:9092' } })],
      },
      {
        name: "the Sensor's eventBusName picks the bus",
        message: ON_NATS,
        broken: [sensor((s) => (twice(s), (s.eventBusName = 'stan'))), bus('default', JETSTREAM), bus('stan', NATS)],
        fixed: [sensor((s) => (twice(s), (s.eventBusName = 'js'))), bus('stan', NATS), bus('js', JETSTREAM)],
      },
      {
        name: 'an empty eventBusName is the default bus',
        message: ON_NATS,
        broken: [sensor((s) => (twice(s), (s.eventBusName = ''))), bus('default', NATS), bus('js', JETSTREAM)],
        fixed: [sensor((s) => (twice(s), (s.eventBusName = ''))), bus('default', JETSTREAM), bus('stan', NATS)],
      },
      {
        name: "a bus in another namespace is not the Sensor's",
        message: ON_NATS,
        broken: [sensor(twice), bus('default', JETSTREAM, 'events'), bus('default', NATS)],
        fixed: [sensor(twice), bus('default', NATS, 'events'), bus('default', JETSTREAM)],
      },
      {
        name: 'a Sensor with no namespace may use a bus in any',
        message: ON_NATS,
        broken: [sensor(twice, {}), bus('default', NATS, 'events')],
        fixed: [sensor(twice, {}), bus('default', JETSTREAM, 'events')],
      },
      {
        name: 'an eventBusName that is not a string means the default bus',
        message: ON_NATS,
        broken: [sensor((s) => (twice(s), (s.eventBusName = 7))), bus('default', NATS)],
        fixed: [sensor((s) => (twice(s), (s.eventBusName = 7))), bus('default', JETSTREAM)],
      },
      {
        name: "a bus with no namespace may be the Sensor's",
        message: ON_NATS,
        broken: [sensor(twice), manifest('EventBus', 'default', NATS)],
        fixed: [sensor(twice), manifest('EventBus', 'default', JETSTREAM)],
      },
      {
        name: 'a third dependency on the same event is named too',
        message: 'dependency "pr3" listens to github/org like "pr"',
        path: 'spec.dependencies[2]',
        broken: [sensor((s) => (twice(s), s.dependencies.push({ ...structuredClone(s.dependencies[0]), name: 'pr3' })))],
        fixed: [
          sensor((s) => (twice(s), s.dependencies.push({ ...structuredClone(s.dependencies[0]), name: 'pr3' }))),
          bus('default', JETSTREAM),
        ],
      },
      {
        name: 'source and event are not run together',
        message: MAYBE_NATS,
        broken: [sensor(twice)],
        fixed: [
          sensor(
            (s) => (
              twice(s),
              Object.assign(s.dependencies[0], { eventSourceName: 'ab', eventName: 'c' }),
              Object.assign(s.dependencies[1], { eventSourceName: 'a', eventName: 'bc' })
            ),
          ),
        ],
      },
      {
        name: "a dependency without names is another rule's finding",
        message: MAYBE_NATS,
        broken: [sensor(twice)],
        fixed: [sensor((s) => (twice(s), delete s.dependencies[0].eventName, delete s.dependencies[1].eventName))],
      },
      {
        name: "a dependency without an EventSource name is another rule's finding",
        message: MAYBE_NATS,
        broken: [sensor(twice)],
        fixed: [sensor((s) => (twice(s), delete s.dependencies[0].eventSourceName, delete s.dependencies[1].eventSourceName))],
      },
      {
        name: 'only an EventBus is the bus (an EventSource named alike with a NATS event is not)',
        message: ON_NATS,
        broken: [sensor(twice), bus('default', NATS)],
        fixed: [
          sensor(twice),
          manifest('EventSource', 'default', { nats: { orders: { url: 'nats://nats:4222', subject: 'orders' } } }, { namespace: 'argo' }),
          bus('default', JETSTREAM),
        ],
      },
    ],
  },
  {
    rule: sensorTriggerAtLeastOnceRule,
    cases: [
      pair(
        'a retryStrategy without atLeastOnce',
        'trigger "resume" has a retryStrategy but no atLeastOnce: true, so it is never retried and a failure loses the event',
        sensor,
        retried,
        (s) => (retried(s), (s.triggers[0].atLeastOnce = true)),
        'spec.triggers[0].atLeastOnce',
      ),
      pair(
        'a retryStrategy with atLeastOnce: false',
        'is never retried',
        sensor,
        (s) => (retried(s), (s.triggers[0].atLeastOnce = false)),
        (s) => (s.triggers[0].atLeastOnce = false),
      ),
      pair(
        'atLeastOnce as the string "true"',
        'is never retried',
        sensor,
        (s) => (retried(s), (s.triggers[0].atLeastOnce = 'true')),
        (s) => (retried(s), (s.triggers[0].atLeastOnce = true)),
      ),
      pair(
        'the second trigger is named',
        'trigger "notify"',
        sensor,
        (s) => s.triggers.push({ template: { name: 'notify', log: {} }, retryStrategy: { steps: 2 } }),
        (s) => s.triggers.push({ template: { name: 'notify', log: {} }, retryStrategy: null }),
        'spec.triggers[1].atLeastOnce',
      ),
    ],
  },
  {
    rule: eventsPodSecurityRule,
    cases: [
      pair(
        'a Sensor without spec.template',
        'the Sensor pod is refused where the restricted Pod Security Standard is enforced: set runAsNonRoot: true (pod or container), seccompProfile.type: RuntimeDefault (pod or container), container.securityContext.allowPrivilegeEscalation: false, container.securityContext.capabilities.drop: [ALL] under spec.template',
        sensor,
        () => {},
        podTemplate(() => {}),
        'spec.template',
      ),
      pair(
        'an EventSource without security contexts',
        'the EventSource pod is refused',
        eventSource,
        (s) => (s.template = { serviceAccountName: 'events' }),
        podTemplate(() => {}),
        'spec.template.securityContext',
      ),
      pair(
        'runAsNonRoot missing',
        'set runAsNonRoot: true (pod or container) under',
        sensor,
        podTemplate((t) => delete t.securityContext.runAsNonRoot),
        podTemplate((t) => (delete t.securityContext.runAsNonRoot, (t.container.securityContext.runAsNonRoot = true))),
        'spec.template.securityContext.runAsNonRoot',
      ),
      pair(
        "a container's runAsNonRoot: false overrides the pod's",
        'runAsNonRoot: true',
        sensor,
        podTemplate((t) => (t.container.securityContext.runAsNonRoot = false)),
        podTemplate((t) => (t.container.securityContext.runAsNonRoot = true)),
        'spec.template.securityContext.runAsNonRoot',
      ),
      pair(
        'an Unconfined seccomp profile',
        'set seccompProfile.type: RuntimeDefault (pod or container) under',
        sensor,
        podTemplate((t) => (t.securityContext.seccompProfile = { type: 'Unconfined' })),
        podTemplate((t) => (delete t.securityContext.seccompProfile, (t.container.securityContext.seccompProfile = { type: 'Localhost' }))),
        'spec.template.securityContext.seccompProfile',
      ),
      pair(
        "a container's seccomp profile overrides the pod's",
        'seccompProfile.type: RuntimeDefault',
        sensor,
        podTemplate((t) => (t.container.securityContext.seccompProfile = { type: 'Unconfined' })),
        podTemplate((t) => (t.container.securityContext.seccompProfile = { type: 'Localhost' })),
        'spec.template.securityContext.seccompProfile',
      ),
      pair(
        'a seccomp profile that is not an object',
        'seccompProfile.type',
        sensor,
        podTemplate((t) => (t.securityContext.seccompProfile = 'RuntimeDefault')),
        podTemplate(() => {}),
      ),
      pair(
        'privilege escalation allowed',
        'set container.securityContext.allowPrivilegeEscalation: false under',
        sensor,
        podTemplate((t) => (t.container.securityContext.allowPrivilegeEscalation = true)),
        podTemplate(() => {}),
        'spec.template.container.securityContext.allowPrivilegeEscalation',
      ),
      pair(
        'capabilities kept',
        'set container.securityContext.capabilities.drop: [ALL] under',
        sensor,
        podTemplate((t) => (t.container.securityContext.capabilities = { add: ['NET_ADMIN'] })),
        podTemplate((t) => (t.container.securityContext.capabilities = { drop: ['NET_RAW', 'ALL'] })),
        'spec.template.container.securityContext.capabilities.drop',
      ),
      pair(
        'a privileged container',
        'set container.securityContext.privileged: false under',
        sensor,
        podTemplate((t) => (t.container.securityContext.privileged = true)),
        podTemplate((t) => (t.container.securityContext.privileged = false)),
        'spec.template.container.securityContext.privileged',
      ),
      pair(
        'a container without a security context',
        'allowPrivilegeEscalation: false',
        sensor,
        podTemplate((t) => (t.container = { resources: {} })),
        podTemplate(() => {}),
      ),
      pair(
        'a spec.template that is not an object',
        'set runAsNonRoot',
        sensor,
        (s) => (s.template = 'restricted'),
        podTemplate(() => {}),
      ),
    ],
  },
];
