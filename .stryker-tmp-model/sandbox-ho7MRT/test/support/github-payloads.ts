/**
 * Real GitHub webhook payloads (@octokit/webhooks-examples), adjusted to each case: the repository, the
 * pull request's labels and branches, the review, the label, the sender. Everything else stays as GitHub
 * sends it.
 */
// @ts-nocheck

import { createRequire } from 'node:module';

/** The package's examples, loaded as plain JSON (its typings need a package we do not use). */
const examples = createRequire(__filename)('@octokit/webhooks-examples') as { name: string; examples: Record<string, any>[] }[];

type Payload = Record<string, any>;

function example(event: string, pick: (candidate: Payload) => boolean): Payload {
  const found = examples.find((entry) => entry.name === event)?.examples.find(pick);
  if (!found) throw new Error(`@octokit/webhooks-examples has no ${event} example for this case`);
  return structuredClone(found);
}

export interface PullRequestShape {
  /** `owner/name` of the base repository. */
  readonly repository: string;
  readonly number?: number;
  /** Label names on the pull request. */
  readonly labels?: readonly string[];
  /** The head branch. @default feature/task-{first task label}-implementation, else `changes` */
  readonly headRef?: string;
  /** The head repository; another one is a fork. @default the base repository */
  readonly headRepository?: string;
  readonly baseRef?: string;
  readonly sender?: string;
}

function shapePullRequest(payload: Payload, shape: PullRequestShape): Payload {
  const [owner, name] = shape.repository.split('/');
  const number = shape.number ?? 7;
  payload.repository = { ...payload.repository, full_name: shape.repository, name, owner: { ...payload.repository.owner, login: owner } };
  const pullRequest = payload.pull_request;
  pullRequest.number = number;
  pullRequest.html_url = `https://github.com/${shape.repository}/pull/${number}`;
  pullRequest.labels = (shape.labels ?? []).map((label, index) => ({ id: 1000 + index, name: label, color: 'ededed', default: false }));
  pullRequest.head = {
    ...pullRequest.head,
    ref: shape.headRef ?? 'changes',
    repo: { ...pullRequest.head.repo, full_name: shape.headRepository ?? shape.repository },
  };
  pullRequest.base = { ...pullRequest.base, ref: shape.baseRef ?? 'main', repo: { ...pullRequest.base.repo, full_name: shape.repository } };
  if (payload.number !== undefined) payload.number = number;
  if (shape.sender) payload.sender = { ...payload.sender, login: shape.sender };
  return payload;
}

/** A `pull_request` delivery with `action` (opened, reopened, closed, ...). */
export function pullRequestEvent(action: string, shape: PullRequestShape, options: { merged?: boolean } = {}): Payload {
  const payload = shapePullRequest(
    example('pull_request', (candidate) => candidate.action === action),
    shape,
  );
  if (options.merged !== undefined) payload.pull_request.merged = options.merged;
  return payload;
}

/** A `pull_request` `labeled` delivery adding `label`, sent by `sender`. */
export function labeledEvent(label: string, shape: PullRequestShape & { readonly sender: string }): Payload {
  const payload = shapePullRequest(
    example('pull_request', (candidate) => candidate.action === 'labeled'),
    shape,
  );
  payload.label = { ...payload.label, name: label };
  return payload;
}

/** A `pull_request_review` `submitted` delivery with `state`, by `reviewer`. */
export function reviewEvent(state: 'approved' | 'commented' | 'changes_requested', reviewer: string, shape: PullRequestShape): Payload {
  const payload = shapePullRequest(
    example('pull_request_review', (candidate) => candidate.action === 'submitted'),
    shape,
  );
  payload.review = { ...payload.review, state, user: { ...payload.review.user, login: reviewer } };
  return payload;
}
