/**
 * Sizes the API server and ArgoCD refuse, which no schema checks:
 *
 * - a ConfigMap's or Secret's data over 1 MiB (the values summed, keys not counted; a Secret's `data` and a
 *   ConfigMap's `binaryData` counted decoded): the API server refuses it (Kubernetes
 *   `pkg/apis/core/validation/validation.go`, ValidateConfigMap and ValidateSecret sum `len(value)` against
 *   MaxSecretSize);
 * - any object whose JSON is over 256 KiB: ArgoCD's default, client-side apply, stores the whole object in the
 *   `kubectl.kubernetes.io/last-applied-configuration` annotation, and annotations together may hold at most
 *   256 KiB (apimachinery `TotalAnnotationSizeLimitB`); the sync fails unless the object is applied server
 *   side (`argocd.argoproj.io/sync-options: ServerSideApply=true`) or split. A warning: the object itself is
 *   legal.
 */
// @ts-nocheck

import { ARGOCD_SYNC_OPTIONS_ANNOTATION } from '../../../constructs/model/labels';
import { MAX_CLIENT_SIDE_APPLY_BYTES, MAX_DATA_BYTES } from '../../../constructs/model/object-limits';
import type { LintRule, ManifestObject, Violation } from '../finding';
import { isRecord } from './argo-spec';

/** What a rule lists in `kinds` to check objects of every kind. */
export const ANY_KIND = '*';

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Bytes of the values of one data map; `decode` turns a value into the bytes it stands for (base64 for a Secret's data). */
function mapBytes(map: unknown, decode: (value: string) => number): number {
  if (!isRecord(map)) return 0;
  return Object.values(map).reduce<number>((sum, value) => sum + (typeof value === 'string' ? decode(value) : 0), 0);
}

function dataBytes(target: ManifestObject): number | undefined {
  const object = target.object;
  if (target.kind === 'ConfigMap')
    return mapBytes(object.data, utf8Bytes) + mapBytes(object.binaryData, (value) => Buffer.from(value, 'base64').length);
  if (target.kind === 'Secret')
    return mapBytes(object.data, (value) => Buffer.from(value, 'base64').length) + mapBytes(object.stringData, utf8Bytes);
  return undefined;
}

const appliedServerSide = (object: Record<string, any>): boolean => {
  const options = object.metadata?.annotations?.[ARGOCD_SYNC_OPTIONS_ANNOTATION];
  return typeof options === 'string' && /(^|,)\s*ServerSideApply=true\s*(,|$)/.test(options);
};

export const objectSizeRule: LintRule = {
  id: 'object-size',
  severity: 'error',
  description: 'a ConfigMap or Secret holds at most 1 MiB of data (error); an object over 256 KiB needs ArgoCD server-side apply (warning)',
  kinds: [ANY_KIND],
  check: (target) => {
    const data = dataBytes(target);
    if (data !== undefined && data > MAX_DATA_BYTES) {
      const field = target.kind === 'Secret' ? 'data and stringData' : 'data and binaryData';
      return [
        {
          path: '',
          message: `${target.kind} ${field} hold ${kib(data)}, more than the 1024 KiB the API server accepts: split it into several ${target.kind}s or move the content elsewhere`,
        },
      ];
    }
    const size = utf8Bytes(JSON.stringify(target.object));
    if (size <= MAX_CLIENT_SIDE_APPLY_BYTES || appliedServerSide(target.object)) return [];
    const warning: Violation = {
      path: '',
      severity: 'warning',
      message: `the object is ${kib(size)}, over the 256 KiB that ArgoCD's client-side apply can store in the last-applied-configuration annotation: sync it with ${ARGOCD_SYNC_OPTIONS_ANNOTATION}: ServerSideApply=true, or split it`,
    };
    return [warning];
  },
};
