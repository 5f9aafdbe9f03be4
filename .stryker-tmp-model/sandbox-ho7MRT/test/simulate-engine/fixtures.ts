/**
 * Event data shaped as Argo Events' GitHub EventSource publishes it (`{headers, body, metadata}`, with
 * `X-GitHub-Event` and `X-GitHub-Delivery` added to the body), around a real `pull_request` payload from
 * @octokit/webhooks-examples.
 */
// @ts-nocheck

import { createRequire } from 'node:module';

const examples = createRequire(__filename)('@octokit/webhooks-examples') as { name: string; examples: Record<string, any>[] }[];

export interface PullRequestFixture {
  readonly labels?: readonly string[];
  readonly headRef?: string;
}

export function pullRequestEventData(shape: PullRequestFixture = {}): Record<string, any> {
  const payload = structuredClone(
    examples.find((entry) => entry.name === 'pull_request')!.examples.find((example) => example.action === 'opened')!,
  );
  payload.pull_request.labels = (shape.labels ?? []).map((name, index) => ({ id: 5000 + index, name, color: 'ededed', default: false }));
  payload.pull_request.head.ref = shape.headRef ?? 'feature/task-5-implementation';
  payload['X-GitHub-Event'] = 'pull_request';
  payload['X-GitHub-Delivery'] = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
  return {
    headers: { 'X-Github-Event': ['pull_request'], 'Content-Type': ['application/json'] },
    body: payload,
  };
}

/** The labels of the brief: a task label and a QA label. */
export const TASK_LABELS = ['task-5', 'ready-for-qa'] as const;
