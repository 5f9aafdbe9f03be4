/**
 * Container image references. An image a play runs must be pinned: a moving tag (`latest`, or none at all,
 * which Kubernetes reads as `latest`) changes under a running play, so a resumed stage would run other code.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck


const PINNED_IMAGE = /^[a-z0-9]([-a-z0-9._/:]*[a-z0-9])?(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}|@sha256:[a-f0-9]{64})$/;

/** Why `image` is not pinned by tag or digest, or `undefined` when it is. */
export function pinnedImageProblem(image: string): string | undefined {
  if (!PINNED_IMAGE.test(image)) return 'expected an image pinned by tag or digest, e.g. ghcr.io/org/tool:v1.2.3';
  if (/:latest$/.test(image)) return 'the tag "latest" is not pinned: name a version';
  return undefined;
}
