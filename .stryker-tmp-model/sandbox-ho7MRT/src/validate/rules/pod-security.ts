/**
 * Pods that a namespace enforcing the `restricted` Pod Security level refuses. Every container must set
 * allowPrivilegeEscalation false and drop ALL capabilities; runAsNonRoot true and a RuntimeDefault or
 * Localhost seccomp profile may come from the pod. Argo adds its own containers to a container, script or
 * containerSet pod (`init`, `wait`) and gives them only the controller's `executor.securityContext`, empty by
 * default (argo-workflows `workflow/controller/workflowpod.go`, `newExecContainer`; resource templates get
 * `common.MinimalCtrSC()` instead). The pod's security context is the template's, else the workflow's
 * (`workflowpod.go`: `tmpl.SecurityContext` over `wfSpec.SecurityContext`); the workflow's and the template's
 * podSpecPatch are merged into the pod last (`processPodSpecPatch`, strategic merge by container name), so a
 * patch may harden the pod, the `main` container or the executor containers.
 * The rule looks at pods that set a security context (on the pod, the workflow or a container): those are
 * meant to run hardened, and the executor containers are what such a pod easily misses. A warning: a cluster
 * whose controller sets `executor.securityContext` hardens the executor containers itself.
 */
// @ts-nocheck

import { parse } from 'yaml';
import { yamlBoundsProblem } from '../../io/yaml-bounds';
import type { LintRule, Violation } from '../finding';
import { canonicalJsonValue } from './json-as-yaml';
import { hasPlaceholder, isRecord, listOf, pathOf, templatesOf, workflowSpecOf, WORKFLOW_KINDS, type Json } from './argo-spec';

/** The template types whose pods run the user's containers beside Argo's `init` and `wait`. */
const EXECUTOR_POD_TYPES = ['container', 'script', 'containerSet'] as const;
const EXECUTOR_CONTAINERS: readonly { readonly list: 'initContainers' | 'containers'; readonly name: string }[] = [
  { list: 'initContainers', name: 'init' },
  { list: 'containers', name: 'wait' },
];
const SECCOMP_TYPES = ['RuntimeDefault', 'Localhost'];
/** The name Argo gives the user's container in a container or script pod (a containerSet keeps its names). */
const MAIN_CONTAINER = 'main';

const record = (value: unknown): Json => (isRecord(value) ? value : {});

/** What a container lacks under `restricted`, given the pod's security context. */
export function restrictedGaps(container: Json, pod: Json): string[] {
  const own = record(container.securityContext);
  const gaps: string[] = [];
  if (own.allowPrivilegeEscalation !== false) gaps.push('allowPrivilegeEscalation: false');
  if (!listOf(record(own.capabilities).drop).includes('ALL')) gaps.push('capabilities.drop: [ALL]');
  if (own.privileged === true) gaps.push('privileged unset');
  if ((own.runAsNonRoot ?? pod.runAsNonRoot) !== true) gaps.push('runAsNonRoot: true');
  if (!SECCOMP_TYPES.includes(record(own.seccompProfile ?? pod.seccompProfile).type)) gaps.push('seccompProfile.type: RuntimeDefault');
  return gaps;
}

/** The patches the controller applies, parsed; `undefined` when one holds a placeholder (unknown until run time). */
function patchesOf(texts: readonly unknown[]): Json[] | undefined {
  const patches: Json[] = [];
  for (const text of texts) {
    if (text === undefined) continue;
    if (typeof text !== 'string' || hasPlaceholder(text)) return undefined;
    const patch = parsedPatch(text);
    if (patch === undefined) return undefined;
    patches.push(patch);
  }
  return patches;
}

/** Every template of a platform carries the same few patches: each is read once per process (and never changed). */
const parsedPatches = new Map<string, Json | undefined>();

function parsedPatch(text: string): Json | undefined {
  if (parsedPatches.has(text)) return parsedPatches.get(text);
  let patch: Json | undefined;
  try {
    // A patch inside a manifest is input like any other: measured before it is parsed.
    patch = yamlBoundsProblem(text) === undefined ? record(canonicalJsonValue(text)?.value ?? parse(text)) : undefined;
  } catch {
    patch = undefined;
  }
  // Bounded like resource-manifest.ts: a long-running process checking many inputs stays small.
  if (parsedPatches.size >= 256) parsedPatches.clear();
  parsedPatches.set(text, patch);
  return patch;
}

/** A container as the patches leave it (`base` is the template's): only its security context matters here. */
function patchedContainer(patches: readonly Json[], list: 'initContainers' | 'containers', name: string, base: Json = {}): Json {
  let securityContext: Json | undefined = isRecord(base.securityContext) ? base.securityContext : undefined;
  for (const patch of patches) {
    const entry = listOf(patch[list]).find((container) => isRecord(container) && container.name === name);
    if (isRecord(entry) && isRecord(entry.securityContext)) securityContext = { ...securityContext, ...entry.securityContext };
  }
  return securityContext ? { securityContext } : {};
}

/** The pod's security context as the patches leave it. */
function patchedPod(patches: readonly Json[], pod: Json): Json {
  return patches.reduce((context, patch) => (isRecord(patch.securityContext) ? { ...context, ...patch.securityContext } : context), pod);
}

export const podSecurityRestrictedRule: LintRule = {
  id: 'pod-security-restricted',
  severity: 'warning',
  description:
    "container, script and containerSet pods, Argo's init and wait containers included, are admitted under the restricted Pod Security level",
  kinds: WORKFLOW_KINDS,
  check: (target) => {
    const workflow = workflowSpecOf(target);
    if (!workflow) return [];
    return templatesOf(workflow).flatMap(({ template, name, at }): Violation[] => {
      const type = EXECUTOR_POD_TYPES.find((candidate) => isRecord(template[candidate]));
      if (!type) return [];
      const podContext = template.securityContext ?? workflow.spec.securityContext;
      const main = type === 'containerSet' ? listOf(template.containerSet.containers).filter(isRecord) : [template[type] as Json];
      if (podContext === undefined && !main.some((container) => container.securityContext !== undefined)) return [];
      const patches = patchesOf([workflow.spec.podSpecPatch, template.podSpecPatch]);
      const pod = patchedPod(patches ?? [], record(podContext));
      const problems: string[] = [];
      main.forEach((container, index) => {
        const gaps = restrictedGaps(
          patchedContainer(patches ?? [], 'containers', type === 'containerSet' ? container.name : MAIN_CONTAINER, container),
          pod,
        );
        if (gaps.length > 0)
          problems.push(
            `${type === 'containerSet' ? `container ${container.name ?? index}` : `the ${type} container`} needs ${gaps.join(', ')}`,
          );
      });
      if (patches !== undefined) {
        for (const executor of EXECUTOR_CONTAINERS) {
          const gaps = restrictedGaps(patchedContainer(patches, executor.list, executor.name), pod);
          if (gaps.length > 0)
            problems.push(
              `Argo's ${executor.name} container needs ${gaps.join(', ')} (a podSpecPatch naming it in ${executor.list}, or the controller's executor.securityContext)`,
            );
        }
      }
      if (problems.length === 0) return [];
      return [
        {
          path: pathOf(at),
          message: `template "${name}": a namespace enforcing the restricted Pod Security level refuses its pod: ${problems.join('; ')}`,
        },
      ];
    });
  },
};
