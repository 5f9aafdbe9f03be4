/** Which cluster a command talks to, as its options said; all absent means "the kubeconfig's defaults". */
// @ts-nocheck

export interface ClusterTarget {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly namespace?: string;
  /** Milliseconds a request may take. */
  readonly timeoutMs?: number;
}
