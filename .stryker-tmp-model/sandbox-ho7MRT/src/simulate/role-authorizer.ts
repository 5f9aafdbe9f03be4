/**
 * The grants of a service account, read from the synthesized Roles and RoleBindings, as an authorizer of the
 * in-memory API: a runtime step the simulator runs is answered 403 for any call its Workflow's service account
 * may not make, as the API server would answer it. RBAC's rules: a rule matches its API group, resource and
 * verb; with `resourceNames`, only those names (and never a call without a name: list, create).
 */
// @ts-nocheck

import { apiGroupOf } from '../../constructs/runtime/kube-api';
import type { ApiCall, Authorizer } from './memory-api';

interface PolicyRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly verbs?: readonly string[];
  readonly resourceNames?: readonly string[];
}

function ruleAllows(rule: PolicyRule, call: ApiCall): boolean {
  if (!(rule.apiGroups ?? []).includes(apiGroupOf(call.resource))) return false;
  if (!(rule.resources ?? []).includes(call.resource.plural)) return false;
  if (!(rule.verbs ?? []).includes(call.verb)) return false;
  if (rule.resourceNames === undefined || rule.resourceNames.length === 0) return true;
  return call.verb !== 'create' && call.name !== undefined && rule.resourceNames.includes(call.name);
}

/** The rules bound to a service account in a namespace, from the objects of a synthesis. */
export function rulesOf(objects: readonly Record<string, any>[], serviceAccount: string, namespace: string): PolicyRule[] {
  const roles = new Map<string, PolicyRule[]>();
  for (const object of objects)
    if (object.kind === 'Role' && (object.metadata?.namespace ?? namespace) === namespace)
      roles.set(object.metadata.name, [...(roles.get(object.metadata.name) ?? []), ...(object.rules ?? [])]);
  return objects
    .filter((object) => object.kind === 'RoleBinding' && (object.metadata?.namespace ?? namespace) === namespace)
    .filter((binding) =>
      (binding.subjects ?? []).some((subject: any) => subject.kind === 'ServiceAccount' && subject.name === serviceAccount),
    )
    .filter((binding) => binding.roleRef?.kind === 'Role')
    .flatMap((binding) => roles.get(binding.roleRef.name) ?? []);
}

/** The authorizer of a service account: what its Roles allow. */
export function roleAuthorizer(objects: readonly Record<string, any>[], serviceAccount: string, namespace: string): Authorizer {
  const rules = rulesOf(objects, serviceAccount, namespace);
  return (call) => rules.some((rule) => ruleAllows(rule, call));
}
