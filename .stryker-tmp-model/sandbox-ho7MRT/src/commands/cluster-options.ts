/**
 * How a command names the cluster it reads: kubectl's options, with kubectl's defaults (the kubeconfig of
 * --kubeconfig, else $KUBECONFIG, else ~/.kube/config; its current context unless --context; that
 * context's namespace unless --namespace, else "default").
 */
// @ts-nocheck

import { durationSeconds } from '../../constructs/model/duration';
import type { ClusterTarget } from '../cluster/cluster-target';
import type { OptionSpec, ParsedOptions } from './options';

export const CLUSTER_OPTIONS: readonly OptionSpec[] = [
  { name: 'kubeconfig', value: 'FILE', complete: 'file', description: 'the kubeconfig (default: $KUBECONFIG, else ~/.kube/config)' },
  { name: 'context', value: 'NAME', description: "the kubeconfig's context (default: its current context)" },
  { name: 'namespace', short: 'n', value: 'NAME', description: "the namespace (default: the context's, else default)" },
  { name: 'request-timeout', value: 'DURATION', description: 'give up a request to the API server after this long (default: 15s)' },
];

/** A DNS-1123 label, as a namespace name must be. */
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * The target the options name, or undefined when none of them was given (the command then decides whether
 * to read a file, standard input or the cluster).
 * @throws Error with one line naming the option when a value is malformed
 */
export function clusterTarget(options: ParsedOptions): ClusterTarget | undefined {
  const kubeconfig = options.string('kubeconfig');
  const context = options.string('context');
  const namespace = options.string('namespace');
  const timeout = options.string('request-timeout');
  if (kubeconfig === '') throw new TypeError('--kubeconfig: expected a file name, got ""');
  if (context === '') throw new TypeError('--context: expected a context name, got ""');
  if (namespace !== undefined && !NAMESPACE.test(namespace))
    throw new TypeError(
      `--namespace: expected a namespace name (lower-case letters, digits and -, at most 63), got ${JSON.stringify(namespace)}`,
    );
  let timeoutMs: number | undefined;
  if (timeout !== undefined) {
    try {
      timeoutMs = durationSeconds(timeout) * 1000;
    } catch (error) {
      throw new TypeError(`--request-timeout: ${(error as Error).message}`);
    }
    if (timeoutMs <= 0)
      throw new TypeError(`--request-timeout: expected a duration above zero such as 30s, got ${JSON.stringify(timeout)}`);
  }
  if (kubeconfig === undefined && context === undefined && namespace === undefined && timeoutMs === undefined) return undefined;
  return { kubeconfig, context, namespace, timeoutMs };
}
