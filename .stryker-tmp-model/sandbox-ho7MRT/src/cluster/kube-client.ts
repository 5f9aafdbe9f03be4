/**
 * The official Kubernetes client (@kubernetes/client-node), loaded only by the commands that talk to a
 * cluster. It is an ES module of some hundred files: the compiled command line carries it as a bundle of
 * its own (build/kube-client.cjs, see scripts/build.mjs), required on first use, so that the commands that
 * never reach a cluster do not read it.
 */
// @ts-nocheck

export type KubeClient = typeof import('@kubernetes/client-node');

let loaded: Promise<KubeClient> | undefined;

export function loadKubeClient(): Promise<KubeClient> {
  loaded ??= import('@kubernetes/client-node');
  return loaded;
}
