/**
 * What went wrong talking to the API server, as one line that names what was being done, where, and what
 * to do about it: the server's status code and message (control characters removed: the text comes from
 * the network), or the connection's failure.
 */
// @ts-nocheck

import { ProblemsError } from '../../constructs/model/problems-error';

/** Thrown when the cluster cannot be read or written; reported as one line, exit 2. */
export class ClusterError extends ProblemsError {
  public readonly status: number | undefined;
  public constructor(message: string, status?: number) {
    super([message]);
    this.name = 'ClusterError';
    this.status = status;
  }
}

/** Text from the network, printable on one line: no control characters (terminal escapes), bounded. */
export function printable(text: string, limit = 300): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit)}...` : flat;
}

/** The `message` of a Kubernetes Status body, when the body is one. */
function statusMessage(body: unknown): string | undefined {
  let value = body;
  if (typeof value === 'string') {
    const text = value;
    try {
      value = JSON.parse(text);
    } catch {
      return text.trim() === '' ? undefined : text;
    }
  }
  const message = (value as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : undefined;
}

const HINTS: Readonly<Record<number, string>> = {
  401: 'the credentials of the kubeconfig were refused; log in again or pass --kubeconfig/--context',
  403: 'forbidden; ask for RBAC that allows it, or pass --namespace where you may',
};

/**
 * @param error what the client threw
 * @param doing what was being done, e.g. `listing the progress ConfigMaps in namespace "argo"`
 * @param server the API server's address
 * @param notFound what a 404 means for this request
 */
export function clusterFailure(error: unknown, doing: string, server: string, notFound?: string): ClusterError {
  const status = (error as { code?: unknown }).code;
  if (typeof status === 'number' && status >= 100 && status < 600) {
    // The client keeps the Status body of the codes the API declares; for the others (401) its message has
    // the status line's text after "Message:".
    const text = error instanceof Error ? error.message : '';
    const line = /^Message: (.+)$/m.exec(text)?.[1];
    const message = statusMessage((error as { body?: unknown }).body) ?? (line === 'Unknown API Status Code!' ? undefined : line);
    const hint = status === 404 && notFound !== undefined ? notFound : HINTS[status];
    const parts = [`${doing} at ${server}: the API server answered ${status}`, message && printable(message), hint].filter(Boolean);
    return new ClusterError(parts.join('; '), status);
  }
  const name = (error as { name?: unknown }).name;
  if (name === 'AbortError' || name === 'TimeoutError') return new ClusterError(`${doing} at ${server}: no answer in time (timed out)`);
  const code = (error as { code?: unknown; cause?: { code?: unknown } }).cause?.code ?? (error as { code?: unknown }).code;
  const reason = typeof code === 'string' ? code : printable(error instanceof Error ? error.message : String(error));
  return new ClusterError(`${doing} at ${server}: cannot reach the API server (${reason}); check the kubeconfig's server and your network`);
}
