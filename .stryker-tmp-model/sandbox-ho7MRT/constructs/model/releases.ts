/**
 * Ready-made release conditions for gates, so that a TypeScript stage machine reads like the flow it
 * describes: `Releases.labeled('ready-for-security', { by: ['cipher'] })`. Each returns a plain release
 * config, the same shape `agent-play.yaml` uses under `release:`.
 *
 * Pure: no cdk8s, no I/O.
 */
// @ts-nocheck

import type { ReleaseConfig } from './config-shapes';

/** The label a quality or testing agent puts on a pull request that needs another implementation round. */
export const NEEDS_FIXES_LABEL = 'needs-fixes';

/** Who must send a releasing event. */
export interface ReleaseOptions {
  /** Agents whose bot must be the sender or reviewer. @default - anyone */
  readonly by?: readonly string[];
}

function release(fields: Omit<ReleaseConfig, 'by'>, options: ReleaseOptions): ReleaseConfig {
  return { ...fields, by: [...(options.by ?? [])] };
}

/**
 * Ready-made releasing events for gates (a pull request opened, a review approved, a label added, a pull
 * request merged), and the conditions of a gate's `remediate` (changes requested, `needs-fixes`).
 */
export const Releases = {
  /** A pull request is opened, reopened or marked ready for review. */
  pullRequestOpened(options: ReleaseOptions = {}): ReleaseConfig {
    return release({ event: 'pull_request', actions: ['opened', 'reopened', 'ready_for_review'] }, options);
  },
  /** A label is put on the pull request, e.g. `ready-for-security`. */
  labeled(label: string, options: ReleaseOptions = {}): ReleaseConfig {
    return release({ event: 'pull_request', actions: ['labeled'], label }, options);
  },
  /** A review with the given state (approved by default) is submitted. */
  reviewed(options: ReleaseOptions & { readonly state?: ReleaseConfig['reviewState'] } = {}): ReleaseConfig {
    return release({ event: 'pull_request_review', actions: ['submitted'], reviewState: options.state ?? 'approved' }, options);
  },
  /** The pull request is merged into the repository's branch. */
  merged(options: ReleaseOptions = {}): ReleaseConfig {
    return release({ event: 'pull_request', actions: ['closed'], merged: true }, options);
  },
  /** For a gate's `remediate`: a review requesting changes is submitted, e.g. `Releases.changesRequested({ by: ['cleo'] })`. */
  changesRequested(options: ReleaseOptions = {}): ReleaseConfig {
    return release({ event: 'pull_request_review', actions: ['submitted'], reviewState: 'changes_requested' }, options);
  },
  /** For a gate's `remediate`: the `needs-fixes` label is put on the pull request. */
  needsFixes(options: ReleaseOptions = {}): ReleaseConfig {
    return release({ event: 'pull_request', actions: ['labeled'], label: NEEDS_FIXES_LABEL }, options);
  },
} as const;
